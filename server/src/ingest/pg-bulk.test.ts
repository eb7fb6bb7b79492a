// The PostgreSQL import's bulk path (COPY, staged full-text rows, entry_fts's index built at the end into
// an empty catalogue: docs/architecture.md, "An import") stores exactly what the SQLite import stores, and
// its full-text rows are the ones the row-at-a-time Indexer writes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../app.ts';
import { loadConfig } from '../config.ts';
import { importJsonl } from './jsonl.ts';
import { fixtureLines, writeFixture } from '../test/fixture.ts';
import { PG_URL, dropTestDatabases, testDatabaseTarget } from '../test/backends.ts';
import type { Dialect } from '../db/connection.ts';
import { PgConnection } from '../db/postgres.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
afterAll(() => dropTestDatabases());

if (!PG_URL) console.log('pg-bulk.test: PostgreSQL is not installed (Debian package postgresql): skipped');

type Line = Record<string, unknown> & { data_sources?: Record<string, unknown>[] };

/** The fixture with every record dated (an undated record takes the time of the import: the two would differ). */
function dated(lines: object[], day: string): Line[] {
  return (lines as Line[]).map((l) => (l.data_sources ? { ...l, data_sources: l.data_sources.map((d) => ({ datestamp: `${day}T10:00:00Z`, ...d })) } : l));
}

/** A first file: the fixture (grouping, a translation, an aggregation, private and inactive libraries) and text COPY must escape. */
function firstFile(): Line[] {
  const lines = dated(fixtureLines(), '2024-03-01');
  lines.push({
    type: 'entry', id: 20, title: 'Tabs\tand\\backslashes', subtitle: 'two\nlines\r\nhere', authors: ['Émile Pouget', 'Émile Pouget'],
    languages: ['fr', 'fr'], year: 1900, data_sources: [{ library_id: 2, identifier: 'b\t20', description: 'a \\N that is text', datestamp: '2024-03-02T08:00:00Z' }],
  });
  return lines;
}

/** A second file: records changed (wording, a description, a later date), one moved to another work, new ones joining held works. */
function secondFile(): Line[] {
  const lines = firstFile().map((l) => {
    if (l.type !== 'entry') return l;
    if (l.id === 2) return { ...l, data_sources: l.data_sources!.map((d) => ({ ...d, description: 'A factor of evolution, revised', datestamp: '2024-05-01T00:00:00Z' })) };
    if (l.id === 4) return { ...l, title: 'Fields, Factories, and Workshops' };
    if (l.id === 9) return { ...l, title: 'Second Essay (revised)', aggregation_position: 3 };
    return l;
  });
  lines.push({ type: 'entry', id: 30, title: 'mutual aid', authors: ['Peter Kropotkin'], languages: ['en'], data_sources: [{ library_id: 1, identifier: 'a-30', datestamp: '2024-06-01T00:00:00Z' }] });
  lines.push({ type: 'entry', id: 31, title: 'Another Part', authors: ['Lucy Parsons'], languages: ['en'], aggregation_id: 7, aggregation_position: 4, data_sources: [{ library_id: 2, identifier: 'b-31', datestamp: '2024-06-02T00:00:00Z' }] });
  lines.push({ type: 'entry', id: 32, title: "L'Entraide mutuelle", authors: ['Peter Kropotkin'], languages: ['fr'], translation_of: 30, data_sources: [{ library_id: 2, identifier: 'b-32', datestamp: '2024-06-03T00:00:00Z' }] });
  return lines;
}

/** What the catalogue holds, in a form both back ends give alike (no clock columns). */
function stored(s: Services): Record<string, unknown[]> {
  const all = (sql: string) => s.db.sqlite.prepare(sql).raw().all();
  return {
    entries: all('SELECT id, title, subtitle, grouping_key, canonical_entry_id, original_entry_id, datestamp FROM entries ORDER BY id'),
    data_sources: all(`SELECT id, site_id, identifier, entry_id, title, subtitle, authors, languages, year_edition, year_first_edition,
      description, publisher, isbn, shelf_location_code, material_description, edition_statement, place_date_of_publication_distribution,
      uri, uri_label, content_type, downloads, full_text, datestamp FROM data_sources ORDER BY id`),
    agents: all('SELECT id, name, normalized_name FROM agents ORDER BY id'),
    entry_agents: all('SELECT entry_id, agent_id, position FROM entry_agents ORDER BY entry_id, agent_id'),
    entry_languages: all('SELECT entry_id, language_code, position FROM entry_languages ORDER BY entry_id, language_code'),
    aggregation_links: all('SELECT aggregation_entry_id, aggregated_entry_id, position FROM aggregation_links ORDER BY 1, 2'),
    search_docs: all('SELECT entry_id, seq, doc, libraries, layers FROM search_docs ORDER BY entry_id'),
    oai_records: all('SELECT entry_id, live, exposed FROM oai_records ORDER BY entry_id'),
    oai_sets: all('SELECT library_id, entry_id FROM oai_sets ORDER BY library_id, entry_id'),
  };
}

describe.skipIf(!PG_URL)('the PostgreSQL bulk import', () => {
  async function fresh(dialect: Dialect): Promise<{ services: Services; dir: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-pgbulk-'));
    dirs.push(dir);
    const databaseUrl = dialect === 'postgres' ? testDatabaseTarget('postgres') : null;
    return { services: await createServices({ ...loadConfig({}), dataDir: path.join(dir, 'data'), databaseUrl }), dir };
  }

  /** Imports the first file, the second (changes), and the second again (unchanged); answers what is stored after each. */
  async function importAll(dialect: Dialect): Promise<{ services: Services; after: Record<string, unknown[]>[] }> {
    const { services, dir } = await fresh(dialect);
    const after: Record<string, unknown[]>[] = [];
    for (const lines of [firstFile(), secondFile(), secondFile()]) {
      const sub = fs.mkdtempSync(path.join(dir, 'file-'));
      await importJsonl(writeFixture(sub, lines), services);
      after.push(stored(services));
    }
    return { services, after };
  }

  it('stores what the SQLite import stores: entries, records, authors, languages, links, index documents and OAI-PMH state, through changes and re-imports', async () => {
    const sqlite = await importAll('sqlite');
    const pg = await importAll('postgres');
    try {
      expect(pg.after[0]!.data_sources!.length).toBe(15);
      // The record with tabs, newlines and backslashes came through COPY as they were written.
      expect(pg.after[0]!.data_sources!.some((r) => (r as unknown[])[2] === 'b\t20' && (r as unknown[])[10] === 'a \\N that is text')).toBe(true);
      expect(pg.after[1]!.aggregation_links).toContainEqual([expect.any(Number), expect.any(Number), 4]);
      for (let i = 0; i < 3; i++) {
        for (const table of Object.keys(sqlite.after[i]!)) expect({ step: i, table, rows: pg.after[i]![table] }).toEqual({ step: i, table, rows: sqlite.after[i]![table] });
      }
    } finally {
      await sqlite.services.db.close();
      await pg.services.db.close();
    }
  });

  it('writes the full-text rows the row-at-a-time Indexer writes, and entry_fts\'s entry index is there after the import', async () => {
    const { services, after } = await importAll('postgres');
    const s = services.db.sqlite;
    try {
      const fts = () => s.prepare('SELECT rowid, title, authors, body, fulltext, languages FROM entry_fts ORDER BY rowid').raw().all();
      const bulk = fts();
      // Every entry with a document has its row (private libraries' copies in layer rows beside them).
      expect(bulk.length).toBeGreaterThanOrEqual(after[2]!.search_docs!.filter((d) => (d as unknown[])[2] !== null).length);
      // Written again row by row (a curation reindexes so), the rows are the same.
      const ids = s.prepare('SELECT id FROM entries WHERE canonical_entry_id IS NULL ORDER BY id').pluck().all() as number[];
      services.indexer.reindex(ids);
      expect(fts()).toEqual(bulk);
      expect(s.prepare("SELECT indexdef FROM pg_indexes WHERE tablename = 'entry_fts' AND indexname = 'entry_fts_entry'").pluck().get()).toMatch(/\(entry_id\)/);
      expect(s.prepare("SELECT indexdef FROM pg_indexes WHERE tablename = 'entries' AND indexname = 'entries_grouping_key'").pluck().get()).toMatch(/\(grouping_key\)/);
      expect(s.prepare(`SELECT count(*) FROM entry_fts WHERE authors ILIKE '%kropotkin%'`).pluck().get()).toBeGreaterThan(0);
      // The OAI-PMH pass dated each record's sets as the record (the triggers' rule).
      expect(s.prepare('SELECT count(*) FROM oai_sets').pluck().get()).toBeGreaterThan(0);
      expect(s.prepare('SELECT count(*) FROM oai_sets s JOIN oai_records r USING (entry_id) WHERE s.datestamp <> r.datestamp').pluck().get()).toBe(0);
    } finally {
      await services.db.close();
    }
  });

  it('into an empty catalogue the foreign keys among the tables it fills are checked once at the end: gone during the import, the same after it and after a rollback', async () => {
    const { services, dir } = await fresh('postgres');
    const s = services.db.sqlite;
    const keys = () => s.prepare(`SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint
      WHERE contype = 'f' AND connamespace = current_schema()::regnamespace ORDER BY 1, 2`).raw().all() as string[][];
    try {
      const before = keys();
      expect(before.map((k) => k[1])).toContain('data_sources_entry_id_fkey');
      const during: string[][][] = [];
      await importJsonl(writeFixture(dir, firstFile()), services, () => { during.push(keys()); });
      const suspended = during.at(-1)!;
      // Those among entries, agents, data sources and the entries' authors and languages; the others stay.
      expect(suspended.map((k) => k[1])).not.toContain('data_sources_entry_id_fkey');
      expect(suspended.map((k) => k[1])).not.toContain('entry_agents_agent_id_fkey');
      expect(suspended.map((k) => k[1])).toContain('data_sources_site_id_fkey');
      expect(suspended.map((k) => k[1])).toContain('aggregation_links_aggregated_entry_id_fkey');
      expect(keys()).toEqual(before);
      // A second import (the catalogue has rows) keeps them throughout.
      const again: string[][][] = [];
      await importJsonl(writeFixture(fs.mkdtempSync(path.join(dir, 'again-')), secondFile()), services, () => { again.push(keys()); });
      for (const k of again) expect(k).toEqual(before);
    } finally {
      await services.db.close();
    }
  });

  it('into a catalogue emptied of entries and records but not of authors, the authors are found again, not made twice', async () => {
    const { services, dir } = await fresh('postgres');
    const s = services.db.sqlite;
    try {
      await importJsonl(writeFixture(dir, firstFile()), services);
      const agents = s.prepare('SELECT id, name FROM agents ORDER BY id').raw().all();
      s.exec('DELETE FROM data_sources; DELETE FROM entries');
      await importJsonl(writeFixture(fs.mkdtempSync(path.join(dir, 'again-')), firstFile()), services);
      expect(s.prepare('SELECT id, name FROM agents ORDER BY id').raw().all()).toEqual(agents);
      expect(s.prepare('SELECT count(*) FROM data_sources').pluck().get()).toBe(15);
    } finally {
      await services.db.close();
    }
  });

  it('a failure at the end rolls it all back: the empty catalogue keeps entry_fts\'s index and no staged row', async () => {
    const { services, dir } = await fresh('postgres');
    const s = services.db.sqlite;
    try {
      const lines = firstFile();
      lines.push({ type: 'entry', id: 500, title: 'Orphan part', authors: [], languages: ['en'], aggregation_id: 404, data_sources: [{ library_id: 1, identifier: 'o-1' }] });
      await expect(importJsonl(writeFixture(dir, lines), services)).rejects.toThrow(/aggregation_id 404 names no entry/);
      for (const table of ['entries', 'data_sources', 'agents', 'entry_fts', 'search_docs', 'oai_records']) {
        expect({ table, rows: s.prepare(`SELECT count(*) FROM ${table}`).pluck().get() }).toEqual({ table, rows: 0 });
      }
      expect(s.prepare("SELECT count(*) FROM pg_indexes WHERE tablename = 'entry_fts' AND indexname = 'entry_fts_entry'").pluck().get()).toBe(1);
      // So is the grouping-key index the import drops while it fills an empty catalogue.
      expect(s.prepare("SELECT count(*) FROM pg_indexes WHERE tablename = 'entries' AND indexname = 'entries_grouping_key'").pluck().get()).toBe(1);
      expect(s.prepare("SELECT to_regclass('pg_temp.import_fts') IS NULL").pluck().get()).toBe(1);
      // The foreign keys dropped for the import are back with the rollback.
      expect(s.prepare("SELECT count(*) FROM pg_constraint WHERE conname IN ('data_sources_entry_id_fkey', 'entry_agents_entry_id_fkey', 'entry_languages_entry_id_fkey')").pluck().get()).toBe(3);
      // The next import is whole.
      await importJsonl(writeFixture(fs.mkdtempSync(path.join(dir, 'again-')), firstFile()), services);
      expect(s.prepare('SELECT count(*) FROM data_sources').pluck().get()).toBe(15);
    } finally {
      await services.db.close();
    }
  });

  it('COPY stores a value as a bound parameter stores it (tabs, newlines, backslashes, NUL, lone surrogates, NULL, bytes)', () => {
    const conn = new PgConnection(testDatabaseTarget('postgres'));
    try {
      conn.exec('CREATE TABLE t (k int, s text, b bytea, n bigint)');
      const values: [string | null, Buffer | null, number | null][] = [
        ['tab\there', Buffer.from([0, 1, 92, 9]), 1], ['line\nbreak\r\n', null, null], ['back\\slash \\N \\t', Buffer.alloc(0), -5],
        ['nul\0inside', null, 2 ** 40], ['lone \ud800 surrogate', null, 0], [null, null, null], ['', null, 7], ['ünïcödé 文字 😀', null, 3],
      ];
      expect(conn.copyRows('t (k, s, b, n)', values.map((v, i) => [i, ...v]))).toBe(values.length);
      const insert = conn.prepare('INSERT INTO t (k, s, b, n) VALUES (?, ?, ?, ?)');
      values.forEach((v, i) => insert.run(100 + i, ...v));
      const rows = (from: number) => conn.prepare('SELECT s, b, n FROM t WHERE k >= ? AND k < ? ORDER BY k').raw().all(from, from + 100);
      expect(rows(0)).toEqual(rows(100));
      // A refused row fails the COPY as a statement does, and the connection goes on.
      expect(() => conn.copyRows('t (k, s, b, n)', [[1, 'x', null, 'not a number']])).toThrow(/bigint/);
      expect(conn.prepare('SELECT count(*) FROM t').pluck().get()).toBe(values.length * 2);
    } finally {
      conn.close();
    }
  });

  it('a write sent without waiting (COPY or a statement) is in place for the next statement, and its error is thrown there, before a commit', () => {
    const conn = new PgConnection(testDatabaseTarget('postgres'));
    try {
      conn.exec('CREATE TABLE t (k int PRIMARY KEY, n bigint)');
      const rows = Array.from({ length: 20_000 }, (_, i) => [i, i * 2]);
      // Rows sent in several chunks: the answer is the number sent, the rows are there for the next statement.
      expect(conn.copyRows('t (k, n)', rows, { later: true })).toBe(rows.length);
      conn.runLater('UPDATE t SET n = n + 1 WHERE k < ?', [10]);
      expect(conn.prepare('SELECT count(*), sum(n) FROM t').raw().get()).toEqual([rows.length, 20_000 * 19_999 + 10]);
      // A refused row: the next statement throws the COPY's error, and the one after works.
      conn.copyRows('t (k, n)', [[1, 5]], { later: true });
      expect(() => conn.prepare('SELECT 1').pluck().get()).toThrow(/duplicate key/);
      expect(conn.prepare('SELECT count(*) FROM t').pluck().get()).toBe(rows.length);
      // Inside a transaction: the commit throws it while a rollback is still possible, and the rollback undoes everything.
      conn.begin();
      conn.copyRows('t (k, n)', [[-1, 0]], { later: true });
      conn.runLater('INSERT INTO t (k, n) VALUES (?, ?)', [0, 0]);
      expect(() => conn.end('COMMIT')).toThrow(/duplicate key/);
      expect(conn.inTransaction).toBe(true);
      conn.end('ROLLBACK');
      expect(conn.prepare('SELECT count(*) FROM t WHERE k < 0').pluck().get()).toBe(0);
      // A rollback does not throw the error of what it rolls back.
      conn.begin();
      conn.copyRows('t (k, n)', [[0, 0]], { later: true });
      conn.end('ROLLBACK');
      expect(conn.prepare('SELECT count(*) FROM t').pluck().get()).toBe(rows.length);
    } finally {
      conn.close();
    }
  });
});
