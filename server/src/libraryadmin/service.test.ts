// Library administration's SQL on each back end: the library's users, the library edit, spreadsheet
// sites, uploads and their processing job, all or nothing through the journal (libraryadmin.test.ts,
// spreadsheets.test.ts and spreadsheets-atomic.test.ts check the routes on the full app).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryEditBodySchema } from '@uc/shared';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { CatalogueRows } from '../test/catalogue-rows.ts';
import { ANONYMOUS, type Viewer } from '../http/viewer.ts';
import { LibraryService, type LibraryRow } from '../libraries/service.ts';
import { AccountService } from '../accounts/service.ts';
import { FileStore } from '../catalogue/files.ts';
import { Indexer } from '../search/indexer.ts';
import { IngestService } from '../ingest/service.ts';
import { JobQueue } from '../jobs/queue.ts';
import { LibraryAdminService } from './service.ts';
import { SPREADSHEET_JOB, SpreadsheetService } from './spreadsheets.ts';

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('library administration on %s', (dialect) => {
  let db: Db;
  let dir: string;
  let libraries: LibraryService;
  let accounts: AccountService;
  let admin: LibraryAdminService;
  let ingest: IngestService;
  let jobs: JobQueue;
  let sheets: SpreadsheetService;
  let lib: LibraryRow;
  const mails: { to: string; text: string }[] = [];
  let superuser: Viewer;

  beforeAll(async () => {
    db = openDatabase(await migratedTestDatabase(dialect));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-la-'));
    const rows = new CatalogueRows(db);
    const { id } = rows.library('Biblioteca Uno', { email_internal: 'staff@uno.example.org' });
    libraries = new LibraryService(db);
    lib = libraries.get(id)!;
    accounts = new AccountService(db, libraries, { sessionDays: 1, resetMinutes: 30, minPasswordLength: 10, publicUrl: 'http://127.0.0.1:8080' }, async (m) => {
      mails.push({ to: m.to, text: m.text });
    });
    admin = new LibraryAdminService(db, libraries, accounts);
    const files = new FileStore(db, dir);
    ingest = new IngestService(db, new Indexer(db), files);
    jobs = new JobQueue(db);
    sheets = new SpreadsheetService(db, ingest, jobs);
    superuser = { ...ANONYMOUS, userId: await accounts.createUser({ username: 'root', email: 'root@example.org', is_superuser: true }), username: 'root', isSuperuser: true };
  });
  afterAll(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('adds new and existing users to the library, lists them by name, and removes only whom it may', async () => {
    const created = await admin.createUser(lib, { username: 'zoe', email: '', first_name: 'Zoe', last_name: 'Reader', can_merge: true, expiration: '2031-01-31' });
    expect(created).toMatchObject({ status: 'created', success: 'User added' });
    // No address given: the link to set a password goes to the library's internal address.
    expect(mails.at(-1)).toMatchObject({ to: 'staff@uno.example.org' });
    const other = await accounts.createUser({ username: 'anna', email: 'anna@example.org' });
    expect(await admin.createUser(lib, { username: 'Anna', email: '', first_name: '', last_name: '', can_merge: false, expiration: null })).toEqual({ success: 'User added', status: 'added', user_id: other });
    expect((await admin.createUser(lib, { username: 'anna', email: '', first_name: '', last_name: '', can_merge: false, expiration: null })).status).toBe('present');
    const boss = await accounts.createUser({ username: 'boss', email: 'boss@example.org', library_admin: true, libraryIds: [lib.id] });

    const bossViewer: Viewer = { ...ANONYMOUS, userId: boss, username: 'boss', isLibraryAdmin: true, libraryIds: [lib.id] };
    // The library admin sees the personal data of the account the library created only (issue 27).
    expect(admin.users(lib.id, bossViewer).map((u) => [u.username, u.email, u.name, u.expiration, u.can_merge, u.removable])).toEqual([
      ['anna', '', '', null, false, true], ['boss', '', '', null, false, false], ['zoe', 'staff@uno.example.org', 'Zoe Reader', '2031-01-31', true, true],
    ]);
    expect(admin.users(lib.id, superuser).map((u) => u.email)).toEqual(['anna@example.org', 'boss@example.org', 'staff@uno.example.org']);
    expect(() => admin.removeUser(lib, boss, bossViewer)).toThrow('You cannot remove yourself');
    expect(() => admin.removeUser(lib, boss, { ...bossViewer, userId: 999 })).toThrow('Library administrators and superusers can only be removed by a superuser');
    expect(() => admin.removeUser(lib, superuser.userId!, bossViewer)).toThrow('No such affiliated user');
    admin.removeUser(lib, other, bossViewer);
    expect(admin.users(lib.id, bossViewer).map((u) => u.username)).toEqual(['boss', 'zoe']);
  });

  it('saves the library edit and answers the library as its admin sees it', async () => {
    const input = libraryEditBodySchema.parse({ name: 'Biblioteca Uno e Due', email_internal: 'desk@uno.example.org', latitude: 45.4642, longitude: 9.19 });
    const saved = await admin.update(lib, input, superuser);
    expect(saved).toMatchObject({ name: 'Biblioteca Uno e Due', email_internal: 'desk@uno.example.org', latitude: 45.4642, longitude: 9.19 });
    lib = libraries.get(lib.id)!;
  });

  const csv = (n: number, title: (i: number) => string) => 'identifier,title,authors,languages,year_edition\n'
    + Array.from({ length: n }, (_, i) => `row-${i},"${title(i)}",Writer ${i % 7},en,${1900 + (i % 50)}`).join('\n') + '\n';
  const records = (site: number) => db.sqlite.prepare('SELECT identifier, title, entry_id, year_edition, authors FROM data_sources WHERE site_id = ? ORDER BY identifier').all(site);
  const journal = () => db.sqlite.prepare('SELECT count(*) FROM spreadsheet_journal').pluck().get();
  async function runJob(): Promise<string | null> {
    const job = jobs.claim('test-worker', [SPREADSHEET_JOB]);
    if (!job) throw new Error('no job queued');
    try {
      jobs.finish(job.id, await sheets.jobHandler().run(job.payload, { jobId: job.id, signal: new AbortController().signal }));
      return null;
    } catch (e) {
      jobs.fail(job.id, (e as Error).message);
      return (e as Error).message;
    }
  }
  async function upload(site: number, content: string, replaceAll = false): Promise<number> {
    return (await sheets.upload(lib, superuser, { content: Buffer.from(content), filename: 'list.csv', siteId: site, comment: '', replaceAll })).uploaded;
  }

  it('keeps spreadsheet sites by title, stores an upload\'s file until processed, and cancels one not processed', async () => {
    const b = sheets.createSite(lib.id, 'Shelf B', 'generic');
    const a = sheets.createSite(lib.id, 'Shelf A', 'generic');
    expect(sheets.sites(lib.id).map((s) => s.title)).toEqual(['Shelf A', 'Shelf B']);
    expect(a.expected_headers).toContain('identifier');
    const up = await upload(b.id, csv(3, (i) => `Title ${i}`));
    const row = sheets.get(up)!;
    expect(Buffer.from(row.content!).toString()).toBe(csv(3, (i) => `Title ${i}`));
    expect(row).toMatchObject({ number_of_records: 3, bad_rows: 0, status: 'uploaded', replace_all: 0 });
    sheets.cancel(row);
    expect(sheets.get(up)).toMatchObject({ status: 'cancelled', content: null });
    expect(() => sheets.process(sheets.get(up)!, false)).toThrow('This upload was cancelled');
  });

  it('processes an upload as a job; a job failing in its second batch leaves the records as they were; replace_all drops the rest', async () => {
    const site = sheets.createSite(lib.id, 'Catalogue', 'generic').id;
    const first = await upload(site, csv(520, (i) => `First title ${i}`));
    expect(sheets.process(sheets.get(first)!, false)).toMatchObject({ status: 'queued', total: 520 });
    expect(() => sheets.process(sheets.get(first)!, false)).toThrow('This upload is already processed or being processed');
    expect(await runJob()).toBeNull();
    expect(sheets.status(first)).toMatchObject({ status: 'finished', done: 520, stored: 520, removed: 0, error: null });
    const before = records(site);
    expect(before).toHaveLength(520);

    // The second sheet changes every title and adds rows; its second batch fails after the first was stored.
    const second = await upload(site, csv(540, (i) => `Second title ${i}`));
    sheets.process(sheets.get(second)!, false);
    const store = ingest.store.bind(ingest);
    let calls = 0;
    ingest.store = ((batch) => {
      if (++calls === 2) throw new Error('disk full (simulated)');
      return store(batch);
    }) as IngestService['store'];
    try {
      expect(await runJob()).toBe('disk full (simulated)');
    } finally {
      ingest.store = store;
    }
    expect(records(site)).toEqual(before);
    expect(journal()).toBe(0);
    expect(sheets.status(second)).toMatchObject({ status: 'failed', done: 0, stored: 0, error: 'disk full (simulated)' });

    // Run again: all of it applies. Then a sheet of ten rows replacing the whole site.
    sheets.process(sheets.get(second)!, false);
    expect(await runJob()).toBeNull();
    expect((records(site) as { title: string }[]).filter((r) => r.title.startsWith('Second title'))).toHaveLength(540);
    const third = await upload(site, csv(10, (i) => `Third title ${i}`), true);
    sheets.process(sheets.get(third)!, false);
    expect(await runJob()).toBeNull();
    expect(sheets.status(third)).toMatchObject({ status: 'finished', stored: 10, removed: 530 });
    expect((records(site) as { title: string }[]).map((r) => r.title).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `Third title ${i}`).sort());
  });

  it('undoes and fails an upload whose job the queue gave up on, when it is looked at', async () => {
    const site = sheets.createSite(lib.id, 'Boxes', 'generic').id;
    const up = await upload(site, csv(4, (i) => `Box ${i}`));
    sheets.process(sheets.get(up)!, false);
    const job = jobs.claim('dead-worker', [SPREADSHEET_JOB])!;
    jobs.fail(job.id, 'Interrupted 2 times (the worker stopped while running it)');
    db.sqlite.prepare("UPDATE spreadsheet_uploads SET status = 'working', done = 4 WHERE id = ?").run(up);
    expect(sheets.settleAllAbandoned()).toBe(1);
    expect(sheets.status(up)).toMatchObject({ status: 'failed', done: 0, error: 'Interrupted 2 times (the worker stopped while running it)' });
    expect(records(site)).toEqual([]);
  });
});
