// Statements per search on PostgreSQL (docs/architecture.md, "Database back ends"): each one is a round
// trip that blocks the node, so a search reads the libraries' version once, gets its matches and their
// ranks in one statement and keeps the aggregations' names until the index changes; and none of that
// may leave an answer stale once something changed.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { PgConnection, translatePlaceholders } from '../db/postgres.ts';
import { PG_URL, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { CatalogueRows } from '../test/catalogue-rows.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { LibraryService } from '../libraries/service.ts';
import { AgentService } from '../agents/service.ts';
import { AuthorResolver } from '../agents/resolve.ts';
import { ExclusionStore } from '../curation/exclusions.ts';
import { Indexer } from './indexer.ts';
import { textSearch } from './fts.ts';
import { LAYER_STRIDE } from './layers.ts';
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

  it('answers a ranked word search in five statements: index version, libraries, matches with ranks, documents, full texts', () => {
    search.search(params('kropotkin'), ANONYMOUS); // prepares the statements and reads the aggregations' names
    const { value, statements } = counted(() => search.search(params('kropotkin'), ANONYMOUS));
    expect(value.total_entries).toBe(13);
    expect(value.facets.aggregate.values.find((v) => v.id === String(ids.aggregation))?.term).toBe('Collected Works');
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(5);
    expect(statements.filter((s) => /FROM libraries/.test(s))).toHaveLength(1);
    expect(statements.filter((s) => /entry_fts/.test(s))).toHaveLength(1);
  });

  it('ranks in the same statement up to the ranking limit, and past it reads the title-and-author tier in that statement too', () => {
    const { value, statements } = counted(() => search.search(params('works OR mutual'), ANONYMOUS));
    expect(value.total_entries).toBe(13);
    expect(value.matches[0]!.title[0].value).toBe('Collected Works'); // the newest of equal ranks first
    expect(statements.filter((s) => /entry_fts/.test(s))).toHaveLength(1);
    search.exactRankLimit = 5;
    try {
      const big = counted(() => search.search(params('works OR mutual'), ANONYMOUS));
      expect(big.value.matches.map((m) => m.entry_id)).toEqual(value.matches.map((m) => m.entry_id));
      expect(big.statements.filter((s) => /entry_fts/.test(s))).toHaveLength(1);
    } finally {
      search.exactRankLimit = 20_000;
    }
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

  it('ranks a row in the title-and-author tier as in the whole expression (ts_rank reads no weight labels: the tier is not ranked apart)', () => {
    const vectors = [`'mutual':2A 'aid':3A,9D 'peter':5B 'kropotkin':6B,12C`, `'aid':2B 'mutual':7C,20D 'kropotkine':9D`, `'mutualism':3A 'aid':4C,5A`];
    const pairs = [[`'aid'`, `'aid':AB`], [`'mutual':* & 'aid'`, `'mutual':*AB & 'aid':AB`], [`('mutual' <-> 'aid') | 'kropotkin':*`, `('mutual':AB <-> 'aid':AB) | 'kropotkin':*AB`]];
    for (const v of vectors) {
      for (const [q, tier] of pairs) {
        const [whole, inTier, held] = db.sqlite.prepare(`SELECT ts_rank('{0.1,0.3,1,1}', ?::tsvector, ?::tsquery), ts_rank('{0.1,0.3,1,1}', ?::tsvector, ?::tsquery), ?::tsvector @@ ?::tsquery`)
          .raw().get(v, q, v, tier, v, tier) as [number, number, number];
        if (held) expect(inTier, `${v} ${tier}`).toBe(whole);
      }
    }
  });

  it('never makes the public-rows bound an index condition in the plan PostgreSQL keeps after five runs (a scan of every rowid)', async () => {
    // A catalogue large enough for the planner to weigh its indexes: 30,000 rows of forty words.
    const url = await migratedTestDatabase('postgres');
    const big = new PgConnection(url);
    try {
      big.exec(`INSERT INTO entry_fts (rowid, doc) SELECT g, (SELECT string_agg('w' || ((g * 7 + k * 13) % 5000), ' ') FROM generate_series(1, 40) k)::tsvector
        FROM generate_series(1, 30000) g; ANALYZE entry_fts; SET plan_cache_mode = force_generic_plan`);
      const text = textSearch('postgres');
      for (const [name, sql, args] of [
        ['ids', text.idListSql, `'''w42''', ${LAYER_STRIDE}`],
        ['ranks', text.rankListSql, `'''w42''', ${LAYER_STRIDE}`],
        ['both', text.rankedRowsSql!, `'''w42''', '''w42'':AB', ${LAYER_STRIDE}`],
      ] as const) {
        big.exec(`PREPARE plan_${name} AS ${translatePlaceholders(sql).text}`);
        const plan = big.query(`EXPLAIN EXECUTE plan_${name}(${args})`).map((r) => r[0]).join('\n');
        expect(plan, plan).not.toContain('entry_fts_pkey');
      }
    } finally {
      big.close();
    }
  });
});
