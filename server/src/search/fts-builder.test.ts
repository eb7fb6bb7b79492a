// The full-text builder (an import into an empty catalogue): rows given again replace the earlier ones,
// dropped rows go, the built index replaces entry_fts in the caller's transaction (a rollback keeps the
// old one), the connection that copied it sees it at once, and no scratch file outlives its import.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
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
  const scratchFiles = () => fs.readdirSync(path.dirname(file)).filter((f) => f.startsWith(`${path.basename(file)}-import-fts-`));
  /** A builder attached, in a transaction, with its thread started. */
  const started = () => {
    const builder = FtsBuilder.attach(db)!;
    const transaction = beginImmediate(db.sqlite);
    expect(builder.start()).toBe(true);
    return { builder, transaction };
  };

  it('writes the last text given for each entry, drops what was dropped, and the same connection finds it at once', async () => {
    expect(matches('quell')).toEqual([]); // this connection has read the empty index
    const { builder, transaction } = started();
    expect(scratchFiles()).toEqual([`${path.basename(file)}-import-fts-${process.pid}`]);
    builder.put(1, text('Tidewater Almanac'));
    builder.put(2, text('Harbour Ledger'));
    builder.put(3, text('Salt Atlas', 'a lighthouse keeper'));
    for (let i = 0; i < 2500; i++) builder.put(100 + i, text(`Pamphlet ${i}`)); // several messages
    builder.put(1, text('Tidewater Almanac', 'revised with maps')); // changed: replaced
    builder.drop(2); // left the catalogue
    builder.put(3, text('Salt Atlas', 'a lighthouse keeper')); // the same again: kept
    builder.drop(4); // never given: nothing to drop
    await builder.keepUp();
    await builder.finishInto();
    transaction.commit();
    await builder.close();
    expect(scratchFiles()).toEqual([]);
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
    let { builder, transaction } = started();
    builder.put(1, text('Tidewater Almanac'));
    await builder.finishInto();
    transaction.rollback();
    await builder.close();
    expect(matches('tidewater')).toEqual([]);
    ({ builder, transaction } = started());
    builder.put(1, text('Tidewater Almanac'));
    transaction.rollback();
    await builder.close();
    expect(scratchFiles()).toEqual([]);
    expect(matches('tidewater')).toEqual([]);
    // The connection is as it was: nothing attached.
    expect(db.sqlite.prepare('SELECT name FROM pragma_database_list').pluck().all()).toEqual(['main']);
  });

  it('lets another connection write the catalogue only after the import, and the thread write its scratch database meanwhile', async () => {
    const { builder, transaction } = started();
    const other = openDatabase(file);
    other.sqlite.pragma('busy_timeout = 0');
    expect(() => other.sqlite.prepare("INSERT INTO settings (name, value) VALUES ('x', '1')").run()).toThrow(/locked|busy/);
    for (let i = 0; i < 3000; i++) builder.put(i + 1, text(`Pamphlet ${i}`));
    await builder.finishInto(); // the thread wrote and committed its scratch database
    transaction.commit();
    await builder.close();
    other.sqlite.prepare("INSERT INTO settings (name, value) VALUES ('x', '1')").run();
    expect(other.sqlite.prepare("SELECT count(*) FROM entry_fts WHERE entry_fts MATCH 'pamphlet'").pluck().get()).toBe(3000);
    await other.close();
  });

  it("a killed import's scratch database is removed at the next start, not a running one's", () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.pid']).pid!; // a process that has ended
    fs.writeFileSync(`${file}-import-fts-${gone}`, 'left by a killed import');
    fs.writeFileSync(`${file}-import-fts-${gone}-journal`, 'and its journal');
    fs.writeFileSync(`${file}-import-fts-${process.pid}`, 'an import running now');
    FtsBuilder.removeLeftovers(db);
    expect(scratchFiles()).toEqual([`${path.basename(file)}-import-fts-${process.pid}`]);
    fs.rmSync(`${file}-import-fts-${process.pid}`);
  });

  it('is not used where entry_fts holds rows, and attaches outside a transaction only', async () => {
    const builder = FtsBuilder.attach(db)!;
    // An entry indexed between the attach and the import's transaction (another writer): not started.
    db.sqlite.prepare('INSERT INTO entries (id, title, grouping_key, datestamp) VALUES (1, ?, ?, ?)').run('Almanac', 'k', '2026-01-01T00:00:00Z');
    db.sqlite.prepare('INSERT INTO search_docs (entry_id, seq, doc) VALUES (1, 1, ?)').run('{}');
    const transaction = beginImmediate(db.sqlite);
    expect(builder.start()).toBe(false);
    expect(() => FtsBuilder.attach(db)).toThrow(/a transaction is open/);
    transaction.rollback();
    await builder.close();
    expect(scratchFiles()).toEqual([]);
    // With an index already there, no scratch database at all.
    expect(FtsBuilder.attach(db)).toBeNull();
    expect(scratchFiles()).toEqual([]);
  });
});
