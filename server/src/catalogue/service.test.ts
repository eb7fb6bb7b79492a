// The entry page's SQL, files and text addresses on each back end (catalogue.test.ts checks the routes
// on the full app).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { CatalogueRows } from '../test/catalogue-rows.ts';
import { ANONYMOUS, type Viewer } from '../http/viewer.ts';
import { LibraryService } from '../libraries/service.ts';
import { AuthorResolver } from '../agents/resolve.ts';
import type { SearchService } from '../search/service.ts';
import { CatalogueService } from './service.ts';
import { FileStore } from './files.ts';
import { LatestService } from './latest.ts';

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('catalogue on %s', (dialect) => {
  let db: Db;
  let dir: string;
  let files: FileStore;
  let catalogue: CatalogueService;
  const id: Record<string, number> = {};
  let member: Viewer;

  beforeAll(async () => {
    db = openDatabase(await migratedTestDatabase(dialect));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-cat-'));
    const rows = new CatalogueRows(db);
    const open = rows.library('Biblioteca Uno');
    const other = rows.library('Archive Two');
    const closed = rows.library('Private Three', { public: 0 });
    member = { ...ANONYMOUS, userId: 7, username: 'reader', libraryIds: [closed.id] };
    id.closed = closed.id;

    id.mutual = rows.entry('Mutual Aid', { authors: ['Peter Kropotkin'], languages: ['en'] });
    id.mutualOld = rows.record(open.site, id.mutual, { year_edition: 1902 });
    id.mutualNew = rows.record(other.site, id.mutual, { year_edition: 1955 });
    id.mutualHidden = rows.record(closed.site, id.mutual, { year_edition: 1990 });
    id.entraide = rows.entry("L'Entraide", { authors: ['Peter Kropotkin'], languages: ['fr'], original: id.mutual });
    rows.record(other.site, id.entraide);
    id.hilfe = rows.entry('Gegenseitige Hilfe', { languages: ['de'], original: id.mutual });
    rows.record(closed.site, id.hilfe);
    // A merged variant: its records belong to the canonical entry's page.
    id.variant = rows.entry('MUTUAL AID', { languages: ['en'], canonical: id.mutual });
    id.variantRecord = rows.record(other.site, id.variant, { year_edition: 1970 });

    id.anthology = rows.entry('Anthology of Essays', { languages: ['en'] });
    rows.record(open.site, id.anthology);
    id.first = rows.entry('First Essay', { authors: ['Emma Goldman'], languages: ['en'] });
    rows.record(open.site, id.first);
    id.second = rows.entry('Second Essay', { authors: ['Voltairine de Cleyre'], languages: ['en'] });
    rows.record(open.site, id.second);
    rows.part(id.anthology, id.first, 2);
    rows.part(id.anthology, id.second, 1);
    // A curated aggregation without a record of its own, whose only part is held by the private library.
    id.curated = rows.entry('Curated Collection', { languages: ['en'] });
    id.secret = rows.entry('Secret Work', { languages: ['en'] });
    rows.record(closed.site, id.secret, { uri: 'https://texts.example.org/secret' });
    rows.part(id.curated, id.secret, null);
    rows.record(open.site, id.first, { identifier: 'first-online', uri: 'https://texts.example.org/first' });

    files = new FileStore(db, dir);
    const libraries = new LibraryService(db);
    catalogue = new CatalogueService(db, libraries, files, new AuthorResolver(db));
  });
  afterAll(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows an entry with the visible records of it and its merged variants, newest edition first', () => {
    const e = catalogue.getEntry(id.mutual, ANONYMOUS)!;
    expect(e).toMatchObject({ id: id.mutual, title: 'Mutual Aid', authors: [{ value: 'Peter Kropotkin' }], languages: [{ id: 'en', value: 'English' }] });
    expect(e.data_sources.map((d) => d.data_source_id)).toEqual([id.variantRecord, id.mutualNew, id.mutualOld]);
    expect(e.data_sources.map((d) => d.library_name)).toEqual(['Archive Two', 'Archive Two', 'Biblioteca Uno']);
    // An affiliated reader also sees the private library's record.
    expect(catalogue.getEntry(id.mutual, member)!.data_sources[0].data_source_id).toBe(id.mutualHidden);
    // A merged entry answers with its canonical entry.
    expect(catalogue.getEntry(id.variant, ANONYMOUS)!.id).toBe(id.mutual);
    expect(catalogue.getEntry(999_999, ANONYMOUS)).toBeNull();
  });

  it('links an original and its translations, each only when visible', () => {
    const o = catalogue.getEntry(id.mutual, ANONYMOUS)!;
    expect(o.original_entry).toBeNull();
    expect(o.translations).toEqual([{ id: id.entraide, languages: [{ id: 'fr', value: 'French' }] }]);
    expect(catalogue.getEntry(id.mutual, member)!.translations.map((t) => t.id)).toEqual([id.entraide, id.hilfe]);
    const t = catalogue.getEntry(id.entraide, ANONYMOUS)!;
    expect(t.original_entry).toEqual({ id: id.mutual, languages: [{ id: 'en', value: 'English' }] });
    expect(t.translations).toEqual([]);
  });

  it('lists an aggregation\'s parts in their order and a part\'s aggregations', () => {
    const a = catalogue.getEntry(id.anthology, ANONYMOUS)!;
    expect(a.aggregated.map((p) => p.title[0].value)).toEqual(['Second Essay', 'First Essay']);
    expect(a.aggregated[0].authors.map((x) => x.value)).toEqual(['Voltairine de Cleyre']);
    expect(a.data_sources[0].aggregated).toBe(true);
    expect(catalogue.getEntry(id.first, ANONYMOUS)!.aggregations.map((p) => p.title[0].value)).toEqual(['Anthology of Essays']);
  });

  it('holds a curated aggregation where its parts are: hidden from visitors, shown to the library\'s reader', () => {
    expect(catalogue.getEntry(id.curated, ANONYMOUS)).toBeNull();
    expect(catalogue.visibleEntries([id.curated, id.anthology], ANONYMOUS)).toEqual(new Set([id.anthology]));
    const e = catalogue.getEntry(id.curated, member)!;
    expect(e.data_sources).toEqual([]);
    expect(e.aggregated.map((p) => p.entry_id)).toEqual([id.secret]);
  });

  it('keeps files per data source: listed on the entry, found, replaced, removed, and unrecorded ones swept', () => {
    files.put(id.mutualOld, '.pdf', Buffer.from('%PDF-1.4\n'));
    files.put(id.mutualOld, '.muse', Buffer.from('#title Mutual Aid\n'));
    files.put(id.mutualOld, '.zip', Buffer.from('PK'));
    files.put(id.mutualOld, '.muse', Buffer.from('#title Mutual Aid\n\nText.\n'));
    expect(files.list([id.mutualOld, id.mutualNew])).toEqual(new Map([[id.mutualOld, ['.muse', '.pdf', '.zip']]]));
    expect(files.get(id.mutualOld, '.muse')).toMatchObject({ contentType: 'text/plain; charset=utf-8', size: 25 });
    const e = catalogue.getEntry(id.mutual, ANONYMOUS)!;
    // Texts first: the record with the book builder's files leads, whatever its edition.
    expect(e.data_sources[0]).toMatchObject({ data_source_id: id.mutualOld, has_full_text: true, has_pdf: true, can_add_to_bookbuilder: true });
    expect(e.data_sources[0].downloads.map((d) => d.code)).toEqual(['muse', 'pdf', 'zip']);

    fs.mkdirSync(path.join(dir, 'files', '424242'), { recursive: true });
    const leftBehind = path.join(dir, 'files', '424242', 'text.pdf');
    fs.writeFileSync(leftBehind, 'left behind');
    // Swept in the millisecond it was written: the clock's whole milliseconds lag the file's time.
    fs.utimesSync(leftBehind, new Date(), (Date.now() + 0.6) / 1000);
    expect(files.sweepUnrecorded(0, Math.floor(fs.statSync(leftBehind).mtimeMs))).toBe(1);
    expect(files.get(id.mutualOld, '.pdf')).not.toBeNull();
    files.removeAll(id.mutualOld);
    expect(files.list([id.mutualOld])).toEqual(new Map());
  });

  it('finds a data source the viewer may see, and the entry of a text\'s address', () => {
    expect(catalogue.visibleDataSource(id.mutualOld, ANONYMOUS)).toMatchObject({ entry_id: id.mutual, title: 'Mutual Aid' });
    expect(catalogue.visibleDataSource(id.mutualHidden, ANONYMOUS)).toBeNull();
    expect(catalogue.visibleDataSource(id.mutualHidden, member)).not.toBeNull();
    const latest = new LatestService(db, {} as SearchService, new LibraryService(db));
    expect(latest.entryOfUrl('https://texts.example.org/first', ANONYMOUS)).toBe(id.first);
    expect(latest.entryOfUrl('https://texts.example.org/secret', ANONYMOUS)).toBeNull();
    expect(latest.entryOfUrl('https://texts.example.org/secret', member)).toBe(id.secret);
    expect(latest.entryOfUrl('https://texts.example.org/FIRST', ANONYMOUS)).toBeNull();
  });
});
