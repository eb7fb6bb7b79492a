// The shipped systemd units (deploy/systemd/) pass `systemd-analyze verify` with no warning, and keep
// the settings docs/deploy.md promises: restart on failure, a dedicated user, a read-only system with
// only the data folder writable, no new privileges, a private /tmp, settings from an EnvironmentFile,
// logs to journald. Skipped with a notice where systemd-analyze is missing or cannot run (some containers).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../bench/lib/child-server.ts';

const UNITS = ['union-catalogue.service', 'union-catalogue-worker.service'];
const unitDir = path.join(repoRoot, 'deploy', 'systemd');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-systemd-'));

function verify(file: string): { status: number | null; out: string } {
  const r = spawnSync('systemd-analyze', ['verify', '--man=no', file], { encoding: 'utf8', cwd: tmp, timeout: 60_000 });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
}

/** Whether systemd-analyze runs here at all: a minimal valid unit must pass. */
function analyzerWorks(): string | null {
  if (spawnSync('systemd-analyze', ['--version']).status !== 0) return 'systemd-analyze not found (Debian package: systemd)';
  const probe = path.join(tmp, 'uc-probe.service');
  fs.writeFileSync(probe, '[Service]\nType=oneshot\nExecStart=/bin/true\n');
  const r = verify(probe);
  return r.status === 0 && r.out === '' ? null : `systemd-analyze verify cannot run here (${r.out.split('\n')[0] || `exit ${r.status}`})`;
}

const unavailable = analyzerWorks();
if (unavailable) console.warn(`\n[systemd] NOTICE: ${unavailable}: the unit checks are skipped. Install it with: apt-get install -y systemd\n`);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(unavailable !== null)('deploy/systemd units', () => {
  it.each(UNITS)('%s passes systemd-analyze verify without a warning', (unit) => {
    let text = fs.readFileSync(path.join(unitDir, unit), 'utf8');
    // The unit names Debian's /usr/bin/node; a machine with Node.js elsewhere checks with its own path.
    if (!fs.existsSync('/usr/bin/node')) {
      console.warn(`[systemd] /usr/bin/node is missing: ${unit} is verified with ${process.execPath}`);
      text = text.split('/usr/bin/node').join(process.execPath);
    }
    const copy = path.join(tmp, unit);
    fs.writeFileSync(copy, text);
    const r = verify(copy);
    expect(r.out).toBe('');
    expect(r.status).toBe(0);
  });

  it.each(UNITS)('%s restarts on failure, runs as its own user in a read-only system with DATA_DIR writable, and logs to journald', (unit) => {
    const text = fs.readFileSync(path.join(unitDir, unit), 'utf8');
    const values = (key: string) => [...text.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1].trim());
    expect(values('Restart')).toEqual(['on-failure']);
    expect(values('User')).toEqual(['catalogue']);
    expect(values('ProtectSystem')).toEqual(['strict']);
    expect(values('NoNewPrivileges')).toEqual(['yes']);
    expect(values('PrivateTmp')).toEqual(['yes']);
    expect(values('StandardOutput')).toEqual(['journal']);
    expect(values('EnvironmentFile')).toEqual(['/etc/union-catalogue/env']);
    // The only writable folder is the DATA_DIR the shipped environment file names.
    const env = fs.readFileSync(path.join(repoRoot, 'deploy', 'env.example'), 'utf8');
    const dataDir = /^DATA_DIR=(.*)$/m.exec(env)?.[1];
    expect(dataDir).toBeTruthy();
    expect(values('ReadWritePaths')).toEqual([dataDir]);
    expect(values('ExecStart')[0]).toMatch(/server\/dist\/main\.js (serve|worker)$/);
  });
});
