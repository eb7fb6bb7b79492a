// An upload applies fully or not at all: a job that fails halfway is undone from its journal, and one
// interrupted without a chance to clean up (a killed worker) is undone when it runs again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/fixture.ts';
import type { IngestService } from '../ingest/service.ts';
import { SPREADSHEET_JOB } from './spreadsheets.ts';
import { BACKENDS } from '../test/backends.ts';

describe.each(BACKENDS)('atomic spreadsheet processing on %s', (dialect) => {
  let t: TestApp;
  let siteId: number;
  const ROWS = 1300; // three batches of 500

  beforeAll(async () => {
    t = await testApp(undefined, {}, dialect);
    siteId = Number(t.services.db.sqlite.prepare("INSERT INTO sites (library_id, title, site_type, csv_type) VALUES (1, 'Shelf list', 'csv', 'generic')").run().lastInsertRowid);
  });
  afterAll(() => t.close());

  const sheet = (titleOf: (i: number) => string) =>
    'identifier,title,authors,languages,year_edition\n' +
    Array.from({ length: ROWS }, (_, i) => `row-${i},"${titleOf(i)}",Writer ${i % 40},en,${1900 + (i % 100)}`).join('\n') + '\n';

  const state = () => t.services.db.sqlite.prepare('SELECT identifier, title, entry_id, year_edition FROM data_sources WHERE site_id = ? ORDER BY identifier').all(siteId);
  const journalRows = () => t.services.db.sqlite.prepare('SELECT count(*) FROM spreadsheet_journal').pluck().get();
  const searchTotal = async (query: string) => (await t.app.inject({ method: 'GET', url: `/collector/api/search?query=${encodeURIComponent(query)}` })).json().total_entries as number;

  async function uploadSheet(csv: string): Promise<number> {
    const lib = t.services.libraries.get(1)!;
    const viewer = { userId: null } as never;
    const r = await t.services.spreadsheets.upload(lib as never, viewer, { content: Buffer.from(csv), filename: 'sheet.csv', siteId, comment: '', replaceAll: false });
    return r.uploaded;
  }

  async function runJob(): Promise<string | null> {
    const handler = t.services.spreadsheets.jobHandler();
    const job = t.services.jobs.claim('test-worker', [SPREADSHEET_JOB]);
    if (!job) throw new Error('no job queued');
    try {
      t.services.jobs.finish(job.id, await handler.run(job.payload, { jobId: job.id, signal: new AbortController().signal }));
      return null;
    } catch (e) {
      t.services.jobs.fail(job.id, (e as Error).message);
      return (e as Error).message;
    }
  }

  /** Makes the ingestion fail on its Nth call to store (1-based), once. */
  function failOnStore(n: number): () => void {
    const ingest = t.services.ingest as IngestService;
    const real = ingest.store.bind(ingest);
    let calls = 0;
    ingest.store = ((records) => {
      if (++calls === n) throw new Error('disk full (simulated)');
      return real(records);
    }) as IngestService['store'];
    return () => void (ingest.store = real);
  }

  /** Runs the queued job and "kills" it in its second batch: it dies there and its own clean-up never runs. */
  async function killInSecondBatch(): Promise<void> {
    const svc = t.services.spreadsheets;
    const realUndo = svc.undo.bind(svc);
    let undoCalls = 0;
    svc.undo = (id: number) => (++undoCalls === 1 ? realUndo(id) : 0);
    const restore = failOnStore(2);
    try {
      await runJob();
    } finally {
      restore();
      svc.undo = realUndo;
    }
  }

  describe('spreadsheet processing is atomic', () => {
    it('a job failing in its third batch leaves the catalogue as it was; the upload runs again to the end', async () => {
      // The catalogue before: the sheet's rows with their first titles.
      const first = await uploadSheet(sheet((i) => `First title ${i}`));
      t.services.spreadsheets.process(t.services.spreadsheets.get(first)!, false);
      expect(await runJob()).toBeNull();
      const before = state();
      expect(before).toHaveLength(ROWS);
      expect(await searchTotal('"Second title"')).toBe(0);

      // A second sheet changes every title and adds 20 rows: it fails after two batches were stored.
      const csv = sheet((i) => `Second title ${i}`) + Array.from({ length: 20 }, (_, i) => `extra-${i},Extra ${i},Someone,en,2001`).join('\n') + '\n';
      const second = await uploadSheet(csv);
      t.services.spreadsheets.process(t.services.spreadsheets.get(second)!, false);
      const restore = failOnStore(3);
      const error = await runJob();
      restore();
      expect(error).toBe('disk full (simulated)');
      expect(state()).toEqual(before);
      expect(journalRows()).toBe(0);
      expect(await searchTotal('"Second title"')).toBe(0);
      expect(await searchTotal('"First title"')).toBeGreaterThan(0);
      expect(t.services.spreadsheets.status(second)).toMatchObject({ status: 'failed', done: 0, stored: 0, error: 'disk full (simulated)' });

      // Run again: everything applies.
      t.services.spreadsheets.process(t.services.spreadsheets.get(second)!, false);
      expect(await runJob()).toBeNull();
      expect(state()).toHaveLength(ROWS + 20);
      expect(await searchTotal('"Second title"')).toBeGreaterThan(0);
      expect(await searchTotal('"First title"')).toBe(0);
      expect(t.services.spreadsheets.status(second)).toMatchObject({ status: 'finished', stored: ROWS + 20 });
      expect(journalRows()).toBe(0);
    });

    it('a worker killed halfway (no chance to undo) leaves a journal that the next run undoes first', async () => {
      const before = state();
      const third = await uploadSheet(sheet((i) => `Third title ${i}`));
      t.services.spreadsheets.process(t.services.spreadsheets.get(third)!, false);
      await killInSecondBatch();
      expect(journalRows()).toBe(500);
      expect(state()).not.toEqual(before);

      // The upload can be processed again: the half-done batch is undone, then the whole sheet applies.
      t.services.spreadsheets.process(t.services.spreadsheets.get(third)!, false);
      expect(await runJob()).toBeNull();
      const after = state() as { identifier: string; title: string }[];
      expect(after.filter((r) => r.identifier.startsWith('row-')).every((r) => r.title.startsWith('Third title'))).toBe(true);
      expect(after).toHaveLength(before.length);
      expect(journalRows()).toBe(0);
    });

    it('an upload whose job the queue gave up on (killed on every attempt) is undone and failed when looked at', async () => {
      const before = state();
      const fourth = await uploadSheet(sheet((i) => `Fourth title ${i}`));
      t.services.spreadsheets.process(t.services.spreadsheets.get(fourth)!, false);
      await killInSecondBatch();
      // What a killed worker leaves: the upload still "working", its job failed by the queue's recovery.
      t.services.db.sqlite.prepare("UPDATE spreadsheet_uploads SET status = 'working', done = 500, stored = 500, error = NULL WHERE id = ?").run(fourth);
      const jobId = t.services.spreadsheets.get(fourth)!.job_id!;
      t.services.db.sqlite.prepare("UPDATE jobs SET status = 'failed', error = 'Interrupted 2 times (the worker stopped while running it)' WHERE id = ?").run(jobId);
      expect(journalRows()).toBe(500);

      expect(t.services.spreadsheets.status(fourth)).toMatchObject({ status: 'failed', done: 0, stored: 0, error: 'Interrupted 2 times (the worker stopped while running it)' });
      expect(state()).toEqual(before);
      expect(journalRows()).toBe(0);
      // And it can be processed again.
      t.services.spreadsheets.process(t.services.spreadsheets.get(fourth)!, false);
      expect(await runJob()).toBeNull();
      expect((state() as { title: string }[]).filter((r) => r.title.startsWith('Fourth title'))).toHaveLength(ROWS);
    });
  });
});
