// Statements per search on PostgreSQL (docs/architecture.md, "Database back ends"): each one is a round
// trip that blocks the node, so a search reads the libraries' version once, finds and ranks its text in
// the node's text mirror (no statement) and keeps the aggregations' names until the index changes; and
// none of that may leave an answer stale once something changed.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { PgConnection } from '../db/postgres.ts';
import { PG_URL, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { CatalogueRows } from '../test/catalogue-rows.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { LibraryService } from '../libraries/service.ts';
import { AgentService } from '../agents/service.ts';
import { AuthorResolver } from '../agents/resolve.ts';
import { ExclusionStore } from '../curation/exclusions.ts';
import { Indexer } from './indexer.ts';
import { SearchService, type SearchParams } from './service.ts';

if (!PG_URL) console.log('statements.test: PostgreSQL is not installed (Debian package postgresql): skipped');

afterAll(() => dropTestDatabases());

const params = (query: string, more: Partial<SearchParams> = {}): SearchParams => ({ query, page: 1, pageSize: 20, filters: {}, exact: true, ...more });

describe.skipIf(!PG_URL)('statements per search on PostgreSQL', () => {
  let db: Db;
  let other: Db;
  let libraries: LibraryService;
  let search: SearchService;
  let ids: { open: number; second: number; aggregation: number; entries: number[] };

  beforeAll(async () => {
    const url = await migratedTestDatabase('postgres');
    db = openDatabase(url);
    other = openDatabase(url);
    const rows = new CatalogueRows(db);
    const open = rows.library('Biblioteca Uno');
    const second = rows.library('Archive Two');
    const entries: number[] = [];
    for (let i = 0; i < 12; i++) {
      const id = rows.entry(`Mutual Aid volume ${i}`, { authors: ['Peter Kropotkin'], languages: ['en'] });
      rows.record(i % 2 ? second.site : open.site, id, { authors: ['Peter Kropotkin'], languages: ['en'] });
      entries.push(id);
    }
    const aggregation = rows.entry('Collected Works', { authors: ['Peter Kropotkin'], languages: ['en'] });
    rows.record(open.site, aggregation, { authors: ['Peter Kropotkin'], languages: ['en'] });
    rows.part(aggregation, entries[0]!, 1);
    rows.part(aggregation, entries[1]!, 2);
    new Indexer(db).reindex([...entries, aggregation]);
    libraries = new LibraryService(db);
    search = new SearchService(db, libraries, new AgentService(db), new ExclusionStore(db), new AuthorResolver(db));
    ids = { open: open.id, second: second.id, aggregation, entries };
  });

  afterAll(async () => {
    await other?.close();
    await db?.close();
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The statements `fn` sends to the server (every prepared statement's execution). */
  function counted<T>(fn: () => T): { value: T; statements: string[] } {
    const statements: string[] = [];
    const execute = PgConnection.prototype.execute;
    vi.spyOn(PgConnection.prototype, 'execute').mockImplementation(function (this: PgConnection, p, args) {
      statements.push(p.source);
      return execute.call(this, p, args);
    });
    try {
      return { value: fn(), statements };
    } finally {
      vi.restoreAllMocks();
    }
  }

  it('answers a ranked word search in four statements: index version, libraries, documents, full texts (the text is matched in the mirror)', () => {
    search.search(params('kropotkin'), ANONYMOUS); // prepares the statements and reads the aggregations' names
    const { value, statements } = counted(() => search.search(params('kropotkin'), ANONYMOUS));
    expect(value.total_entries).toBe(13);
    expect(value.facets.aggregate.values.find((v) => v.id === String(ids.aggregation))?.term).toBe('Collected Works');
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(4);
    expect(statements.filter((s) => /FROM libraries/.test(s))).toHaveLength(1);
    expect(statements.filter((s) => /entry_fts/.test(s))).toHaveLength(0);
  });

  it('ranks past the ranking limit (the title-and-author tier) without a statement to PostgreSQL', () => {
    const { value, statements } = counted(() => search.search(params('works OR mutual'), ANONYMOUS));
    expect(value.total_entries).toBe(13);
    expect(value.matches[0]!.title[0].value).toBe('Collected Works'); // its title holds "works": bm25 ranks it first
    expect(statements.filter((s) => /entry_fts/.test(s))).toHaveLength(0);
    search.exactRankLimit = 5;
    try {
      const big = counted(() => search.search(params('works OR mutual'), ANONYMOUS));
      expect(big.value.matches.map((m) => m.entry_id).sort()).toEqual(value.matches.map((m) => m.entry_id).sort());
      expect(big.statements.filter((s) => /entry_fts/.test(s))).toHaveLength(0);
    } finally {
      search.exactRankLimit = 20_000;
    }
  });

  it('reads a changed entry\'s texts in one statement when the index moved, and finds the new words at once', () => {
    other.sqlite.prepare('UPDATE entries SET subtitle = ? WHERE id = ?').run('an anthology of mutualism', ids.entries[3]);
    new Indexer(other).reindex([ids.entries[3]!]);
    const { value, statements } = counted(() => search.search(params('anthology'), ANONYMOUS));
    expect(value.matches.map((m) => m.entry_id)).toEqual([ids.entries[3]]);
    expect(statements.filter((s) => /entry_fts/.test(s))).toHaveLength(1);
  });

  it('sees a library made private by another node between two searches (the version is read once per search, not kept)', () => {
    expect(search.search(params('kropotkin'), ANONYMOUS).total_entries).toBe(13);
    other.sqlite.prepare('UPDATE libraries SET public = 0, revision = revision + 1 WHERE id = ?').run(ids.second);
    try {
      expect(search.search(params('kropotkin'), ANONYMOUS).total_entries).toBe(7);
    } finally {
      other.sqlite.prepare('UPDATE libraries SET public = 1, revision = revision + 1 WHERE id = ?').run(ids.second);
    }
    expect(search.search(params('kropotkin'), ANONYMOUS).total_entries).toBe(13);
  });

  it('names a renamed aggregation by its new title once it is reindexed', () => {
    const term = () => search.search(params('kropotkin'), ANONYMOUS).facets.aggregate.values.find((v) => v.id === String(ids.aggregation))?.term;
    expect(term()).toBe('Collected Works');
    other.sqlite.prepare('UPDATE entries SET title = ? WHERE id = ?').run('Complete Works', ids.aggregation);
    new Indexer(other).reindex([ids.aggregation]);
    expect(term()).toBe('Complete Works');
  });
});
