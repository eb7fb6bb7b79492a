// Starts ONE server for every e2e file: a fresh temporary DATA_DIR (so the demo catalogue is loaded),
// a free port on 127.0.0.1, the built web app from web/dist. Stopped (and the data removed) in teardown.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { SMTPServer } from 'smtp-server';
import { findChromium } from './lib/chromium.ts';
import { freePort } from '../bench/lib/child-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** e.g. http://127.0.0.1:41234 (no trailing slash) */
    baseUrl: string;
    /** Path of the Chromium executable, or '' when it is missing (the browser tests then skip). */
    chromiumPath: string;
    /** Folder where the test SMTP server writes every message it receives (one .eml file each). */
    mailDir: string;
    /** Accounts created for the run, by role: username, password, e-mail (and the library of the library admin). */
    users: Record<'superuser' | 'librarian' | 'curator' | 'reader', E2eUser>;
  }
}

export interface E2eUser { username: string; password: string; email: string; libraryId?: number }

/** One account per role, created through the real admin command (password on standard input). */
const E2E_USERS: Record<'superuser' | 'librarian' | 'curator' | 'reader', E2eUser & { flags: string[] }> = {
  superuser: { username: 'e2e-root', password: 'e2e superuser password', email: 'root@e2e.example.org', flags: ['--superuser'] },
  librarian: { username: 'e2e-librarian', password: 'e2e librarian password', email: 'librarian@e2e.example.org', libraryId: 1, flags: ['--library-admin', '1'] },
  curator: { username: 'e2e-curator', password: 'e2e curator password', email: 'curator@e2e.example.org', flags: ['--can-merge', '--can-set-exclusions'] },
  reader: { username: 'e2e-reader', password: 'e2e reader password', email: 'reader@e2e.example.org', flags: [] },
};

function createUser(env: NodeJS.ProcessEnv, tsxCli: string, u: E2eUser & { flags: string[] }): void {
  const res = spawnSync(process.execPath, [tsxCli, 'server/src/main.ts', 'admin', 'create-user', '--username', u.username, '--email', u.email, ...u.flags], {
    cwd: repoRoot, env, input: `${u.password}\n`, encoding: 'utf8', timeout: 60_000,
  });
  if (res.status !== 0) throw new Error(`creating the e2e user ${u.username} failed: ${res.stderr || res.stdout}`);
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The server never outlives the run: it is started under `timeout` (seconds). */
const SERVER_LIFETIME_S = Number(process.env.E2E_SERVER_LIFETIME_S || 900);
const START_TIMEOUT_MS = Number(process.env.E2E_START_TIMEOUT_MS || 120_000);


function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal); // the whole process group (timeout + node)
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

async function waitForServer(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The server exited (code ${child.exitCode}, signal ${child.signalCode}) before answering.\n${output()}`);
    }
    try {
      const res = await fetch(`${baseUrl}/collector/api/general`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) {
        await res.json();
        return;
      }
      lastError = `HTTP ${res.status}`;
    } catch (e) {
      lastError = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server did not answer /collector/api/general within ${START_TIMEOUT_MS} ms (${lastError}).\n${output()}`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const chromiumPath = findChromium();
  project.provide('chromiumPath', chromiumPath ?? '');
  if (!chromiumPath) {
    console.warn('\n[e2e] NOTICE: Chromium not found at /usr/bin/chromium (or $CHROMIUM_PATH): the browser tests are skipped.\n' +
      '      Install it with: apt-get install -y chromium\n');
  }
  if (!fs.existsSync(path.join(repoRoot, 'web', 'dist', 'index.html'))) {
    throw new Error('web/dist/index.html is missing: build the web app first (npm run build -w web, or use npm run e2e).');
  }

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-e2e-'));
  // A real SMTP server for the mail the site sends (bug reports, password resets): messages land in mailDir.
  const mailDir = path.join(dataDir, 'received-mail');
  fs.mkdirSync(mailDir);
  let mailCount = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
        fs.writeFileSync(path.join(mailDir, `${++mailCount}.eml`), `X-Envelope-To: ${to}\r\n${Buffer.concat(chunks).toString('utf8')}`);
        done();
      });
    },
  });
  const smtpPort = await freePort();
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', () => resolve()));
  project.provide('mailDir', mailDir);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL || 'warn',
    // Every answer checked against its schema, as in the unit tests (http/serializer.ts).
    CHECK_RESPONSES: '1',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    PUBLIC_URL: baseUrl,
    // The harvest test's OAI-PMH provider listens on 127.0.0.1, a private address harvests refuse by default.
    HARVEST_ALLOW_PRIVATE: '1',
  };
  const tsxCli = path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const child = spawn(
    'timeout',
    ['-k', '5', String(SERVER_LIFETIME_S), process.execPath, tsxCli, 'server/src/main.ts', 'serve'],
    { cwd: repoRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const keep = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.length > 20_000) out = out.slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.stderr?.on('data', (c: Buffer) => {
    if (process.env.E2E_SERVER_LOG) process.stderr.write(`[server] ${c}`);
  });
  // If this process dies without teardown, the group still ends at SERVER_LIFETIME_S.
  const onExit = () => killGroup(child, 'SIGKILL');
  process.once('exit', onExit);

  const started = Date.now();
  try {
    await waitForServer(baseUrl, child, () => out);
  } catch (e) {
    killGroup(child, 'SIGKILL');
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  console.log(`[e2e] server ready at ${baseUrl} in ${((Date.now() - started) / 1000).toFixed(1)} s (DATA_DIR ${dataDir})`);
  project.provide('baseUrl', baseUrl);
  // The server has migrated the database by now; the accounts go in beside it.
  for (const u of Object.values(E2E_USERS)) createUser(env, tsxCli, u);
  project.provide('users', Object.fromEntries(Object.entries(E2E_USERS).map(([role, { flags: _flags, ...u }]) => [role, u])) as Record<keyof typeof E2E_USERS, E2eUser>);

  return async () => {
    process.removeListener('exit', onExit);
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
