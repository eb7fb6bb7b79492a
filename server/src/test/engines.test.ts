// `npm ci` on a machine with the oldest Node the README promises prints no engine warning: every
// package in the lockfile declares engines that include the root package.json's minimum.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

describe('declared Node engines', () => {
  const minimum = semver.minVersion(readJson('package.json').engines.node)!.version;

  it('the README promises the package.json minimum', () => {
    const [major, minor] = minimum.split('.');
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).toContain(`Node.js (${major}.${minor} or newer)`);
  });

  it(`every locked package runs on Node ${minimum}`, () => {
    const lock = readJson('package-lock.json') as { packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean }> };
    const refused: string[] = [];
    for (const [where, pkg] of Object.entries(lock.packages)) {
      const range = pkg.engines && !Array.isArray(pkg.engines) ? pkg.engines.node : undefined;
      if (!range || where === '') continue;
      // Optional packages for other platforms are not installed here, so npm checks nothing of theirs.
      if (pkg.optional && !fs.existsSync(path.join(root, where))) continue;
      if (!semver.satisfies(minimum, range)) refused.push(`${where}@${pkg.version}: node ${range}`);
    }
    expect(refused).toEqual([]);
  });
});
