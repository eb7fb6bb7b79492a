import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/fixture.ts';
import { loginCookie, TEST_PASSWORD as PASSWORD } from './test-helpers.ts';
import { BACKENDS } from '../test/backends.ts';

describe.each(BACKENDS)('library administration routes on %s', (dialect) => {
  let t: TestApp;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    t = await testApp(undefined, {}, dialect);
    const a = t.services.accounts;
    await a.createUser({ username: 'reader', email: 'reader@example.org', password: PASSWORD, libraryIds: [1] });
    await a.createUser({ username: 'admin2', email: 'admin2@example.org', password: PASSWORD, library_admin: true, libraryIds: [2] });
    await a.createUser({ username: 'admin1', email: 'admin1@example.org', password: PASSWORD, library_admin: true, libraryIds: [1] });
    await a.createUser({ username: 'root', email: 'root@example.org', password: PASSWORD, is_superuser: true });
    await a.createUser({ username: 'colleague', email: 'colleague@example.org', password: PASSWORD, library_admin: true, libraryIds: [1] });
    for (const u of ['reader', 'admin2', 'admin1', 'root']) cookies[u] = await loginCookie(t, u);
    cookies.anonymous = 'csrftoken=test-csrf-token';
  });
  afterAll(() => t.close());

  const get = (url: string, who: string) => t.app.inject({ method: 'GET', url: `/collector/api${url}`, headers: { cookie: cookies[who] } });
  const post = (url: string, who: string, body: unknown) => t.app.inject({
    method: 'POST', url: `/collector/api${url}`,
    headers: { cookie: cookies[who], 'x-csrftoken': 'test-csrf-token', 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

  const VALID = { name: 'Biblioteca Uno', email_internal: 'staff@uno.example.org' };

  describe('the permission rule (every route × every role)', () => {
    const routes: [string, (who: string) => ReturnType<typeof get>][] = [
      ['GET details', (w) => get('/library/details/1', w)],
      ['POST details', (w) => post('/library/details/1', w, VALID)],
      ['POST create-user', (w) => post('/library/create-user/1', w, { username: 'Alice', email: 'alice@example.org' })],
      ['GET list-users', (w) => get('/library/list-users/1', w)],
      ['POST remove-user', (w) => post('/library/remove-user/1', w, { id: 999999 })],
      ['GET spreadsheet sites', (w) => get('/spreadsheet/1', w)],
    ];
    const expected: Record<string, number> = { anonymous: 401, reader: 403, admin2: 403, admin1: 200, root: 200 };
    for (const [name, call] of routes) {
      for (const [who, status] of Object.entries(expected)) {
        it(`${name} as ${who} → ${status}`, async () => {
          const res = await call(who);
          if (name === 'POST remove-user' && status === 200) {
            // The rule passed; user 999999 is not affiliated (a 404 from the service, not 401/403).
            expect(res.statusCode).toBe(404);
          } else {
            expect(res.statusCode, res.body).toBe(status);
          }
          if (status !== 200) expect(res.json().error).toBeTruthy();
        });
      }
    }

    it('answers 404 to a superuser for a library that does not exist, 403 to a library admin', async () => {
      expect((await get('/library/details/999', 'root')).statusCode).toBe(404);
      expect((await get('/library/details/999', 'admin1')).statusCode).toBe(403);
    });

    it('refuses a POST without the CSRF header', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/collector/api/library/details/1', headers: { cookie: cookies.admin1, 'content-type': 'application/json' }, payload: JSON.stringify(VALID) });
      expect(res.statusCode).toBe(403);
    });
  });

  describe('library details', () => {
    it('returns every field, including the internal address, and the users', async () => {
      const res = await get('/library/details/1', 'admin1');
      const body = res.json();
      expect(Object.keys(body.library)).toEqual(expect.arrayContaining([
        'id', 'name', 'url', 'logo_url', 'library_type', 'established', 'year_established', 'languages', 'description',
        'short_desc', 'opening_hours', 'email_public', 'email_internal', 'address_line_1', 'address_line_2', 'address_zip',
        'address_city', 'address_state', 'address_country', 'pgp_public_key', 'latitude', 'longitude', 'catalog_is_accessible', 'region',
      ]));
      expect(body.users.map((u: { username: string }) => u.username)).toEqual(['admin1', 'alice', 'colleague', 'reader']);
    });

    it('updates the library with valid fields', async () => {
      const res = await post('/library/details/1', 'admin1', {
        ...VALID, email_public: 'hello@uno.example.org', latitude: '45.464211', longitude: 9.190123, year_established: '1975-04-01',
        library_type: 'physical', address_city: 'Milano', url: 'https://uno.example.org', region: 'Europe', description: '',
      });
      expect(res.statusCode, res.body).toBe(200);
      const lib = res.json().library;
      expect(res.json().success).toBe('OK');
      expect(lib).toMatchObject({ email_internal: 'staff@uno.example.org', latitude: 45.464211, longitude: 9.190123, established: '1975', library_type: 'physical', description: null });
      // The public API sees the change, not the internal address.
      const pub = (await get('/libraries/1', 'anonymous')).json().library;
      expect(pub.latitude).toBe(45.464211);
      expect(pub.email_internal).toBeUndefined();
    });

    const bad: [string, object][] = [
      ['internal e-mail missing', { email_internal: '' }],
      ['internal e-mail malformed', { email_internal: 'not-an-address' }],
      ['public e-mail malformed', { email_public: 'x@' }],
      ['latitude above 90', { latitude: 90.5 }],
      ['longitude below -180', { longitude: -181 }],
      ['latitude with 7 decimals', { latitude: 45.1234567 }],
      ['latitude not a number', { latitude: 'north' }],
      ['established not a date', { year_established: '1975-13-01' }],
      ['unknown library type', { library_type: 'floating' }],
      ['empty name', { name: '' }],
      ['url without scheme', { url: 'javascript:alert(1)' }],
    ];
    for (const [what, patch] of bad) {
      // A message the form can cause is answered the spec's way (200 with error); a value no form sends keeps 400.
      const status = what === 'unknown library type' ? 400 : 200;
      it(`refuses ${what} with ${status} {error}`, async () => {
        const res = await post('/library/details/1', 'admin1', { ...VALID, ...patch });
        expect(res.statusCode).toBe(status);
        expect(res.json().error).toMatch(/Invalid request/);
      });
    }
  });

  describe('library users', () => {
    it('creates a new user without a password and mails a set-your-password link', async () => {
      const res = await post('/library/create-user/1', 'admin1', { username: ' NewPerson ', email: 'new@example.org', first_name: 'New', last_name: 'Person', expiration: '2099-12-31', can_merge: true });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ success: 'User added', status: 'created' });
      const row = t.services.db.sqlite.prepare('SELECT * FROM users WHERE username = ?').get('newperson') as Record<string, unknown>;
      expect(row).toMatchObject({ password_hash: null, can_merge: 1, library_admin: 0, first_name: 'New', email: 'new@example.org' });
      expect(String(row.expiration)).toMatch(/^2099-12-31/);
      const mail = t.services.db.sqlite.prepare("SELECT * FROM outbox WHERE to_address LIKE '%new@example.org%' ORDER BY id DESC").get() as { subject: string; body: string };
      expect(mail.body).toMatch(/\/reset-password\/newperson\/[\w-]{20,}/);
      expect(mail.body).toMatch(/2099-12-31/);
      // The link sets the password.
      const token = /reset-password\/newperson\/([\w-]+)/.exec(mail.body)![1];
      const reset = await post('/auth/reset-password', 'anonymous', { operation: 'reset', username: 'newperson', token, password: 'my new password 1' });
      expect(reset.json().logged_in).toBe('newperson');
      const users = (await get('/library/list-users/1', 'admin1')).json().records;
      expect(users.find((u: { username: string }) => u.username === 'newperson')).toMatchObject({ name: 'New Person', can_merge: true, expiration: '2099-12-31', removable: true });
    });

    it('attaches an existing username without changing it or mailing', async () => {
      const before = t.services.db.sqlite.prepare('SELECT count(*) FROM outbox').pluck().get();
      const res = await post('/library/create-user/2', 'admin2', { username: 'Reader', email: 'other@example.org', can_merge: true });
      expect(res.json()).toMatchObject({ success: 'User added', status: 'added' });
      expect(t.services.db.sqlite.prepare('SELECT count(*) FROM outbox').pluck().get()).toBe(before);
      const row = t.services.db.sqlite.prepare("SELECT email, can_merge FROM users WHERE username = 'reader'").get();
      expect(row).toEqual({ email: 'reader@example.org', can_merge: 0 });
      const again = await post('/library/create-user/2', 'admin2', { username: 'reader' });
      expect(again.json()).toMatchObject({ status: 'present' });
    });

    it('uses the library internal address when no e-mail is given', async () => {
      const res = await post('/library/create-user/1', 'admin1', { username: 'noaddress' });
      expect(res.json().status).toBe('created');
      expect(t.services.db.sqlite.prepare("SELECT email FROM users WHERE username = 'noaddress'").pluck().get()).toBe('staff@uno.example.org');
    });

    it('refuses bad input the spec\'s way (200 with error), creating nobody', async () => {
      const before = t.services.db.sqlite.prepare('SELECT count(*) FROM users').pluck().get();
      const cases: [object, RegExp][] = [
        [{ username: '' }, /username: The username is required/],
        [{ username: 'x', email: 'nope' }, /email: Invalid e-mail address/],
        [{ username: 'x', expiration: '2024-02-30' }, /expiration: Invalid expiration date/],
        [{ username: 'bad name!' }, /Invalid username/],
      ];
      for (const [body, message] of cases) {
        const res = await post('/library/create-user/1', 'admin1', body);
        expect(res.statusCode).toBe(200);
        expect(res.json().error).toMatch(message);
        expect(res.json().success).toBeUndefined();
      }
      expect(t.services.db.sqlite.prepare('SELECT count(*) FROM users').pluck().get()).toBe(before);
    });

    it('detaches a user without deleting the account', async () => {
      const id = t.services.db.sqlite.prepare("SELECT id FROM users WHERE username = 'reader'").pluck().get() as number;
      const res = await post('/library/remove-user/2', 'admin2', { id });
      expect(res.json()).toEqual({ success: 'User removed' });
      expect(t.services.db.sqlite.prepare('SELECT library_id FROM user_libraries WHERE user_id = ?').pluck().all(id)).toEqual([1]);
      const removeAgain = await post('/library/remove-user/1', 'admin1', { id });
      expect(removeAgain.statusCode).toBe(200);
      expect(t.services.db.sqlite.prepare('SELECT count(*) FROM users WHERE id = ?').pluck().get(id)).toBe(1);
      expect((await post('/library/remove-user/1', 'admin1', { id })).statusCode).toBe(404);
    });

    it('does not let a library admin remove another admin or themselves; a superuser may remove an admin', async () => {
      const colleague = t.services.db.sqlite.prepare("SELECT id FROM users WHERE username = 'colleague'").pluck().get() as number;
      const self = t.services.db.sqlite.prepare("SELECT id FROM users WHERE username = 'admin1'").pluck().get() as number;
      expect((await post('/library/remove-user/1', 'admin1', { id: colleague })).statusCode).toBe(403);
      expect((await post('/library/remove-user/1', 'admin1', { id: self })).statusCode).toBe(400);
      expect((await post('/library/remove-user/1', 'root', { id: colleague })).statusCode).toBe(200);
    });
  });
  describe('issue 27: a library admin learns no account\'s e-mail', () => {
    type Row = { username: string; email: string; name: string; last_login: string | null };
    const listed = async (lib: number, who: string) => ((await get(`/library/list-users/${lib}`, who)).json().records as Row[]);
    const idOf = (u: string) => t.services.db.sqlite.prepare('SELECT id FROM users WHERE username = ?').pluck().get(u) as number;

    it('refuses to attach the superuser, though user-check says the name exists', async () => {
      expect((await get('/auth/user-check/root', 'admin2')).json().username_exists).toBe(1);
      const res = await post('/library/create-user/2', 'admin2', { username: 'ROOT', email: 'guess@example.org' });
      expect(res.statusCode).toBe(200);
      expect(res.json().error).toBe('This account cannot be added to a library');
      expect(res.json().success).toBeUndefined();
      expect(t.services.db.sqlite.prepare('SELECT count(*) FROM user_libraries WHERE user_id = ?').pluck().get(idOf('root'))).toBe(0);
      const rows = await listed(2, 'admin2');
      expect(rows.map((r) => r.username)).not.toContain('root');
      expect(JSON.stringify(rows)).not.toContain('root@example.org');
    });

    it('attaches a reader but shows the attaching admin no e-mail, name or login date; a superuser sees them', async () => {
      await t.services.accounts.createUser({ username: 'quiet', email: 'quiet@example.org', first_name: 'Quiet', last_name: 'Reader', password: PASSWORD, libraryIds: [1] });
      await loginCookie(t, 'quiet'); // a last login to hide
      const res = await post('/library/create-user/2', 'admin2', { username: 'quiet', email: 'other@example.org', can_merge: true, expiration: '2030-01-01' });
      expect(res.json()).toMatchObject({ status: 'added' });
      const row = (await listed(2, 'admin2')).find((r) => r.username === 'quiet')!;
      expect(row).toMatchObject({ email: '', name: '', last_login: null });
      const details = (await get('/library/details/2', 'admin2')).json().users as Row[];
      expect(details.find((r) => r.username === 'quiet')).toMatchObject({ email: '', name: '', last_login: null });
      expect(JSON.stringify(await listed(2, 'admin2'))).not.toContain('quiet@example.org');
      // The account itself is unchanged: no e-mail, flag or expiration of the attaching admin's choosing.
      expect(t.services.db.sqlite.prepare("SELECT email, can_merge, expiration FROM users WHERE username = 'quiet'").get())
        .toEqual({ email: 'quiet@example.org', can_merge: 0, expiration: null });
      // Superusers keep seeing everything.
      expect((await listed(2, 'root')).find((r) => r.username === 'quiet')).toMatchObject({ email: 'quiet@example.org', name: 'Quiet Reader' });
      expect((await listed(2, 'root')).find((r) => r.username === 'quiet')!.last_login).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      // Detaching takes the affiliation with library 2 only; the account and its other library stay.
      expect((await post('/library/remove-user/2', 'admin2', { id: idOf('quiet') })).json()).toEqual({ success: 'User removed' });
      expect(t.services.db.sqlite.prepare('SELECT library_id FROM user_libraries WHERE user_id = ?').pluck().all(idOf('quiet'))).toEqual([1]);
      expect(t.services.db.sqlite.prepare("SELECT password_hash IS NOT NULL FROM users WHERE username = 'quiet'").pluck().get()).toBe(1);
    });

    it('shows the e-mail and login date of an account the library created itself', async () => {
      const res = await post('/library/create-user/2', 'admin2', { username: 'made-here', email: 'made@example.org', first_name: 'Made', last_name: 'Here' });
      expect(res.json()).toMatchObject({ status: 'created' });
      t.services.db.sqlite.prepare("UPDATE users SET last_login = '2026-05-04T10:00:00.000Z' WHERE username = 'made-here'").run();
      expect((await listed(2, 'admin2')).find((r) => r.username === 'made-here')).toMatchObject({ email: 'made@example.org', name: 'Made Here', last_login: '2026-05-04' });
      // Library 1 attaching the same account learns nothing of it.
      await post('/library/create-user/1', 'admin1', { username: 'made-here' });
      expect((await listed(1, 'admin1')).find((r) => r.username === 'made-here')).toMatchObject({ email: '', name: '', last_login: null });
    });
  });
});
