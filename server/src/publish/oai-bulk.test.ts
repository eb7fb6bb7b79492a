// A bulk load writes the OAI-PMH record state set-wise at its end (oai-bulk.ts): the same records and
// sets as the per-row triggers give, the triggers back after the load, and untouched by a failed one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { testApp, fixtureLines, type TestApp } from '../test/fixture.ts';
import { importJsonl, ImportError } from '../ingest/jsonl.ts';
import { WRITTEN_TRIGGERS } from './migrations.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t.close());

const rows = (sql: string) => t.services.db.sqlite.prepare(sql).all();
const state = () => ({
  records: rows('SELECT entry_id, live, exposed FROM oai_records ORDER BY entry_id'),
  sets: rows('SELECT library_id, entry_id FROM oai_sets ORDER BY library_id, entry_id'),
});
const triggers = () => rows(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'oai_doc_%' ORDER BY name`);

describe('OAI-PMH records of a bulk load', () => {
  it('are those the per-row triggers write, and the triggers are back after the load', () => {
    const imported = state();
    // Every indexed entry has a live record; the private library's entry is not exposed.
    expect(imported.records.filter((r) => (r as { live: number }).live === 1)).toHaveLength(
      rows('SELECT entry_id FROM search_docs WHERE doc IS NOT NULL').length);
    expect(imported.records.some((r) => (r as { exposed: number }).exposed === 0)).toBe(true);
    expect(imported.sets.length).toBeGreaterThan(imported.records.length / 2);
    expect(triggers().map((r) => (r as { name: string }).name)).toEqual(expect.arrayContaining(WRITTEN_TRIGGERS));

    // Indexing every entry again, row by row through the triggers, writes the same state.
    const ids = rows('SELECT entry_id FROM search_docs').map((r) => (r as { entry_id: number }).entry_id);
    const seq = rows('SELECT max(seq) AS seq FROM search_docs')[0] as { seq: number };
    t.services.indexer.reindex(ids);
    expect((rows('SELECT max(seq) AS seq FROM search_docs')[0] as { seq: number }).seq).toBeGreaterThan(seq.seq);
    expect(state()).toEqual(imported);
  });

  it('a failed load leaves the records and the triggers as they were', async () => {
    const before = { ...state(), triggers: triggers() };
    const file = path.join(t.dir, 'bad.jsonl');
    const lines = fixtureLines();
    const library = (lines.find((l) => (l as { type: string }).type === 'library') as { id: number }).id;
    const added = { type: 'entry', id: 9001, title: 'Tidewater Almanac', authors: ['Mara Quell'], languages: ['en'], data_sources: [{ library_id: library, identifier: 'tide-1' }] };
    fs.writeFileSync(file, [...lines, added, { type: 'entry', id: 1, title: 'A second line with the first id', authors: [], languages: [], data_sources: [] }]
      .map((l) => JSON.stringify(l)).join('\n'));
    await expect(importJsonl(file, t.services)).rejects.toBeInstanceOf(ImportError);
    expect({ ...state(), triggers: triggers() }).toEqual(before);
  });
});
