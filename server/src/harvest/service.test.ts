// The harvest service on each back end, against the local OAI-PMH provider: runs and their one-open-run
// rule, a harvest with pages, aggregations, translations and deletions, incremental and full runs, the
// schedule, failures and their one e-mail, purging. The search index is the search module's (a
// recording stand-in here); harvest.test.ts covers the same through the whole app on SQLite.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HARVEST_FAILING_AFTER } from '@uc/shared';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { RecordingIndexer } from '../test/recording-indexer.ts';
import { FileStore } from '../catalogue/files.ts';
import { IngestService } from '../ingest/service.ts';
import { JobQueue } from '../jobs/queue.ts';
import { MailService } from '../mail/service.ts';
import { upsertLibrary } from '../libraries/service.ts';
import { HttpError } from '../http/errors.ts';
import { SiteStore } from './sites.ts';
import { HarvestService } from './service.ts';
import { dcXml, marcXml, startOaiServer, type OaiTestServer } from './test/oai-server.ts';

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('harvesting on %s', (dialect) => {
  let db: Db;
  let dir: string;
  let oai: OaiTestServer;
  let indexer: RecordingIndexer;
  let sites: SiteStore;
  let harvest: HarvestService;
  let mail: MailService;
  let library: number;
  let target: string;
  let queue: JobQueue;
  let files: FileStore;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-harvest-'));
    target = await migratedTestDatabase(dialect);
    db = openDatabase(target);
    oai = await startOaiServer({ pageSize: 2 });
    indexer = new RecordingIndexer();
    files = new FileStore(db, path.join(dir, 'data'));
    queue = new JobQueue(db);
    sites = new SiteStore(db, path.join(dir, 'calibre'));
    mail = new MailService(db, { smtpUrl: null, mailFrom: 'uc@example.org' });
    harvest = new HarvestService(db, sites, new IngestService(db, indexer.asIndexer, files), files, queue, mail, {
      fetch: { retries: 0, backoffMs: 10, timeoutMs: 5000, allowPrivate: true },
    });
    library = upsertLibrary(db, { name: 'Biblioteca', public: 1, active: 1, email_internal: 'desk@lib.example', languages: 'it' } as never);
  });
  afterEach(async () => {
    await oai.close();
    mail.close();
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const one = (sql: string, ...args: unknown[]) => db.sqlite.prepare(sql).pluck().get(...args);
  const addSite = () => sites.create(library, { title: 'Source', site_type: 'generic', url: oai.url, oai_metadata_format: 'oai_dc', active: true, harvest_interval_minutes: 30 } as never, true).id;
  const dc = (i: number, title: string, extra: Record<string, string[]> = {}) => ({
    identifier: `oai:src:${i}`, datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: [title], creator: ['Writer'], language: ['en'], ...extra }),
  });
  const titles = () => db.sqlite.prepare('SELECT title FROM data_sources ORDER BY title').pluck().all();

  it('queues one open run per site (409 for a second), with a job for the worker', () => {
    const site = addSite();
    const run = harvest.start(site);
    expect(run).toMatchObject({ status: 'queued', site_id: site, force: false });
    expect(one("SELECT count(*) FROM jobs WHERE kind = 'harvest'")).toBe(1);
    expect(() => harvest.start(site, true)).toThrow(HttpError);
    expect(harvest.runs(site).map((r) => r.id)).toEqual([run.id]);
    expect(sites.get(site).last_run).toMatchObject({ id: run.id, status: 'queued' });
  });

  it('harvests every page, then only what changed; a deleted record goes; a full run drops what the source stopped listing', async () => {
    oai.records.push(dc(1, 'First text'), dc(2, 'Second text'), dc(3, 'Third text'));
    const site = addSite();
    const run = await harvest.runNow(site, false);
    expect(run).toMatchObject({ status: 'finished', pages: 2, records: 3, total: 3, new: 3, failed: 0 });
    expect(titles()).toEqual(['First text', 'Second text', 'Third text']);
    expect(indexer.reindexed).toEqual(db.sqlite.prepare('SELECT id FROM entries ORDER BY id').pluck().all());
    expect(sites.get(site)).toMatchObject({ data_sources: 3, consecutive_failures: 0, failing: false });
    expect(one('SELECT harvest_from FROM sites WHERE id = ?', site)).toMatch(/^\d{4}-\d\d-\d\dT/);

    // Incremental: the source's clock moved on; a changed record and a deletion come.
    oai.records[1] = dc(2, 'Second text, revised');
    oai.records[1]!.datestamp = '2099-01-01T00:00:00Z';
    oai.records[0] = { identifier: 'oai:src:1', datestamp: '2099-01-01T00:00:00Z', deleted: true };
    const next = await harvest.runNow(site, false);
    expect(next).toMatchObject({ status: 'finished', records: 2, updated: 1, deleted: 1 });
    expect(titles()).toEqual(['Second text, revised', 'Third text']);

    // A full run: what the source no longer lists goes.
    oai.records.splice(2, 1);
    const full = await harvest.runNow(site, true);
    expect(full).toMatchObject({ status: 'finished', force: true, deleted: 1, unchanged: 1 });
    expect(titles()).toEqual(['Second text, revised']);
    expect(one('SELECT last_full_harvest FROM sites WHERE id = ?', site)).toBe(full.started);
  });

  it('links a translation to its original and a part to its journal, once', async () => {
    const marc = (i: number, title: string, lang: string, extra: [string, string, [string, string][]][] = []) => ({
      identifier: `oai:src:${i}`, datestamp: '2026-01-01T00:00:00Z',
      metadata: marcXml([['041', '  ', [['a', lang]]], ['100', '1 ', [['a', 'Kropotkin, Peter']]], ['245', '10', [['a', title]]], ...extra]),
    });
    oai.records.push(
      marc(1, 'Mutual Aid', 'eng'),
      marc(2, 'Il mutuo appoggio', 'ita', [['765', '0 ', [['w', 'oai:src:1']]]]),
      marc(3, 'An essay', 'eng', [['773', '0 ', [['t', 'Freedom Journal'], ['g', 'no. 3']]]]),
    );
    const site = sites.create(library, { title: 'Marc', site_type: 'generic', url: oai.url, oai_metadata_format: 'marc21', active: true, harvest_interval_minutes: 30 } as never, true).id;
    expect(await harvest.runNow(site, false)).toMatchObject({ status: 'finished', new: 3, failed: 0 });
    const entryOf = (title: string) => one('SELECT entry_id FROM data_sources WHERE title = ?', title) as number;
    expect(one('SELECT original_entry_id FROM entries WHERE id = ?', entryOf('Il mutuo appoggio'))).toBe(entryOf('Mutual Aid'));
    expect(db.sqlite.prepare('SELECT d.title FROM aggregation_links l JOIN data_sources d ON d.entry_id = l.aggregation_entry_id WHERE l.aggregated_entry_id = ?')
      .pluck().all(entryOf('An essay'))).toEqual([expect.stringMatching(/^Freedom Journal/)]);
    // The same records again: nothing changes, no entry is reindexed.
    indexer.calls = [];
    expect(await harvest.runNow(site, true)).toMatchObject({ status: 'finished', unchanged: 3, deleted: 0 });
    expect(indexer.reindexed).toEqual([]);
    expect(one('SELECT count(*) FROM aggregation_links')).toBe(1);
  });

  it('schedules a site only after a first successful run, then once per interval; counts failures and mails the library once; purges old runs', async () => {
    const site = addSite();
    expect(harvest.scheduleDue()).toBe(0); // never harvested successfully: it waits for a first run by hand
    expect(harvest.scheduleDue(Date.now() + 31 * 60_000)).toBe(0);
    expect(await harvest.runNow(site, false)).toMatchObject({ status: 'finished' });
    expect(harvest.scheduleDue()).toBe(0); // the interval has not passed
    expect(harvest.scheduleDue(Date.now() + 31 * 60_000)).toBe(1);
    expect(harvest.scheduleDue(Date.now() + 31 * 60_000)).toBe(0); // already queued
    db.sqlite.prepare("UPDATE harvest_runs SET status = 'failed' WHERE site_id = ? AND status = 'queued'").run(site);
    db.sqlite.prepare('DELETE FROM jobs').run();

    oai.faults.html = true;
    const mails = () => one("SELECT count(*) FROM outbox WHERE kind = 'harvest-failing'");
    for (let i = 0; i < HARVEST_FAILING_AFTER + 1; i++) expect(await harvest.runNow(site, false)).toMatchObject({ status: 'failed' });
    expect(sites.get(site)).toMatchObject({ failing: true, consecutive_failures: HARVEST_FAILING_AFTER + 1 });
    expect(mails()).toBe(1);
    expect(one("SELECT to_address FROM outbox WHERE kind = 'harvest-failing'")).toContain('desk@lib.example');
    oai.faults.html = false;
    expect(await harvest.runNow(site, false)).toMatchObject({ status: 'finished' });
    expect(sites.get(site)).toMatchObject({ failing: false, consecutive_failures: 0 });

    const newest = harvest.runs(site).map((r) => r.id).slice(0, 2);
    expect(harvest.purgeRuns(2)).toBeGreaterThanOrEqual(3);
    expect(harvest.runs(site).map((r) => r.id)).toEqual(newest);
  });

  /** A HarvestService whose queued runs go to a thread (SQLite) or a child process (PostgreSQL). */
  const threadedHarvest = () => new HarvestService(db, sites, new IngestService(db, indexer.asIndexer, files), files, queue, mail, {
    fetch: { retries: 0, backoffMs: 10, timeoutMs: 5000, allowPrivate: true },
    thread: { dbFile: target, dataDir: path.join(dir, 'data'), calibreRoot: path.join(dir, 'calibre'), mail: { smtpUrl: null, mailFrom: 'uc@example.org' } },
  });

  it('runs a queued harvest as a job in a thread (SQLite) or child process (PostgreSQL) with its own connection, indexed there', async () => {
    oai.records.push(dc(1, 'Threaded text'), dc(2, 'Another threaded text'));
    const site = addSite();
    const threaded = threadedHarvest();
    const run = threaded.start(site);
    const job = queue.claim('w', ['harvest'])!;
    expect(await threaded.jobHandler().run(job.payload, { jobId: job.id, signal: new AbortController().signal })).toEqual({ run_id: run.id, status: 'finished' });
    expect(harvest.run(run.id)).toMatchObject({ status: 'finished', new: 2, pages: 1 });
    expect(titles()).toEqual(['Another threaded text', 'Threaded text']);
    // Its own Indexer wrote the index rows (not this thread's stand-in).
    expect(indexer.calls).toEqual([]);
    expect(one('SELECT count(*) FROM search_docs WHERE doc IS NOT NULL')).toBe(2);
  });

  it('stops a harvest running in its thread or process when the job is aborted', async () => {
    for (let i = 1; i <= 6; i++) oai.records.push(dc(i, `Slow text ${i}`));
    oai.faults.delayMs = 400;
    const site = addSite();
    const threaded = threadedHarvest();
    const run = threaded.start(site);
    const job = queue.claim('w', ['harvest'])!;
    const stop = new AbortController();
    const done = threaded.jobHandler().run(job.payload, { jobId: job.id, signal: stop.signal });
    while (harvest.run(run.id)!.pages === 0) await new Promise((r) => setTimeout(r, 50));
    stop.abort(new Error('the time limit passed'));
    expect(await done).toEqual({ run_id: run.id, status: 'failed' });
    expect(harvest.run(run.id)!.message).toMatch(/the time limit passed/);
    expect(harvest.run(run.id)!.records).toBeLessThan(6);
  });

  it('closes a run whose job ended without it, so the site can be harvested again', async () => {
    const site = addSite();
    expect(await harvest.runNow(site, false)).toMatchObject({ status: 'finished' });
    const run = harvest.start(site);
    db.sqlite.prepare("UPDATE jobs SET status = 'failed'").run();
    expect(harvest.scheduleDue(Date.now() + 31 * 60_000)).toBe(1);
    expect(harvest.run(run.id)).toMatchObject({ status: 'failed' });
    expect(harvest.runs(site)[0]).toMatchObject({ status: 'queued' });
  });
});
