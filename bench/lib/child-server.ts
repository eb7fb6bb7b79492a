// The real server as a child process (`tsx server/src/main.ts serve`) for bench/load.ts and scripts/chaos.ts
// (freePort is the e2e setup's too):
// 127.0.0.1 on a free port, a given DATA_DIR, its own process group under `timeout` (it never outlives
// its lifetime even if this process dies), killed as a group: SIGTERM for a clean stop, SIGKILL for a crash.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const tsxCli = path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Every child group started here, killed (SIGKILL) when this process exits in any way. */
const groups = new Set<ChildProcess>();
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal); // the whole group: timeout, tsx, node
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}
const cleanups: (() => void)[] = [];
/** Runs at exit (after the children are killed), however the process ends: temporary folders. */
export function atExit(fn: () => void): void {
  cleanups.push(fn);
}
process.on('exit', () => {
  for (const c of groups) killGroup(c, 'SIGKILL');
  for (const fn of cleanups.splice(0)) {
    try {
      fn();
    } catch {
      /* best effort */
    }
  }
});
// Ctrl-C or a CI cancel: exit through the handler above instead of dying with the children running.
process.once('SIGINT', () => process.exit(130));
process.once('SIGTERM', () => process.exit(143));

/** Waits for a child to exit (or resolves at once when it has). */
export function exited(child: ChildProcess, timeoutMs = 15_000): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

export interface ChildOptions {
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Seconds after which `timeout` ends the group whatever happens. */
  lifetimeS: number;
  /** Where its standard output and error go (appended). */
  logFile: string;
  input?: string;
  /** Called with each chunk of standard error (progress lines of the import). */
  onStderr?: (chunk: string) => void;
  /** Runs the compiled server/dist/main.js (`npm run build:server`) as production does, not tsx. */
  compiled?: boolean;
}

/** `node tsx-cli server/src/main.ts ARGS` (or the compiled server) in its own process group under `timeout`. */
export function startMain(opts: ChildOptions): ChildProcess {
  const log = fs.openSync(opts.logFile, 'a');
  const main = opts.compiled ? ['server/dist/main.js'] : [tsxCli, 'server/src/main.ts'];
  const child = spawn('timeout', ['-k', '5', String(opts.lifetimeS), process.execPath, ...main, ...opts.args], {
    cwd: repoRoot,
    env: opts.env,
    detached: true,
    stdio: [opts.input === undefined ? 'ignore' : 'pipe', log, opts.onStderr ? 'pipe' : log],
  });
  fs.closeSync(log);
  if (opts.input !== undefined) child.stdin!.end(opts.input);
  if (opts.onStderr) {
    child.stderr!.on('data', (c: Buffer) => {
      fs.appendFileSync(opts.logFile, c);
      opts.onStderr!(c.toString());
    });
  }
  groups.add(child);
  child.once('exit', () => groups.delete(child));
  return child;
}

/** Runs a short command of main.ts to the end (admin create-user…), bounded. */
export function runMain(args: string[], env: NodeJS.ProcessEnv, input?: string, timeoutS = 60): { code: number | null; out: string } {
  const r = spawnSync('timeout', ['-k', '5', String(timeoutS), process.execPath, tsxCli, 'server/src/main.ts', ...args], {
    cwd: repoRoot, env, input, encoding: 'utf8',
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

export interface ServerHandle {
  child: ChildProcess;
  port: number;
  base: string;
  /** Milliseconds from spawn to a 200 on /readyz. */
  startMs: number;
  /** A clean stop (SIGTERM, SIGKILL after 5 s). */
  stop(): Promise<void>;
  /** kill -9 of the whole group, and waits until it is gone. */
  crash(): Promise<void>;
  alive(): boolean;
}

export function tail(file: string, bytes = 3000): string {
  try {
    const s = fs.readFileSync(file, 'utf8');
    return s.slice(-bytes);
  } catch {
    return '';
  }
}

/** Starts `serve` and waits for /readyz to answer {"status":"ready"}. */
export async function startServer(opts: { dataDir: string; env?: NodeJS.ProcessEnv; lifetimeS: number; logFile: string; readyTimeoutMs?: number }): Promise<ServerHandle> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: opts.dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DEMO: '1',
    JOB_CONCURRENCY: '1',
    // Local and bounded: no scheduled harvests of the demo sites' (fictional) repositories.
    HARVEST_SCHEDULE_SECONDS: '0',
    WEB_DIST: path.join(opts.dataDir, 'no-web-dist'),
    ...opts.env,
  };
  const t0 = Date.now();
  const child = startMain({ args: ['serve'], env, lifetimeS: opts.lifetimeS, logFile: opts.logFile });
  const deadline = t0 + (opts.readyTimeoutMs ?? 120_000);
  let last = '';
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited (code ${child.exitCode}, signal ${child.signalCode}) before it was ready:\n${tail(opts.logFile)}`);
    }
    try {
      const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2000) });
      const body = await res.text();
      if (res.status === 200 && JSON.parse(body).status === 'ready') break;
      last = `HTTP ${res.status} ${body}`;
    } catch (e) {
      last = (e as Error).message;
    }
    if (Date.now() > deadline) {
      killGroup(child, 'SIGKILL');
      throw new Error(`the server was not ready within ${Math.round((deadline - t0) / 1000)} s (${last}):\n${tail(opts.logFile)}`);
    }
    await sleep(100);
  }
  const startMs = Date.now() - t0;
  return {
    child, port, base, startMs,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      killGroup(child, 'SIGTERM');
      if (!(await exited(child, 5000))) {
        killGroup(child, 'SIGKILL');
        await exited(child, 5000);
      }
    },
    async crash() {
      killGroup(child, 'SIGKILL');
      await exited(child, 10_000);
    },
  };
}

/** The value of the csrftoken cookie in Set-Cookie headers, or null. */
export function csrfFrom(setCookie: string | string[] | undefined | null): string | null {
  for (const c of ([] as string[]).concat(setCookie ?? [])) {
    const m = /(?:^|,\s*)csrftoken=([^;,\s]+)/.exec(c);
    if (m) return m[1];
  }
  return null;
}

export const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
export const round1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);

/** HTTP with a cookie jar, as a browser would: the session and csrftoken cookies, the X-CSRFToken header. */
export class Client {
  jar = new Map<string, string>();
  constructor(public base: string) {}
  private take(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const m = /^([^=]+)=([^;]*)/.exec(c);
      if (m) m[2] ? this.jar.set(m[1], m[2]) : this.jar.delete(m[1]);
    }
  }
  private headers(extra: Record<string, string> = {}) {
    const h: Record<string, string> = { ...extra };
    if (this.jar.size) h.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const token = this.jar.get('csrftoken');
    if (token) h['x-csrftoken'] = token;
    return h;
  }
  async call(method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; json: any; bytes: Buffer }> {
    if (method === 'POST' && !this.jar.has('csrftoken')) await this.call('GET', '/collector/api/csrf');
    const isForm = body instanceof FormData;
    const res = await fetch(this.base + url, {
      method,
      headers: this.headers(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    this.take(res);
    const bytes = Buffer.from(await res.arrayBuffer());
    let json: any = null;
    if ((res.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(bytes.toString('utf8'));
    return { status: res.status, json, bytes };
  }
  async ok(method: 'GET' | 'POST', url: string, body?: unknown): Promise<any> {
    const r = await this.call(method, url, body);
    if (r.status < 200 || r.status >= 300) throw new Error(`${method} ${url}: HTTP ${r.status} ${r.bytes.toString('utf8').slice(0, 300)}`);
    return r.json;
  }
}

/** Polls `fn` until it answers something truthy, or throws naming `what` after `timeoutMs`. */
export async function until<T>(what: string, timeoutMs: number, everyMs: number, fn: () => Promise<T | null | undefined | false>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(everyMs);
  }
}
