// The double-submit CSRF check on a fresh browser: parallel first requests, the cookie it keeps, the
// refusals and what comes with them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/fixture.ts';
import { CSRF_ERROR } from './csrf.ts';
import { listenLocal, rawRequest } from '../test/raw-http.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t.close();
});

const tokenOf = (res: { cookies: { name: string; value: string }[] }) => res.cookies.find((c) => c.name === 'csrftoken')?.value;
/** A state-changing call (get_headings needs nothing else) with this cookie and header. */
const post = (cookie: string | null, header: string | null) => t.app.inject({
  method: 'POST',
  url: '/collector/api/bookbuilder',
  headers: {
    'content-type': 'application/json',
    ...(cookie !== null ? { cookie: `csrftoken=${cookie}` } : {}),
    ...(header !== null ? { 'x-csrftoken': header } : {}),
  },
  payload: JSON.stringify({ action: 'get_headings' }),
});

describe('CSRF on a first visit', () => {
  it('two parallel first GETs each hand out a token; a POST succeeds with either one as long as header and cookie agree', async () => {
    const [a, b] = await Promise.all([t.app.inject('/collector/api/general'), t.app.inject('/collector/api/auth/user')]);
    const ta = tokenOf(a)!;
    const tb = tokenOf(b)!;
    expect(ta).toMatch(/^[0-9a-f]{48}$/);
    expect(tb).toMatch(/^[0-9a-f]{48}$/);
    expect(ta).not.toBe(tb);
    // The browser keeps whichever cookie it stored last; the client sends that one in the header.
    for (const tok of [ta, tb]) {
      const res = await post(tok, tok);
      expect(res.statusCode, res.body).toBe(200);
      expect(tokenOf(res)).toBeUndefined(); // the valid cookie is not replaced
    }
    // A header read before the other answer replaced the cookie: refused, the cookie left as it is.
    const mixed = await post(tb, ta);
    expect(mixed.statusCode).toBe(403);
    expect(mixed.json()).toEqual({ error: CSRF_ERROR });
    expect(tokenOf(mixed)).toBeUndefined();
  });

  it('never replaces a cookie the browser holds (GET), and GET /csrf hands one out to a browser without', async () => {
    const kept = await t.app.inject({ url: '/collector/api/general', headers: { cookie: 'csrftoken=held-token-123' } });
    expect(tokenOf(kept)).toBeUndefined();
    const fresh = await t.app.inject('/collector/api/csrf');
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toEqual({ ok: true });
    expect(tokenOf(fresh)).toMatch(/^[0-9a-f]{48}$/);
    const cookie = fresh.cookies.find((c) => c.name === 'csrftoken') as { path?: string; sameSite?: string; httpOnly?: boolean };
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Lax' });
    expect(cookie.httpOnly).toBeFalsy(); // the web client reads it
    const again = await t.app.inject({ url: '/collector/api/csrf', headers: { cookie: 'csrftoken=held-token-123' } });
    expect(tokenOf(again)).toBeUndefined();
  });

  it('a POST without a cookie is refused and gets a cookie, so the client\'s one retry succeeds', async () => {
    const first = await post(null, null);
    expect(first.statusCode).toBe(403);
    expect(first.json().error).toMatch(/CSRF/);
    const tok = tokenOf(first)!;
    expect(tok).toMatch(/^[0-9a-f]{48}$/);
    const retry = await post(tok, tok);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().headings.length).toBeGreaterThan(0);
  });

  it('refuses a missing or wrong header whatever the cookie', async () => {
    expect((await post('some-token', null)).statusCode).toBe(403);
    expect((await post('some-token', 'other-token')).statusCode).toBe(403);
    expect((await post(null, 'some-token')).statusCode).toBe(403);
    expect((await post('', '')).statusCode).toBe(403);
  });
});

// The attack of issue 27: the check read the raw URL, the router the decoded one, so a path spelled with
// %-escapes ran a state-changing call without a token. Replayed over a real socket, the path unchanged.
describe('CSRF on every spelling of a path (raw HTTP)', () => {
  let port: number;
  let session: string;
  const agents = () => t.services.db.sqlite.prepare('SELECT count(*) FROM agents').pluck().get() as number;
  const changes = () => t.services.db.sqlite.prepare('SELECT count(*) FROM changes').pluck().get() as number;
  const json = (extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', cookie: `sessionid=${session}`, ...extra });

  beforeAll(async () => {
    await t.services.accounts.createUser({ username: 'csrf-root', email: 'csrf-root@example.org', password: 'a long root password', is_superuser: true, libraryIds: [1] });
    session = ((await t.services.accounts.login('csrf-root', 'a long root password')) as { token: string }).token;
    port = await listenLocal(t.app);
  });

  it('the encoded path is routed: with the token it creates an agent (so a refusal below is the check, not a 404)', async () => {
    const before = agents();
    const res = await rawRequest(port, 'POST', '/collector/%61pi/create/agent', json({ cookie: `sessionid=${session}; csrftoken=tok`, 'x-csrftoken': 'tok' }),
      JSON.stringify({ value: 'Routed Encoded Author' }));
    expect(res.status, res.body).toBe(200);
    expect(agents()).toBe(before + 1);
  });

  it('refuses every spelling without a token and changes nothing', async () => {
    const made = await rawRequest(port, 'POST', '/collector/api/create/agent', json({ cookie: `sessionid=${session}; csrftoken=tok`, 'x-csrftoken': 'tok' }),
      JSON.stringify({ value: 'Author To Keep' }));
    expect(made.status, made.body).toBe(200);
    const changeId = made.json().change_id as number;
    const body = JSON.stringify({ value: 'Forged Author' });
    const spellings = [
      '/collector/%61pi/create/agent', '/collector/api/%63reate/agent', '/%63ollector/api/create/agent', '/collector/api/create/%61gent',
      '/collector%2Fapi/create/agent', '/collector/%2561pi/create/agent', '//collector/api/create/agent', '/collector//api/create/agent',
      '/collector/api/./create/agent', '/collector/x/../api/create/agent', '/collector/api/create/agent/', '/COLLECTOR/API/CREATE/AGENT',
      '/Collector/Api/create/agent', '/collector/api/create/agent?x=1', '/collector/api/create/agent;x', '/collector/api/create/agent%00',
    ];
    const [agentsBefore, changesBefore] = [agents(), changes()];
    for (const p of spellings) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const res = await rawRequest(port, method, p, json(), body);
        expect(res.status, `${method} ${p}: ${res.body}`).toBe(403);
        expect(res.json()).toEqual({ error: CSRF_ERROR });
      }
    }
    for (const p of [`/collector/api/changes/${changeId}/%75ndo`, `/collector/%61pi/changes/${changeId}/undo`, `/collector/api/changes/%3${changeId}/undo`]) {
      const res = await rawRequest(port, 'POST', p, json(), '{}');
      expect(res.status, `${p}: ${res.body}`).toBe(403);
    }
    // The multipart spreadsheet upload.
    const boundary = 'xyz';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\ntitle\nForged\r\n--${boundary}--\r\n`;
    const upload = await rawRequest(port, 'POST', '/collector/%61pi/spreadsheet/1', { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: `sessionid=${session}` }, multipart);
    expect(upload.status, upload.body).toBe(403);
    expect([agents(), changes()]).toEqual([agentsBefore, changesBefore]);
  });

  it('logout is a GET but needs the header: a cross-site link does not log the reader out', async () => {
    const mine = ((await t.services.accounts.login('csrf-root', 'a long root password')) as { token: string }).token;
    for (const p of ['/collector/api/auth/logout', '/collector/%61pi/auth/logout', '/collector/api/auth/%6cogout']) {
      const res = await rawRequest(port, 'GET', p, { cookie: `sessionid=${mine}; csrftoken=tok` });
      expect(res.status, `${p}: ${res.body}`).toBe(403);
      expect(t.services.accounts.viewerForToken(mine)?.username).toBe('csrf-root');
    }
    const ok = await rawRequest(port, 'GET', '/collector/api/auth/logout', { cookie: `sessionid=${mine}; csrftoken=tok`, 'x-csrftoken': 'tok' });
    expect(ok.status).toBe(200);
    expect(t.services.accounts.viewerForToken(mine)).toBeNull();
  });

  it('OAI-PMH keeps answering POSTs from harvesters without cookies', async () => {
    const res = await rawRequest(port, 'POST', '/oai', { 'content-type': 'application/x-www-form-urlencoded' }, 'verb=Identify');
    expect(res.status).toBe(200);
    expect(res.body).toContain('<Identify>');
  });
});
