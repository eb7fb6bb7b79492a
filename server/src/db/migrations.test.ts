// Every module's migrations run on both back ends and give the same tables and columns (PostgreSQL's
// only on runs with a cluster, server/src/test/pg-global-setup.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from './index.ts';
import { BACKENDS, PG_URL, dropTestDatabases, testDatabaseTarget } from '../test/backends.ts';
import type { Dialect } from './connection.ts';

afterAll(() => dropTestDatabases());

type Column = { name: string; type: string; notnull: number };

/** SQLite's storage classes, the PostgreSQL types the schema builder gives them (db/pg-open.ts). */
const TYPE_CLASS: Record<string, string> = { bigint: 'integer', 'double precision': 'real', bytea: 'blob', text: 'text' };

function schemaOf(db: Db): Record<string, Column[]> {
  const out: Record<string, Column[]> = {};
  if (db.sqlite.dialect === 'sqlite') {
    const tables = db.sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
      AND name NOT LIKE 'kysely_%' AND name NOT LIKE 'entry_fts_%' ORDER BY name`).pluck().all() as string[];
    for (const t of tables) {
      out[t] = (db.sqlite.prepare(`SELECT name, lower(type) AS type, ("notnull" OR pk > 0) AS nn FROM pragma_table_info(?) ORDER BY cid`).all(t) as (Omit<Column, 'notnull'> & { nn: number })[])
        .map(({ nn, ...c }) => ({ ...c, type: c.type || 'any', notnull: nn ? 1 : 0 }));
    }
  } else {
    const rows = db.sqlite.prepare(`SELECT table_name AS t, column_name AS name, data_type AS type, is_nullable = 'NO' AS notnull
      FROM information_schema.columns WHERE table_schema = current_schema() AND table_name NOT LIKE 'kysely_%'
      ORDER BY table_name, ordinal_position`).all() as (Column & { t: string })[];
    for (const { t, ...c } of rows) (out[t] ??= []).push({ ...c, type: TYPE_CLASS[c.type] ?? c.type });
  }
  return out;
}

async function migrated(dialect: Dialect): Promise<Db> {
  const db = openDatabase(testDatabaseTarget(dialect));
  await migrate(db);
  return db;
}

describe('migrations', () => {
  it.skipIf(!PG_URL)('give PostgreSQL the tables and columns SQLite has (entry_fts: the rows\' texts, which each node\'s text mirror indexes, instead of FTS5)', async () => {
    const [lite, pg] = [await migrated('sqlite'), await migrated('postgres')];
    try {
      const a = schemaOf(lite);
      const b = schemaOf(pg);
      expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
      expect(a.entry_fts!.map((c) => c.name)).toEqual(['title', 'authors', 'body', 'fulltext']);
      expect(b.entry_fts!.map((c) => `${c.name} ${c.type}`)).toEqual(['rowid integer', 'entry_id integer', 'title text', 'authors text', 'body text', 'fulltext text', 'languages text']);
      delete a.entry_fts;
      delete b.entry_fts;
      expect(b).toEqual(a);
      expect(Object.keys(a).length).toBeGreaterThan(30);
    } finally {
      await lite.close();
      await pg.close();
    }
  });

  it.skipIf(!PG_URL)("strftime answers on PostgreSQL as SQLite's does: the columns' default (inlined) and the other formats", async () => {
    const [lite, pg] = [await migrated('sqlite'), await migrated('postgres')];
    try {
      const cases: [string, string, string | null][] = [
        ['%Y-%m-%dT%H:%M:%fZ', '2020-02-29T23:59:58.125Z', null],
        ['%Y-%m-%dT%H:%M:%fZ', '2020-02-29T23:59:58.125Z', '+1 day'],
        ['%Y-%m-%dT%H:%M:%SZ', '2021-12-31T00:00:01.999Z', null],
        ['%Y-%m-%d %%s=%s', '2001-09-09T01:46:40Z', null],
      ];
      const on = (db: Db, [fmt, t, m]: (typeof cases)[number]) =>
        db.sqlite.prepare(m === null ? 'SELECT strftime(?, ?)' : 'SELECT strftime(?, ?, ?)').pluck().get(...[fmt, t, ...(m === null ? [] : [m])]);
      for (const c of cases) expect(on(pg, c), c.join(' ')).toBe(on(lite, c));
      const now = (db: Db) => db.sqlite.prepare("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now')").pluck().get() as string;
      const [a, b] = [now(lite), now(pg)];
      expect(b).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Math.abs(Date.parse(a) - Date.parse(b))).toBeLessThan(5_000);
    } finally {
      await lite.close();
      await pg.close();
    }
  });

  it.each(BACKENDS)('on %s: defaults give SQLite timestamps and the OAI-PMH triggers keep records and sets', async (dialect) => {
    const db = await migrated(dialect);
    try {
      const s = db.sqlite;
      const lib = Number(s.prepare("INSERT INTO libraries (name, public, active) VALUES (?, 1, 1)").run('Open').lastInsertRowid);
      const hidden = Number(s.prepare("INSERT INTO libraries (name, public, active) VALUES (?, 0, 1)").run('Closed').lastInsertRowid);
      expect(s.prepare('SELECT created FROM libraries WHERE id = ?').pluck().get(lib)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(s.prepare('SELECT library_id FROM oai_exposed_libraries').pluck().all()).toEqual([lib]);

      s.prepare('INSERT INTO search_docs (entry_id, seq, doc, libraries) VALUES (?, 1, ?, ?)').run(7, '{}', JSON.stringify([lib, hidden]));
      s.prepare('INSERT INTO search_docs (entry_id, seq, doc, libraries) VALUES (?, 1, ?, ?)').run(8, '{}', JSON.stringify([hidden]));
      expect(s.prepare('SELECT entry_id, live, exposed FROM oai_records ORDER BY entry_id').all())
        .toEqual([{ entry_id: 7, live: 1, exposed: 1 }, { entry_id: 8, live: 1, exposed: 0 }]);
      expect(s.prepare('SELECT library_id FROM oai_sets WHERE entry_id = 7 ORDER BY library_id').pluck().all()).toEqual([lib, hidden]);
      expect(s.prepare('SELECT datestamp FROM oai_records WHERE entry_id = 7').pluck().get()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

      // The hidden library is shown: its record becomes exposed; a dropped doc stays, no longer live.
      s.prepare('UPDATE libraries SET public = 1 WHERE id = ?').run(hidden);
      s.prepare('UPDATE search_docs SET doc = NULL WHERE entry_id = 7').run();
      expect(s.prepare('SELECT entry_id, live, exposed FROM oai_records ORDER BY entry_id').all())
        .toEqual([{ entry_id: 7, live: 0, exposed: 1 }, { entry_id: 8, live: 1, exposed: 1 }]);
      expect(s.prepare('SELECT count(*) FROM oai_exposed_libraries').pluck().get()).toBe(2);
    } finally {
      await db.close();
    }
  });
});
