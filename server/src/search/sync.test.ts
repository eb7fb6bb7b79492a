// The in-memory index follows the database: every change made through another connection (another
// process, a harvest thread) is in the next answer, however many there were.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import path from 'node:path';
import { openDatabase } from '../db/index.ts';
import { Indexer } from './indexer.ts';
import { entryId, testApp, type TestApp } from '../test/fixture.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { SearchIndexLoading } from './service.ts';

const VISIBLE = ['La libertà e il lavoro', 'Mutual Aid', "L'Entraide", 'Fields, Factories and Workshops', 'Anthology of Essays', 'First Essay', 'Second Essay'];

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t.close());

const total = async (query: string) => (await t.app.inject(`/collector/api/search?query=${encodeURIComponent(query)}`)).json().total_entries as number;

describe('sync', () => {
  it('applies every change of another connection, in reads of a bounded size', async () => {
    t.services.search.syncDocs = 2;
    expect(await total('kropotkin')).toBe(3);
    const other = openDatabase(path.join(t.dir, 'data', 'catalogue.sqlite'));
    try {
      const titles = other.sqlite.prepare('UPDATE entries SET title = ? WHERE id = ?');
      const ids = VISIBLE.map((title) => entryId(t.services, title));
      // Seven changed documents: reads of 2, 2, 2 and 1.
      ids.forEach((id, i) => titles.run(`Renamed work ${i}`, id));
      new Indexer(other).reindex(ids);
    } finally {
      await other.close();
    }
    expect(await total('renamed')).toBe(7);
    expect(await total('"renamed work 6"')).toBe(1);
    expect(t.services.search.indexedSeq).toBe(t.services.db.sqlite.prepare('SELECT max(seq) FROM search_docs').pluck().get());
  });

  it('answers 503 with Retry-After and says not ready while the background catch-up takes in a large change, then answers it whole', async () => {
    const search = t.services.search;
    search.largeChangeDocs = 3;
    const other = openDatabase(path.join(t.dir, 'data', 'catalogue.sqlite'));
    let stop = () => {};
    try {
      // The seven renamed by the test before (visible to anyone).
      const ids = other.sqlite.prepare(`SELECT id FROM entries WHERE title LIKE 'Renamed work %'`).pluck().all() as number[];
      expect(ids).toHaveLength(7);
      other.sqlite.prepare(`UPDATE entries SET title = 'Large change ' || id WHERE id IN (${ids.join(',')})`).run();
      new Indexer(other).reindex(ids);
      stop = search.followChanges();
      // Before the background's first slice (a timer: nothing runs between these lines).
      let refused: unknown = null;
      try {
        search.search({ query: 'large', page: 1, filters: {} }, ANONYMOUS);
      } catch (e) {
        refused = e;
      }
      expect(refused).toBeInstanceOf(SearchIndexLoading);
      expect((refused as SearchIndexLoading).statusCode).toBe(503);
      expect(search.notReady()).toMatch(/catching up/);
      await vi.waitFor(() => expect(search.notReady()).toBeNull(), { timeout: 5000 });
      expect(await total('"large change"')).toBe(7);
    } finally {
      stop();
      search.largeChangeDocs = 50_000;
      await other.close();
    }
  });
});
