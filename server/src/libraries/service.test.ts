// The library directory and the visibility rule on each back end (libraries.test.ts checks the routes
// on the full app).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { LibraryService, ensureSite, upsertLibrary } from './service.ts';

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('LibraryService on %s', (dialect) => {
  let db: Db;
  let other: Db;
  beforeAll(async () => {
    const target = await migratedTestDatabase(dialect);
    db = openDatabase(target);
    other = openDatabase(target);
  });
  afterAll(async () => {
    await db.close();
    await other.close();
  });

  it('creates and updates libraries, with given or new ids, and sees another process\'s change', () => {
    const libraries = new LibraryService(db);
    expect(upsertLibrary(db, { id: 5, name: 'Zeta Rooms', public: 1, active: 1, latitude: 45.8125, longitude: 15.9775 })).toBe(5);
    const made = upsertLibrary(db, { name: 'Alpha Stacks', public: 0, active: 1, library_type: 'physical' });
    expect(made).toBeGreaterThan(5);
    expect(libraries.get(5)).toMatchObject({ name: 'Zeta Rooms', public: 1, latitude: 45.8125, longitude: 15.9775 });
    expect(libraries.get(5)?.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // Another process renames it: the cache notices through the version query.
    upsertLibrary(other, { id: 5, name: 'Zeta Reading Rooms' });
    expect(libraries.get(5)?.name).toBe('Zeta Reading Rooms');
    upsertLibrary(other, { name: 'Hidden', public: 0, active: 0 });
    expect(libraries.all().size).toBe(3);
  });

  it('applies the visibility rule and lists libraries by name', () => {
    const libraries = new LibraryService(db);
    const alpha = [...libraries.all().values()].find((l) => l.name === 'Alpha Stacks')!;
    expect([...libraries.visibleIds(ANONYMOUS)]).toEqual([5]);
    expect([...libraries.visibleIds({ ...ANONYMOUS, userId: 1, libraryIds: [alpha.id] })].sort((a, b) => a - b)).toEqual([5, alpha.id]);
    expect(libraries.visibleIds({ ...ANONYMOUS, userId: 2, isSuperuser: true }).size).toBe(2);
    // A private physical library is listed (a place to visit) without its catalogue.
    expect(libraries.listPublic(ANONYMOUS).map((l) => [l.name, l.catalog_is_accessible])).toEqual([['Alpha Stacks', false], ['Zeta Reading Rooms', true]]);
  });

  it('gives each library one site per type', () => {
    const site = ensureSite(db, 5, 'csv', null, 'Spreadsheet');
    expect(ensureSite(db, 5, 'csv', 'https://example.org/list.csv', 'Spreadsheet')).toBe(site);
    expect(db.sqlite.prepare('SELECT url, active, oai_metadata_format FROM sites WHERE id = ?').get(site))
      .toEqual({ url: 'https://example.org/list.csv', active: 1, oai_metadata_format: null });
    expect(ensureSite(db, 5, 'generic', null, 'OAI')).not.toBe(site);
  });
});
