// Attack replay: the holes of an outside attacker's first hour (issue "Safe on the public internet"),
// replayed against a real server. Starts `serve` on 127.0.0.1 with the demo catalogue in a temporary
// DATA_DIR (TRUST_PROXY=1: one proxy in front, as docs/operations.md recommends), then runs every
// scenario file scripts/attacks/*.attack.ts one after another (each exports `attack: Attack`, see
// scripts/attacks/types.ts). Prints one JSON line with each scenario's checks and figures (peak RSS of
// the server during the image and workbook attacks, the longest /healthz wait); exit 1 when any check
// fails or the server dies.
//   npm run attack -- [--only NAME[,NAME]]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { Client, atExit, repoRoot, sleep, startServer, tail, tsxCli } from '../bench/lib/child-server.ts';
import type { Account, Attack, AttackContext } from './attacks/types.ts';

const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new Set(args[onlyAt + 1].split(',')) : null;
const LIMIT_S = 900; // the server's lifetime, whatever happens

const t0 = Date.now();
const secs = (ms: number) => (Math.round(ms / 100) / 10).toFixed(1);
const log = (m: string) => console.error(`[attack ${secs(Date.now() - t0)} s] ${m}`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-attack-'));
atExit(() => fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));
const dataDir = path.join(tmp, 'data');
const logFile = path.join(tmp, 'server.log');
fs.mkdirSync(dataDir, { recursive: true });

// ------------------------------------------------------------------ the server's processes and memory

/** Pids of a process group (the server runs as `timeout` → node tsx → node main.ts, all in one group). */
function groupPids(pgid: number): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Fields after the command's closing parenthesis: state ppid pgrp …
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(rest[2]) === pgid) pids.push(Number(name));
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

// ------------------------------------------------------------------ scenarios

async function loadAttacks(): Promise<Attack[]> {
  const dir = path.join(repoRoot, 'scripts', 'attacks');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.attack.ts')).sort();
  const attacks: Attack[] = [];
  for (const f of files) {
    const mod = (await import(path.join(dir, f))) as { attack?: Attack };
    if (!mod.attack) throw new Error(`${f} exports no \`attack\``);
    if (!only || only.has(mod.attack.name)) attacks.push(mod.attack);
  }
  return attacks;
}

interface Outcome { name: string; ok: boolean; seconds: number; failures: string[]; figures: Record<string, number | string> }

async function main() {
  const attacks = await loadAttacks();
  if (attacks.length === 0) throw new Error('no attack scenario matched');
  log(`starting the server (demo catalogue) in ${tmp}`);
  const server = await startServer({ dataDir, logFile, lifetimeS: LIMIT_S, env: { TRUST_PROXY: '1', LOG_LEVEL: 'warn' } });
  const pgid = server.child.pid!;
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DEMO: '1', LOG_LEVEL: 'warn' };
  let accounts = 0;

  /** The admin CLI, as an operator runs it (async, so the watchers keep sampling). */
  const createUser = (cliArgs: string[], password: string) => new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [tsxCli, 'server/src/main.ts', 'admin', 'create-user', ...cliArgs], { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.stdin.end(`${password}\n`);
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      code === 0 ? resolve(out) : reject(new Error(`admin create-user ${cliArgs.join(' ')}: exit ${code}: ${out}`));
    });
  });

  const outcomes: Outcome[] = [];
  for (const attack of attacks) {
    const outcome: Outcome = { name: attack.name, ok: true, seconds: 0, failures: [], figures: {} };
    const started = Date.now();
    const ctx: AttackContext = {
      base: server.base,
      dataDir,
      log: (m) => log(`${attack.name}: ${m}`),
      async account(opts = {}) {
        const n = ++accounts;
        const username = `attack-${attack.name}-${n}-${process.pid}`.toLowerCase();
        const email = `${username}@example.org`;
        const password = `Pw-${n}-${Math.random().toString(36).slice(2)}-x`;
        const flags = [
          '--username', username, '--email', email,
          ...(opts.superuser ? ['--superuser'] : []),
          ...(opts.libraryAdmin !== undefined ? ['--library-admin', String(opts.libraryAdmin)] : []),
          ...(opts.canMerge ? ['--can-merge'] : []),
        ];
        const out = await createUser(flags, password);
        const id = Number(/\(id (\d+)\)/.exec(out)?.[1]);
        if (!Number.isInteger(id)) throw new Error(`no id in: ${out}`);
        return { id, username, email, password } satisfies Account;
      },
      client: () => new Client(server.base),
      async login(account) {
        const c = new Client(server.base);
        await c.ok('POST', '/collector/api/auth/login', { username: account.username, password: account.password });
        return c;
      },
      watchMemory() {
        let peak = 0;
        const sample = () => {
          for (const pid of groupPids(pgid)) peak = Math.max(peak, rssMb(pid));
        };
        sample();
        const timer = setInterval(sample, 50);
        return {
          async stop() {
            sample();
            clearInterval(timer);
            return Math.round(peak);
          },
        };
      },
      watchHealth() {
        let longest = 0;
        let running = true;
        const loop = (async () => {
          while (running) {
            const t = performance.now();
            try {
              await fetch(`${server.base}/healthz`, { signal: AbortSignal.timeout(120_000) }).then((r) => r.arrayBuffer());
            } catch {
              // a refused or timed-out health check counts with its whole wait
            }
            longest = Math.max(longest, performance.now() - t);
            await sleep(20);
          }
        })();
        return {
          async stop() {
            running = false;
            await loop;
            return Math.round(longest);
          },
        };
      },
      check(ok, what) {
        if (!ok) {
          outcome.ok = false;
          outcome.failures.push(what);
          log(`${attack.name}: FAILED: ${what}`);
        }
      },
      figure(name, value) {
        outcome.figures[name] = value;
      },
      alive: () => server.alive(),
    };
    log(`${attack.name}: running`);
    try {
      await attack.run(ctx);
    } catch (err) {
      ctx.check(false, `the scenario threw: ${(err as Error).stack ?? err}`);
    }
    ctx.check(server.alive(), 'the server is still running after the attack');
    outcome.seconds = Math.round((Date.now() - started) / 100) / 10;
    outcomes.push(outcome);
    log(`${attack.name}: ${outcome.ok ? 'refused' : 'FAILED'} (${outcome.seconds} s) ${JSON.stringify(outcome.figures)}`);
    if (!server.alive()) {
      log(`the server died:\n${tail(logFile)}`);
      break;
    }
  }
  await server.stop();
  const ok = outcomes.length === attacks.length && outcomes.every((o) => o.ok);
  console.log(JSON.stringify({ bench: 'attack', ok, seconds: Math.round((Date.now() - t0) / 1000), scenarios: outcomes }));
  if (!ok) {
    console.error(`server log (tail):\n${tail(logFile)}`);
    process.exitCode = 1;
  }
}

const watchdog = setTimeout(() => {
  console.log(JSON.stringify({ bench: 'attack', ok: false, error: `still running after ${LIMIT_S} s` }));
  process.exit(1);
}, LIMIT_S * 1000);
watchdog.unref();

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
}).finally(() => {
  // atExit handlers remove the temporary folder and stop what is left.
  setTimeout(() => process.exit(), 200).unref();
});
