// Harvest benchmark: a local OAI-PMH provider (a separate process) serves --entries MARC21 records made
// from the generated catalogue in pages of 100; a fresh database harvests them all through the real
// harvest path (a queued job run in a harvest thread while the main thread serves searches, as `serve`
// does), --rounds times. A client
// process searches all along (one query, then a pause of --search-interval-ms); its latencies show
// what readers get while a harvest runs.
// Prints one JSON line: seconds per full harvest (median, p95 over rounds), records/s at those, and
// search latency during the harvests.
//   npm run bench:harvest -- [--entries 100000] [--rounds 3] [--search-interval-ms 100]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fork, type ChildProcess } from 'node:child_process';
import { loadConfig } from '../server/src/config.ts';
import { buildApp, createJobWorker, createServices } from '../server/src/app.ts';
import { marcXml } from '../server/src/harvest/test/oai-server.ts';
import { OUT_DIR, catalogueOf } from './lib/generated.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const role = opt('role', 'main');

// ---------- the provider process ----------
if (role === 'provider') {
  const { startOaiServer } = await import('../server/src/harvest/test/oai-server.ts');
  const file = opt('records', '');
  const records = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const server = await startOaiServer({ records, pageSize: 100 });
  server.clock = () => '2026-11-01T00:00:00Z';
  process.send!({ url: server.url });
  process.on('message', async () => {
    await server.close();
    process.exit(0);
  });
}

// ---------- the search client process ----------
if (role === 'searcher') {
  const base = opt('base', '');
  const interval = Number(opt('interval', '100'));
  const queries = ['anarchy', 'libert*', 'mutual aid', 'title:history', 'war AND peace', 'autonomy', 'zapata', 'commune'];
  const times: number[] = [];
  let stop = false;
  process.on('message', () => {
    stop = true;
  });
  for (let i = 0; !stop; i++) {
    const t0 = performance.now();
    await (await fetch(`${base}/collector/api/search?query=${encodeURIComponent(queries[i % queries.length])}`)).arrayBuffer();
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, interval));
  }
  process.send!({ times });
  process.exit(0);
}

// ---------- the benchmark ----------
if (role === 'main') {
  const entries = Number(opt('entries', '100000'));
  const rounds = Number(opt('rounds', '3'));
  const outDir = OUT_DIR;
  const catalogueFile = catalogueOf(entries);
  // The provider's records: one MARC21 record per generated entry (its first holding).
  const recordsFile = path.join(outDir, `oai-records-${entries}.jsonl`);
  if (!fs.existsSync(recordsFile)) {
    const out = fs.createWriteStream(recordsFile);
    const rl = readline.createInterface({ input: fs.createReadStream(catalogueFile, 'utf8'), crlfDelay: Infinity });
    for await (const line of rl) {
      if (!line.includes('"type":"entry"')) continue;
      const e = JSON.parse(line) as { id: number; title: string; subtitle?: string | null; authors: string[]; languages: string[]; year?: number | null; data_sources: { publisher?: string | null; isbn?: string | null; description?: string | null }[] };
      const ds = e.data_sources[0] ?? {};
      const fields: Parameters<typeof marcXml>[0] = [
        ['001', String(e.id)],
        ...e.languages.map((l): [string, string, [string, string][]] => ['041', '  ', [['a', l]]]),
        ...e.authors.map((a, i): [string, string, [string, string][]] => [i === 0 ? '100' : '700', '1 ', [['a', a]]]),
        ['245', '10', [['a', e.title], ...(e.subtitle ? [['b', e.subtitle] as [string, string]] : [])]],
        ['260', '  ', [['b', ds.publisher ?? 'Unknown'], ['c', String(e.year ?? 2000)]]],
        ...(ds.isbn ? [['020', '  ', [['a', ds.isbn]]] as [string, string, [string, string][]]] : []),
        ...(ds.description ? [['520', '  ', [['a', ds.description]]] as [string, string, [string, string][]]] : []),
      ];
      out.write(JSON.stringify({ identifier: `oai:bench:${e.id}`, datestamp: '2026-10-01T00:00:00Z', metadata: marcXml(fields) }) + '\n');
    }
    await new Promise((r) => out.end(r));
  }

  const self = new URL(import.meta.url).pathname;
  const child = (roleName: string, extra: string[]): ChildProcess => fork(self, ['--role', roleName, ...extra], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const message = <T>(c: ChildProcess) => new Promise<T>((resolve) => c.once('message', (m) => resolve(m as T)));

  const provider = child('provider', ['--records', recordsFile]);
  const { url } = await message<{ url: string }>(provider);
  const durations: number[] = [];
  const searchTimes: number[] = [];
  let records = 0;
  for (let r = 0; r < rounds; r++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-bench-harvest-'));
    const config = { ...loadConfig(), dataDir, logLevel: 'silent', demo: false, harvestAllowPrivate: true };
    const services = await createServices(config);
    const libId = Number(services.db.sqlite.prepare("INSERT INTO libraries (name, library_type, public, active) VALUES ('Bench library', 'digital', 1, 1)").run().lastInsertRowid);
    const site = services.sites.create(libId, { title: 'Bench OAI', site_type: 'generic', url, oai_metadata_format: 'marc21', active: true }, true);
    const app = await buildApp(config, services);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const searcher = child('searcher', ['--base', `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, '--interval', opt('search-interval-ms', '100')]);
    // As the server runs it: a queued job, executed by the worker in a harvest thread.
    const jobs = createJobWorker({ jobConcurrency: 1, harvestScheduleSeconds: 0 }, services);
    jobs.start();
    const t0 = performance.now();
    const queued = services.harvest.start(site.id, true);
    let run = queued;
    while (run.status === 'queued' || run.status === 'running') {
      await new Promise((res) => setTimeout(res, 100));
      run = services.harvest.run(queued.id)!;
    }
    const seconds = (performance.now() - t0) / 1000;
    await jobs.stop();
    searcher.send('stop');
    searchTimes.push(...(await message<{ times: number[] }>(searcher)).times);
    if (run.status !== 'finished') throw new Error(`harvest failed: ${run.message}`);
    records = run.records;
    durations.push(seconds);
    console.error(`round ${r + 1}: ${run.records} records in ${seconds.toFixed(1)} s (${Math.round(run.records / seconds)} records/s), ${run.failed} failed`);
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  provider.send('stop');
  const q = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))];
  };
  console.log(JSON.stringify({
    bench: 'harvest', entries, records, rounds, page_size: 100,
    seconds_median: +q(durations, 0.5).toFixed(1), seconds_p95: +q(durations, 0.95).toFixed(1),
    records_per_s_median: Math.round(records / q(durations, 0.5)), records_per_s_at_p95: Math.round(records / q(durations, 0.95)),
    search_interval_ms: Number(opt('search-interval-ms', '100')),
    search_during_harvest_ms_median: +q(searchTimes, 0.5).toFixed(1), search_during_harvest_ms_p95: +q(searchTimes, 0.95).toFixed(1), searches: searchTimes.length,
  }));
}
