// A throw-away PostgreSQL cluster for tests and benchmarks: initdb in a temporary folder, a free port,
// listening on 127.0.0.1 only (unix socket inside the folder), trust authentication for user `postgres`.
// It is stopped and its folder removed by stop(), on SIGINT/SIGTERM, and by a watchdog when this
// process dies without cleaning up (kill -9). initdb refuses to run as root: as root (CI) the
// cluster runs as `nobody` through runuser, the folder chowned to it.
//   npx tsx scripts/pg-cluster.ts [-c name=value ...]   prints DATABASE_URL=..., runs until Ctrl-C (-c: server settings,
//     e.g. -c shared_buffers=2GB for a benchmark sized as docs/operations.md advises)
//   import { startPgCluster } from './pg-cluster.ts'
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  dir: string;
  stop(): void;
}

/** pg_ctl's folder: on PATH, or Debian's /usr/lib/postgresql/<version>/bin (newest first); null when absent. */
export function findPgBin(): string | null {
  const which = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  const onPath = which.status === 0 ? which.stdout.trim() : '';
  // Debian's /usr/bin/pg_ctl is a wrapper that wants a configured cluster: prefer the real binaries.
  const base = '/usr/lib/postgresql';
  if (fs.existsSync(base)) {
    const versions = fs.readdirSync(base).filter((v) => /^\d+$/.test(v) && Number(v) >= 15).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) {
      const bin = path.join(base, v, 'bin');
      if (fs.existsSync(path.join(bin, 'initdb')) && fs.existsSync(path.join(bin, 'pg_ctl'))) return bin;
    }
  }
  if (onPath && fs.existsSync(path.join(path.dirname(onPath), 'initdb'))) return path.dirname(onPath);
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** argv run as the cluster's owner (nobody when we are root). */
function asOwner(argv: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', 'nobody', '--', ...argv]] : [argv[0]!, argv.slice(1)];
}

function run(bin: string, argv: string[]): void {
  const [cmd, args] = asOwner([path.join(bin, argv[0]!), ...argv.slice(1)]);
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd: os.tmpdir() });
  if (r.status !== 0) throw new Error(`${argv[0]} failed (${r.status}): ${(r.stderr || r.stdout || '').trim().slice(-2000)}`);
}

export async function startPgCluster(settings: Record<string, string> = {}): Promise<PgCluster> {
  const bin = findPgBin();
  if (!bin) throw new Error('PostgreSQL not found (no pg_ctl/initdb on PATH or under /usr/lib/postgresql/*/bin)');
  // As root the folder goes to /tmp, which `nobody` can reach (a TMPDIR under /root it could not).
  const dir = fs.mkdtempSync(path.join(isRoot() ? '/tmp' : os.tmpdir(), 'uc-pg-'));
  if (isRoot()) {
    const nobody = spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' });
    const uid = Number(nobody.stdout.trim());
    fs.chownSync(dir, uid, uid);
  }
  const data = path.join(dir, 'data');
  const port = await freePort();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    const [cmd, args] = asOwner([path.join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']);
    spawnSync(cmd, args, { stdio: 'ignore', cwd: os.tmpdir() });
    fs.rmSync(dir, { recursive: true, force: true });
    try { process.kill(watchdog.pid!, 'SIGKILL'); } catch { /* already gone */ }
    process.off('exit', stop);
  };
  // Stops the cluster and removes the folder once this process is gone, however it ended.
  const stopCmd = asOwner([path.join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']);
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${[stopCmd[0], ...stopCmd[1]].map(shq).join(' ')} >/dev/null 2>&1; rm -rf ${shq(dir)}`;
  const watchdog = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore', cwd: os.tmpdir() });
  watchdog.unref();
  process.on('exit', stop);
  try {
    run(bin, ['initdb', '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    const opts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200${settingOptions(settings)}`;
    run(bin, ['pg_ctl', '-D', data, '-l', path.join(dir, 'log'), '-o', opts, '-w', '-t', '60', 'start']);
  } catch (e) {
    stop();
    throw e;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, dir, stop };
}

export interface PgStandby {
  /** postgres://postgres@127.0.0.1:PORT/postgres (read-only: a hot standby) */
  url: string;
  dir: string;
  /** Stops the server at once (pg_ctl stop -m immediate), as a crash would; its folder stays. */
  halt(): void;
  /** Starts it again on the same port (it catches up from the primary by streaming). */
  resume(): void;
  /** Stops it and removes its folder. */
  stop(): void;
}

/**
 * A streaming hot standby of `primary` (a cluster of startPgCluster): `pg_basebackup -R` into a
 * temporary folder, its own port, hot_standby on. Removed like the primary (stop(), exit, watchdog).
 */
export async function startPgStandby(primary: PgCluster): Promise<PgStandby> {
  const bin = findPgBin();
  if (!bin) throw new Error('PostgreSQL not found (no pg_ctl/initdb on PATH or under /usr/lib/postgresql/*/bin)');
  const primaryPort = new URL(primary.url).port;
  const dir = fs.mkdtempSync(path.join(isRoot() ? '/tmp' : os.tmpdir(), 'uc-pg-standby-'));
  if (isRoot()) {
    const uid = Number(spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout.trim());
    fs.chownSync(dir, uid, uid);
  }
  const data = path.join(dir, 'data');
  const port = await freePort();
  const opts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c hot_standby=on -c fsync=off -c max_connections=200`;
  const pgCtl = (...argv: string[]) => asOwner([path.join(bin, 'pg_ctl'), '-D', data, ...argv]);
  const halt = () => {
    const [cmd, args] = pgCtl('-m', 'immediate', '-w', 'stop');
    spawnSync(cmd, args, { stdio: 'ignore', cwd: os.tmpdir() });
  };
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    halt();
    fs.rmSync(dir, { recursive: true, force: true });
    try { process.kill(watchdog.pid!, 'SIGKILL'); } catch { /* already gone */ }
    process.off('exit', stop);
  };
  const stopCmd = pgCtl('-m', 'immediate', '-w', 'stop');
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${[stopCmd[0], ...stopCmd[1]].map(shq).join(' ')} >/dev/null 2>&1; rm -rf ${shq(dir)}`;
  const watchdog = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore', cwd: os.tmpdir() });
  watchdog.unref();
  process.on('exit', stop);
  const resume = () => run(bin, ['pg_ctl', '-D', data, '-l', path.join(dir, 'log'), '-o', opts, '-w', '-t', '60', 'start']);
  try {
    // -R writes primary_conninfo and standby.signal: it starts as a standby streaming from the primary.
    run(bin, ['pg_basebackup', '-D', data, '-R', '-X', 'stream', '-c', 'fast', '-h', '127.0.0.1', '-p', primaryPort, '-U', 'postgres', '--no-sync']);
    resume();
  } catch (e) {
    stop();
    throw e;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, dir, halt, resume, stop };
}

/** Further server settings as pg_ctl's -o options (names and values checked: they reach a shell). */
function settingOptions(settings: Record<string, string>): string {
  return Object.entries(settings).map(([k, v]) => {
    if (!/^[a-z_.]+$/.test(k) || !/^[\w.]+$/.test(v)) throw new Error(`not a setting: ${k}=${v}`);
    return ` -c ${k}=${v}`;
  }).join('');
}

function shq(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const settings: Record<string, string> = {};
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const m = argv[i] === '-c' ? /^([^=]+)=(.*)$/.exec(argv[++i] ?? '') : null;
    if (!m) throw new Error(`usage: pg-cluster.ts [-c name=value ...] (got ${argv[i]})`);
    settings[m[1]!] = m[2]!;
  }
  const cluster = await startPgCluster(settings);
  console.log(`DATABASE_URL=${cluster.url}`);
  const bye = () => {
    cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', bye);
  process.on('SIGTERM', bye);
  setInterval(() => {}, 1 << 30);
}
