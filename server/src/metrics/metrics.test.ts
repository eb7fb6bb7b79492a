// GET /metrics through a real server: who may read it, that promtool accepts what it says, and that the
// values move when requests, searches, logins, jobs, harvests and mail happen.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobWorker } from '../app.ts';
import { CSRF_HEADERS, testApp, type TestApp } from '../test/fixture.ts';
import { APP_BACKENDS } from '../test/backends.ts';
import { repoRoot } from '../config.ts';
import { openDatabase } from '../db/index.ts';
import { JobQueue } from '../jobs/queue.ts';
import { dcXml, startOaiServer, type OaiTestServer } from '../harvest/test/oai-server.ts';
import { JobWorker } from '../jobs/worker.ts';
import { BOOK_BUILD_JOB } from '../bookbuilder/service.ts';
import type { BuildRunner } from '../bookbuilder/runner.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { defaultCollectionData } from '@uc/shared';
import { Metrics } from './metrics.ts';
import { isLocalScrape, serveWorkerMetrics } from './routes.ts';

const promtool = spawnSync('promtool', ['--version']).status === 0;
if (!promtool) console.warn('metrics.test.ts: promtool (Debian package prometheus) is not installed; the lint of the output is skipped');

/** Every sample of the exposition text: name, labels and value. */
function samples(text: string) {
  const out: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of one sample (0 when absent: a counter not touched yet). */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  const s = samples(text).find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
  return s?.value ?? 0;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

describe('GET /metrics', () => {
  let t: TestApp;
  let base: string;
  let oai: OaiTestServer;
  const scrape = async () => {
    const r = await fetch(`${base}/metrics`);
    expect(r.status).toBe(200);
    return r.text();
  };

  beforeAll(async () => {
    oai = await startOaiServer({ pageSize: 2 });
    t = await testApp(undefined, { harvestAllowPrivate: true, harvestRetries: 0 });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await oai?.close();
  });

  it('answers this machine in Prometheus\' text format, with the process defaults, and promtool accepts it', async () => {
    await fetch(`${base}/collector/api/search?query=kropotkin`);
    const r = await fetch(`${base}/metrics`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const text = await r.text();
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes',
      'http_request_duration_seconds_bucket', 'search_duration_seconds_count', 'search_matches_bucket', 'search_index_seq_lag', 'search_index_seq',
      'harvest_runs_total', 'harvest_records_total', 'bookbuilder_builds_total', 'login_failures_total', 'login_throttled_total']) {
      expect(text, name).toContain(`\n${name}`);
    }
    if (!promtool) return;
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${lint.stdout}${lint.stderr}`.trim()).toBe('');
    expect(lint.status).toBe(0);
  });

  it('counts requests by route pattern and status, never by the URL or an id', async () => {
    const before = await scrape();
    const route = { method: 'GET', route: '/collector/api/entry/:id', status: '200' };
    const entries = value(before, 'http_request_duration_seconds_count', route);
    const id = t.services.db.sqlite.prepare("SELECT id FROM entries WHERE title = 'Mutual Aid'").pluck().get() as number;
    expect((await fetch(`${base}/collector/api/entry/${id}?x=secret-query`)).status).toBe(200);
    expect((await fetch(`${base}/no/such/page-987654?token=abc`)).status).toBe(404);
    const after = await scrape();
    expect(value(after, 'http_request_duration_seconds_count', route)).toBe(entries + 1);
    expect(value(after, 'http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    const labels = samples(after).flatMap((s) => Object.values(s.labels));
    for (const l of labels) {
      expect(l).not.toMatch(/\?|987654|secret-query|token=/);
      expect(l).not.toBe(`/collector/api/entry/${id}`);
    }
  });

  it('records searches: their duration and how many entries matched', async () => {
    const before = await scrape();
    const answer = await (await fetch(`${base}/collector/api/search?query=kropotkin`)).json() as { total_entries: number };
    expect(answer.total_entries).toBeGreaterThan(0);
    const after = await scrape();
    expect(value(after, 'search_duration_seconds_count')).toBe(value(before, 'search_duration_seconds_count') + 1);
    expect(value(after, 'search_duration_seconds_sum')).toBeGreaterThan(value(before, 'search_duration_seconds_sum'));
    expect(value(after, 'search_matches_sum') - value(before, 'search_matches_sum')).toBe(answer.total_entries);
  });

  it('says how far the search index is behind the database', async () => {
    const latest = () => t.services.db.sqlite.prepare('SELECT max(seq) FROM search_docs').pluck().get() as number;
    const text = await scrape();
    expect(value(text, 'search_index_seq')).toBe(t.services.search.indexedSeq);
    expect(value(text, 'search_index_seq_lag')).toBe(latest() - t.services.search.indexedSeq);
    // The gauge is the difference of the two seqs, read when scraped.
    const m = new Metrics();
    m.watch({ searchSeq: () => ({ indexed: 40, latest: 47 }) });
    expect(value(await m.text(), 'search_index_seq_lag')).toBe(7);
  });

  it('counts failed and throttled logins', async () => {
    await t.services.accounts.createUser({ username: 'metered', email: 'm@example.org', password: 'correct horse battery' });
    const before = await scrape();
    const login = (password: string) => fetch(`${base}/collector/api/auth/login`, {
      method: 'POST', headers: { ...CSRF_HEADERS, 'content-type': 'application/json' }, body: JSON.stringify({ username: 'metered', password }),
    });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await login('wrong password')).status);
    const after = await scrape();
    const refused = statuses.filter((s) => s !== 429).length;
    const throttled = statuses.filter((s) => s === 429).length;
    expect(throttled).toBeGreaterThan(0);
    expect(value(after, 'login_failures_total') - value(before, 'login_failures_total')).toBe(refused);
    expect(value(after, 'login_throttled_total') - value(before, 'login_throttled_total')).toBe(throttled);
  });

  it('shows the job queue by kind and state, and times the jobs this process runs', async () => {
    const before = await scrape();
    t.services.jobs.enqueue('metrics-test', {});
    t.services.jobs.enqueue('metrics-test', {});
    const queued = await scrape();
    expect(value(queued, 'job_queue_jobs', { kind: 'metrics-test', state: 'inactive' })).toBe(2);
    const worker = new JobWorker(t.services.jobs, { 'metrics-test': { run: async () => ({ ok: true }) } }, { concurrency: 1, pollMs: 20, metrics: t.services.metrics });
    worker.start();
    await worker.idle();
    await worker.stop();
    const after = await scrape();
    expect(value(after, 'job_queue_jobs', { kind: 'metrics-test', state: 'inactive' })).toBe(0);
    expect(value(after, 'job_queue_jobs', { kind: 'metrics-test', state: 'finished' })).toBe(2);
    const count = { kind: 'metrics-test', outcome: 'finished' };
    expect(value(after, 'job_duration_seconds_count', count) - value(before, 'job_duration_seconds_count', count)).toBe(2);
  });

  it('counts harvest runs and their records by outcome (a run through the job worker)', async () => {
    oai.records.push(
      { identifier: 'oai:m:1', datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: ['Metered one'], creator: ['Writer'], language: ['en'] }) },
      { identifier: 'oai:m:2', datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: ['Metered two'], creator: ['Writer'], language: ['en'] }) },
    );
    const library = t.services.db.sqlite.prepare('SELECT min(id) FROM libraries').pluck().get() as number;
    const site = t.services.sites.create(library, { title: 'Metered', site_type: 'generic', url: oai.url, oai_metadata_format: 'oai_dc', active: true, harvest_interval_minutes: 30 } as never, true).id;
    const before = await scrape();
    const jobs = createJobWorker({ jobConcurrency: 1, harvestScheduleSeconds: 0 }, t.services);
    jobs.start();
    try {
      t.services.harvest.start(site);
      await jobs.worker.idle(30_000);
    } finally {
      await jobs.stop();
    }
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    expect(moved('harvest_runs_total', { outcome: 'finished' })).toBe(1);
    expect(moved('harvest_records_total', { outcome: 'new' })).toBe(2);
    expect(moved('job_duration_seconds_count', { kind: 'harvest', outcome: 'finished' })).toBe(1);
  });

  it('counts Book Builder builds by outcome (a build whose session is gone fails in the job worker)', async () => {
    const before = await scrape();
    const jobs = createJobWorker({ jobConcurrency: 1, harvestScheduleSeconds: 0 }, t.services);
    jobs.start();
    try {
      t.services.jobs.enqueue(BOOK_BUILD_JOB, { session_id: 'no-such-session', text_ids: [1], data: {} }, { maxAttempts: 1 });
      await jobs.worker.idle(30_000);
    } finally {
      await jobs.stop();
    }
    // And one that is built, by the handler with a runner that makes no PDF.
    const sid = t.services.bookbuilder.add(null, t.services.db.sqlite.prepare("SELECT id FROM data_sources WHERE identifier = 'a-11'").pluck().get() as number, ANONYMOUS).session_id!;
    const jobId = t.services.bookbuilder.build(sid, { ...defaultCollectionData(), title: 'A book' }).job_id!;
    const job = t.services.jobs.claim('test', [BOOK_BUILD_JOB])!;
    const runner = { run: async () => ({ pages: 3, bookPages: 3, sheets: null, bytes: 4, typstSeconds: 0, imposeSeconds: 0, chunks: 1, childMaxRssKb: 0, childCpuSeconds: 0 }) } as unknown as BuildRunner;
    await t.services.bookbuilder.jobHandler(runner, { concurrency: 1, timeoutMs: 60_000, metrics: t.services.metrics }).run(job.payload, { jobId, signal: new AbortController().signal });
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    expect(moved('bookbuilder_builds_total', { outcome: 'failed' })).toBe(1);
    expect(moved('bookbuilder_builds_total', { outcome: 'built' })).toBe(1);
    expect(moved('job_duration_seconds_count', { kind: BOOK_BUILD_JOB, outcome: 'failed' })).toBe(1);
  });

  it('shows the mail outbox by status', async () => {
    const before = value(await scrape(), 'mail_outbox_messages', { status: 'queued' });
    await t.services.mail.send({ kind: 'test', to: ['someone@example.org'], subject: 'Hello', text: 'A message' } as never);
    expect(value(await scrape(), 'mail_outbox_messages', { status: 'queued' })).toBe(before + 1);
  });

  it('refuses a request a proxy forwarded (404 JSON without a token configured)', async () => {
    for (const headers of <Record<string, string>[]>[{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }, { 'x-real-ip': '203.0.113.9' }]) {
      const r = await fetch(`${base}/metrics`, { headers });
      expect(r.status).toBe(404);
      expect(await r.json()).toEqual({ error: 'Not found' });
    }
    // A token where none is configured opens nothing.
    const r = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer ', 'x-forwarded-for': '203.0.113.9' } });
    expect(r.status).toBe(404);
    // Not from this machine at all.
    const far = await t.app.inject({ url: '/metrics', remoteAddress: '198.51.100.7' });
    expect(far.statusCode).toBe(404);
    expect(far.body).not.toContain('process_cpu');
  });
});

describe.each(APP_BACKENDS)('the gauges read when scraped, on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await testApp(undefined, {}, dialect);
    base = await listen(t);
  });
  afterAll(() => t?.close());

  it('count queued jobs and outbox messages, and the index\'s seq, from the database', async () => {
    t.services.jobs.enqueue('gauge-test', {});
    await t.services.mail.send({ kind: 'test', to: ['someone@example.org'], subject: 'Hello', text: 'A message' } as never);
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(value(text, 'job_queue_jobs', { kind: 'gauge-test', state: 'inactive' })).toBe(1);
    expect(value(text, 'mail_outbox_messages', { status: 'queued' })).toBe(1);
    const latest = t.services.db.sqlite.prepare('SELECT max(seq) FROM search_docs').pluck().get();
    expect(value(text, 'search_index_seq')).toBe(Number(latest));
    expect(value(text, 'search_index_seq_lag')).toBe(0);
    if (!promtool) return;
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${lint.stdout}${lint.stderr}`.trim()).toBe('');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await testApp(undefined, { metricsToken: 'scrape-secret-1' });
    base = await listen(t);
  });
  afterAll(() => t?.close());

  it('answers the right bearer token through a proxy, refuses a wrong or missing one (403 JSON)', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.9' };
    const ok = await fetch(`${base}/metrics`, { headers: { ...forwarded, authorization: 'Bearer scrape-secret-1' } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('http_request_duration_seconds');
    for (const authorization of ['Bearer scrape-secret-2', 'Bearer scrape-secret-1x', 'Bearer ', 'Basic c2NyYXBlOnNlY3JldA==', undefined]) {
      const r = await fetch(`${base}/metrics`, { headers: { ...forwarded, ...(authorization !== undefined ? { authorization } : {}) } });
      expect(r.status, String(authorization)).toBe(403);
      const body = await r.json() as { error: string };
      expect(Object.keys(body)).toEqual(['error']);
    }
    // A wrong token is refused from this machine too; no token from here is the loopback rule.
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer nope' } })).status).toBe(403);
    expect((await fetch(`${base}/metrics`)).status).toBe(200);
  });
});

describe('the worker\'s /metrics (WORKER_METRICS_PORT)', () => {
  it('serves its own registry with the same rule', async () => {
    const m = new Metrics();
    m.jobEnded('book-build', 'failed', 1.5);
    const app = await serveWorkerMetrics(m, { host: '127.0.0.1', port: 0, token: '' });
    try {
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const text = await (await fetch(`${base}/metrics`)).text();
      expect(value(text, 'job_duration_seconds_count', { kind: 'book-build', outcome: 'failed' })).toBe(1);
      expect((await fetch(`${base}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(404);
      expect((await fetch(`${base}/other`)).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('is answered by a real `worker` process on WORKER_METRICS_PORT, with the queue read from its database', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-metrics-worker-'));
    const port = await freePort();
    const tsx = path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    // `timeout` ends it even if this test dies first.
    const child = spawn('timeout', ['-k', '5', '120', process.execPath, tsx, 'server/src/main.ts', 'worker'], {
      cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', DEMO: '0', HOST: '127.0.0.1', WORKER_METRICS_PORT: String(port), HARVEST_SCHEDULE_SECONDS: '0', METRICS_TOKEN: '' },
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c));
    child.stderr!.on('data', (c: Buffer) => (out += c));
    try {
      await expect.poll(() => out, { timeout: 60_000, interval: 100 }).toMatch(/Worker \S+ running/);
      const db = openDatabase(path.join(dir, 'catalogue.sqlite'));
      new JobQueue(db).enqueue('nobody-runs-this', {});
      await db.close();
      const base = `http://127.0.0.1:${port}`;
      const text = await (await fetch(`${base}/metrics`)).text();
      expect(value(text, 'job_queue_jobs', { kind: 'nobody-runs-this', state: 'inactive' })).toBe(1);
      expect(text).toContain('\nprocess_resident_memory_bytes');
      expect((await fetch(`${base}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(404);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('takes only loopback connections without forwarding headers as local', () => {
    const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({ headers, socket: { remoteAddress } });
    expect(isLocalScrape(req('127.0.0.1'))).toBe(true);
    expect(isLocalScrape(req('::1'))).toBe(true);
    expect(isLocalScrape(req('::ffff:127.0.0.1'))).toBe(true);
    expect(isLocalScrape(req('10.0.0.5'))).toBe(false);
    expect(isLocalScrape(req('::ffff:192.0.2.1'))).toBe(false);
    expect(isLocalScrape(req('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }))).toBe(false);
  });
});

describe('the operator\'s manual (docs/operations.md, "Metrics")', () => {
  const manual = fs.readFileSync(path.join(repoRoot, 'docs', 'operations.md'), 'utf8');
  const section = manual.slice(manual.indexOf('\n## Metrics\n'), manual.indexOf('\n## ', manual.indexOf('\n## Metrics\n') + 5));

  it('explains every metric of ours', async () => {
    const names = (await new Metrics().registry.getMetricsAsJSON()).map((m) => m.name).filter((n) => !/^(process|nodejs)_/.test(n));
    expect(names.length).toBeGreaterThan(10);
    for (const n of names) expect(section, n).toContain(`| \`${n}\` |`);
  });

  it.skipIf(!promtool)('gives a scrape configuration and alert expressions that promtool accepts', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-metrics-doc-'));
    try {
      const yaml = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]).join('');
      const token = path.join(dir, 'token');
      fs.writeFileSync(token, 'secret\n');
      fs.writeFileSync(path.join(dir, 'prometheus.yml'), yaml.replace(/credentials_file: \S+ \}/, `credentials_file: ${token} }`));
      const config = spawnSync('promtool', ['check', 'config', path.join(dir, 'prometheus.yml')], { encoding: 'utf8' });
      expect(config.status, config.stdout + config.stderr).toBe(0);
      const alerts = section.slice(section.indexOf('Alert ideas'));
      const exprs = [...alerts.matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter((e) => /[([]/.test(e) && /[<>=]/.test(e));
      expect(exprs.length).toBeGreaterThanOrEqual(6);
      const rules = ['groups:', '  - name: manual', '    rules:', ...exprs.flatMap((e, i) => [`      - alert: idea${i}`, `        expr: ${JSON.stringify(e)}`])].join('\n');
      fs.writeFileSync(path.join(dir, 'rules.yml'), rules + '\n');
      const check = spawnSync('promtool', ['check', 'rules', path.join(dir, 'rules.yml')], { encoding: 'utf8' });
      expect(check.status, check.stdout + check.stderr).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
