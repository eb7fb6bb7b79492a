// Load test of the real server (a child `tsx server/src/main.ts serve` on a fresh DATA_DIR with the demo
// catalogue, JOB_CONCURRENCY=1, 127.0.0.1 on a free port): N concurrent clients for S seconds mixing
// searches (demo words, filters, sorts, pages), entry pages (ids found by the searches) and, for a small
// share of the clients, Book Builder builds (add Muse texts, build, poll check_job until the end, fetch
// the PDF; POSTs with the csrftoken cookie and X-CSRFToken header). Closed loop: each client sends its
// next request when the previous one is answered. Prints one JSON line; exits 1 when any request failed
// (non-2xx or network error) or a build failed, never because of speed.
//   npm run bench:load -- [--clients 50] [--seconds 30] [--book-clients N]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { atExit, csrfFrom, quantile, round1, sleep, startServer, tail, type ServerHandle } from './lib/child-server.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(args[i + 1]) : def;
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} needs a number`);
  return v;
};
const clients = Math.max(1, Math.floor(opt('clients', 50)));
const seconds = opt('seconds', 30);
// A small share of the clients build books (a build holds the one job slot for a second or two).
const bookClients = Math.min(clients, Math.floor(opt('book-clients', Math.max(1, Math.round(clients * 0.04)))));
const BUILD_TIMEOUT_MS = 120_000;
const POLL_MS = 500;

interface Q { query?: string; sort_by?: string; page_number?: number; filters?: Record<string, string[]> }
// Demo words (demo/README.md): authors, titles, folded diacritics, operators, facets, sorts and pages.
const QUERIES: Q[] = [
  { query: 'kropotkin' },
  { query: 'liberta' },
  { query: 'elisee' },
  { query: 'anarchism' },
  { query: 'mutual aid' },
  { query: '"mutual aid"' },
  { query: 'title:bread' },
  { query: 'author:goldman' },
  { query: 'revol*' },
  { query: 'manifest*' },
  { query: 'women OR femmes' },
  { query: 'library NOT catalogue' },
  { query: 'zarathustra' },
  { query: 'tolstoy' },
  { query: 'bakunin', sort_by: 'title_desc' },
  { query: 'malatesta', filters: { language: ['it'] } },
  { query: 'war', filters: { language: ['en'] } },
  { query: 'kropotkin', filters: { library: ['9', '20'] } },
  { query: 'la', filters: { language: ['fr', 'it'] }, sort_by: 'title_asc' },
  { sort_by: 'datestamp' },
  { sort_by: 'datestamp', page_number: 3 },
  { sort_by: 'title_asc', filters: { language: ['de'] } },
  { filters: { translate: ['translation'] } },
  { filters: { aggregate: ['aggregation'] } },
  { filters: { download: ['text'] } },
  { filters: { date: ['1886'] } },
  { query: 'catalogue', filters: { download: ['text'] } },
  { query: 'the', page_number: 2 },
];

const searchPath = (q: Q) => {
  const p = new URLSearchParams();
  if (q.query) p.set('query', q.query);
  if (q.sort_by) p.set('sort_by', q.sort_by);
  if (q.page_number) p.set('page_number', String(q.page_number));
  for (const [f, values] of Object.entries(q.filters ?? {})) for (const v of values) p.append(`filter_${f}`, v);
  return `/collector/api/search?${p}`;
};

type Kind = 'search' | 'entry' | 'csrf' | 'book_add' | 'book_build' | 'check_job' | 'book_pdf';
interface Sample { kind: Kind; start: number; ms: number; ok: boolean }
const samples: Sample[] = [];
const errorSamples: string[] = [];
let buildsFinished = 0;
let buildsFailed = 0;
const buildMs: number[] = [];

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-load-'));
  atExit(() => fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));
  const logFile = path.join(tmp, 'server.log');
  let server: ServerHandle | null = null;
  const agent = new Agent({ connections: clients, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: 60_000, bodyTimeout: 60_000 });
  try {
    server = await startServer({ dataDir: path.join(tmp, 'data'), lifetimeS: Math.ceil(seconds) + 240, logFile });
    const base = server.base;

    /** One timed request; a non-2xx answer or a network error counts as an error (kept as a sample). */
    const call = async (kind: Kind, url: string, o: { method?: 'GET' | 'POST'; headers?: Record<string, string>; json?: unknown; parse?: boolean } = {}) => {
      const start = performance.now();
      let ok = false;
      try {
        const res = await request(base + url, {
          dispatcher: agent,
          method: o.method ?? 'GET',
          headers: { ...(o.json !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers },
          body: o.json !== undefined ? JSON.stringify(o.json) : undefined,
        });
        let body: unknown = null;
        if (o.parse) body = await res.body.json();
        else await res.body.dump({ limit: Infinity });
        ok = res.statusCode >= 200 && res.statusCode < 300;
        if (!ok && errorSamples.length < 10) errorSamples.push(`${kind} ${o.method ?? 'GET'} ${url}: HTTP ${res.statusCode} ${o.parse ? JSON.stringify(body).slice(0, 200) : ''}`);
        return { status: res.statusCode, headers: res.headers, body: body as any, ok };
      } catch (e) {
        if (errorSamples.length < 10) errorSamples.push(`${kind} ${o.method ?? 'GET'} ${url}: ${(e as Error).message}`);
        return { status: 0, headers: {}, body: null as any, ok: false };
      } finally {
        samples.push({ kind, start, ms: performance.now() - start, ok });
      }
    };

    // Warm-up (not measured): every query once must answer 200; it also gathers entry ids and the data
    // sources that can go to the Book Builder.
    const entryIds = new Set<number>();
    for (const q of QUERIES) {
      const res = await fetch(base + searchPath(q));
      if (res.status !== 200) throw new Error(`warm-up: ${searchPath(q)} answered ${res.status}: ${await res.text()}`);
      const body = (await res.json()) as { matches: { entry_id: number }[] };
      for (const m of body.matches) entryIds.add(m.entry_id);
    }
    const museSources: number[] = [];
    const textEntries = (await (await fetch(`${base}/collector/api/search?filter_download=text&page_size=100`)).json()) as { matches: { entry_id: number }[] };
    for (const m of textEntries.matches) {
      const e = (await (await fetch(`${base}/collector/api/entry/${m.entry_id}`)).json()) as { data_sources: { data_source_id: number; can_add_to_bookbuilder: boolean }[] };
      for (const d of e.data_sources) if (d.can_add_to_bookbuilder) museSources.push(d.data_source_id);
    }
    if (bookClients > 0 && museSources.length === 0) throw new Error('warm-up: no data source with can_add_to_bookbuilder in the demo catalogue');
    const ids = [...entryIds];
    const pick = <T>(a: T[]) => a[Math.floor(Math.random() * a.length)];
    samples.length = 0;
    errorSamples.length = 0;

    const t0 = performance.now();
    const deadline = t0 + seconds * 1000;
    const running = () => performance.now() < deadline;

    /** A reader: searches (3 of 4) and entry pages of ids the searches found (1 of 4), with its own cookie. */
    const reader = async (n: number) => {
      let cookie: Record<string, string> = {};
      let i = n;
      while (running()) {
        i++;
        if (i % 4 !== 0 || ids.length === 0) {
          const parse = i % 10 === 1; // read some answers for new entry ids; just drain the others
          const r = await call('search', searchPath(pick(QUERIES)), { headers: cookie, parse });
          if (parse && r.ok) for (const m of r.body.matches as { entry_id: number }[]) if (!entryIds.has(m.entry_id)) (entryIds.add(m.entry_id), ids.push(m.entry_id));
          const token = csrfFrom(r.headers['set-cookie'] as string | string[] | undefined);
          if (token) cookie = { cookie: `csrftoken=${token}` };
        } else {
          await call('entry', `/collector/api/entry/${pick(ids)}`, { headers: cookie });
        }
      }
    };

    /** A book maker: a new session, two or three Muse texts, build, poll check_job, fetch the PDF; again. */
    const bookMaker = async () => {
      const c = await call('csrf', '/collector/api/csrf');
      const token = csrfFrom(c.headers['set-cookie'] as string | string[] | undefined);
      if (!token) {
        errorSamples.push('csrf: no csrftoken cookie');
        samples.push({ kind: 'csrf', start: performance.now(), ms: 0, ok: false });
        return;
      }
      const headers = { cookie: `csrftoken=${token}`, 'x-csrftoken': token };
      const post = (kind: Kind, json: unknown) => call(kind, '/collector/api/bookbuilder', { method: 'POST', headers, json, parse: true });
      while (running()) {
        const wanted = [...new Set(Array.from({ length: 2 + Math.floor(Math.random() * 2) }, () => pick(museSources)))];
        let sid: string | null = null;
        for (const ds of wanted) {
          const r = await post('book_add', sid ? { action: 'add', add: ds, session_id: sid } : { action: 'add', add: ds });
          if (r.ok) sid = r.body.session_id;
        }
        if (!sid) continue;
        const b0 = performance.now();
        const b = await post('book_build', { action: 'build', session_id: sid, collection_data: { title: 'Load test collection', author: 'bench:load' } });
        if (!b.ok) continue;
        const jobId = b.body.job_id as number;
        let status = '';
        // A build started before the deadline is followed to its end (bounded), so it counts.
        while (performance.now() - b0 < BUILD_TIMEOUT_MS) {
          await sleep(POLL_MS);
          const s = await post('check_job', { action: 'check_job', session_id: sid, check_job_id: jobId });
          if (!s.ok) continue;
          status = s.body.status;
          if (status === 'finished' || status === 'failed' || status === 'not found') {
            if (status !== 'finished' && errorSamples.length < 10) errorSamples.push(`build job ${jobId}: ${status} ${s.body.error ?? ''}`);
            break;
          }
        }
        if (status === 'finished') {
          buildsFinished++;
          buildMs.push(performance.now() - b0);
          await call('book_pdf', `/collector/api/bookbuilder/${sid}?job=${jobId}`, { headers });
        } else {
          buildsFailed++;
          if (status !== 'failed' && status !== 'not found' && errorSamples.length < 10) errorSamples.push(`build job ${jobId}: still ${status || 'unknown'} after ${BUILD_TIMEOUT_MS / 1000} s`);
        }
      }
    };

    await Promise.all([
      ...Array.from({ length: clients - bookClients }, (_, n) => reader(n)),
      ...Array.from({ length: bookClients }, () => bookMaker()),
    ]);
    const elapsed = Math.min(performance.now(), deadline) - t0;
    if (!server.alive()) throw new Error(`the server died during the run:\n${tail(logFile)}`);

    // Rates count the requests sent within the window; latencies every request.
    const inWindow = samples.filter((s) => s.start < deadline);
    const kinds = [...new Set(samples.map((s) => s.kind))];
    const byKind = Object.fromEntries(kinds.map((k) => {
      const all = samples.filter((s) => s.kind === k);
      const ms = all.map((s) => s.ms).sort((a, b) => a - b);
      const slowest = all.reduce((m, s) => (s.ms > m.ms ? s : m), all[0]);
      return [k, {
        requests: all.length,
        rps: round1(inWindow.filter((s) => s.kind === k).length / (elapsed / 1000)),
        p50_ms: round1(quantile(ms, 0.5)),
        p95_ms: round1(quantile(ms, 0.95)),
        p99_ms: round1(quantile(ms, 0.99)),
        max_ms: round1(ms[ms.length - 1] ?? null),
        max_sent_at_s: round1((slowest.start - t0) / 1000), // when the slowest one was sent, from the start
        errors: all.filter((s) => !s.ok).length,
      }];
    }));
    // Failed requests, plus builds that ended failed (check_job itself answers 200 then) or never ended.
    const errors = samples.filter((s) => !s.ok).length + buildsFailed;
    const sortedBuilds = [...buildMs].sort((a, b) => a - b);
    const result = {
      bench: 'load',
      clients,
      book_clients: bookClients,
      seconds: round1(elapsed / 1000),
      requests: samples.length,
      rps: round1(inWindow.length / (elapsed / 1000)),
      errors,
      by_kind: byKind,
      builds_finished: buildsFinished,
      builds_failed: buildsFailed,
      build_ms: { p50: round1(quantile(sortedBuilds, 0.5)), max: round1(sortedBuilds[sortedBuilds.length - 1] ?? null) },
      entry_ids_seen: ids.length,
      server_start_ms: server.startMs,
      ...(errorSamples.length ? { error_samples: errorSamples } : {}),
    };
    console.log(JSON.stringify(result));
    process.exitCode = errors > 0 ? 1 : 0;
  } finally {
    await agent.close().catch(() => {});
    await server?.stop();
    fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

// A hard bound on the whole run, whatever happens.
const watchdog = setTimeout(() => {
  console.error(`bench:load: still running after ${Math.round(seconds) + 300} s, giving up`);
  process.exit(2);
}, (seconds + 300) * 1000);
watchdog.unref();

main()
  .catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    console.log(JSON.stringify({ bench: 'load', ok: false, error: (e as Error).message?.split('\n')[0] ?? String(e) }));
    process.exitCode = 1;
  })
  .finally(() => process.exit());
