// The title order is computed once (a rank per entry) and changed entries are merged into it: a title
// changed after the order was built sorts where its new title belongs, through HTTP and in the order
// a large match set walks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { openDatabase } from '../db/index.ts';
import { Indexer } from './indexer.ts';
import { entryId, testApp, type TestApp } from '../test/fixture.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t.close());

const byTitle = async (sort = 'title_asc') => (await t.app.inject(`/collector/api/search?sort_by=${sort}&page_size=100`)).json()
  .matches.map((m: { title: { value: string }[] }) => m.title[0].value) as string[];

describe('title order', () => {
  it('places entries renamed after the order was built by their new titles, before and after the merge', async () => {
    const before = await byTitle();
    expect(before[0]).toBe('A Small Guide');
    const index = t.services.search.index;
    const order = Array.from(index.titleOrder()); // as a large match set builds it
    expect(order.map((id) => t.services.db.sqlite.prepare('SELECT title FROM entries WHERE id = ?').pluck().get(id)).filter((x) => before.includes(x as string)))
      .toEqual(before);

    const other = openDatabase(path.join(t.dir, 'data', 'catalogue.sqlite'));
    try {
      const rename = other.sqlite.prepare('UPDATE entries SET title = ? WHERE id = ?');
      const ids = [entryId(t.services, 'Zapata and the Land'), entryId(t.services, 'A Small Guide')];
      rename.run('Aardvark Papers', ids[0]);
      rename.run('Zz Last Pamphlet', ids[1]);
      new Indexer(other).reindex(ids);
    } finally {
      await other.close();
    }
    const expected = ['Aardvark Papers', ...before.filter((x) => x !== 'Zapata and the Land' && x !== 'A Small Guide'), 'Zz Last Pamphlet'];
    // Sorted by the keys while the order is stale, then by the merged order's ranks: the same answer.
    expect(await byTitle()).toEqual(expected);
    index.titleOrder();
    expect(await byTitle()).toEqual(expected);
    expect(await byTitle('title_desc')).toEqual([...expected].reverse());
    const walk = Array.from(index.titleOrder()).filter((id) => id === entryId(t.services, 'Aardvark Papers') || id === entryId(t.services, 'Zz Last Pamphlet'));
    expect(walk).toEqual([entryId(t.services, 'Aardvark Papers'), entryId(t.services, 'Zz Last Pamphlet')]);
  });
});
