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
import { accountRoutes, installSessions } from './routes.ts';

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
    await accounts.createUser({ username: 'victim', email: 'victim@example.org', password: 'the victim password' });
    await accounts.createUser({ username: 'root', email: 'root@example.org', password: 'the root password 1', is_superuser: true });
    await accounts.createUser({ username: 'spread', email: 'spread@example.org', password: 'the spread password' });
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
      /** Like axios, the header goes with every call once the browser holds the cookie. */
      async get(url: string, csrf = true) {
        const headers: Record<string, string> = { cookie: cookieHeader() };
        if (csrf && jar.has('csrftoken')) headers['x-csrftoken'] = jar.get('csrftoken')!;
        const res = await app.inject({ method: 'GET', url: `/collector/api${url}`, headers, remoteAddress: ip });
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

    // Issue 27: ten wrong passwords from anywhere locked the account (the superuser's too) for ten minutes.
    it('a guesser elsewhere never locks the owner out: 30 wrong passwords from 30 addresses, the owner still logs in', async () => {
      for (let i = 0; i < 30; i++) {
        expect(refusedLogin(await client(`10.7.0.${i}`).post('/auth/login', { username: 'victim', password: 'wrong guess' }))).toBe(true);
        expect(refusedLogin(await client(`10.7.1.${i}`).post('/auth/login', { username: 'root', password: 'wrong guess' }))).toBe(true);
      }
      expect((await client('10.7.9.9').post('/auth/login', { username: 'victim', password: 'the victim password' })).json().logged_in).toBe('victim');
      expect((await client('10.7.9.9').post('/auth/login', { username: 'ROOT', password: 'the root password 1' })).json().logged_in).toBe('root');
    });

    it('per account and address: after five failures the wait grows and is named in seconds; the owner elsewhere is not slowed', async () => {
      const guesser = client('10.5.0.1');
      for (let i = 0; i < 5; i++) expect(refusedLogin(await guesser.post('/auth/login', { username: 'keeper', password: 'wrong guess' }))).toBe(true);
      const slowed = await guesser.post('/auth/login', { username: 'keeper', password: 'keeper password 1' });
      expect(slowed.statusCode).toBe(429);
      expect(slowed.json().error).toMatch(/^Too many attempts\. Please try again in \d+ second/);
      expect(Number(slowed.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await client('10.5.0.2').post('/auth/login', { username: 'keeper', password: 'keeper password 1' })).json().logged_in).toBe('keeper');
    });

    it('parallel guesses cannot slip in before the count: of 20 at once from one address, 5 are checked', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => client('10.5.1.1').post('/auth/login', { username: 'victim', password: 'parallel guess' })));
      expect(answers.filter((r) => refusedLogin(r))).toHaveLength(5);
      expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(15);
    });

    it('a spray from one address over many names is slowed after 50, never shut; a browser that logged in there before still gets in', async () => {
      const regular = client('10.9.9.9');
      expect((await regular.post('/auth/login', { username: 'reader', password: 'correct horse battery' })).json().logged_in).toBe('reader');
      const sprayer = client('10.9.9.9');
      for (let i = 0; i < 50; i++) {
        expect(refusedLogin(await sprayer.post('/auth/login', { username: `someone-${i}`, password: 'Password123!' }))).toBe(true);
      }
      const slowed = await sprayer.post('/auth/login', { username: 'someone-else', password: 'Password123!' });
      expect(slowed.statusCode).toBe(429);
      expect(Number(slowed.headers['retry-after'])).toBeLessThanOrEqual(15);
      // Someone new behind the same address waits seconds; the regular (known browser and address) does not.
      const newcomer = await client('10.9.9.9').post('/auth/login', { username: 'keeper', password: 'keeper password 1' });
      expect(newcomer.statusCode).toBe(429);
      expect(Number(newcomer.headers['retry-after'])).toBeLessThanOrEqual(15);
      expect((await regular.post('/auth/login', { username: 'reader', password: 'correct horse battery' })).json().logged_in).toBe('reader');
      // The same owner from their usual address (no cookie): known too.
      expect((await client('10.9.9.9').post('/auth/login', { username: 'reader', password: 'correct horse battery' })).json().logged_in).toBe('reader');
    });

    it('guesses at one account spread over many addresses are slowed after 50; the owner\'s browser gets in at once', async () => {
      const owner = client('10.4.0.1');
      expect((await owner.post('/auth/login', { username: 'spread', password: 'the spread password' })).json().logged_in).toBe('spread');
      for (let i = 0; i < 50; i++) expect(refusedLogin(await client(`10.4.1.${i}`).post('/auth/login', { username: 'spread', password: 'botnet guess' }))).toBe(true);
      const slowed = await client('10.4.2.1').post('/auth/login', { username: 'spread', password: 'botnet guess' });
      expect(slowed.statusCode).toBe(429);
      expect(Number(slowed.headers['retry-after'])).toBeLessThanOrEqual(30);
      // The owner's browser, now on another network (a known device, a new address).
      const travelling = client('10.4.3.1');
      travelling.jar.set('logindevice', owner.jar.get('logindevice')!);
      expect((await travelling.post('/auth/login', { username: 'spread', password: 'the spread password' })).json().logged_in).toBe('spread');
    });

    it('a success takes the attempt back: a reading room logs in again and again without being slowed', async () => {
      const room = client('10.8.8.8');
      for (let i = 0; i < 60; i++) expect((await room.post('/auth/login', { username: 'reader', password: 'correct horse battery' })).statusCode).toBe(200);
      // Four typos, a success, four typos: the count started again, nothing waits.
      for (let i = 0; i < 4; i++) await client('10.6.0.1').post('/auth/login', { username: 'keeper', password: 'typo typo typo' });
      expect((await client('10.6.0.1').post('/auth/login', { username: 'keeper', password: 'keeper password 1' })).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) expect(refusedLogin(await client('10.6.0.1').post('/auth/login', { username: 'keeper', password: 'typo typo typo' }))).toBe(true);
    });

    it('logout needs the CSRF header too (it is a GET, but any page could link to it)', async () => {
      const c = client('10.3.0.1');
      await c.post('/auth/login', { username: 'reader', password: 'correct horse battery' });
      const forged = await c.get('/auth/logout', false);
      expect(forged.statusCode).toBe(403);
      expect((await c.get('/auth/user')).json().logged_in).toBe('reader');
      expect((await c.get('/auth/logout')).json()).toEqual({ ok: 'Logged out' });
      expect((await c.get('/auth/user')).json().logged_in).toBeNull();
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
