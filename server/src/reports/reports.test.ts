import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportResponseSchema } from '@uc/shared';
import { fixtureLines, testApp, type TestApp, CSRF_HEADERS } from '../test/fixture.ts';
import { startSmtp, type TestSmtp } from '../test/smtp.ts';
import { ANONYMOUS, type Viewer } from '../http/viewer.ts';
import { REPORT_NOT_SENT } from './service.ts';
import { RateLimiter, purgeRateLimits } from '../http/rate-limit.ts';

const lines = () => fixtureLines().map((l) => ((l as { type: string; id?: number }).type === 'library' && (l as { id: number }).id === 1
  ? { ...l, email_internal: 'staff@uno.example.org' }
  : l));

let smtp: TestSmtp;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await testApp(lines(), { smtpUrl: smtp.url, mailFrom: 'Test Catalogue <noreply@example.org>', adminEmail: 'admin@example.org, ops@example.org', reportRateLimit: 100 });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Posts JSON (a string is sent as is, with the JSON content type). */
const post = (app: TestApp, url: string, payload: unknown, remoteAddress = '127.0.0.1') =>
  app.app.inject({
    method: 'POST', url: `/collector/api${url}`, remoteAddress,
    headers: { 'content-type': 'application/json', ...CSRF_HEADERS },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
const bug = (email = 'reader@example.net', text = 'The map does not load.') => ({
  message: `On http://localhost:8080/library/details/1\n\nFrom ${email}\n\n${text}`,
  email_from: email,
});
const count = (app: TestApp, table: string) => app.services.db.sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

describe('POST /report/bug', () => {
  it('stores the report and mails it to the administrators, reply-to the sender', async () => {
    const before = smtp.received.length;
    const res = await post(t, '/report/bug', bug());
    expect(res.statusCode).toBe(200);
    const body = reportResponseSchema.parse(res.json());
    expect(body.success).toBe('OK');
    const got = smtp.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0].envelopeTo).toEqual(['admin@example.org', 'ops@example.org']);
    expect(got[0].subject).toBe(`[Test Catalogue] Bug Report #${body.report_id}`);
    expect(got[0].headers['reply-to']).toBe('reader@example.net');
    expect(got[0].body).toContain('On http://localhost:8080/library/details/1');
    expect(got[0].body).toContain('From reader@example.net');
    expect(got[0].body).toContain('The map does not load.');
    const row = t.services.db.sqlite.prepare('SELECT r.kind, r.sender, o.status FROM reports r JOIN outbox o ON o.id = r.outbox_id WHERE r.id = ?').get(body.report_id);
    expect(row).toEqual({ kind: 'bug', sender: 'reader@example.net', status: 'sent' });
  });

  it('refuses a report without the CSRF header (403) and stores nothing', async () => {
    const before = [count(t, 'reports'), count(t, 'outbox')];
    const res = await t.app.inject({
      method: 'POST', url: '/collector/api/report/bug', remoteAddress: '127.0.0.9',
      headers: { 'content-type': 'application/json', cookie: 'csrftoken=abc' }, payload: JSON.stringify(bug()),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/CSRF/);
    expect([count(t, 'reports'), count(t, 'outbox')]).toEqual(before);
  });

  it('rejects a missing message or sender address and stores nothing', async () => {
    const before = [count(t, 'reports'), count(t, 'outbox'), smtp.received.length];
    // What a person can type into the form is refused the spec's way (200 with `error`); what no correct
    // client sends (a missing field, broken JSON) gets a 400.
    const cases: [unknown, RegExp, number][] = [
      [{ message: '   ', email_from: 'reader@example.net' }, /message/, 200],
      [{ message: 'text', email_from: '' }, /e-mail/, 200],
      [{ message: 'text', email_from: 'not an address' }, /e-mail/, 200],
      [{ message: 'text', email_from: 'a@example.org\r\nBcc: victim@example.org' }, /e-mail/, 200],
      [{ message: 'text' }, /email_from/, 400],
      [{ message: 'x'.repeat(10001), email_from: 'reader@example.net' }, /message/, 200],
      ['{"message": "not json', /JSON/i, 400],
    ];
    for (const [payload, msg, status] of cases) {
      const res = await post(t, '/report/bug', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().error).toMatch(msg);
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    }
    expect([count(t, 'reports'), count(t, 'outbox'), smtp.received.length]).toEqual(before);
  });

  it('answers 502 with a message when the e-mail cannot be delivered, keeping the report', async () => {
    smtp.refuse = true;
    const res = await post(t, '/report/bug', bug());
    smtp.refuse = false;
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ error: REPORT_NOT_SENT });
    const last = t.services.db.sqlite.prepare('SELECT o.status FROM reports r JOIN outbox o ON o.id = r.outbox_id ORDER BY r.id DESC LIMIT 1').pluck().get();
    expect(last).toBe('failed');
  });
});

describe('bug report recipients and rate limit', () => {
  let t2: TestApp;
  beforeAll(async () => {
    // No ADMIN_EMAIL: reports go to the site's contact_email; no SMTP: the outbox is the record.
    t2 = await testApp(undefined, { reportRateLimit: 3, reportRateWindowSeconds: 600 });
  });
  afterAll(async () => t2.close());

  it('falls back to the contact address and keeps the message queued without SMTP', async () => {
    const res = await post(t2, '/report/bug', bug(), '10.0.0.1');
    expect(res.statusCode).toBe(200);
    const row = t2.services.db.sqlite.prepare('SELECT to_address, status, reply_to FROM outbox ORDER BY id DESC LIMIT 1').get();
    expect(row).toEqual({ to_address: 'info@example.org', status: 'queued', reply_to: 'reader@example.net' });
  });

  it('limits reports per client address with a 429 and a message', async () => {
    for (let i = 0; i < 3; i++) expect((await post(t2, '/report/bug', bug(), '10.0.0.2')).statusCode).toBe(200);
    const stored = count(t2, 'reports');
    const res = await post(t2, '/report/bug', bug(), '10.0.0.2');
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toMatch(/^Too many reports from your address\. Please try again in \d+ minute/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(count(t2, 'reports')).toBe(stored);
    // Invalid attempts count too; another address is not affected.
    expect((await post(t2, '/report/data-source-error/1', { message: 'x' }, '10.0.0.2')).statusCode).toBe(429);
    expect((await post(t2, '/report/bug', bug(), '10.0.0.3')).statusCode).toBe(200);
  });

  it('answers 503 when the site has no address for reports', async () => {
    t2.services.pages.setSettings({ contact_email: '' });
    const res = await post(t2, '/report/bug', bug(), '10.0.0.4');
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toMatch(/no address/);
    t2.services.pages.setSettings({ contact_email: 'info@example.org' });
  });
});

describe('RateLimiter', () => {
  it('counts per key in a fixed window and resets after it', () => {
    let now = 1_000_000;
    const rl = new RateLimiter(t.services.db, 'unit', 2, 60_000, () => now);
    expect([rl.hit('a'), rl.hit('a'), rl.hit('b')]).toEqual([0, 0, 0]);
    expect(rl.hit('a')).toBe(60);
    now += 59_500;
    expect(rl.hit('a')).toBe(1);
    now += 500;
    expect(rl.hit('a')).toBe(0);
    expect(new RateLimiter(t.services.db, 'unit', 0, 1000).hit('a')).toBe(0);
  });

  it('is shared by every process on the database, separate per scope, and cleared on demand', () => {
    const now = () => 5_000_000;
    const nodeA = new RateLimiter(t.services.db, 'shared', 3, 60_000, now);
    const nodeB = new RateLimiter(t.services.db, 'shared', 3, 60_000, now);
    const other = new RateLimiter(t.services.db, 'other', 3, 60_000, now);
    nodeA.hit('x');
    nodeB.hit('x');
    expect(nodeA.blocked('x')).toBe(0);
    nodeA.hit('x');
    expect(nodeB.blocked('x')).toBe(60);
    expect(other.blocked('x')).toBe(0);
    nodeB.clear('x');
    expect(nodeA.blocked('x')).toBe(0);
    expect(purgeRateLimits(t.services.db, 10_000_000)).toBeGreaterThan(0);
  });
});

describe('POST /report/data-source-error/:id', () => {
  const dsId = (identifier: string) => t.services.db.sqlite.prepare('SELECT id FROM data_sources WHERE identifier = ?').pluck().get(identifier) as number;
  const user: Viewer = { ...ANONYMOUS, userId: 42 };

  it('answers 401 to anonymous visitors, before looking at the body', async () => {
    for (const payload of [{ message: 'Wrong year' }, {}, 'junk']) {
      const res = await post(t, `/report/data-source-error/${dsId('a-1')}`, payload);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Please log in' });
    }
  });

  it('mails the holding library, copying the administrators, reply-to the user', async () => {
    const before = smtp.received.length;
    const r = await t.services.reports.dataSourceReport(dsId('a-1'), { message: 'The edition year is 1921.', reportType: 'error' }, { viewer: user, email: 'user@example.net' });
    expect(r.mail.status).toBe('sent');
    const [got] = smtp.received.slice(before);
    expect(got.envelopeTo.sort()).toEqual(['admin@example.org', 'ops@example.org', 'staff@uno.example.org']);
    expect(got.headers.cc).toBe('admin@example.org, ops@example.org');
    expect(got.headers['reply-to']).toBe('user@example.net');
    expect(got.subject).toBe(`[Test Catalogue Error Report #${r.id}] La libertà e il lavoro`);
    expect(got.body).toContain('user@example.net reported the following about your bibliographical entry listed at');
    expect(got.body).toMatch(/\/entry\/\d+\n\nThe edition year is 1921\./);
  });

  it('refuses reports the library cannot receive or the user may not send', async () => {
    const send = (id: number, email: string | null, viewer = user, message = 'text') =>
      t.services.reports.dataSourceReport(id, { message, reportType: 'question' }, { viewer, email });
    await expect(send(dsId('b-1'), 'user@example.net')).rejects.toMatchObject({ statusCode: 409 }); // no email_internal
    await expect(send(dsId('c-5'), 'user@example.net')).rejects.toMatchObject({ statusCode: 404 }); // private library
    await expect(send(999999, 'user@example.net')).rejects.toMatchObject({ statusCode: 404 });
    await expect(send(dsId('a-1'), null)).rejects.toMatchObject({ statusCode: 403 });
    await expect(send(dsId('a-1'), 'user@example.net', user, '  ')).rejects.toMatchObject({ statusCode: 400 });
    await expect(send(dsId('a-1'), 'user@example.net', ANONYMOUS)).rejects.toMatchObject({ statusCode: 401 });
  });
});
