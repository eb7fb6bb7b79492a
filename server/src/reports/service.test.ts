// Reports stored and queued in the outbox on each back end (reports.test.ts checks the routes, their
// rate limit and the mail contents on the full app).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { LibraryService, ensureSite, upsertLibrary } from '../libraries/service.ts';
import { MailService } from '../mail/service.ts';
import { PagesService } from '../pages/service.ts';
import { ReportService } from './service.ts';

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('ReportService on %s', (dialect) => {
  let db: Db;
  let reports: ReportService;
  let mail: MailService;
  beforeAll(async () => {
    db = openDatabase(await migratedTestDatabase(dialect));
    const pages = new PagesService(db);
    pages.setSettings({ site_name: 'Reading Rooms', contact_email: 'admin@example.org' });
    mail = new MailService(db, { smtpUrl: null, mailFrom: 'noreply@example.org' });
    reports = new ReportService(db, mail, pages, new LibraryService(db), { adminEmail: '', publicUrl: 'https://rooms.example.org' });
  });
  afterAll(async () => {
    await db.close();
  });

  it('stores a bug report with its queued e-mail', async () => {
    const r = await reports.bugReport({ message: 'The map\r\nis blank', emailFrom: 'reader@example.net' }, ANONYMOUS);
    expect(r.mail.status).toBe('queued');
    expect(db.sqlite.prepare('SELECT kind, message, sender, user_id, outbox_id FROM reports WHERE id = ?').get(r.id))
      .toEqual({ kind: 'bug', message: 'The map\nis blank', sender: 'reader@example.net', user_id: null, outbox_id: r.mail.id });
    expect(mail.get(r.mail.id)).toMatchObject({ to_address: 'admin@example.org', subject: `[Reading Rooms] Bug Report #${r.id}` });
  });

  it('sends a data-source report to the holding library, linking the entry it belongs to', async () => {
    const lib = upsertLibrary(db, { name: 'Open Stacks', public: 1, active: 1, email_internal: 'desk@stacks.example.org' });
    const site = ensureSite(db, lib, 'csv', null, 'Sheet');
    const canonical = Number(db.sqlite.prepare('INSERT INTO entries (title, grouping_key) VALUES (?, ?)').run('Mutual Aid', 'k1').lastInsertRowid);
    const merged = Number(db.sqlite.prepare('INSERT INTO entries (title, grouping_key, canonical_entry_id) VALUES (?, ?, ?)').run('Mutual Aid!', 'k2', canonical).lastInsertRowid);
    const ds = Number(db.sqlite.prepare('INSERT INTO data_sources (site_id, identifier, entry_id, title) VALUES (?, ?, ?, ?)').run(site, 'ma-1', merged, 'Mutual  Aid').lastInsertRowid);
    const viewer = { ...ANONYMOUS, userId: 3, username: 'reader' };
    const r = await reports.dataSourceReport(ds, { message: 'Wrong year', reportType: 'error' }, { viewer, email: 'reader@example.net' });
    expect(db.sqlite.prepare('SELECT kind, library_id, data_source_id FROM reports WHERE id = ?').get(r.id))
      .toEqual({ kind: 'data-source-error', library_id: lib, data_source_id: ds });
    const sent = mail.get(r.mail.id)!;
    expect(sent).toMatchObject({ to_address: 'desk@stacks.example.org', cc_address: 'admin@example.org', subject: `[Reading Rooms Error Report #${r.id}] Mutual Aid` });
    expect(sent.body).toContain(`https://rooms.example.org/entry/${canonical}`);
    await expect(reports.dataSourceReport(9999, { message: 'x', reportType: 'question' }, { viewer, email: 'reader@example.net' })).rejects.toThrow('No such data source');
  });
});
