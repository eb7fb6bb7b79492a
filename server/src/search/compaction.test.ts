import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLines, testApp, type TestApp } from '../test/fixture.ts';
import { COMPACT_INDEX_JOB, DEFAULT_POLICY, IndexCompaction } from './compaction.ts';
import { JobWorker } from '../jobs/worker.ts';

const WORDS = ['anarchy', 'commons', 'mutual', 'library', 'archive', 'printing', 'press', 'union', 'garden', 'river'];

/** The fixture plus 400 entries, enough for an index of several pages. */
function lines(): object[] {
  const extra = Array.from({ length: 400 }, (_, i) => ({
    type: 'entry', id: 1000 + i, title: `${WORDS[i % 10]} ${WORDS[(i * 7) % 10]} number ${i}`, subtitle: null,
    authors: [`Writer ${i % 37}`], languages: ['en'], year: 1900 + (i % 100), aggregation_id: null, translation_of: null, fulltext: null,
    data_sources: [{ library_id: 1, identifier: `x-${i}`, year_edition: 1900, publisher: null, isbn: null, description: `about ${WORDS[(i * 3) % 10]} and more`, shelf_location_code: null, downloads: [] }],
  }));
  return [...fixtureLines(), ...extra];
}

let t: TestApp;
let ids: number[];
beforeAll(async () => {
  t = await testApp(lines());
  ids = t.services.db.sqlite.prepare('SELECT id FROM entries ORDER BY id').pluck().all() as number[];
});
afterAll(async () => t.close());

/** Reindexes the entries a few at a time: every write transaction leaves a segment of its own. */
function scatter(): void {
  for (let i = 0; i < ids.length; i += 25) t.services.indexer.reindex(ids.slice(i, i + 25));
}

const QUERIES = ['anarchy', 'mut*', 'title:garden', 'author:writer', '"printing press"', 'kropotkin', 'lib* NOT archive', 'number 17'];
async function answers(): Promise<string[]> {
  const out: string[] = [];
  for (const q of QUERIES) {
    const res = await t.app.inject(`/collector/api/search?query=${encodeURIComponent(q)}&page_size=100&sort_by=title_asc`);
    expect(res.statusCode).toBe(200);
    const r = res.json();
    out.push(`${q}: ${r.total_entries} ${r.matches.map((m: { title: { value: string }[] }) => m.title[0].value).join('|')}`);
  }
  return out;
}

const integrityCheck = () => t.services.db.sqlite.prepare(`INSERT INTO entry_fts(entry_fts, rank) VALUES('integrity-check', 0)`).run();

describe('search index compaction', () => {
  // Any index with a second segment is worth compacting (after a compaction, a scatter() adds small ones).
  const eager = () => new IndexCompaction(t.services.db, t.services.jobs, { minPages: 1, minScattered: 0.01 });

  it('compacts when the segments beside the largest hold a quarter of the pages or more', () => {
    const c = new IndexCompaction(t.services.db, t.services.jobs, { minPages: 2000, minScattered: 0.25 });
    expect(c.needed({ segments: 1, pages: 90_000, largest: 90_000 })).toBe(false);
    expect(c.needed({ segments: 5, pages: 1_999, largest: 100 })).toBe(false);
    expect(c.needed({ segments: 5, pages: 100_000, largest: 80_000 })).toBe(false);
    expect(c.needed({ segments: 5, pages: 100_000, largest: 75_000 })).toBe(true);
    expect(c.needed({ segments: 10, pages: 320_000, largest: 105_000 })).toBe(true); // 1,000,000 entries as imported
  });

  it('leaves a small index alone under the default policy', () => {
    scatter();
    const c = new IndexCompaction(t.services.db, t.services.jobs, DEFAULT_POLICY);
    expect(c.shape()!.segments).toBeGreaterThan(1);
    expect(c.needed()).toBe(false);
    expect(c.schedule()).toBe(false);
  });

  it('merges a scattered index into one segment, step by step, with the same answers', async () => {
    scatter();
    const c = eager();
    const before = c.shape()!;
    expect(before.segments).toBeGreaterThan(2);
    expect(c.needed()).toBe(true);
    const expected = await answers();
    expect(expected.find((a) => a.startsWith('mut*'))).toMatch(/^mut\*: [1-9]/);

    const progress: number[] = [];
    const done = await c.compact({ stepPages: 1, pause: 0, onProgress: (p) => progress.push(p.segments) });
    expect(done.segments).toBe(1);
    expect(done.steps).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(1);
    expect(c.shape()!.segments).toBe(1);
    expect(c.needed()).toBe(false);
    integrityCheck();
    expect(await answers()).toEqual(expected);
    // Nothing left to merge: one step that does nothing.
    expect((await c.compact({ pause: 0 })).steps).toBe(1);
  });

  it('stops when aborted and leaves a valid index that a later run finishes', async () => {
    scatter();
    const c = eager();
    const expected = await answers();
    const abort = new AbortController();
    let steps = 0;
    const stopped = c.compact({ stepPages: 1, pause: 0, signal: abort.signal, onProgress: () => {} });
    // Abort after the first step has run (compact awaits between steps).
    setImmediate(() => abort.abort(new Error('stopped')));
    await expect(stopped).rejects.toThrow('stopped');
    integrityCheck();
    expect(await answers()).toEqual(expected);
    steps = (await c.compact({ stepPages: 4, pause: 0 })).steps;
    expect(steps).toBeGreaterThan(0);
    expect(c.shape()!.segments).toBe(1);
  });

  it('is queued once while one is open, and the worker runs it in a thread of its own', async () => {
    scatter();
    const c = new IndexCompaction(t.services.db, t.services.jobs, { minPages: 1, minScattered: 0.01 }, path.join(t.dir, 'data', 'catalogue.sqlite'));
    const expected = await answers();
    expect(c.schedule()).toBe(true);
    expect(c.schedule()).toBe(false); // already queued
    expect(t.services.jobs.hasOpen(COMPACT_INDEX_JOB)).toBe(true);
    const worker = new JobWorker(t.services.jobs, { [COMPACT_INDEX_JOB]: c.jobHandler() }, { concurrency: 1, pollMs: 20 });
    worker.start();
    try {
      for (let i = 0; i < 250 && t.services.jobs.hasOpen(COMPACT_INDEX_JOB); i++) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await worker.stop();
    }
    expect(t.services.jobs.hasOpen(COMPACT_INDEX_JOB)).toBe(false);
    const job = t.services.db.sqlite.prepare(`SELECT status, result FROM jobs WHERE kind = ? ORDER BY id DESC LIMIT 1`).get(COMPACT_INDEX_JOB) as { status: string; result: string };
    expect(job.status).toBe('finished');
    expect(JSON.parse(job.result)).toMatchObject({ segments: 1 });
    expect(JSON.parse(job.result).segments_before).toBeGreaterThan(1);
    expect(c.shape()!.segments).toBe(1);
    expect(await answers()).toEqual(expected);
  });

  it('looks at the shape again only after enough index changes', () => {
    scatter();
    const c = eager();
    expect(c.scheduleIfChanged()).toBe(true); // first look
    t.services.db.sqlite.prepare(`UPDATE jobs SET status = 'finished' WHERE kind = ?`).run(COMPACT_INDEX_JOB);
    scatter(); // a few hundred documents: below the threshold
    expect(c.needed()).toBe(true);
    expect(c.scheduleIfChanged()).toBe(false);
  });
});
