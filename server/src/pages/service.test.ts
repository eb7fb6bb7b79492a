// Site settings and static pages on each back end (pages.test.ts checks the routes on the full app).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { PagesService } from './service.ts';

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('PagesService on %s', (dialect) => {
  let db: Db;
  let pages: PagesService;
  beforeAll(async () => {
    db = openDatabase(await migratedTestDatabase(dialect));
    pages = new PagesService(db);
  });
  afterAll(async () => {
    await db.close();
  });

  it('keeps settings, replacing a value and leaving the others', () => {
    expect(pages.general()).toEqual({ site_name: 'Union Catalogue', site_logo: '', description: '', contact_email: '' });
    pages.setSettings({ site_name: 'Reading Rooms', contact_email: 'desk@example.org' });
    pages.setSettings({ site_name: 'Reading Rooms United' });
    expect(pages.general()).toEqual({ site_name: 'Reading Rooms United', site_logo: '', description: '', contact_email: 'desk@example.org' });
  });

  it('keeps the description in other languages: only those set reach /general, every one the admin form', () => {
    pages.setSettings({ description: 'A catalogue of reading rooms.', description_de: 'Ein Katalog von Leseräumen.', description_el: '  ' });
    expect(pages.general()).toMatchObject({ description: 'A catalogue of reading rooms.', descriptions: { de: 'Ein Katalog von Leseräumen.' } });
    expect(pages.settings()).toMatchObject({
      description: 'A catalogue of reading rooms.', description_de: 'Ein Katalog von Leseräumen.', description_el: '', description_fr: '', description_hr: '', description_it: '',
    });
    pages.setSettings({ description: '', description_de: '' });
    expect(pages.general().descriptions).toBeUndefined();
  });

  it('stores pages sanitized, with given or new ids, and lists a menu by language and login', () => {
    const about = pages.upsertPage({ id: 10, title: 'About', content: '<p onclick="x()">Hi</p>', language: 'en', location: 'footer', sorting: 2, published: true });
    const privacy = pages.upsertPage({ title: 'Privacy', content: '<p>All</p>', language: 'ALL', location: 'footer', sorting: 1, published: true });
    const chi = pages.upsertPage({ title: 'Chi siamo', content: '<p>Ciao</p>', language: 'it', location: 'footer', published: true });
    pages.upsertPage({ title: 'Draft', content: '<p>x</p>', language: 'en', location: 'footer', published: false });
    const members = pages.upsertPage({ title: 'Members', content: '<p>m</p>', language: 'en', location: 'footer', published: true });
    db.sqlite.prepare('UPDATE pages SET logged_in_only = 1 WHERE id = ?').run(members);
    expect(about).toBe(10);
    expect(privacy).toBeGreaterThan(10);
    expect(chi).toBeGreaterThan(privacy);
    expect(pages.get(10, false)).toEqual({ id: 10, title: 'About', summary: '', content: '<p>Hi</p>' });
    expect(pages.list('footer', 'en', false).map((p) => p.title)).toEqual(['Privacy', 'About']);
    expect(pages.list('footer', 'en', true).map((p) => p.title)).toEqual(['Members', 'Privacy', 'About']);
    expect(pages.list('footer', 'it', false).map((p) => p.title)).toEqual(['Chi siamo', 'Privacy']);
    expect(pages.get(members, false)).toBeNull();
    expect(pages.get(members, true)?.title).toBe('Members');
    // An update keeps the id.
    expect(pages.upsertPage({ id: 10, title: 'About us', content: '<p>Hello</p>', location: 'footer', sorting: 2, published: true })).toBe(10);
    expect(pages.get(10, false)?.title).toBe('About us');
  });
});
