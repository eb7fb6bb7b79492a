// docs/deploy.md's first install, as written: the shell blocks marked `<!-- walkthrough: before-start -->`
// and `<!-- walkthrough: after-start -->` run in bash (settings file from deploy/env.example, a temporary
// DATA_DIR, the repository in place of /opt/union-catalogue), the systemd units' own ExecStart lines
// start `serve` and `worker` in between, and the library's records come from a local OAI-PMH
// repository. At the end a search finds the harvested records. The copies of the shipped files on that
// page must be the files themselves. Root-only steps (apt-get, useradd, systemctl, certbot) are not run.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, freePort, killGroup, repoRoot, tail, until } from '../bench/lib/child-server.ts';
import { dcXml, startOaiServer, type OaiTestServer } from '../server/src/harvest/test/oai-server.ts';

const LIFETIME_S = 300;
const doc = fs.readFileSync(path.join(repoRoot, 'docs', 'deploy.md'), 'utf8');

/** The fenced blocks that follow a `<!-- MARKER -->` line, with the marker's argument. */
function marked(marker: string): { arg: string; body: string }[] {
  const re = new RegExp(`<!-- ${marker}: (\\S+) -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\`\`\`\\n`, 'g');
  return [...doc.matchAll(re)].map((m) => ({ arg: m[1], body: m[2] }));
}

/** KEY=VALUE lines of a settings file as systemd reads them (comments skipped, double quotes removed). */
function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2].replace(/^"(.*)"$/, '$1');
  }
  return env;
}

describe('docs/deploy.md', () => {
  it('shows the shipped files as they are', () => {
    const shown = marked('shipped');
    expect(shown.map((s) => s.arg).sort()).toEqual(['deploy/caddy/Caddyfile', 'deploy/env.example', 'deploy/nginx/union-catalogue.conf',
      'deploy/systemd/union-catalogue-worker.service', 'deploy/systemd/union-catalogue.service']);
    for (const s of shown) expect(s.body, `${s.arg} differs from its copy in docs/deploy.md`).toBe(fs.readFileSync(path.join(repoRoot, s.arg), 'utf8'));
  });
});

describe('the first install walkthrough of docs/deploy.md', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-install-'));
  const dataDir = path.join(tmp, 'var-lib-union-catalogue');
  const envFile = path.join(tmp, 'env');
  const password = 'walkthrough superuser password';
  let port = 0;
  let oai: OaiTestServer;
  const units: ChildProcess[] = [];

  /** The doc's text with the machine's paths and addresses replaced by the test's. */
  const localise = (text: string) => text
    .split('/opt/union-catalogue').join(repoRoot)
    .split('/etc/union-catalogue/env').join(envFile)
    .split('/var/lib/union-catalogue').join(dataDir)
    .split('127.0.0.1:8080').join(`127.0.0.1:${port}`)
    .split('https://biblioteca.example.org/oai').join(oai.url);

  /** bash -euo pipefail, bounded; asynchronous, since the OAI-PMH repository answers from this process. */
  const bash = (script: string, input = '') => new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('timeout', ['-k', '5', '240', 'bash', '-euo', 'pipefail', '-c', script], {
      cwd: tmp, env: { ...process.env, ADMIN_PASSWORD: '' }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });

  beforeAll(async () => {
    port = await freePort();
    oai = await startOaiServer({ pageSize: 2 });
    for (let i = 1; i <= 3; i++) {
      oai.records.push({ identifier: `oai:walkthrough:${i}`, datestamp: '2026-01-01T00:00:00Z',
        metadata: dcXml({ title: [`Walkthrough quarterly ${i}`], creator: ['Wanda Walker'], language: ['en'] }) });
    }
    fs.mkdirSync(dataDir);
    // The shipped settings file with the test's folder and port; the harvest may reach 127.0.0.1, and the
    // worker's schedule stays off so that the walkthrough's own harvest command is the one that runs.
    const settings = fs.readFileSync(path.join(repoRoot, 'deploy', 'env.example'), 'utf8')
      .replace(/^DATA_DIR=.*$/m, `DATA_DIR=${dataDir}`)
      .replace(/^PORT=.*$/m, `PORT=${port}`)
      .replace(/^PUBLIC_URL=.*$/m, `PUBLIC_URL=http://127.0.0.1:${port}`);
    fs.writeFileSync(envFile, `${settings}HARVEST_ALLOW_PRIVATE=1\nHARVEST_SCHEDULE_SECONDS=0\n`);
  });

  afterAll(async () => {
    for (const u of units) {
      killGroup(u, 'SIGTERM');
      if (!(await exited(u, 5000))) killGroup(u, 'SIGKILL');
    }
    await oai?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('goes from an empty DATA_DIR to a superuser, a harvested library and a search that finds its records', async () => {
    const before = marked('walkthrough').filter((b) => b.arg === 'before-start').map((b) => b.body);
    const after = marked('walkthrough').filter((b) => b.arg === 'after-start').map((b) => b.body);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);

    // Database and superuser: the password typed at the prompt arrives on standard input.
    const setup = await bash(localise(before.join('\n')), `${password}\n`);
    expect(setup.status, `${setup.stdout}\n${setup.stderr}`).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'catalogue.sqlite'))).toBe(true);

    // What `systemctl start` would run: each unit's ExecStart in its WorkingDirectory with its EnvironmentFile.
    const settings = readEnvFile(envFile);
    for (const unit of ['union-catalogue.service', 'union-catalogue-worker.service']) {
      const text = fs.readFileSync(path.join(repoRoot, 'deploy', 'systemd', unit), 'utf8');
      const [cmd, ...args] = /^ExecStart=(.*)$/m.exec(text)![1].trim().split(/\s+/);
      expect(/^WorkingDirectory=(.*)$/m.exec(text)![1]).toBe('/opt/union-catalogue');
      expect(/^EnvironmentFile=(.*)$/m.exec(text)![1]).toBe('/etc/union-catalogue/env');
      const log = path.join(tmp, `${unit}.log`);
      const fd = fs.openSync(log, 'a');
      const child = spawn('timeout', ['-k', '5', String(LIFETIME_S), fs.existsSync(cmd) ? cmd : process.execPath, ...args], {
        cwd: repoRoot, env: { ...process.env, ...settings }, detached: true, stdio: ['ignore', fd, fd],
      });
      fs.closeSync(fd);
      units.push(child);
    }
    await until('the server to be ready', 120_000, 250, async () => {
      if (units[0].exitCode !== null) throw new Error(`the server exited:\n${tail(path.join(tmp, 'union-catalogue.service.log'))}`);
      try {
        return (await fetch(`http://127.0.0.1:${port}/readyz`)).ok;
      } catch {
        return false;
      }
    });

    // The rest in one shell, as an operator would type it (variables carry from block to block).
    const run = await bash(`set -a; . ${envFile}; set +a; ADMIN_PASSWORD='${password}'\n${localise(after.join('\n'))}`);
    const out = `${run.stdout}\n${run.stderr}`;
    expect(run.status, out).toBe(0);
    expect(run.stdout).toContain('{"status":"ready"}');
    expect(run.stdout).toMatch(/library \d+, site \d+/);
    expect(run.stdout).toMatch(/site \d+: finished, 3 records \(new 3,/);
    const search = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    expect(search.total_entries).toBe(3);
    // The worker (started from its unit) is still up, and the OAI-PMH repository was really asked.
    expect(units[1].exitCode).toBeNull();
    expect(oai.requests.some((r) => r.includes('ListRecords'))).toBe(true);
  }, 300_000);
});
