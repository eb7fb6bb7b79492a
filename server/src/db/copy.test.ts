// npm run db:copy: a SQLite installation (the test catalogue, a user, merges) copied into PostgreSQL
// gives the same rows in every table, ids that continue, and refuses to overwrite without --force.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices } from '../app.ts';
import { loadConfig } from '../config.ts';
import { importJsonl } from '../ingest/jsonl.ts';
import { writeFixture } from '../test/fixture.ts';
import { PG_URL, dropTestDatabases, testDatabaseTarget } from '../test/backends.ts';
import { migrate, openDatabase, type Db } from './index.ts';
import { copySqliteToPostgres, parseCopyArgs, runCopyCli } from './copy.ts';
import type { PgConnection } from './postgres.ts';
import { SearchService } from '../search/service.ts';
import { INDEX_FORMAT } from '../search/indexer.ts';
import { LibraryService } from '../libraries/service.ts';
import { AgentService } from '../agents/service.ts';
import { ExclusionStore } from '../curation/exclusions.ts';
import { AuthorResolver } from '../agents/resolve.ts';
import { ANONYMOUS } from '../http/viewer.ts';

const dirs: string[] = [];
afterAll(() => {
  dropTestDatabases();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A SQLite installation with the test catalogue, a superuser and two merges (one into a later entry). */
async function installation(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-copy-'));
  dirs.push(dir);
  const services = await createServices({ ...loadConfig({}), dataDir: path.join(dir, 'data') });
  services.indexer.ensureFormat(); // as `serve` does at its start: the index format is recorded
  await importJsonl(writeFixture(dir), services);
  const userId = await services.accounts.createUser({ username: 'curator', password: 'a long password', is_superuser: true, can_merge: true });
  const viewer = services.accounts.viewerOf(services.accounts.getUser(userId)!);
  const ids = services.db.sqlite.prepare('SELECT id FROM entries ORDER BY id').pluck().all() as number[];
  // The later entry kept: the earlier one points to a row copied after it.
  expect(services.curation.mergeEntries(viewer, [ids.at(-1)!, ids[0]!]).error).toBeNull();
  const agents = services.db.sqlite.prepare('SELECT id FROM agents ORDER BY id').pluck().all() as number[];
  expect(services.curation.mergeAgents(viewer, [agents.at(-1)!, agents[0]!]).error).toBeNull();
  // A page deleted after the last one: its id is not given again (SQLite's AUTOINCREMENT).
  const page = Number(services.db.sqlite.prepare("INSERT INTO pages (title, content, language) VALUES ('Gone', '', 'en')").run().lastInsertRowid);
  services.db.sqlite.prepare('DELETE FROM pages WHERE id = ?').run(page);
  const file = services.db.sqlite.name;
  await services.db.close();
  return file;
}

function tableCounts(db: Db): Record<string, number> {
  const names = db.sqlite.dialect === 'sqlite'
    ? db.sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'
        AND name NOT LIKE 'entry_fts%'`).pluck().all() as string[]
    : db.sqlite.prepare(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()
        AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'kysely_%' AND table_name <> 'entry_fts'`).pluck().all() as string[];
  return Object.fromEntries(names.sort().map((t) => [t, db.sqlite.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number]));
}

describe('db:copy arguments', () => {
  it('needs a postgres:// target and knows its options', () => {
    expect(parseCopyArgs([])).toMatch(/--to is missing/);
    expect(parseCopyArgs(['--to', '/tmp/x.sqlite'])).toMatch(/postgres:\/\//);
    expect(parseCopyArgs(['--to', 'postgres://u@h/d', '--bogus'])).toMatch(/unknown argument "--bogus"/);
    expect(parseCopyArgs(['--to', 'postgres://u@h/d', '--from', 'a.sqlite', '--force'])).toEqual({ to: 'postgres://u@h/d', from: 'a.sqlite', force: true });
  });
});

describe.skipIf(!PG_URL)('db:copy from SQLite to PostgreSQL', () => {
  it('copies every table with the same rows, continues ids, and refuses a non-empty target without --force', async () => {
    const from = await installation();
    const to = testDatabaseTarget('postgres');
    const lines: string[] = [];
    const log = (l: string) => lines.push(l);
    expect(await runCopyCli(['--to', to, '--from', from], '/nonexistent', log)).toBe(0);
    expect(lines.at(-1)).toMatch(/^Copied \d+ rows in \d+ tables/);

    const lite = openDatabase(from);
    const pg = openDatabase(to);
    try {
      const counts = tableCounts(lite);
      expect(counts.entries).toBeGreaterThan(5);
      expect(counts.oai_records).toBeGreaterThan(5);
      expect(counts.changes).toBe(2);
      expect(tableCounts(pg)).toEqual(counts);

      // Rows as they were: ids, merges (references to later rows), index snapshots, OAI-PMH datestamps, the token key.
      const same = (sql: string) => expect(pg.sqlite.prepare(sql).all()).toEqual(lite.sqlite.prepare(sql).all());
      same('SELECT id, title, canonical_entry_id, original_entry_id, grouping_key, datestamp FROM entries ORDER BY id');
      same('SELECT id, name, canonical_agent_id FROM agents ORDER BY id');
      same('SELECT entry_id, doc, libraries FROM search_docs ORDER BY entry_id');
      same('SELECT entry_id, datestamp, live, exposed FROM oai_records ORDER BY entry_id');
      same('SELECT key FROM oai_secret');
      same("SELECT name, value FROM settings WHERE name = 'index_format'");
      same('SELECT username, password_hash, is_superuser FROM users ORDER BY id');
      expect(pg.sqlite.prepare('SELECT count(*) FROM entries WHERE canonical_entry_id > id').pluck().get()).toBe(1);

      // New rows get ids after the copied ones; the triggers run again (a new library is an OAI-PMH set).
      const maxLib = lite.sqlite.prepare('SELECT max(id) FROM libraries').pluck().get() as number;
      const newLib = Number(pg.sqlite.prepare('INSERT INTO libraries (name, public, active) VALUES (?, 1, 1)').run('New').lastInsertRowid);
      expect(newLib).toBe(maxLib + 1);
      expect(pg.sqlite.prepare('SELECT count(*) FROM oai_exposed_libraries WHERE library_id = ?').pluck().get(newLib)).toBe(1);
      const lastPage = lite.sqlite.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'pages'").pluck().get() as number;
      expect(lastPage).toBeGreaterThan(lite.sqlite.prepare('SELECT coalesce(max(id), 0) FROM pages').pluck().get() as number);
      expect(Number(pg.sqlite.prepare("INSERT INTO pages (title, content, language) VALUES ('New', '', 'en')").run().lastInsertRowid)).toBe(lastPage + 1);
      // The same searches find the same entries (entry_fts rebuilt on PostgreSQL from the copied rows).
      const [a, b] = [lite, pg].map((d) => new SearchService(d, new LibraryService(d), new AgentService(d), new ExclusionStore(d), new AuthorResolver(d)));
      const found = (s: SearchService, query: string) => s.search({ query, page: 1, pageSize: 100, filters: {}, exact: true }, ANONYMOUS).matches.map((m) => m.entry_id).sort();
      for (const query of ['kropotkin', 'mutual aid', '"small guide"', 'essay*', 'title:libertà', 'author:goldman OR zapata']) {
        expect(found(b, query), query).toEqual(found(a, query));
      }
      expect(found(b, 'kropotkin').length).toBeGreaterThan(1);
      // A row per entry, and a layer row per private library holding a copy of it (search/layers.ts).
      const layerRows = (lite.sqlite.prepare('SELECT layers FROM search_docs WHERE layers IS NOT NULL').pluck().all() as string[])
        .reduce((n, layers) => n + (JSON.parse(layers) as number[]).length, 0);
      expect(layerRows).toBeGreaterThan(0);
      expect(pg.sqlite.prepare('SELECT count(*) FROM entry_fts').pluck().get())
        .toBe((lite.sqlite.prepare('SELECT count(*) FROM entries WHERE canonical_entry_id IS NULL').pluck().get() as number) + layerRows);
    } finally {
      await lite.close();
      await pg.close();
    }

    // The target has rows now: refused, and nothing changed; --force replaces them.
    lines.length = 0;
    expect(await runCopyCli(['--to', to, '--from', from], '/nonexistent', log)).toBe(1);
    expect(lines.join('\n')).toMatch(/not empty .*--force/);
    const again = openDatabase(to);
    expect(again.sqlite.prepare("SELECT count(*) FROM libraries WHERE name = 'New'").pluck().get()).toBe(1);
    await again.close();
    // A source indexed in an older format: rebuilt on PostgreSQL and marked current there.
    const old = openDatabase(from);
    old.sqlite.prepare("UPDATE settings SET value = '1' WHERE name = 'index_format'").run();
    await old.close();
    expect(await runCopyCli(['--to', to, '--from', from, '--force'], '/nonexistent', log)).toBe(0);
    const forced = openDatabase(to);
    const lite2 = openDatabase(from);
    expect(tableCounts(forced)).toEqual(tableCounts(lite2));
    expect(forced.sqlite.prepare("SELECT value FROM settings WHERE name = 'index_format'").pluck().get()).toBe(String(INDEX_FORMAT));
    expect(forced.sqlite.prepare('SELECT count(*) FROM entry_fts').pluck().get()).toBe(
      (lite2.sqlite.prepare('SELECT count(*) FROM entries WHERE canonical_entry_id IS NULL').pluck().get() as number)
      + (lite2.sqlite.prepare('SELECT layers FROM search_docs WHERE layers IS NOT NULL').pluck().all() as string[]).reduce((n, l) => n + (JSON.parse(l) as number[]).length, 0));
    await forced.close();
    await lite2.close();
  });

  it('reads DATA_DIR\'s database by default and says when there is none', async () => {
    const lines: string[] = [];
    expect(await runCopyCli(['--to', PG_URL], path.join(os.tmpdir(), 'no-such-dir', 'catalogue.sqlite'), (l) => lines.push(l))).toBe(2);
    expect(lines[0]).toMatch(/No SQLite database at .*no-such-dir/);
  });

  it('shows progress with rows per second on a long table, and copies every table as of one moment', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-copy-'));
    dirs.push(dir);
    const from = path.join(dir, 'big.sqlite');
    const lite = openDatabase(from);
    await migrate(lite);
    lite.sqlite.prepare(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
      INSERT INTO agents (name, normalized_name) SELECT 'Writer ' || i, 'writer ' || i FROM n`).run();
    const src = openDatabase(from);
    const dst = openDatabase(testDatabaseTarget('postgres'));
    await migrate(dst);
    const lines: string[] = [];
    // A node still writing during the copy: its row (in a table copied later) is not half-taken.
    const log = (l: string) => {
      if (!lines.length) lite.sqlite.prepare("INSERT INTO wikidata_cache (wikidata_id, language, card, fetched_at) VALUES ('Q1', 'en', '{}', 1)").run();
      lines.push(l);
    };
    try {
      const s = copySqliteToPostgres(src.sqlite, dst.sqlite as PgConnection, { log, progressEveryMs: 1 });
      expect(s.tables.find((t) => t.name === 'agents')?.rows).toBe(30000);
      expect(lines.some((l) => /^agents: [\d,]+ of 30,000 rows, [\d,]+ rows\/s$/.test(l))).toBe(true);
      expect(lite.sqlite.prepare('SELECT count(*) FROM wikidata_cache').pluck().get()).toBe(1);
      expect(dst.sqlite.prepare('SELECT count(*) FROM wikidata_cache').pluck().get()).toBe(0);
    } finally {
      await lite.close();
      await src.close();
      await dst.close();
    }
  });
});
