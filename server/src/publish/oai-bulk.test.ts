// A bulk load writes the OAI-PMH record state set-wise at its end (oai-bulk.ts): the same records and
// sets as the per-row triggers give, the triggers at work again after the load, and untouched by a
// failed one. On both back ends (SQLite drops and remakes the triggers, PostgreSQL skips them by a
// setting of the load's own transaction).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { testApp, fixtureLines, type TestApp } from '../test/fixture.ts';
import { BACKENDS } from '../test/backends.ts';
import { importJsonl, ImportError } from '../ingest/jsonl.ts';
import { WRITTEN_TRIGGERS } from './migrations.ts';

describe.each(BACKENDS)('OAI-PMH records of a bulk load on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(undefined, {}, dialect);
  });
  afterAll(async () => t?.close());

  const rows = (sql: string) => t.services.db.sqlite.prepare(sql).all();
  const run = (sql: string) => t.services.db.sqlite.prepare(sql).run();
  const state = () => ({
    records: rows('SELECT entry_id, live, exposed FROM oai_records ORDER BY entry_id'),
    sets: rows('SELECT library_id, entry_id FROM oai_sets ORDER BY library_id, entry_id'),
  });
  const triggers = () => (dialect === 'postgres'
    ? rows(`SELECT tgname AS name FROM pg_trigger WHERE tgname LIKE 'oai_doc_%' ORDER BY tgname`)
    : rows(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'oai_doc_%' ORDER BY name`));

  it('are those the per-row triggers write, and the triggers work again after the load', () => {
    const imported = state();
    // Every indexed entry has a live record; the private library's entry is not exposed.
    expect(imported.records.filter((r) => Number((r as { live: number }).live) === 1)).toHaveLength(
      rows('SELECT entry_id FROM search_docs WHERE doc IS NOT NULL').length);
    expect(imported.records.some((r) => Number((r as { exposed: number }).exposed) === 0)).toBe(true);
    expect(imported.sets.length).toBeGreaterThan(imported.records.length / 2);
    expect(triggers().map((r) => (r as { name: string }).name)).toEqual(expect.arrayContaining(WRITTEN_TRIGGERS));

    // With the state gone, indexing every entry again row by row makes the triggers write it as it was.
    const ids = rows('SELECT entry_id FROM search_docs').map((r) => Number((r as { entry_id: number }).entry_id));
    run('DELETE FROM oai_sets');
    run('DELETE FROM oai_records');
    t.services.indexer.reindex(ids);
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
