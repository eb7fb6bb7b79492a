// The full-text builder (an import into an empty catalogue): rows given again replace the earlier ones,
// dropped rows go, the built index replaces entry_fts in the caller's transaction (a rollback keeps the
// old one), and the connection that copied it sees it at once.
import fs from 'node:fs';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { beginImmediate } from '../db/connection.ts';
import { dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { FtsBuilder } from './fts-builder.ts';
import type { FtsText } from './fts-text.ts';

afterAll(() => dropTestDatabases());

describe('FtsBuilder', () => {
  let db: Db;
  let file: string;
  beforeEach(async () => {
    file = await migratedTestDatabase('sqlite');
    db = openDatabase(file);
  });
  afterEach(async () => {
    await db.close();
  });

  const matches = (query: string) => db.sqlite.prepare('SELECT rowid FROM entry_fts WHERE entry_fts MATCH ? ORDER BY rowid').pluck().all(query);
  const text = (title: string, body = ''): FtsText => [title, 'Mara Quell', body, ''];

  it('writes the last text given for each entry, drops what was dropped, and the same connection finds it at once', async () => {
    expect(matches('quell')).toEqual([]); // this connection has read the empty index
    const transaction = beginImmediate(db.sqlite);
    const builder = FtsBuilder.forEmptyIndex(db)!;
    builder.put(1, text('Tidewater Almanac'));
    builder.put(2, text('Harbour Ledger'));
    builder.put(3, text('Salt Atlas', 'a lighthouse keeper'));
    for (let i = 0; i < 2500; i++) builder.put(100 + i, text(`Pamphlet ${i}`)); // several messages
    builder.put(1, text('Tidewater Almanac', 'revised with maps')); // changed: replaced
    builder.drop(2); // left the catalogue
    builder.put(3, text('Salt Atlas', 'a lighthouse keeper')); // the same again: kept
    builder.drop(4); // never given: nothing to drop
    await builder.keepUp();
    await builder.finishInto(db);
    transaction.commit();
    expect(fs.existsSync(`${file}-import-fts`)).toBe(false);
    expect(matches('tidewater')).toEqual([1]);
    expect(matches('maps')).toEqual([1]);
    expect(matches('harbour')).toEqual([]);
    expect(matches('lighthouse')).toEqual([3]);
    expect(matches('pamphlet')).toHaveLength(2500);
    expect(matches('quell')).toHaveLength(2502);
    // Prefix indexes and bm25's statistics came along: a two-letter prefix, and a rank for every match.
    expect(matches('pa*')).toHaveLength(2500);
    expect(db.sqlite.prepare("SELECT count(*) FROM entry_fts WHERE entry_fts MATCH 'quell' AND rank < 0").pluck().get()).toBe(2502);
    expect(() => db.sqlite.exec("INSERT INTO entry_fts (entry_fts, rank) VALUES ('integrity-check', 1)")).not.toThrow();
    // The catalogue's own FTS5 settings stay (the builder's bulk ones were its scratch table's).
    expect(db.sqlite.prepare("SELECT v FROM entry_fts_config WHERE k = 'automerge'").pluck().get()).toBeUndefined();
  });

  it('a rollback keeps the index as it was; an abandoned build leaves no file', async () => {
    let transaction = beginImmediate(db.sqlite);
    let builder = FtsBuilder.forEmptyIndex(db)!;
    builder.put(1, text('Tidewater Almanac'));
    await builder.finishInto(db);
    transaction.rollback();
    expect(matches('tidewater')).toEqual([]);
    transaction = beginImmediate(db.sqlite);
    builder = FtsBuilder.forEmptyIndex(db)!;
    builder.put(1, text('Tidewater Almanac'));
    await builder.abandon();
    transaction.rollback();
    expect(fs.existsSync(`${file}-import-fts`)).toBe(false);
    expect(matches('tidewater')).toEqual([]);
  });

  it("a killed import's scratch database is removed at the next start, not while an import holds the catalogue", async () => {
    fs.writeFileSync(`${file}-import-fts`, 'left by a killed import');
    const importing = openDatabase(file);
    const transaction = beginImmediate(importing.sqlite);
    FtsBuilder.removeLeftover(db);
    expect(fs.existsSync(`${file}-import-fts`)).toBe(true);
    transaction.rollback();
    await importing.close();
    FtsBuilder.removeLeftover(db);
    expect(fs.existsSync(`${file}-import-fts`)).toBe(false);
  });

  it('is not used where entry_fts holds rows, nor outside a transaction', () => {
    expect(() => FtsBuilder.forEmptyIndex(db)).toThrow(/no transaction/);
    db.sqlite.prepare('INSERT INTO entries (id, title, grouping_key, datestamp) VALUES (1, ?, ?, ?)').run('Almanac', 'k', '2026-01-01T00:00:00Z');
    db.sqlite.prepare('INSERT INTO search_docs (entry_id, seq, doc) VALUES (1, 1, ?)').run('{}');
    const transaction = beginImmediate(db.sqlite);
    expect(FtsBuilder.forEmptyIndex(db)).toBeNull();
    transaction.rollback();
  });
});
