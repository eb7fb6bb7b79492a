// The text mirror on PostgreSQL (text-mirror.ts): each node's FTS5 file made from the catalogue's texts,
// kept in step by seq, kept across restarts, made again when it is of another catalogue or format.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { openDatabase, type Db } from '../db/index.ts';
import { PG_URL, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { CatalogueRows } from '../test/catalogue-rows.ts';
import { ANONYMOUS, type Viewer } from '../http/viewer.ts';
import { LibraryService } from '../libraries/service.ts';
import { AgentService } from '../agents/service.ts';
import { AuthorResolver } from '../agents/resolve.ts';
import { ExclusionStore } from '../curation/exclusions.ts';
import { Indexer } from './indexer.ts';
import { SearchIndexLoading, SearchService, type SearchParams } from './service.ts';

if (!PG_URL) console.log('text-mirror.test: PostgreSQL is not installed (Debian package postgresql): skipped');

afterAll(() => dropTestDatabases());

const params = (query: string): SearchParams => ({ query, page: 1, pageSize: 20, filters: {}, exact: true });

describe.skipIf(!PG_URL)('the text mirror of a PostgreSQL catalogue', () => {
  let db: Db;
  let writer: Db;
  let dir: string;
  let rows: CatalogueRows;
  let ids: { open: { id: number; site: number }; closed: { id: number; site: number }; mutual: number; fields: number; secret: number };
  const file = () => path.join(dir, 'search-text.sqlite');
  const node = (textFile = file(), on: Db = db) => new SearchService(on, new LibraryService(on), new AgentService(on), new ExclusionStore(on), new AuthorResolver(on), { textFile });
  const found = (search: SearchService, query: string, viewer: Viewer = ANONYMOUS) => search.search(params(query), viewer).matches.map((m) => m.entry_id);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-mirror-'));
    const url = await migratedTestDatabase('postgres');
    db = openDatabase(url);
    writer = openDatabase(url);
    rows = new CatalogueRows(writer);
    const open = rows.library('Open Shelf');
    const closed = rows.library('Closed Stacks', { public: 0 });
    const mutual = rows.entry('Mutual Aid', { authors: ['Peter Kropotkin'], languages: ['en'] });
    rows.record(open.site, mutual, { description: 'Cooperation among animals and workers' });
    const fields = rows.entry('Fields, Factories and Workshops', { authors: ['Peter Kropotkin'], languages: ['en'] });
    rows.record(open.site, fields);
    const secret = rows.entry('Minutes of the Dockers', { languages: ['it'] });
    rows.record(closed.site, secret, { description: 'verbali delle assemblee' });
    const indexer = new Indexer(writer);
    indexer.ensureFormat();
    indexer.reindex([mutual, fields, secret]);
    ids = { open, closed, mutual, fields, secret };
  });

  afterAll(async () => {
    await db?.close();
    await writer?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is made at the first search: words, stems and Latin forms found as on SQLite, private copies only for their viewers', () => {
    const search = node();
    expect(found(search, 'kropotkin').sort()).toEqual([ids.mutual, ids.fields].sort());
    expect(found(search, 'worker')).toEqual([ids.mutual]); // the English stem of "workers"
    expect(found(search, 'dockers')).toEqual([]);
    const member: Viewer = { ...ANONYMOUS, userId: 1, username: 'm', libraryIds: [ids.closed.id] };
    expect(found(search, 'dockers', member)).toEqual([ids.secret]);
    expect(found(search, 'assemblea', member)).toEqual([ids.secret]); // the Italian stem
    expect(fs.existsSync(file())).toBe(true);
    search.mirror!.close();
  });

  it('follows changes made by another node: a new word, a removed entry', () => {
    const search = node();
    expect(found(search, 'workshops')).toEqual([ids.fields]);
    writer.sqlite.prepare('UPDATE entries SET subtitle = ? WHERE id = ?').run('an essay on decentralisation', ids.fields);
    writer.sqlite.prepare('DELETE FROM data_sources WHERE entry_id = ?').run(ids.mutual);
    new Indexer(writer).reindex([ids.fields, ids.mutual]);
    expect(found(search, 'decentralisation')).toEqual([ids.fields]);
    expect(found(search, 'kropotkin')).toEqual([ids.fields]);
    expect(found(search, 'cooperation')).toEqual([]);
    search.mirror!.close();
  });

  it('is kept across a restart: a new node on the same file reads only what changed since', () => {
    const first = node();
    found(first, 'kropotkin');
    const seq = first.mirror!.seq;
    first.mirror!.close();
    const again = node();
    expect(again.mirror!.seq).toBe(seq);
    expect(again.mirror!.advance(seq, 1000)).toBe(0);
    expect(found(again, 'decentralisation')).toEqual([ids.fields]);
    again.mirror!.close();
  });

  it('is shared by two nodes on one machine: each finds what the other applied', () => {
    const [a, b] = [node(), node()];
    const extra = rows.entry('The Conquest of Bread', { authors: ['Peter Kropotkin'], languages: ['en'] });
    rows.record(ids.open.site, extra);
    new Indexer(writer).reindex([extra]);
    expect(found(a, 'bread')).toEqual([extra]);
    expect(found(b, 'bread')).toEqual([extra]);
    expect(b.mirror!.seq).toBe(a.mirror!.seq);
    a.mirror!.close();
    b.mirror!.close();
  });

  it('is made by its thread at a start far behind the catalogue, then followed change by change', async () => {
    fs.rmSync(file(), { force: true });
    const search = node();
    search.largeChangeDocs = 1;
    const log: string[] = [];
    await search.load({ snapshotFile: null, log: (m) => log.push(m) });
    expect(log.some((m) => /^Search text mirror: \d+ documents written in/.test(m)), log.join('\n')).toBe(true);
    expect(search.mirror!.seq).toBe(Number(db.sqlite.prepare('SELECT max(seq) FROM search_docs').pluck().get()));
    expect(found(search, 'decentralisation')).toEqual([ids.fields]);
    const member: Viewer = { ...ANONYMOUS, userId: 1, username: 'm', libraryIds: [ids.closed.id] };
    expect(found(search, 'assemblea', member)).toEqual([ids.secret]);
    writer.sqlite.prepare('UPDATE entries SET subtitle = ? WHERE id = ?').run('notes on the harbour', ids.secret);
    new Indexer(writer).reindex([ids.secret]);
    expect(found(search, 'harbour', member)).toEqual([ids.secret]);
    search.mirror!.close();
  });

  it('takes in another process\'s large change by its thread in the background, searches answering 503 until it is whole', async () => {
    const search = node();
    expect(found(search, 'kropotkin').length).toBeGreaterThan(0);
    search.largeChangeDocs = 1;
    const fill = vi.spyOn(search.mirror!, 'fill');
    const stop = search.followChanges();
    try {
      const all = writer.sqlite.prepare('SELECT entry_id FROM search_docs WHERE doc IS NOT NULL').pluck().all() as number[];
      writer.sqlite.prepare(`UPDATE entries SET subtitle = 'gathered in spring' WHERE id IN (${all.join(',')})`).run();
      new Indexer(writer).reindex(all);
      expect(() => search.search(params('spring'), ANONYMOUS)).toThrow(SearchIndexLoading);
      expect(search.notReady()).toMatch(/catching up/);
      await vi.waitFor(() => expect(search.notReady()).toBeNull(), { timeout: 10_000 });
      expect(fill).toHaveBeenCalledTimes(1);
      expect(found(search, 'spring').length).toBe(all.length - 1); // the private library's entry is not anyone's
    } finally {
      stop();
      search.mirror!.close();
    }
  });

  it('is made again when it belongs to another catalogue, another format, or is ahead of the catalogue (a restored backup)', () => {
    const spoil = (k: string, v: string | number) => {
      const f = new BetterSqlite3(file());
      f.prepare('UPDATE mirror_state SET v = ? WHERE k = ?').run(v, k);
      f.close();
    };
    for (const [k, v, why] of [['catalogue', 'another', /another catalogue/], ['format', '0/0', /another format/], ['seq', 1e9, /ahead of the catalogue/]] as const) {
      spoil(k, v);
      const search = node();
      const reasons: string[] = [];
      search.mirror!.onReset = (r) => reasons.push(r);
      expect(found(search, 'kropotkin').length).toBe(2);
      expect(reasons).toEqual([expect.stringMatching(why)]);
      search.mirror!.close();
    }
  });
});
