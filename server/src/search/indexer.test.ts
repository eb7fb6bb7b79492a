// The Indexer in a bulk load (one transaction, `ftsWritten` over all of it): an entry indexed again
// keeps its full-text row when its text did not change, gets a new one when it did, and loses it when
// it leaves the catalogue; what a reader finds is the same as with a reindex per change.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { beginImmediate } from '../db/connection.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { FileStore } from '../catalogue/files.ts';
import { ensureSite, upsertLibrary, LibraryService } from '../libraries/service.ts';
import { IngestService, type IngestRecord } from '../ingest/service.ts';
import { AgentService } from '../agents/service.ts';
import { ExclusionStore } from '../curation/exclusions.ts';
import { AuthorResolver } from '../agents/resolve.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { Indexer } from './indexer.ts';
import { FtsFingerprints } from './fts-text.ts';
import { SearchService } from './service.ts';

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('bulk reindexing on %s', (dialect) => {
  let db: Db;
  let dir: string;
  let indexer: Indexer;
  let ingest: IngestService;
  let site: number;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-indexer-'));
    db = openDatabase(await migratedTestDatabase(dialect));
    indexer = new Indexer(db);
    ingest = new IngestService(db, indexer, new FileStore(db, path.join(dir, 'data')));
    site = ensureSite(db, upsertLibrary(db, { name: 'Biblioteca', public: 1, active: 1 } as never), 'generic', null, 'Biblioteca');
  });
  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const rec = (identifier: string, extra: Partial<IngestRecord> = {}): IngestRecord => ({
    siteId: site, identifier, title: 'Tidewater Almanac', authors: ['Mara Quell'], languages: ['en'], ...extra,
  });
  const found = (query: string) => {
    const search = new SearchService(db, new LibraryService(db), new AgentService(db), new ExclusionStore(db), new AuthorResolver(db));
    return search.search({ query, page: 1, pageSize: 50, filters: {}, exact: true }, ANONYMOUS).matches.map((m) => m.title[0]!.value).sort();
  };

  it('an entry indexed again in the same load: kept, rewritten or dropped as its text says', () => {
    const bulk = { inTransaction: true, ftsWritten: new FtsFingerprints() };
    let almanac = 0;
    let ledger = 0;
    const transaction = beginImmediate(db.sqlite);
    try {
      almanac = ingest.store([rec('a', { description: 'a lighthouse keeper' })], bulk).entryIds[0]!;
      ledger = ingest.store([rec('b', { title: 'Harbour Ledger', authors: ['Ines Varro'] })], bulk).entryIds[0]!;
      const atlas = ingest.store([rec('c', { title: 'Salt Atlas', authors: ['Ines Varro'] })], bulk).entryIds[0]!;
      indexer.reindex([almanac, ledger, atlas], bulk);
      // Indexed again with nothing changed (as a link's parent is): its row stays as it was.
      indexer.reindex([almanac], bulk);
      // The ledger's record now says something else: the old words go, the new ones come.
      ingest.store([rec('b', { title: 'Harbour Ledger', authors: ['Ines Varro'], description: 'tide tables' })], bulk);
      indexer.reindex([ledger], bulk);
      // The atlas loses its only record: it leaves the index.
      ingest.removeDataSources([db.sqlite.prepare('SELECT id FROM data_sources WHERE identifier = ?').pluck().get('c') as number]);
      indexer.reindex([atlas], bulk);
      transaction.commit();
    } catch (e) {
      transaction.rollback();
      throw e;
    }
    expect(found('tidewater')).toEqual(['Tidewater Almanac']);
    expect(found('lighthouse')).toEqual(['Tidewater Almanac']);
    expect(found('"tide tables"')).toEqual(['Harbour Ledger']);
    expect(found('varro')).toEqual(['Harbour Ledger']);
    expect(found('salt')).toEqual([]);
    if (dialect === 'sqlite') {
      // One full-text row per entry in the index: none written twice, none left behind.
      expect(db.sqlite.prepare(`SELECT rowid FROM entry_fts WHERE entry_fts MATCH 'tidewater OR harbour OR salt' ORDER BY rowid`).pluck().all())
        .toEqual([almanac, ledger]);
    }
  });

  it.runIf(dialect === 'sqlite')('merges no full-text segments during a bulk load; its settings come back after it, and the compaction merges what it left', async () => {
    const config = () => Object.fromEntries(db.sqlite.prepare('SELECT k, v FROM entry_fts_config').raw().all() as [string, number][]);
    const segments = () => db.sqlite.prepare('SELECT count(DISTINCT segid) FROM entry_fts_idx').pluck().get() as number;
    db.sqlite.exec("INSERT INTO entry_fts (entry_fts, rank) VALUES ('automerge', 8)");
    const before = config();
    const bulk = { inTransaction: true, ftsWritten: new FtsFingerprints() };
    const transaction = beginImmediate(db.sqlite);
    try {
      const restore = indexer.bulkSettings();
      expect(config()).toMatchObject({ automerge: 0, hashsize: 32 * 1024 * 1024 });
      // Each reindex call is flushed as a segment by the next statement that opens a savepoint; FTS5
      // would merge 8 of them on its own.
      for (let i = 0; i < 24; i++) {
        const id = ingest.store([rec(`r${i}`, { title: `Almanac ${i}`, authors: [`Author ${i}`] })], bulk).entryIds[0]!;
        indexer.reindex([id], bulk);
      }
      restore();
      transaction.commit();
    } catch (e) {
      transaction.rollback();
      throw e;
    }
    // Those the table held are put back; the others are FTS5's defaults, written out.
    expect(config()).toEqual({ hashsize: 1024 * 1024, crisismerge: 16, ...before });
    expect(segments()).toBeGreaterThanOrEqual(20);
    expect(found('almanac')).toHaveLength(24);
    const { IndexCompaction } = await import('./compaction.ts');
    const { JobQueue } = await import('../jobs/queue.ts');
    await new IndexCompaction(db, new JobQueue(db), { minPages: 0, minScattered: 0 }).compact({ pause: 0 });
    expect(segments()).toBe(1);
    expect(found('almanac')).toHaveLength(24);
  });
});
