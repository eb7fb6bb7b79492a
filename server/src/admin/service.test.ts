// The admin area's rules on each back end (admin.test.ts checks the routes and permissions on the full app).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { LibraryService, ensureSite } from '../libraries/service.ts';
import { PagesService } from '../pages/service.ts';
import { AccountService } from '../accounts/service.ts';
import { MailService } from '../mail/service.ts';
import { AdminService } from './service.ts';
import { adminLibraryBody } from './schemas.ts';

const body = (b: unknown) => adminLibraryBody.parse(b);

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('AdminService on %s', (dialect) => {
  let db: Db;
  let admin: AdminService;
  let accounts: AccountService;
  beforeAll(async () => {
    db = openDatabase(await migratedTestDatabase(dialect));
    const libraries = new LibraryService(db);
    const pages = new PagesService(db);
    accounts = new AccountService(db, libraries, { sessionDays: 1, resetMinutes: 5, minPasswordLength: 10, publicUrl: 'http://x' }, async () => {});
    admin = new AdminService(db, libraries, pages, accounts);
  });
  afterAll(async () => {
    await db.close();
  });

  it('lists libraries by name whatever the case, with their counts, and deletes only one without data sources', () => {
    const zeta = admin.createLibrary(body({ name: 'zeta rooms', public: true, latitude: 45.5 }));
    const alpha = admin.createLibrary(body({ name: 'Alpha Stacks', public: false }));
    const site = ensureSite(db, alpha.id, 'csv', null, 'Sheet');
    db.sqlite.prepare('INSERT INTO data_sources (site_id, identifier, title) VALUES (?, ?, ?)').run(site, 'x-1', 'A text');
    expect(admin.listLibraries().map((l) => [l.name, l.public, l.sites, l.data_sources])).toEqual([['Alpha Stacks', false, 1, 1], ['zeta rooms', true, 0, 0]]);
    expect(admin.updateLibrary(zeta.id, body({ name: 'Zeta Rooms', active: false }))).toMatchObject({ name: 'Zeta Rooms', active: false, latitude: 45.5 });
    expect(() => admin.deleteLibrary(alpha.id)).toThrow(/still holds/);
    admin.deleteLibrary(zeta.id);
    expect(admin.listLibraries().map((l) => l.name)).toEqual(['Alpha Stacks']);
  });

  it('creates and updates users: flags, affiliations, and a disabled account loses its sessions', async () => {
    const lib = admin.listLibraries()[0]!.id;
    const u = await admin.createUser({ username: 'keeper', email: 'k@example.org', password: 'a long enough password', library_admin: true, library_ids: [lib] });
    expect(u).toMatchObject({ username: 'keeper', library_admin: true, is_superuser: false, active: true, library_ids: [lib] });
    await expect(admin.createUser({ username: 'keeper' })).rejects.toThrow(/already exists/);
    expect(await accounts.login('keeper', 'a long enough password')).toHaveProperty('token');
    const root = { ...ANONYMOUS, userId: 999, isSuperuser: true };
    expect(admin.updateUser(root, u.id, { can_merge: true, active: false, library_ids: [] })).toMatchObject({ can_merge: true, active: false, library_ids: [] });
    expect(db.sqlite.prepare('SELECT count(*) FROM sessions WHERE user_id = ?').pluck().get(u.id)).toBe(0);
    expect(() => admin.updateUser({ ...root, userId: u.id }, u.id, { active: false })).toThrow(/your own account/);
    expect(admin.listUsers().map((x) => x.username)).toEqual(['keeper']);
  });

  it('manages pages and pages through the outbox, newest first', async () => {
    const p = admin.createPage({ title: 'About', content: '<p>Hi</p>', location: 'footer', published: true });
    expect(admin.updatePage(p.id, { title: 'About us', content: '<p>Hello</p>' })).toMatchObject({ id: p.id, title: 'About us', published: false });
    expect(admin.listPages().map((x) => x.title)).toEqual(['About us']);
    admin.deletePage(p.id);
    expect(admin.listPages()).toEqual([]);
    const mail = new MailService(db, { smtpUrl: null, mailFrom: 'noreply@example.org' });
    for (const subject of ['one', 'two', 'three']) await mail.send({ kind: 'test', to: ['a@example.org'], subject, text: 'x' });
    const page = admin.outbox(1, 2);
    expect(page.total).toBe(3);
    expect(page.messages.map((m) => m.subject)).toEqual(['three', 'two']);
    expect(admin.outbox(2, 2).messages.map((m) => m.subject)).toEqual(['one']);
  });
});
