// Issue 27's attacks on logins and resets, replayed over real sockets against the full app behind one
// proxy (TRUST_PROXY=1): X-Forwarded-For entries the client writes, and two resets with one token at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_BACKENDS, dropTestDatabases } from '../test/backends.ts';
import { testApp, type TestApp } from '../test/fixture.ts';
import { listenLocal, rawRequest, type RawAnswer } from '../test/raw-http.ts';
import Fastify from 'fastify';
import { loadConfig, parseTrustProxy, trustProxyOption } from '../config.ts';
import { addressKey } from '../http/rate-limit.ts';

afterAll(() => dropTestDatabases());

const CSRF = { cookie: 'csrftoken=tok', 'x-csrftoken': 'tok', 'content-type': 'application/json' };
const loggedIn = (r: RawAnswer) => (r.status === 200 ? (r.json().logged_in as string | null) : null);

describe.each(APP_BACKENDS)('login and reset attacks over HTTP on %s', (dialect) => {
  let t: TestApp;
  let port: number;
  let n = 0;
  /** A request as the proxy forwards it: the client's own X-Forwarded-For, then the address the proxy saw. */
  const viaProxy = (path: string, body: unknown, clientWrote: string, proxySaw: string) => rawRequest(port, 'POST', `/collector/api${path}`,
    { ...CSRF, 'x-forwarded-for': `${clientWrote}, ${proxySaw}` }, JSON.stringify(body));
  const forged = () => `203.0.113.${++n % 250}, 198.18.${n % 200}.${n % 250}`;

  beforeAll(async () => {
    // TRUST_PROXY=1 read as the server reads it (it once meant: believe the leftmost entry).
    t = await testApp(undefined, { trustProxy: loadConfig({ TRUST_PROXY: '1' }).trustProxy, reportRateLimit: 5 }, dialect);
    await t.services.accounts.createUser({ username: 'librarian', email: 'librarian@example.org', password: 'the right password' });
    port = await listenLocal(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a spray behind invented X-Forwarded-For addresses counts on the address the proxy saw: slowed after 50', async () => {
    const answers: RawAnswer[] = [];
    for (let i = 0; i < 60; i++) answers.push(await viaProxy('/auth/login', { username: `user${i}`, password: 'Summer2024!' }, forged(), '198.51.100.7'));
    expect(answers.slice(0, 50).every((r) => r.status === 200 && r.json().error === 'Invalid login')).toBe(true);
    expect(answers.slice(50).every((r) => r.status === 429)).toBe(true);
    // The librarian, behind another address of the same proxy, is not touched.
    expect(loggedIn(await viaProxy('/auth/login', { username: 'librarian', password: 'the right password' }, '198.51.100.7', '192.0.2.10'))).toBe('librarian');
  });

  it('a spray from a fresh IPv6 address of one /64 each time is one address: slowed after 50', async () => {
    const answers: RawAnswer[] = [];
    for (let i = 0; i < 55; i++) {
      answers.push(await viaProxy('/auth/login', { username: `v6user${i}`, password: 'Summer2024!' }, forged(), `2001:db8:7:1:${((i * 7919) % 0x10000).toString(16)}::${i + 1}`));
    }
    expect(answers.map((r) => r.status).join(','), answers.at(-1)!.body).toBe([...Array(50).fill(200), ...Array(5).fill(429)].join(','));
    // Another /64 (another subscriber) is not touched; an IPv4-mapped address counts as its IPv4 address.
    expect(loggedIn(await viaProxy('/auth/login', { username: 'librarian', password: 'the right password' }, forged(), '2001:db8:7:2::1'))).toBe('librarian');
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('2001:db8:7:1:abcd::1')).toBe(addressKey('2001:0db8:0007:0001:ffff:ffff:ffff:ffff'));
  });

  it('the reset and report limits count on the same address', async () => {
    const resets: number[] = [];
    for (let i = 0; i < 7; i++) resets.push((await viaProxy('/auth/reset-password', { operation: 'send-link', username: 'nobody' }, forged(), '198.51.100.8')).status);
    expect(resets.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(resets.slice(5)).toEqual([429, 429]);
    const reports: number[] = [];
    for (let i = 0; i < 7; i++) reports.push((await viaProxy('/report/bug', { message: 'spam' }, forged(), '198.51.100.9')).status);
    expect(reports.slice(5)).toEqual([429, 429]);
  });

  it('two resets with one token at the same moment: one succeeds, the other is refused', async () => {
    const outbox = () => t.services.db.sqlite.prepare("SELECT body FROM outbox WHERE to_address = 'librarian@example.org' ORDER BY id DESC").pluck().all() as string[];
    for (let round = 0; round < 3; round++) {
      const sent = outbox().length;
      t.services.db.sqlite.prepare('DELETE FROM password_resets').run(); // the one-a-minute rule
      expect((await viaProxy('/auth/reset-password', { operation: 'send-link', username: 'librarian' }, '192.0.2.1', `192.0.2.${20 + round}`)).status).toBe(200);
      expect(outbox().length).toBe(sent + 1);
      const token = /\/reset-password\/librarian\/([\w-]+)/.exec(outbox()[0])![1];
      const passwords = Array.from({ length: 4 }, (_, i) => `new password ${round}-${i}`);
      const answers = await Promise.all(passwords.map((password, i) => viaProxy('/auth/reset-password',
        { operation: 'reset', username: 'librarian', token, password }, '192.0.2.1', `192.0.2.${30 + round * 4 + i}`)));
      const won = answers.map(loggedIn).map((u, i) => (u === 'librarian' ? i : -1)).filter((i) => i >= 0);
      expect(won, answers.map((a) => a.body).join('\n')).toHaveLength(1);
      for (const a of answers) if (loggedIn(a) === null) expect(a.json().error).toMatch(/invalid or has expired/);
      // The password is the winner's, and only the winner's session is alive.
      expect(loggedIn(await viaProxy('/auth/login', { username: 'librarian', password: passwords[won[0]] }, '192.0.2.1', '192.0.2.99'))).toBe('librarian');
    }
  });
});

describe('TRUST_PROXY', () => {
  it('is 0, a hop count or a list of proxy addresses, never "trust everything"', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.2, 192.168.0.0/16,loopback,::1,fd00::/8')).toEqual(['10.0.0.2', '192.168.0.0/16', 'loopback', '::1', 'fd00::/8']);
    for (const bad of ['true', 'yes', '10.0.0.300', '10.0.0.0/33', 'proxy.local', '1.5', '-1']) expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY/);
  });

  it('as Fastify\'s trustProxy: the client is the entry the trusted proxy appended; a request not from the proxy is its socket', async () => {
    const ipOf = async (setting: string, xff: string) => {
      const app = Fastify({ trustProxy: trustProxyOption(parseTrustProxy(setting)) });
      app.get('/ip', async (req) => ({ ip: req.ip }));
      try {
        return (await rawRequest(await listenLocal(app), 'GET', '/ip', { 'x-forwarded-for': xff })).json().ip as string;
      } finally {
        await app.close();
      }
    };
    expect(await ipOf('1', '6.6.6.6, 198.51.100.7')).toBe('198.51.100.7');
    expect(await ipOf('2', '6.6.6.6, 198.51.100.7, 10.0.0.2')).toBe('198.51.100.7');
    expect(await ipOf('127.0.0.1', '6.6.6.6, 198.51.100.7')).toBe('198.51.100.7');
    expect(await ipOf('loopback,10.0.0.0/8', '6.6.6.6, 198.51.100.7, 10.0.0.2')).toBe('198.51.100.7');
    expect(await ipOf('10.9.9.9', '6.6.6.6')).toBe('127.0.0.1');
    expect(await ipOf('0', '6.6.6.6')).toBe('127.0.0.1');
  });
});
