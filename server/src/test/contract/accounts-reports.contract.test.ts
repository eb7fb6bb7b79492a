// Contract: authentication, reports and the site's pages as the spec's client (the anchor's front end)
// sends them, and the fields it reads from the answers. Written down from reading that client:
// - the header (NavBar): GET /auth/user on mount (reads logged_in, message, is_superuser,
//   is_library_admin, libraries[].id/name); the login form posts {username, password} and reads
//   logged_in (truthy: logged in) else error ("Failed login" when absent); "Reset Password for X?" posts
//   {operation: 'send-link', username} and shows `message`; Logout is a GET, then GET /auth/user again.
// - the reset page (route /reset-password/:username/:token) posts {operation: 'reset', username, token,
//   password}; logged_in truthy sends the reader home, otherwise it shows `error`.
// - the add-user form asks GET /auth/user-check/{username} while typing and warns when username_exists.
// - the bug report dialog prefills its sender from GET /auth/user's email, posts {message: "On <page>\n\n
//   From <sender>\n\n<text>", email_from} and reads success, else error ("Error" when absent).
// - the data-source error pop-up shows only when logged_in and email are set, posts {message} and reads
//   success (anything else is shown as a failure).
// - the site: GET /general (site_name as the page title, site_logo, description, contact_email for the
//   contact page), the footer's GET /pages/footer/{lang} (pages[].id/title/summary) and the page view's
//   GET /pages/{id} (page.title, page.content as HTML).
// Axios sends the csrftoken cookie's value as X-CSRFToken on every same-origin call, GETs included (so
// the logout GET carries it); the browser keeps cookies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLines, testApp, type TestApp } from '../fixture.ts';

const PASSWORD = 'a long test password';
let t: TestApp;

beforeAll(async () => {
  t = await testApp([
    ...fixtureLines(),
    { type: 'page', id: 1, title: 'About us', summary: 'Who we are', content: '<p>We catalogue <em>libraries</em>.</p>', language: 'en', location: 'footer', sorting: 1, published: true },
    { type: 'page', id: 2, title: 'Help', summary: 'How to search', content: '<p>Type a word.</p>', language: 'ALL', location: 'user_menu', sorting: 1, published: true },
  ]);
  await t.services.accounts.createUser({ username: 'reader', email: 'reader@example.org', password: PASSWORD });
  await t.services.accounts.createUser({ username: 'gone', email: 'gone@example.org', password: PASSWORD, expiration: '2020-01-01T00:00:00Z' });
  await t.services.accounts.createUser({ username: 'libadmin', email: 'libadmin@example.org', password: PASSWORD, library_admin: true, libraryIds: [1] });
  await t.services.accounts.createUser({ username: 'noaddress', email: '', password: PASSWORD });
  await t.services.accounts.createUser({ username: 'forgetful', email: 'forgetful@example.org', password: PASSWORD });
  // The data-source error goes to the holding library's internal address.
  t.services.db.sqlite.prepare("UPDATE libraries SET email_internal = 'staff@uno.example.org' WHERE id = 1").run();
});
afterAll(() => t.close());

let nextAddress = 1;
/** A browser: keeps its cookies, and its axios echoes the csrftoken cookie in X-CSRFToken on POSTs. Each gets its own address (rate limits count per address). */
function browser() {
  const jar = new Map<string, string>();
  const ip = `10.1.0.${nextAddress++}`;
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: { cookies: { name: string; value: string }[] }) => {
    for (const c of res.cookies) if (c.value) jar.set(c.name, c.value); else jar.delete(c.name);
  };
  return {
    jar,
    async get(url: string) {
      const headers: Record<string, string> = { cookie: cookie() };
      if (jar.has('csrftoken')) headers['x-csrftoken'] = jar.get('csrftoken')!;
      const res = await t.app.inject({ method: 'GET', url: `/collector/api${url}`, headers, remoteAddress: ip });
      keep(res);
      return res;
    },
    async post(url: string, body: unknown) {
      const headers: Record<string, string> = { cookie: cookie(), 'content-type': 'application/json' };
      if (jar.has('csrftoken')) headers['x-csrftoken'] = jar.get('csrftoken')!;
      const res = await t.app.inject({ method: 'POST', url: `/collector/api${url}`, headers, payload: JSON.stringify(body), remoteAddress: ip });
      keep(res);
      return res;
    },
  };
}

/** A page load: the header checks the user first (which also hands out the CSRF cookie). */
async function openSite() {
  const b = browser();
  const res = await b.get('/auth/user');
  expect(res.statusCode).toBe(200);
  expect(b.jar.get('csrftoken')).toBeTruthy();
  return b;
}

async function loggedIn(username: string) {
  const b = await openSite();
  const res = await b.post('/auth/login', { username, password: PASSWORD });
  expect(res.json().logged_in).toBe(username);
  return b;
}

/** The reset link mailed last to this address, split as the client's route /reset-password/:username/:token. */
function lastResetLink(address: string): { username: string; token: string } {
  const body = t.services.db.sqlite.prepare('SELECT body FROM outbox WHERE to_address LIKE ? ORDER BY id DESC').pluck().get(`%${address}%`) as string;
  const m = /\/reset-password\/([^/\s]+)\/([\w-]+)/.exec(body);
  expect(m, body).not.toBeNull();
  return { username: decodeURIComponent(m![1]), token: m![2] };
}

describe('GET /auth/user (the header on every page)', () => {
  it('a visitor: logged_in falsy, no message, not superuser nor library admin, no libraries, no email', async () => {
    const body = (await browser().get('/auth/user')).json();
    expect(body.logged_in).toBeFalsy();
    // The header shows `message` under the login form: nothing to show to a visitor.
    expect(body.message).toBeFalsy();
    expect(body.is_superuser).toBe(false);
    expect(body.is_library_admin).toBe(false);
    expect(body.libraries).toEqual([]);
    expect(body.email).toBeFalsy();
  });

  it('a library admin: the username in logged_in (the greeting), the e-mail (the bug report sender) and the libraries to edit', async () => {
    const b = await loggedIn('libadmin');
    const body = (await b.get('/auth/user')).json();
    expect(body).toMatchObject({ logged_in: 'libadmin', email: 'libadmin@example.org', is_superuser: false, is_library_admin: true });
    expect(body.message).toBeFalsy();
    expect(body.libraries).toEqual([{ id: 1, name: 'Biblioteca Uno' }]);
  });
});

describe('POST /auth/login {username, password}', () => {
  it('right password: logged_in is the username, with the user data the menu reads, and the session is kept', async () => {
    const b = await openSite();
    const res = await b.post('/auth/login', { username: 'reader', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ logged_in: 'reader', is_superuser: false, is_library_admin: false, libraries: [] });
    expect(body.error).toBeFalsy();
    expect((await b.get('/auth/user')).json().logged_in).toBe('reader');
  });

  it('wrong password: 200, logged_in falsy and error the header shows', async () => {
    const res = await (await openSite()).post('/auth/login', { username: 'reader', password: 'not the password' });
    expect(res.statusCode).toBe(200);
    expect(res.json().logged_in).toBeFalsy();
    expect(res.json().error).toBe('Invalid login');
  });

  it('an expired account: 200, logged_in falsy and the reason in error', async () => {
    const res = await (await openSite()).post('/auth/login', { username: 'gone', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().logged_in).toBeFalsy();
    expect(res.json().error).toBe('Sorry, your account is expired!');
  });

  it('refuses a POST without the CSRF header (axios always sends it)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/collector/api/auth/login', headers: { 'content-type': 'application/json' }, payload: { username: 'reader', password: PASSWORD } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual(expect.any(String));
  });
});

describe('GET /auth/logout (then the header checks the user again)', () => {
  it('ends the session: the next GET /auth/user answers logged_in falsy, also for the old cookie', async () => {
    const b = await loggedIn('reader');
    const oldSession = b.jar.get('sessionid')!;
    const res = await b.get('/auth/logout');
    expect(res.statusCode).toBe(200);
    expect((await b.get('/auth/user')).json().logged_in).toBeFalsy();
    const replay = await t.app.inject({ method: 'GET', url: '/collector/api/auth/user', headers: { cookie: `sessionid=${oldSession}` } });
    expect(replay.json().logged_in).toBeFalsy();
  });
});

describe('POST /auth/reset-password', () => {
  it('send-link {operation, username}: 200 with message the header shows; the mail links to /reset-password/:username/:token', async () => {
    const res = await (await openSite()).post('/auth/reset-password', { operation: 'send-link', username: 'reader' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toEqual(expect.any(String));
    expect(res.json().message.length).toBeGreaterThan(0);
    expect(res.json().error).toBeFalsy();
    expect(lastResetLink('reader@example.org').username).toBe('reader');
  });

  it('send-link for an unknown name answers the same message (who has an account is not told)', async () => {
    const known = (await (await openSite()).post('/auth/reset-password', { operation: 'send-link', username: 'libadmin' })).json();
    const unknown = (await (await openSite()).post('/auth/reset-password', { operation: 'send-link', username: 'nobody-here' })).json();
    expect(unknown).toEqual(known);
  });

  it('reset {operation, username, token, password}: a short password and a bad token answer 200 with error; the good token logs in', async () => {
    await (await openSite()).post('/auth/reset-password', { operation: 'send-link', username: 'forgetful' });
    const { username, token } = lastResetLink('forgetful@example.org');
    const b = await openSite();

    const short = await b.post('/auth/reset-password', { operation: 'reset', username, token, password: 'short' });
    expect(short.statusCode).toBe(200);
    expect(short.json().logged_in).toBeFalsy();
    expect(short.json().error).toEqual(expect.stringMatching(/\S/));

    const bad = await b.post('/auth/reset-password', { operation: 'reset', username, token: `${token}x`, password: 'a brand new password' });
    expect(bad.statusCode).toBe(200);
    expect(bad.json().logged_in).toBeFalsy();
    expect(bad.json().error).toEqual(expect.stringMatching(/\S/));

    const good = await b.post('/auth/reset-password', { operation: 'reset', username, token, password: 'a brand new password' });
    expect(good.statusCode).toBe(200);
    expect(good.json().logged_in).toBe('forgetful');
    expect(good.json().error).toBeFalsy();
    // Sent home logged in, with the new password working from then on.
    expect((await b.get('/auth/user')).json().logged_in).toBe('forgetful');
    const again = await (await openSite()).post('/auth/login', { username: 'forgetful', password: 'a brand new password' });
    expect(again.json().logged_in).toBe('forgetful');
    // The token is spent.
    const reuse = await (await openSite()).post('/auth/reset-password', { operation: 'reset', username, token, password: 'yet another password' });
    expect(reuse.statusCode).toBe(200);
    expect(reuse.json().logged_in).toBeFalsy();
    expect(reuse.json().error).toEqual(expect.any(String));
  });
});

describe('GET /auth/user-check/{username} (the add-user form, as a library admin)', () => {
  it('username_exists truthy for an existing account, falsy otherwise', async () => {
    const b = await loggedIn('reader');
    const admin = await loggedIn('libadmin');
    const exists = await admin.get('/auth/user-check/reader');
    expect(exists.statusCode).toBe(200);
    expect(exists.json().username_exists).toBeTruthy();
    const missing = await admin.get('/auth/user-check/someone-new');
    expect(missing.statusCode).toBe(200);
    expect(missing.json().username_exists).toBeFalsy();
    // Not for anyone else (the form is only on the library admin screen).
    expect((await b.get('/auth/user-check/reader')).statusCode).toBe(403);
    expect((await browser().get('/auth/user-check/reader')).statusCode).toBe(401);
  });
});

describe('POST /report/bug {message, email_from} (the footer\'s Bug Report dialog)', () => {
  const compose = (page: string, from: string, text: string) => `On ${page}\n\nFrom ${from}\n\n${text}`;

  it('answers success; the report reaches the site\'s contact address with the sender to reply to', async () => {
    const b = await openSite();
    const from = 'visitor@example.org';
    const res = await b.post('/report/bug', { message: compose('http://localhost/entry/2', from, 'The year is wrong.'), email_from: from });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBeTruthy();
    expect(res.json().error).toBeFalsy();
    const mail = t.services.db.sqlite.prepare("SELECT to_address, reply_to, body FROM outbox WHERE kind = 'bug-report' ORDER BY id DESC").get() as { to_address: string; reply_to: string; body: string };
    expect(mail.to_address).toContain('info@example.org');
    expect(mail.reply_to).toContain(from);
    expect(mail.body).toContain('The year is wrong.');
  });

  it('a sender that is no e-mail address: 200 with error, which the dialog shows', async () => {
    const b = await openSite();
    const res = await b.post('/report/bug', { message: compose('http://localhost/', 'me', 'Broken link'), email_from: 'me' });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBeFalsy();
    expect(res.json().error).toEqual(expect.stringMatching(/\S/));
  });
});

describe('POST /report/data-source-error/{id} {message} (the entry page\'s Report Error pop-up)', () => {
  const dataSource = () => t.services.db.sqlite.prepare("SELECT id FROM data_sources WHERE identifier = 'a-2'").pluck().get() as number;

  it('a logged-in user with an e-mail address: success; the library\'s internal address gets it, reply-to the user', async () => {
    const b = await loggedIn('reader');
    const user = (await b.get('/auth/user')).json();
    // The pop-up's condition for showing its button.
    expect(user.logged_in && user.email).toBeTruthy();
    const res = await b.post(`/report/data-source-error/${dataSource()}`, { message: 'The publisher is missing.' });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBeTruthy();
    const mail = t.services.db.sqlite.prepare("SELECT to_address, reply_to, body FROM outbox WHERE kind = 'data-source-error' ORDER BY id DESC").get() as { to_address: string; reply_to: string; body: string };
    expect(mail.to_address).toContain('staff@uno.example.org');
    expect(mail.reply_to).toContain('reader@example.org');
    expect(mail.body).toContain('The publisher is missing.');
  });

  it('the pop-up is hidden from visitors and from users without an address: the server refuses them too', async () => {
    const visitor = await openSite();
    expect((await visitor.post(`/report/data-source-error/${dataSource()}`, { message: 'x' })).statusCode).toBe(401);
    const b = await loggedIn('noaddress');
    expect((await b.get('/auth/user')).json().email).toBeFalsy();
    const res = await b.post(`/report/data-source-error/${dataSource()}`, { message: 'x' });
    expect(res.json().success).toBeFalsy();
  });
});

describe('the site: GET /general, GET /pages/footer|user_menu/{lang}, GET /pages/{id}', () => {
  it('GET /general: site_name (the page title), site_logo, description and contact_email (the contact page)', async () => {
    const res = await browser().get('/general');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.site_name).toBe('Test Catalogue');
    expect(body.contact_email).toBe('info@example.org');
    // Without a logo the header shows the site name: the value is empty, not missing.
    expect(typeof body.site_logo).toBe('string');
    expect(typeof body.description).toBe('string');
  });

  it('the footer lists pages with id, title and summary; the user menu its own', async () => {
    const footer = (await browser().get('/pages/footer/en')).json();
    expect(footer.pages).toEqual([{ id: 1, title: 'About us', summary: 'Who we are' }]);
    const menu = (await browser().get('/pages/user_menu/it')).json();
    expect(menu.pages).toEqual([{ id: 2, title: 'Help', summary: 'How to search' }]);
    expect((await browser().get('/pages/footer/it')).json().pages).toEqual([]);
  });

  it('GET /pages/{id}: page.title and page.content as HTML; an unknown page is an error the view ignores', async () => {
    const res = await browser().get('/pages/1');
    expect(res.statusCode).toBe(200);
    expect(res.json().page).toMatchObject({ title: 'About us', content: '<p>We catalogue <em>libraries</em>.</p>' });
    const missing = await browser().get('/pages/999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toEqual(expect.any(String));
  });
});
