// The ingestion path on each back end: the JSONL import (one transaction across the asynchronous
// reader), IngestService's rules (grouping, acquisition dates, links, full texts, removals) and which
// entries it hands to the indexer (a stand-in records what it is asked to reindex), and once with the
// search Indexer itself; jsonl.test.ts runs the whole app on SQLite.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { fixtureLines, writeFixture } from '../test/fixture.ts';
import { FileStore } from '../catalogue/files.ts';
import { PagesService } from '../pages/service.ts';
import { ensureSite, upsertLibrary } from '../libraries/service.ts';
import { RecordingIndexer } from '../test/recording-indexer.ts';
import { Indexer } from '../search/indexer.ts';
import { SearchService } from '../search/service.ts';
import { LibraryService } from '../libraries/service.ts';
import { AgentService } from '../agents/service.ts';
import { ExclusionStore } from '../curation/exclusions.ts';
import { AuthorResolver } from '../agents/resolve.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { importJsonl, ImportError, type ImportDeps } from './jsonl.ts';
import { IngestService, type IngestRecord } from './service.ts';

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('ingestion on %s', (dialect) => {
  let db: Db;
  let dir: string;
  let indexer: RecordingIndexer;
  let deps: ImportDeps;
  let ingest: IngestService;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-ingest-'));
    db = openDatabase(await migratedTestDatabase(dialect));
    indexer = new RecordingIndexer();
    const files = new FileStore(db, path.join(dir, 'data'));
    ingest = new IngestService(db, indexer.asIndexer, files);
    deps = { db, indexer: indexer.asIndexer, ingest, pages: new PagesService(db), files };
  });
  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const one = (sql: string, ...args: unknown[]) => db.sqlite.prepare(sql).pluck().get(...args);
  const count = (table: string) => one(`SELECT count(*) FROM ${table}`) as number;

  it('imports the catalogue in one transaction, indexes every entry, and a re-import of the same file changes nothing', async () => {
    const file = writeFixture(dir);
    const s = await importJsonl(file, deps);
    expect(s).toMatchObject({ libraries: 4, entries: 12, dataSources: 14, pages: 0 });
    expect(db.sqlite.inTransaction).toBe(false);
    expect(count('entries')).toBe(11); // two file entries grouped into one
    expect(count('data_sources')).toBe(14);
    expect(count('data_source_files')).toBe(3);
    expect(count('aggregation_links')).toBe(2);
    expect(one('SELECT count(*) FROM entries WHERE original_entry_id IS NOT NULL')).toBe(1);
    expect(one("SELECT value FROM settings WHERE name = 'site_name'")).toBe('Test Catalogue');
    expect(indexer.reindexed).toEqual(db.sqlite.prepare('SELECT id FROM entries ORDER BY id').pluck().all());
    // Authors by exact name, languages once each.
    expect(one("SELECT count(*) FROM entry_agents ea JOIN agents a ON a.id = ea.agent_id WHERE a.name = 'Peter Kropotkin'")).toBe(3);
    expect(count('languages')).toBe(4);

    const before = db.sqlite.prepare('SELECT id, datestamp, last_modified FROM entries ORDER BY id').all();
    indexer.calls = [];
    await importJsonl(file, deps);
    expect(indexer.reindexed).toEqual([]);
    expect(db.sqlite.prepare('SELECT id, datestamp, last_modified FROM entries ORDER BY id').all()).toEqual(before);
    expect(count('data_sources')).toBe(14);
  });

  it('a problem found at the end rolls back everything stored before it', async () => {
    const lines = [...fixtureLines(), { type: 'entry', id: 99, title: 'Orphan', authors: [], languages: ['en'], aggregation_id: 404, data_sources: [{ library_id: 1, identifier: 'x-99' }] }];
    const err = await importJsonl(writeFixture(dir, lines), deps).catch((e) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect(String(err)).toMatch(/aggregation_id 404 names no entry/);
    expect(db.sqlite.inTransaction).toBe(false);
    for (const table of ['libraries', 'sites', 'entries', 'data_sources', 'agents', 'data_source_files']) expect(count(table)).toBe(0);
    expect(fs.readdirSync(path.join(dir, 'data'), { recursive: true }).filter((f) => String(f).endsWith('.muse'))).toEqual([]);
    // The next import is whole (no cached author or language ids of the rolled-back one).
    await importJsonl(writeFixture(dir), deps);
    expect(one('SELECT count(*) FROM entry_agents ea JOIN agents a ON a.id = ea.agent_id')).toBe(count('entry_agents'));
    expect(count('entry_agents')).toBeGreaterThan(5);
  });

  it('with the search Indexer: the imported entries are found and have OAI-PMH records', async () => {
    const real = new Indexer(db);
    const files = new FileStore(db, path.join(dir, 'data'));
    const withIndex = new IngestService(db, real, files);
    await importJsonl(writeFixture(dir), { ...deps, indexer: real, ingest: withIndex, files });
    const search = new SearchService(db, new LibraryService(db), new AgentService(db), new ExclusionStore(db), new AuthorResolver(db));
    const titles = (query: string) => search.search({ query, page: 1, pageSize: 50, filters: {}, exact: true }, ANONYMOUS).matches.map((m) => m.title[0]!.value).sort();
    expect(titles('kropotkin')).toEqual(['Fields, Factories and Workshops', "L'Entraide", 'Mutual Aid']);
    expect(titles('"small guide"')).toEqual(['A Small Guide']);
    expect(titles('secret')).toEqual([]); // a private library's entry
    expect(one('SELECT count(*) FROM oai_records WHERE live = 1')).toBe(one('SELECT count(*) FROM search_docs WHERE doc IS NOT NULL'));
  });

  describe('IngestService', () => {
    let site: number;
    beforeEach(() => {
      const lib = upsertLibrary(db, { name: 'Biblioteca', public: 1, active: 1 } as never);
      site = ensureSite(db, lib, 'generic', null, 'Biblioteca');
    });
    const rec = (identifier: string, extra: Partial<IngestRecord> = {}): IngestRecord => ({
      siteId: site, identifier, title: 'Mutual Aid', authors: ['Peter Kropotkin'], languages: ['en'], ...extra,
    });

    it('a record stored after its author was deleted (a curator undoing the agent) makes the agent again', () => {
      ingest.store([rec('first', { authors: ['Lucy Parsons'] })]);
      const gone = one("SELECT id FROM agents WHERE name = 'Lucy Parsons'");
      db.sqlite.prepare('DELETE FROM entry_agents WHERE agent_id = ?').run(gone);
      db.sqlite.prepare('DELETE FROM agents WHERE id = ?').run(gone);
      ingest.store([rec('second', { title: 'Freedom, Equality and Solidarity', authors: ['Lucy Parsons'] })]);
      expect(one("SELECT count(*) FROM entry_agents ea JOIN agents a ON a.id = ea.agent_id WHERE a.name = 'Lucy Parsons'")).toBe(1);
      expect(one('SELECT count(*) FROM entry_agents ea WHERE NOT EXISTS (SELECT 1 FROM agents a WHERE a.id = ea.agent_id)')).toBe(0);
    });

    it('a record stored again is unchanged only when every stored column is the same; one saying nothing of its full text or date keeps the stored ones', () => {
      const full: IngestRecord = rec('full', {
        subtitle: 'A Factor', year_edition: 1902, year_first_edition: 1890, description: 'On cooperation', publisher: 'Heinemann',
        isbn: '978-0', shelf_location_code: 'A1', material_description: '348 p.', edition_statement: '2nd', place_date_of_publication_distribution: 'London 1902',
        uri: 'https://example.org/aid', uri_label: 'Read', content_type: 'text', downloads: ['pdf'], full_text: 'Text', datestamp: '2020-01-01T00:00:00.000Z',
      });
      const first = ingest.store([full]);
      const entry = first.entryIds[0]!;
      expect(ingest.store([{ ...full }]).outcomes).toEqual(['unchanged']);
      // Neither full text nor date given: the stored ones stay, nothing changed.
      const { full_text: _t, datestamp: _d, ...silent } = full;
      expect(ingest.store([silent]).outcomes).toEqual(['unchanged']);
      const changes: Partial<IngestRecord>[] = [
        { title: 'Mutual Aid!' }, { subtitle: null }, { authors: ['Peter Kropotkin', 'Ada'] }, { languages: ['fr'] },
        { year_edition: 1903 }, { year_first_edition: null }, { description: 'On aid' }, { publisher: null }, { isbn: '978-1' },
        { shelf_location_code: 'B2' }, { material_description: '350 p.' }, { edition_statement: null },
        { place_date_of_publication_distribution: 'Paris' }, { uri: 'https://example.org/aid2' }, { uri_label: null },
        { content_type: 'book' }, { downloads: ['pdf', 'epub'] }, { full_text: null }, { datestamp: '2021-01-01T00:00:00.000Z' },
      ];
      for (const change of changes) {
        const changed = { ...full, ...change };
        expect(ingest.store([changed]).outcomes, JSON.stringify(change)).toEqual(['updated']);
        expect(ingest.store([changed]).outcomes, JSON.stringify(change)).toEqual(['unchanged']);
        ingest.store([full]);
      }
      expect(count('data_sources')).toBe(1);
      expect(ingest.store([full]).entryIds).toEqual([entry]);
    });

    it('groups records into entries; an entry\'s date is the later of its records\', an unchanged record changes nothing', () => {
      const a = ingest.store([rec('a', { datestamp: '2020-01-01T00:00:00.000Z' })]);
      expect(a.outcomes).toEqual(['new']);
      const entry = a.entryIds[0]!;
      // Another record of the same work (case and spaces differ): same entry; an older date keeps the entry's.
      const b = ingest.store([rec('b', { title: 'MUTUAL  AID', datestamp: '2019-01-01T00:00:00.000Z' })]);
      expect(b.entryIds).toEqual([entry]);
      expect(one('SELECT datestamp FROM entries WHERE id = ?', entry)).toBe('2020-01-01T00:00:00.000Z');
      ingest.store([rec('b', { title: 'MUTUAL  AID', datestamp: '2024-05-01T00:00:00.000Z' })]);
      expect(one('SELECT datestamp FROM entries WHERE id = ?', entry)).toBe('2024-05-01T00:00:00.000Z');
      // Its own record corrected: the entry takes the new wording, the date stays the later one.
      ingest.store([rec('a', { subtitle: 'A Factor of Evolution', datestamp: '2021-01-01T00:00:00.000Z' })]);
      expect(db.sqlite.prepare('SELECT subtitle, datestamp FROM entries WHERE id = ?').get(entry))
        .toEqual({ subtitle: 'A Factor of Evolution', datestamp: '2024-05-01T00:00:00.000Z' });
      const again = ingest.store([rec('a', { subtitle: 'A Factor of Evolution', datestamp: '2021-01-01T00:00:00.000Z' })]);
      expect(again).toMatchObject({ outcomes: ['unchanged'], entryIds: [entry] });
      expect([...again.touched]).toEqual([]);
      expect(count('entries')).toBe(1);
      expect(count('entry_agents')).toBe(1);
    });

    it('records of one batch see each other: one work grouped once, a record given twice, authors new and held; ids in record order', () => {
      const kropotkin = ['Peter Kropotkin'];
      const first = ingest.store([
        rec('a', { datestamp: '2020-01-01T00:00:00.000Z' }),
        rec('b', { title: 'MUTUAL  AID', datestamp: '2022-01-01T00:00:00.000Z' }),
        rec('c', { title: 'The Conquest of Bread', authors: ['Peter Kropotkin', 'Élisée Reclus'], languages: ['en', 'FR'] }),
        rec('d', { title: 'Fields', datestamp: '2021-01-01T00:00:00.000Z' }),
        rec('d', { title: 'Fields', datestamp: '2021-01-01T00:00:00.000Z', description: 'corrected' }),
      ]);
      expect(first.outcomes).toEqual(['new', 'new', 'new', 'new', 'updated']);
      const [aid, , bread, fields] = first.entryIds;
      expect(first.entryIds).toEqual([aid, aid, bread, fields, fields]);
      expect(aid! < bread! && bread! < fields!).toBe(true);
      expect([...first.touched].sort()).toEqual([aid, bread, fields].sort());
      expect(first.dataSourceIds[4]).toBe(first.dataSourceIds[3]);
      expect(first.dataSourceIds.slice(0, 4)).toEqual([...first.dataSourceIds.slice(0, 4)].sort((x, y) => x - y));
      expect(db.sqlite.prepare('SELECT identifier, entry_id, description FROM data_sources ORDER BY id').all()).toEqual([
        { identifier: 'a', entry_id: aid, description: null }, { identifier: 'b', entry_id: aid, description: null },
        { identifier: 'c', entry_id: bread, description: null }, { identifier: 'd', entry_id: fields, description: 'corrected' },
      ]);
      // The later date of the entry's two records; the first record's wording.
      expect(db.sqlite.prepare('SELECT title, datestamp FROM entries WHERE id = ?').get(aid)).toEqual({ title: 'Mutual Aid', datestamp: '2022-01-01T00:00:00.000Z' });
      const authorsOf = (entry: number) => db.sqlite.prepare(`SELECT a.name FROM entry_agents ea JOIN agents a ON a.id = ea.agent_id
        WHERE ea.entry_id = ? ORDER BY ea.position`).pluck().all(entry);
      expect(authorsOf(bread!)).toEqual(['Peter Kropotkin', 'Élisée Reclus']);
      expect(db.sqlite.prepare('SELECT language_code FROM entry_languages WHERE entry_id = ? ORDER BY position').pluck().all(bread)).toEqual(['en', 'fr']);
      expect(db.sqlite.prepare('SELECT name FROM agents ORDER BY id').pluck().all()).toEqual(['Peter Kropotkin', 'Élisée Reclus']);

      // A record of the first batch corrected, one new work by a known and a new author, one record unchanged.
      const second = ingest.store([
        rec('a', { subtitle: 'A Factor of Evolution', datestamp: '2019-01-01T00:00:00.000Z' }),
        rec('e', { title: 'Anarchy', authors: ['Errico Malatesta', 'Élisée Reclus'] }),
        rec('c', { title: 'The Conquest of Bread', authors: ['Peter Kropotkin', 'Élisée Reclus'], languages: ['en', 'FR'] }),
      ]);
      expect(second.outcomes).toEqual(['updated', 'new', 'unchanged']);
      const anarchy = second.entryIds[1]!;
      expect(second.entryIds).toEqual([aid, anarchy, bread]);
      expect(anarchy).toBeGreaterThan(fields!);
      expect([...second.touched].sort()).toEqual([aid, anarchy].sort());
      expect(db.sqlite.prepare('SELECT title, subtitle, datestamp FROM entries WHERE id = ?').get(aid))
        .toEqual({ title: 'Mutual Aid', subtitle: 'A Factor of Evolution', datestamp: '2022-01-01T00:00:00.000Z' });
      expect(authorsOf(anarchy)).toEqual(['Errico Malatesta', 'Élisée Reclus']);
      expect(db.sqlite.prepare('SELECT name FROM agents ORDER BY id').pluck().all()).toEqual([...kropotkin, 'Élisée Reclus', 'Errico Malatesta']);
      expect(count('data_sources')).toBe(5);

      // The same records again: nothing is written, nothing is to reindex.
      const tables = () => ['entries', 'data_sources', 'agents', 'entry_agents', 'entry_languages']
        .map((t) => db.sqlite.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all());
      const before = tables();
      const again = ingest.store([
        rec('a', { subtitle: 'A Factor of Evolution', datestamp: '2019-01-01T00:00:00.000Z' }),
        rec('e', { title: 'Anarchy', authors: ['Errico Malatesta', 'Élisée Reclus'] }),
        rec('d', { title: 'Fields', datestamp: '2021-01-01T00:00:00.000Z', description: 'corrected' }),
      ]);
      expect(again).toMatchObject({ outcomes: ['unchanged', 'unchanged', 'unchanged'], entryIds: [aid, anarchy, fields], dataSourceIds: [first.dataSourceIds[0], second.dataSourceIds[1], first.dataSourceIds[3]] });
      expect([...again.touched]).toEqual([]);
      expect(tables()).toEqual(before);
    });

    it('index rows of a batch: one new seq each, with their OAI-PMH records', () => {
      const indexed = new IngestService(db, new Indexer(db), new FileStore(db, path.join(dir, 'data')));
      const { entryIds } = indexed.store(['Mutual Aid', 'Fields', 'Anarchy'].map((title, i) => rec(`r${i}`, { title })));
      indexed.reindex(entryIds);
      const docs = () => db.sqlite.prepare('SELECT entry_id FROM search_docs ORDER BY seq').pluck().all();
      expect(docs()).toEqual(entryIds);
      expect(one('SELECT count(DISTINCT seq) FROM search_docs')).toBe(3);
      expect(db.sqlite.prepare('SELECT entry_id FROM oai_records WHERE live = 1 AND exposed = 1 ORDER BY entry_id').pluck().all()).toEqual(entryIds);
      // Reindexed again: new seqs after every earlier one; an entry whose records are gone drops out.
      const top = one('SELECT max(seq) FROM search_docs') as number;
      indexed.removeDataSources([one('SELECT id FROM data_sources WHERE identifier = ?', 'r1') as number]);
      indexed.reindex([entryIds[2]!, entryIds[1]!, entryIds[0]!]);
      expect(docs()).toEqual(entryIds);
      expect(one('SELECT min(seq) FROM search_docs')).toBe(top + 1);
      expect(one('SELECT doc IS NULL FROM search_docs WHERE entry_id = ?', entryIds[1])).toBe(1);
      expect(one('SELECT count(DISTINCT seq) FROM search_docs')).toBe(3);
      expect(db.sqlite.prepare('SELECT entry_id, live FROM oai_records ORDER BY entry_id').all())
        .toEqual(entryIds.map((id) => ({ entry_id: id, live: id === entryIds[1] ? 0 : 1 })));
    });

    it('links report only what changed; full texts too; removed records name their entries', () => {
      const [parent, child, original] = ['Anthology', 'Essay', 'Original'].map((title, i) => ingest.store([rec(`r${i}`, { title })]).entryIds[0]!);
      const link = (position: number | null) => [...ingest.link([{ kind: 'aggregation', parentEntryId: parent!, childEntryId: child!, position }])].sort();
      expect(link(1)).toEqual([parent, child].sort());
      expect(link(1)).toEqual([]);
      expect(link(2)).toEqual([parent, child].sort());
      expect(link(null)).toEqual([parent, child].sort());
      expect(link(null)).toEqual([]);
      const translate = () => [...ingest.link([{ kind: 'translation', parentEntryId: original!, childEntryId: child! }])];
      expect(translate().sort()).toEqual([original, child].sort());
      expect(translate()).toEqual([]);
      expect(one('SELECT original_entry_id FROM entries WHERE id = ?', child)).toBe(original);

      const ds = one('SELECT id FROM data_sources WHERE identifier = ?', 'r1') as number;
      expect(ingest.setFullText(ds, 'Some text')).toBe(child);
      expect(ingest.setFullText(ds, 'Some text')).toBeNull();
      expect(ingest.setFullText(ds, null)).toBe(child);
      expect(ingest.setFullText(ds, null)).toBeNull();

      expect([...ingest.removeDataSources([ds, 999_999])]).toEqual([child]);
      expect(one('SELECT count(*) FROM data_sources WHERE id = ?', ds)).toBe(0);
    });
  });
});
