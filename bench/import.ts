// Import benchmark: a generated catalogue (gen-catalogue.mjs, 1,000,000 entries by default) imported
// through the real import path (server/src/ingest/jsonl.ts) into an empty database, then the same file
// again (nothing changes). Prints one JSON line: seconds, entries/s, peak memory (of this process: on
// PostgreSQL the server's own memory is not in it).
// Budgets (issue 12): under 120 s from empty, under 60 s for the unchanged re-import, under 2 GiB.
//   npm run bench:import -- [--entries 1000000] [--catalogue FILE.jsonl]
//     [--backend postgres (a throw-away cluster) | --backend both (one line per back end) | --database-url postgres://... (an empty database)]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/src/config.ts';
import { createServices } from '../server/src/app.ts';
import { importJsonl } from '../server/src/ingest/jsonl.ts';
import { importProgressPrinter } from '../server/src/ingest/progress.ts';
import { catalogueOf } from './lib/generated.ts';
import { runEachBackendIfBoth, benchDatabase, postgresBytes } from './lib/backend.ts';

const args = process.argv.slice(2);
runEachBackendIfBoth(args);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const entries = Number(opt('entries') ?? 1_000_000);
const file = opt('catalogue') ?? catalogueOf(entries);
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-bench-import-'));
let peak = 0;
const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
const timer = setInterval(sample, 200);
try {
  const config = loadConfig();
  const { backend, databaseUrl } = await benchDatabase(opt, config.databaseUrl);
  const services = await createServices({ ...config, dataDir, databaseUrl });
  if (services.db.sqlite.prepare('SELECT count(*) FROM entries').pluck().get() !== 0) throw new Error('the database holds entries already: the benchmark imports into an empty one');
  // As `npm run import` does: an empty catalogue records its index format, so a kept database (--database-url) starts without a rebuild.
  services.indexer.ensureFormat();
  const progress = importProgressPrinter(process.stderr, 'import');
  const first = await importJsonl(file, services, (p) => progress.update(p));
  progress.done();
  sample();
  const reprogress = importProgressPrinter(process.stderr, 're-import');
  const again = await importJsonl(file, services, (p) => reprogress.update(p));
  reprogress.done();
  sample();
  const dbBytes = backend === 'postgres' ? postgresBytes(services.db)
    : ['catalogue.sqlite', 'catalogue.sqlite-wal'].reduce((n, f) => n + (fs.existsSync(path.join(dataDir, f)) ? fs.statSync(path.join(dataDir, f)).size : 0), 0);
  await services.db.close();
  clearInterval(timer);
  console.log(JSON.stringify({
    bench: 'import',
    backend,
    entries: first.entries,
    data_sources: first.dataSources,
    import_s: round(first.seconds),
    entries_per_s: Math.round(first.entries / first.seconds),
    reimport_unchanged_s: round(again.seconds),
    peak_rss_mb: Math.round(Math.max(peak, process.resourceUsage().maxRSS * 1024) / 1024 / 1024),
    database_mb: Math.round(dbBytes / 1024 / 1024),
    budget: { import_s: 120, reimport_s: 60, rss_mb: 2048 },
  }));
} finally {
  clearInterval(timer);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
