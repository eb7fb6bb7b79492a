// Renders every corpus .muse and compares it structurally with the reference HTML.
import { describe, it, expect } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { museToHtml } from './index.ts';
import { compareHtml } from './testing/structure.ts';

// repo root is three levels up from packages/muse/src; the corpus lives in ../shared
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const corpus = join(repoRoot, '../shared/fixtures/muse');
const present = existsSync(corpus);

// Raise this when more files pass; a drop is a regression.
const MIN_PASS = 75;

describe.skipIf(!present)('conformance with the reference HTML', () => {
  it('matches the corpus structurally', () => {
    const names = readdirSync(corpus)
      .filter((f) => f.endsWith('.muse'))
      .map((f) => f.slice(0, -5))
      .sort();
    const failures: string[] = [];
    for (const name of names) {
      const { html } = museToHtml(readFileSync(join(corpus, name + '.muse'), 'utf8'));
      const r = compareHtml(html, readFileSync(join(corpus, name + '.exp.html'), 'utf8'));
      if (!r.equal) failures.push(`${name}: ${r.diff}`);
    }
    const pass = names.length - failures.length;
    console.log(`muse conformance: ${pass}/${names.length} files match (${((100 * pass) / names.length).toFixed(1)}%)`);
    if (failures.length) console.log(failures.join('\n'));
    expect(names.length).toBeGreaterThan(0);
    expect(pass).toBeGreaterThanOrEqual(MIN_PASS);
  });
});

if (!present) console.log(`muse conformance skipped: corpus not found at ${corpus}`);
