// Memory benchmark: what a serve process holds for a catalogue. Opens an existing data directory (made by
// `npm run bench:search -- --entries N --data-dir DIR`, or any DATA_DIR), syncs the in-memory search index,
// builds the correction words and the suggest keys as `serve` does after start, collects garbage, and
// prints one JSON line: entries, start seconds, RSS, JS heap at each stage, typed arrays, bytes per entry.
//   npm run bench:memory -- --data-dir DIR
//   npm run bench:memory -- --database-url postgres://... (a PostgreSQL catalogue: bench:search's --database-url)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { loadConfig } from '../server/src/config.ts';
import { createServices } from '../server/src/app.ts';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const dataDirArg = opt('data-dir');
const databaseUrl = opt('database-url') ?? null;
if (!dataDirArg && !databaseUrl) {
  console.error('usage: npm run bench:memory -- --data-dir DIR | --database-url postgres://...');
  process.exit(2);
}
// On PostgreSQL the files (and the search snapshot, which this does not read) stay in a scratch folder.
const dataDir = dataDirArg ? path.resolve(dataDirArg) : fs.mkdtempSync(path.join(os.tmpdir(), 'uc-bench-memory-'));
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const mb = (n: number) => Math.round(n / 1048576);
const heap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

const base = process.memoryUsage().rss;
const services = await createServices({ ...loadConfig(), dataDir, databaseUrl, logLevel: 'silent', demo: false });
const t0 = performance.now();
services.search.sync();
const startS = (performance.now() - t0) / 1000;
const index = heap();
while (!services.search.vocabulary.step(50));
const vocabulary = heap();
while (!services.search.suggestions.step(50));
const suggest = heap();
const m = process.memoryUsage();
const entries = services.db.sqlite.prepare('SELECT count(*) FROM entries').pluck().get() as number;
await services.db.close();
if (!dataDirArg) fs.rmSync(dataDir, { recursive: true, force: true });
console.log(JSON.stringify({
  backend: databaseUrl ? 'postgres' : 'sqlite',
  entries,
  start_s: Math.round(startS * 10) / 10,
  rss_mb: mb(m.rss),
  heap_index_mb: mb(index),
  heap_with_vocabulary_mb: mb(vocabulary),
  heap_with_suggest_mb: mb(suggest),
  array_buffers_mb: mb(m.arrayBuffers),
  bytes_per_entry: Math.round((m.rss - base) / Math.max(1, entries)),
}));
process.exit(0);
