// The double-submit CSRF check on a fresh browser: parallel first requests, the cookie it keeps, the
// refusals and what comes with them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/fixture.ts';
import { CSRF_ERROR } from './csrf.ts';

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
