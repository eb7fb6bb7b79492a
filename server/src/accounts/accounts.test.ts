import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { installErrorHandler } from '../http/errors.ts';
import { installCsrf } from '../http/csrf.ts';
import { LibraryService, upsertLibrary } from '../libraries/service.ts';
import { AccountService, type OutgoingMail } from './service.ts';
import { LOGIN_FAILURES_PER_ADDRESS, LOGIN_FAILURES_PER_USER, accountRoutes, installSessions } from './routes.ts';

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('accounts on %s', (dialect) => {
  let db: Db;
  let app: FastifyInstance;
  let accounts: AccountService;
  const outbox: OutgoingMail[] = [];

  beforeAll(async () => {
    db = openDatabase(await migratedTestDatabase(dialect));
    upsertLibrary(db, { id: 1, name: 'Open Library', public: 1, active: 1 });
    upsertLibrary(db, { id: 2, name: 'Closed Stacks', public: 0, active: 1 });
    const libraries = new LibraryService(db);
    accounts = new AccountService(db, libraries, { sessionDays: 14, resetMinutes: 30, minPasswordLength: 10, publicUrl: 'http://127.0.0.1:8080' }, async (m) => {
      outbox.push(m);
    });
    await accounts.createUser({ username: 'Reader', email: 'reader@example.org', password: 'correct horse battery' });
    await accounts.createUser({ username: 'keeper', email: 'keeper@example.org', password: 'keeper password 1', library_admin: true, libraryIds: [2] });
    await accounts.createUser({ username: 'gone', email: 'gone@example.org', password: 'gone password 12', expiration: '2020-01-01T00:00:00Z' });
    app = Fastify().withTypeProvider();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandler(app);
    await app.register(fastifyCookie);
    installCsrf(app);
    installSessions(app, accounts);
    await app.register(accountRoutes(accounts, 14, db), { prefix: '/collector/api' });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  /** A browser-like client: keeps cookies and sends the CSRF header from the csrftoken cookie. */
  function client(ip = '10.0.0.1') {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const remember = (res: { cookies: { name: string; value: string }[] }) => {
      for (const c of res.cookies) if (c.value) jar.set(c.name, c.value); else jar.delete(c.name);
    };
    return {
      jar,
      async get(url: string) {
        const res = await app.inject({ method: 'GET', url: `/collector/api${url}`, headers: { cookie: cookieHeader() }, remoteAddress: ip });
        remember(res);
        return res;
      },
      async post(url: string, body: unknown, csrf = true) {
        if (!jar.has('csrftoken')) await this.get('/auth/user');
        const headers: Record<string, string> = { cookie: cookieHeader(), 'content-type': 'application/json' };
        if (csrf) headers['x-csrftoken'] = jar.get('csrftoken')!;
        const res = await app.inject({ method: 'POST', url: `/collector/api${url}`, headers, payload: JSON.stringify(body), remoteAddress: ip });
        remember(res);
        return res;
      },
    };
  }

  /** A login refused the spec's way: 200 with `logged_in: null` and the reason in `error`. */
  function refusedLogin(res: { statusCode: number; json: () => { logged_in?: unknown; error?: unknown } }): boolean {
    const body = res.json();
    return res.statusCode === 200 && body.logged_in === null && typeof body.error === 'string' && body.error.length > 0;
  }

  describe('login, user check and logout', () => {
    it('answers the anonymous shape before login and hands out a CSRF cookie', async () => {
      const c = client();
      const res = await c.get('/auth/user');
      expect(res.json()).toMatchObject({ logged_in: null, is_superuser: false, is_library_admin: false, libraries: [] });
      expect(c.jar.get('csrftoken')).toMatch(/^[0-9a-f]{48}$/);
    });

    it('logs in with an HttpOnly session cookie, case-insensitive username, and logs out', async () => {
      const c = client();
      const res = await c.post('/auth/login', { username: ' READER ', password: 'correct horse battery' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ logged_in: 'reader', email: 'reader@example.org' });
      const cookie = res.cookies.find((k) => k.name === 'sessionid')!;
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe('Lax');
      expect((await c.get('/auth/user')).json().logged_in).toBe('reader');
      expect((await c.get('/auth/logout')).json()).toEqual({ ok: 'Logged out' });
      expect((await c.get('/auth/user')).json().logged_in).toBeNull();
    });

    it('refuses wrong passwords and unknown users with the same answer', async () => {
      const wrong = await client('10.0.0.2').post('/auth/login', { username: 'reader', password: 'wrong password!' });
      const unknown = await client('10.0.0.3').post('/auth/login', { username: 'nobody', password: 'wrong password!' });
      // Spec §7: the refusal is read from a successful answer's `error` (not from a 4xx).
      expect(wrong.statusCode).toBe(200);
      expect(wrong.json()).toEqual({ logged_in: null, error: 'Invalid login' });
      expect(unknown.json()).toEqual(wrong.json());
    });

    it('keeps expired accounts out (and keeps them)', async () => {
      const res = await client('10.0.0.4').post('/auth/login', { username: 'gone', password: 'gone password 12' });
      expect(res.json()).toEqual({ logged_in: null, error: 'Sorry, your account is expired!' });
      expect(accounts.userExists('gone')).toBe(true);
    });

    it('lists the libraries of a library admin, private ones included', async () => {
      const c = client();
      const res = await c.post('/auth/login', { username: 'keeper', password: 'keeper password 1' });
      expect(res.json()).toMatchObject({ logged_in: 'keeper', is_library_admin: true, can_merge: true, libraries: [{ id: 2, name: 'Closed Stacks' }] });
    });

    it('rejects state-changing calls without a matching CSRF header', async () => {
      const c = client();
      const res = await c.post('/auth/login', { username: 'reader', password: 'correct horse battery' }, false);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatch(/CSRF/);
    });

    it('counts failed logins only: a guessed name is locked after 10 failures, its owner is not locked by others', async () => {
      // Ten wrong passwords for one name, from ten addresses: the eleventh try is refused whatever the password.
      for (let i = 0; i < LOGIN_FAILURES_PER_USER; i++) {
        expect(refusedLogin(await client(`10.7.0.${i}`).post('/auth/login', { username: 'target', password: 'wrong guess' }))).toBe(true);
      }
      const locked = await client('10.7.1.1').post('/auth/login', { username: 'TARGET', password: 'wrong guess' });
      expect(locked.statusCode).toBe(429);
      expect(locked.json().error).toMatch(/^Too many attempts\. Please try again in \d+ minute/);
      // A reading room: many people log in successfully from one address, never locked out.
      const room = client('10.8.8.8');
      for (let i = 0; i < LOGIN_FAILURES_PER_USER + 5; i++) expect((await room.post('/auth/login', { username: 'reader', password: 'correct horse battery' })).statusCode).toBe(200);
    });

    it('limits failures per address more loosely than per name, and a success clears the name\'s count', async () => {
      const c = client('10.9.9.9');
      for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
        expect(refusedLogin(await c.post('/auth/login', { username: `someone${i % 5}-${i}`, password: 'nope nope nope' }))).toBe(true);
      }
      expect((await c.post('/auth/login', { username: 'reader', password: 'correct horse battery' })).statusCode).toBe(429);
      // Nine failures for a name, then its owner logs in: the count starts again.
      for (let i = 0; i < LOGIN_FAILURES_PER_USER - 1; i++) await client('10.6.0.1').post('/auth/login', { username: 'reader', password: 'typo typo typo' });
      expect((await client('10.6.0.2').post('/auth/login', { username: 'reader', password: 'correct horse battery' })).statusCode).toBe(200);
      for (let i = 0; i < LOGIN_FAILURES_PER_USER - 1; i++) {
        expect(refusedLogin(await client('10.6.0.3').post('/auth/login', { username: 'reader', password: 'typo typo typo' }))).toBe(true);
      }
    });

    it('lets only library admins check usernames', async () => {
      expect((await client().get('/auth/user-check/reader')).statusCode).toBe(401);
      const reader = client();
      await reader.post('/auth/login', { username: 'reader', password: 'correct horse battery' });
      expect((await reader.get('/auth/user-check/reader')).statusCode).toBe(403);
      const admin = client();
      await admin.post('/auth/login', { username: 'keeper', password: 'keeper password 1' });
      expect((await admin.get('/auth/user-check/READER')).json()).toEqual({ username: 'reader', username_exists: 1 });
      expect((await admin.get('/auth/user-check/nobody')).json()).toEqual({ username: 'nobody', username_exists: 0 });
    });
  });

  describe('password reset', () => {
    it('mails a single-use link, sets the new password and logs in; the answer never reveals the account', async () => {
      const c = client('10.1.0.1');
      const known = await c.post('/auth/reset-password', { operation: 'send-link', username: 'reader' });
      const unknown = await c.post('/auth/reset-password', { operation: 'send-link', username: 'nobody' });
      expect(known.json()).toEqual(unknown.json());
      expect(outbox).toHaveLength(1);
      expect(outbox[0].to).toBe('reader@example.org');
      const link = /http:\/\/127\.0\.0\.1:8080\/reset-password\/reader\/([\w-]+)/.exec(outbox[0].text)!;
      const token = link[1];

      const short = await c.post('/auth/reset-password', { operation: 'reset', username: 'reader', token, password: 'short' });
      expect(short.statusCode).toBe(200);
      expect(short.json()).toMatchObject({ logged_in: null, error: expect.stringMatching(/at least 10 characters/) });

      const ok = await c.post('/auth/reset-password', { operation: 'reset', username: 'reader', token, password: 'a brand new password' });
      expect(ok.json().logged_in).toBe('reader');
      expect((await c.get('/auth/user')).json().logged_in).toBe('reader');

      const again = await c.post('/auth/reset-password', { operation: 'reset', username: 'reader', token, password: 'another new password' });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ logged_in: null, error: expect.stringMatching(/invalid or has expired/) });
      expect((await client('10.1.0.2').post('/auth/login', { username: 'reader', password: 'a brand new password' })).statusCode).toBe(200);
    });

    it('validates the body', async () => {
      const res = await client('10.1.0.3').post('/auth/reset-password', { operation: 'explode', username: 'x' });
      expect(res.statusCode).toBe(400);
    });
  });
});
