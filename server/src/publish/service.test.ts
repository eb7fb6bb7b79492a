// Publishing's SQL on each back end: the OAI-PMH provider (paging, sets, a library made private, the
// visible data only, waiting for writes in progress), the Atom feed's dates, sitemaps and the OPDS
// catalogue (oai-provider.test.ts, feeds.test.ts, sitemap.test.ts check the routes on the full app).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { CatalogueRows } from '../test/catalogue-rows.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { LibraryService } from '../libraries/service.ts';
import { AuthorResolver } from '../agents/resolve.ts';
import { AgentService } from '../agents/service.ts';
import { PagesService } from '../pages/service.ts';
import { CatalogueService } from '../catalogue/service.ts';
import { FileStore } from '../catalogue/files.ts';
import { Indexer } from '../search/indexer.ts';
import { SearchService } from '../search/service.ts';
import { ExclusionStore } from '../curation/exclusions.ts';
import { child, children, parseXml, textOf, type XmlElement } from '../harvest/xml.ts';
import { OaiProvider, PAGE_SIZE } from './oai-provider.ts';
import { indexDatestamps, latestEntries } from './feeds.ts';
import { Sitemaps } from './sitemap.ts';
import { OpdsCatalogue } from './opds.ts';

afterAll(() => dropTestDatabases());

const BULK = PAGE_SIZE + 15;

describe.each(BACKENDS)('publishing on %s', (dialect) => {
  let target: string;
  let db: Db;
  let dir: string;
  let libraries: LibraryService;
  let catalogue: CatalogueService;
  let search: SearchService;
  let indexer: Indexer;
  let oai: OaiProvider;
  const id: Record<string, number> = {};
  const lib: Record<string, number> = {};

  beforeAll(async () => {
    target = await migratedTestDatabase(dialect);
    db = openDatabase(target);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-pub-'));
    const rows = new CatalogueRows(db);
    const uno = rows.library('Biblioteca Uno');
    const due = rows.library('Archivio Due');
    const tre = rows.library('Private Tre', { public: 0 });
    Object.assign(lib, { uno: uno.id, due: due.id, tre: tre.id });
    const all: number[] = [];
    for (let i = 0; i < BULK; i++) {
      const e = rows.entry(`Bulk pamphlet ${i}`, { authors: [`Writer ${i % 7}`], languages: ['en'] });
      rows.record(uno.site, e, { datestamp: `2020-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z` });
      all.push(e);
    }
    id.revolt = rows.entry('Words of Revolt', { authors: ['Peter Kropotkin'], languages: ['fr'] });
    id.revoltRecord = rows.record(uno.site, id.revolt, { publisher: 'Lantern Press', isbn: '978-88-00000-00-2', year_edition: 1885, datestamp: '2024-05-01T10:00:00.000Z' });
    rows.record(tre.site, id.revolt, { publisher: 'Hidden Publisher', description: 'PRIVATE NOTE', datestamp: '2020-01-01T00:00:00.000Z' });
    id.due = rows.entry('Only in Due', { authors: ['Due Writer'], languages: ['it'] });
    rows.record(due.site, id.due, { datestamp: '2024-06-01T10:00:00.000Z' });
    id.secret = rows.entry('Secret Work', { authors: ['Hidden Author'], languages: ['en'] });
    rows.record(tre.site, id.secret, { datestamp: '2024-07-01T10:00:00.000Z' });
    all.push(id.revolt, id.due, id.secret);

    // Acquired long ago: the records' datestamps decide which is newest.
    db.sqlite.prepare("UPDATE entries SET datestamp = '2000-01-01T00:00:00.000Z'").run();
    libraries = new LibraryService(db);
    const resolver = new AuthorResolver(db);
    const files = new FileStore(db, dir);
    files.put(id.revoltRecord, '.epub', Buffer.from('PK epub'));
    catalogue = new CatalogueService(db, libraries, files, resolver);
    indexer = new Indexer(db);
    indexer.reindex(all);
    search = new SearchService(db, libraries, new AgentService(db), new ExclusionStore(db), resolver);
    oai = new OaiProvider(db, libraries, catalogue, resolver, new PagesService(db), { publicUrl: 'https://catalogue.example.org' });
  });
  afterAll(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const ask = async (args: Record<string, string>) => parseXml(await oai.handle(Object.entries(args), 'https://catalogue.example.org/oai', 'https://catalogue.example.org'));
  const identifierOf = (entry: number) => `oai:catalogue.example.org:entry:${entry}`;
  async function harvest(args: Record<string, string>): Promise<XmlElement[]> {
    const headers: XmlElement[] = [];
    let root = await ask({ verb: 'ListIdentifiers', ...args });
    for (;;) {
      const list = child(root, 'ListIdentifiers');
      if (!list) throw new Error(`error ${children(root, 'error').map((e) => e.attrs.code).join()}`);
      headers.push(...children(list, 'header'));
      const token = textOf(child(list, 'resumptionToken'));
      if (!token) return headers;
      root = await ask({ verb: 'ListIdentifiers', resumptionToken: token });
    }
  }
  const ids = (headers: XmlElement[]) => headers.map((h) => textOf(child(h, 'identifier')));

  it('lists every visible record once over resumption tokens, in datestamp order, and no private one', async () => {
    const headers = await harvest({ metadataPrefix: 'oai_dc' });
    expect(headers).toHaveLength(BULK + 2);
    expect(new Set(ids(headers)).size).toBe(BULK + 2);
    expect(ids(headers)).not.toContain(identifierOf(id.secret));
    const stamps = headers.map((h) => textOf(child(h, 'datestamp')));
    expect(stamps).toEqual([...stamps].sort());
    const identify = child(await ask({ verb: 'Identify' }), 'Identify');
    expect(textOf(child(identify, 'earliestDatestamp'))).toBe(stamps[0]);
    expect(await harvest({ metadataPrefix: 'oai_dc', set: `library:${lib.due}` }).then(ids)).toEqual([identifierOf(id.due)]);
    expect(children(await ask({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc', set: `library:${lib.tre}` }), 'error')[0].attrs.code).toBe('noRecordsMatch');
  });

  it('gives a record\'s data from visible libraries only', async () => {
    const record = child(child(await ask({ verb: 'GetRecord', identifier: identifierOf(id.revolt), metadataPrefix: 'oai_dc' }), 'GetRecord'), 'record');
    const dc = child(child(record, 'metadata'), 'dc');
    expect(children(dc, 'publisher').map(textOf)).toEqual(['Lantern Press']);
    expect(children(dc, 'creator').map(textOf)).toEqual(['Peter Kropotkin']);
    expect(children(child(record, 'header'), 'setSpec').map(textOf)).toEqual([`library:${lib.uno}`]);
    expect(JSON.stringify(record)).not.toContain('PRIVATE NOTE');
  });

  it('lists a library made private as deletions in its set, and its record as deleted', async () => {
    db.sqlite.prepare('UPDATE libraries SET public = 0 WHERE id = ?').run(lib.due);
    libraries.invalidate();
    const inSet = await harvest({ metadataPrefix: 'oai_dc', set: `library:${lib.due}` });
    expect(inSet.map((h) => [textOf(child(h, 'identifier')), h.attrs.status])).toEqual([[identifierOf(id.due), 'deleted']]);
    const all = await harvest({ metadataPrefix: 'oai_dc' });
    expect(all.find((h) => textOf(child(h, 'identifier')) === identifierOf(id.due))?.attrs.status).toBe('deleted');
    db.sqlite.prepare('UPDATE libraries SET public = 1 WHERE id = ?').run(lib.due);
    libraries.invalidate();
  });

  it('waits for another connection\'s write in progress before answering a list, and then includes it', async () => {
    const other = openDatabase(target);
    try {
      other.sqlite.exec('BEGIN');
      other.sqlite.prepare(`UPDATE search_docs SET seq = seq + 1000 WHERE entry_id = ?`).run(id.revolt);
      const started = Date.now();
      setTimeout(() => other.sqlite.exec('COMMIT'), 300);
      const root = await ask({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc', set: `library:${lib.uno}` });
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      const responseDate = textOf(child(root, 'responseDate'));
      // The rewritten record is stamped at or before the answer's time, so a harvester coming back
      // from that time misses nothing.
      const all = await harvest({ metadataPrefix: 'oai_dc', set: `library:${lib.uno}` });
      const stamp = textOf(child(all.find((h) => textOf(child(h, 'identifier')) === identifierOf(id.revolt)), 'datestamp'));
      expect(stamp <= responseDate).toBe(true);
      expect(stamp > '2025').toBe(true);
    } finally {
      await other.close();
    }
  });

  it('dates the feed\'s entries by the index, newest first', () => {
    const dates = indexDatestamps(db, [id.revolt, id.due, 999_999]);
    expect(dates).toEqual(new Map([[id.revolt, '2024-05-01T10:00:00.000Z'], [id.due, '2024-06-01T10:00:00.000Z']]));
    const items = latestEntries(db, search, catalogue, 3);
    expect(items.map((i) => i.entry.title)).toEqual(['Only in Due', 'Words of Revolt', 'Bulk pamphlet 59']);
  });

  it('maps every visible entry and author for crawlers, with the newer of its dates', async () => {
    const urls = await new Sitemaps(db, catalogue, search, libraries, new PagesService(db)).urls();
    const paths = urls.map((u) => u.path);
    expect(paths.filter((p) => p.startsWith('/entry/'))).toHaveLength(BULK + 2);
    expect(paths).not.toContain(`/entry/${id.secret}`);
    expect(paths).toContain(`/library/details/${lib.due}`);
    expect(paths).not.toContain(`/library/details/${lib.tre}`);
    const kropotkin = db.sqlite.prepare('SELECT id FROM agents WHERE name = ?').pluck().get('Peter Kropotkin');
    expect(paths).toContain(`/library/author/${kropotkin}`);
    const revolt = urls.find((u) => u.path === `/entry/${id.revolt}`)!;
    // The entry row's own last change (now) is newer than its acquisition date.
    expect(revolt.lastmod! > '2025').toBe(true);
  });

  it('offers downloadable texts in OPDS by latest, library and language', () => {
    const opds = new OpdsCatalogue(db, libraries, catalogue);
    expect(opds.librariesWithTexts()).toEqual([{ id: lib.uno, name: 'Biblioteca Uno', count: 1 }]);
    expect(opds.languagesWithTexts()).toEqual([{ code: 'fr', name: 'French', count: 1 }]);
    const latest = opds.page({ kind: 'latest' }, 1);
    expect(latest).toMatchObject({ total: 1, page: 1 });
    expect(latest.items.map((i) => [i.entry.title, i.updated])).toEqual([['Words of Revolt', '2024-05-01T10:00:00.000Z']]);
    expect(opds.page({ kind: 'language', code: 'fr' }, 1).total).toBe(1);
    expect(opds.page({ kind: 'language', code: 'it' }, 1).total).toBe(0);
    expect(opds.page({ kind: 'library', id: lib.due }, 1).total).toBe(0);
    expect(opds.page({ kind: 'library', id: lib.uno }, 1).items).toHaveLength(1);
  });
});
