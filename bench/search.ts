// Search benchmark: imports a generated catalogue into a fresh database (through the real import path),
// starts the real HTTP app, replays the query mix of gen-catalogue.mjs and prints one JSON line; then
// times suggest as you type (GET /suggest with the first 2-6 letters of the queries' words).
//   npm run bench:search -- --entries 100000 [--queries-count 200] [--rounds 3]
//   npm run bench:search -- --catalogue FILE.jsonl --queries FILE.jsonl
//   npm run bench:search -- --entries 10000 --backend postgres     (a throw-away cluster; or --database-url postgres://...)
//   npm run bench:search -- --entries 10000 --backend both         (SQLite, then PostgreSQL when installed: a line each)
// The search index is compacted after the import, as the worker does after a large one (compact_s);
// --as-imported measures the index as the import leaves it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { catalogueOf, generated } from './lib/generated.ts';
import { loadConfig } from '../server/src/config.ts';
import { buildApp, createServices, databaseTarget } from '../server/src/app.ts';
import { openDatabase } from '../server/src/db/index.ts';
import { JobQueue } from '../server/src/jobs/queue.ts';
import { IndexCompaction } from '../server/src/search/compaction.ts';
import { importJsonl } from '../server/src/ingest/jsonl.ts';
import { runEachBackendIfBoth, benchDatabase } from './lib/backend.ts';

const args = process.argv.slice(2);
runEachBackendIfBoth(args);
const opt = (name: string, def?: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const entries = Number(opt('entries', '100000'));
const rounds = Number(opt('rounds', '3'));
const catalogueFile = opt('catalogue') ?? catalogueOf(entries);
const queriesFile = opt('queries') ?? generated('queries', ['--count', opt('queries-count', '200')!], `queries-${opt('queries-count', '200')}.jsonl`);

interface BenchQuery { query: string; filters: Record<string, string[]>; sort_by: string; kind: string }
const queries: BenchQuery[] = fs.readFileSync(queriesFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

// --data-dir DIR keeps the imported database there and reuses it on the next run (for repeated runs at 1,000,000).
const keptDir = opt('data-dir');
const dataDir = keptDir ? path.resolve(keptDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'uc-bench-'));
const { backend, databaseUrl } = await benchDatabase(opt, loadConfig().databaseUrl);
const sqliteKept = keptDir !== undefined && fs.existsSync(path.join(dataDir, 'catalogue.sqlite'));
const config = { ...loadConfig(), dataDir, databaseUrl, logLevel: 'silent', demo: false };
const services = await createServices(config);
const entryCount = () => (services.db.sqlite.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n;
// A --database-url that holds a catalogue already is searched as it is (as --data-dir on SQLite).
const reused = backend === 'postgres' ? entryCount() > 0 : sqliteKept;
// As `npm run import` does: an empty catalogue records its index format first (else a `serve` started on
// the kept database would rebuild every entry's rows).
if (!reused) services.indexer.ensureFormat();
const t0 = performance.now();
const summary = reused ? { entries: entryCount() } : await importJsonl(catalogueFile, services);
const importS = (performance.now() - t0) / 1000;
// The index read after the import as `serve` reads it at start (on PostgreSQL also the node's text mirror
// made, by its thread when the file is new: search/text-mirror.ts).
const s0 = performance.now();
await services.search.load({ snapshotFile: null });
const syncS = (performance.now() - s0) / 1000;
// As the worker does after a large import (search/compaction.ts), at full speed; --as-imported skips it.
const c0 = performance.now();
// On a connection of its own, as the worker's compaction thread has.
const compacted = args.includes('--as-imported') || !services.compaction.needed() ? null : await (async () => {
  const own = openDatabase(databaseTarget(config));
  try {
    return await new IndexCompaction(own, new JobQueue(own)).compact({ pause: 0, stepPages: 2000 });
  } finally {
    await own.close();
  }
})();
const compactS = (performance.now() - c0) / 1000;
// As `serve` does after start (the suggest keys built by `followChanges`), but before the timed searches, which it would slow.
const w0 = performance.now();
while (!services.search.suggestions.step(50));
const suggestWarmS = (performance.now() - w0) / 1000;

const app = await buildApp(config, services);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address() as { port: number };
const base = `http://127.0.0.1:${address.port}/collector/api/search`;

const url = (q: BenchQuery) => {
  const p = new URLSearchParams();
  if (q.query) p.set('query', q.query);
  if (q.sort_by) p.set('sort_by', q.sort_by);
  for (const [f, values] of Object.entries(q.filters ?? {})) for (const v of values) p.append(`filter_${f}`, v);
  return `${base}?${p}`;
};

// One warm-up pass (first-use sorting, page cache), then the measured rounds.
for (const q of queries) await (await fetch(url(q))).arrayBuffer();
const times: number[] = [];
const byKind = new Map<string, number[]>();
let failures = 0;
for (let r = 0; r < rounds; r++) {
  for (const q of queries) {
    const start = performance.now();
    const res = await fetch(url(q));
    await res.arrayBuffer();
    const ms = performance.now() - start;
    times.push(ms);
    byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), ms]);
    if (res.status !== 200) failures++;
  }
}

// Suggest as you type: the first call (timed apart), then every prefix.
const words = [...new Set(queries.flatMap((q) => q.query.split(/[^\p{L}]+/u)).filter((w) => w.length >= 3))].slice(0, 100);
const prefixes = words.flatMap((w) => [2, 4, 6].filter((n) => n <= w.length).map((n) => w.slice(0, n)));
const suggestUrl = (q: string) => `http://127.0.0.1:${address.port}/collector/api/suggest?q=${encodeURIComponent(q)}`;
let start = performance.now();
await (await fetch(suggestUrl('ka'))).arrayBuffer();
const suggestBuildMs = performance.now() - start;
const suggestTimes: number[] = [];
for (const q of prefixes) {
  start = performance.now();
  const res = await fetch(suggestUrl(q));
  await res.arrayBuffer();
  suggestTimes.push(performance.now() - start);
  if (res.status !== 200) failures++;
}
await app.close();
if (!keptDir) fs.rmSync(dataDir, { recursive: true, force: true });

if (args.includes('--by-kind')) {
  for (const [kind, list] of byKind) {
    list.sort((a, b) => a - b);
    const at = (q: number) => list[Math.min(list.length - 1, Math.floor(q * list.length))].toFixed(1);
    console.error(`${kind.padEnd(14)} p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  max ${list[list.length - 1].toFixed(1)} ms`);
  }
}
times.sort((a, b) => a - b);
suggestTimes.sort((a, b) => a - b);
const pctOf = (list: number[], p: number) => list[Math.min(list.length - 1, Math.floor((p / 100) * list.length))] ?? 0;
const pct = (p: number) => pctOf(times, p);
const round = (x: number) => Math.round(x * 10) / 10;
console.log(JSON.stringify({
  backend,
  entries: summary.entries,
  queries: times.length,
  p50_ms: round(pct(50)),
  p95_ms: round(pct(95)),
  max_ms: round(times[times.length - 1]),
  import_s: round(importS),
  index_sync_s: round(syncS),
  compact_s: compacted ? round(compactS) : 0,
  suggest_requests: suggestTimes.length,
  suggest_p95_ms: round(pctOf(suggestTimes, 95)),
  suggest_max_ms: round(suggestTimes[suggestTimes.length - 1] ?? 0),
  suggest_first_ms: round(suggestBuildMs),
  suggest_warm_s: round(suggestWarmS),
  failures,
}));
