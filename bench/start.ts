// Start benchmark (issue 28): how long a restarted `serve` takes to answer a complete search, started
// from the search snapshot and from the documents. Imports a generated catalogue into a fresh database
// (or reuses --data-dir / --database-url), then per round starts a real `serve` process and times from
// spawn (of the compiled server, as `npm start` runs it) to the first 200 of GET /collector/api/search (a search asked while the index loads waits or is
// answered 503, never partially; the whole catalogue's count is checked to be the same every time).
// Prints one JSON line: median and p95 of each way, the snapshot's size and the time writing it held the
// event loop; on PostgreSQL also the first start of a new node, which makes its text mirror (new_node_ms).
//   npm run bench:start -- --entries 200000 [--rounds 3] [--data-dir DIR]
//   npm run bench:start -- --entries 200000 --backend both        (SQLite, then PostgreSQL when installed)
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { catalogueOf } from './lib/generated.ts';
import { loadConfig } from '../server/src/config.ts';
import { createServices } from '../server/src/app.ts';
import { importJsonl } from '../server/src/ingest/jsonl.ts';
import { runEachBackendIfBoth, benchDatabase } from './lib/backend.ts';
import { freePort, sleep, startMain, killGroup, exited, tail } from './lib/child-server.ts';
import { SNAPSHOT_FILE } from '../server/src/search/snapshot.ts';

const args = process.argv.slice(2);
runEachBackendIfBoth(args);
const opt = (name: string, def?: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const entries = Number(opt('entries', '200000'));
const rounds = Math.max(1, Number(opt('rounds', '3')));

const keptDir = opt('data-dir');
const dataDir = keptDir ? path.resolve(keptDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'uc-bench-start-'));
if (!keptDir) process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
fs.mkdirSync(dataDir, { recursive: true });
const { backend, databaseUrl } = await benchDatabase(opt, loadConfig().databaseUrl);

// The catalogue: imported once (kept in --data-dir on SQLite, or in a --database-url that holds one).
{
  const services = await createServices({ ...loadConfig(), dataDir, databaseUrl, logLevel: 'silent', demo: false });
  const count = services.db.sqlite.prepare('SELECT count(*) FROM entries').pluck().get() as number;
  if (count === 0) {
    // As `npm run import` does: the index format recorded first (else the first `serve` rebuilds every entry's rows).
    services.indexer.ensureFormat();
    const t0 = performance.now();
    await importJsonl(catalogueOf(entries), services);
    console.error(`bench:start: imported ${entries} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await services.db.close();
}

// The server started as production starts it: compiled ahead of time (npm start, the systemd units).
{
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('bench:start: npm run build:server failed');
}

const logFile = path.join(dataDir, 'bench-start.log');
const snapshotFile = path.join(dataDir, SNAPSHOT_FILE);

/** Starts `serve`, answers the ms until the first 200 of a whole-catalogue search and its count; stops it. */
async function timedStart(snapshotMinutes: number, waitForSnapshotLine = false): Promise<{ ms: number; total: number; log: string }> {
  const port = await freePort();
  const from = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
  const env: NodeJS.ProcessEnv = {
    ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', DEMO: '0',
    JOB_CONCURRENCY: '0', HARVEST_SCHEDULE_SECONDS: '0', WEB_DIST: path.join(dataDir, 'no-web-dist'),
    SEARCH_SNAPSHOT_MINUTES: String(snapshotMinutes), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const t0 = performance.now();
  const child = startMain({ args: ['serve'], env, lifetimeS: 900, logFile, compiled: true });
  const url = `http://127.0.0.1:${port}/collector/api/search?query=`;
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`serve exited early:\n${tail(logFile)}`);
      if (performance.now() - t0 > 600_000) throw new Error(`no answer within 600 s:\n${tail(logFile)}`);
      try {
        // A search asked while the index loads waits up to 2 s for it and is answered as soon as it is
        // complete (or 503): asked again at once, so the time is the load's, not a polling step's.
        const res = await fetch(url);
        const body = await res.text();
        if (res.status === 200) {
          const ms = performance.now() - t0;
          const total = (JSON.parse(body) as { total_entries: number }).total_entries;
          if (waitForSnapshotLine) {
            const deadline = Date.now() + 300_000;
            while (!/Search snapshot (written|not written)/.test(fs.readFileSync(logFile, 'utf8').slice(from)) && Date.now() < deadline) await sleep(200);
          }
          return { ms, total, log: fs.readFileSync(logFile, 'utf8').slice(from) };
        }
        if (res.status !== 503) throw new Error(`search answered ${res.status}: ${body.slice(0, 300)}`);
      } catch (e) {
        if ((e as Error).message.startsWith('search answered')) throw e;
        await sleep(20); // not listening yet
      }
    }
  } finally {
    killGroup(child, 'SIGTERM');
    if (!(await exited(child, 10_000))) killGroup(child, 'SIGKILL');
  }
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { median_ms: Math.round(at(0.5)), p95_ms: Math.round(at(0.95)), runs_ms: xs.map(Math.round) };
};

// PostgreSQL: a new node, whose text mirror (search/text-mirror.ts) is made from the catalogue first;
// the starts below keep the file, as a restarted node does.
const totals = new Set<number>();
let newNodeMs: number | null = null;
if (backend === 'postgres') {
  for (const f of ['search-text.sqlite', 'search-text.sqlite-wal', 'search-text.sqlite-shm']) fs.rmSync(path.join(dataDir, f), { force: true });
  const first = await timedStart(0);
  newNodeMs = Math.round(first.ms);
  totals.add(first.total);
}
// From the documents (no snapshot read or written).
const documents: number[] = [];
for (let r = 0; r < rounds; r++) {
  const d = await timedStart(0);
  documents.push(d.ms);
  totals.add(d.total);
}
// A start that writes the snapshot (none, or an old one, is there), then the starts from it.
fs.rmSync(snapshotFile, { force: true });
const writer = await timedStart(10, true);
totals.add(writer.total);
const written = /Search snapshot written: .*? ([\d.]+) MB in ([\d.]+) s \(searches held (\d+) ms\)/.exec(writer.log);
if (!written) throw new Error(`no snapshot was written:\n${writer.log.slice(-3000)}`);
const snapshot: number[] = [];
for (let r = 0; r < rounds; r++) {
  const s = await timedStart(10);
  if (!/from the snapshot at seq/.test(s.log)) throw new Error(`the start did not use the snapshot:\n${s.log.slice(-3000)}`);
  snapshot.push(s.ms);
  totals.add(s.total);
}
if (totals.size !== 1) throw new Error(`the whole catalogue's count differed between starts: ${[...totals].join(', ')}`);

console.log(JSON.stringify({
  bench: 'start', backend, entries, visible_entries: [...totals][0], rounds,
  ...(newNodeMs === null ? {} : { new_node_ms: newNodeMs }),
  from_documents: stats(documents),
  from_snapshot: stats(snapshot),
  snapshot_mb: Number(written[1]),
  snapshot_write_s: Number(written[2]),
  snapshot_write_held_ms: Number(written[3]),
  at: new Date().toISOString(),
}));
process.exit(0);
