import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { startSmtp, type TestSmtp } from '../test/smtp.ts';
import { addressList, isEmailAddress, MailService } from './service.ts';

let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp.close();
  dropTestDatabases();
});

const message = {
  kind: 'test',
  to: ['admin@example.org', 'second@example.org'],
  replyTo: 'reader@example.net',
  subject: 'Hello from the test',
  text: 'First line.\nSecond line with àccents.\n',
};

describe.each(BACKENDS)('MailService on %s', (dialect) => {
  let db: Db;
  beforeAll(async () => {
    db = openDatabase(await migratedTestDatabase(dialect));
  });
  afterAll(async () => {
    await db.close();
  });

  it('stores the message, sends it over SMTP and marks it sent', async () => {
    const mail = new MailService(db, { smtpUrl: smtp.url, mailFrom: 'Catalogue <noreply@example.org>' });
    const before = smtp.received.length;
    const r = await mail.send(message);
    mail.close();
    expect(r).toMatchObject({ status: 'sent', error: null });
    const got = smtp.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0].envelopeTo).toEqual(['admin@example.org', 'second@example.org']);
    expect(got[0].envelopeFrom).toBe('noreply@example.org');
    expect(got[0].subject).toBe('Hello from the test');
    expect(got[0].headers['reply-to']).toBe('reader@example.net');
    expect(got[0].headers['x-outbox-id']).toBe(String(r.id));
    expect(got[0].body).toContain('Second line with àccents.');
    const row = mail.get(r.id)!;
    expect(row).toMatchObject({ status: 'sent', to_address: 'admin@example.org, second@example.org', attempts: 1, error: null, kind: 'test' });
    expect(row.sent_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('keeps the message queued in the outbox when no SMTP server is set', async () => {
    const mail = new MailService(db, { smtpUrl: null, mailFrom: 'noreply@example.org' });
    const before = smtp.received.length;
    const r = await mail.send(message);
    expect(r).toEqual({ id: r.id, status: 'queued', error: null });
    expect(mail.get(r.id)).toMatchObject({ status: 'queued', subject: 'Hello from the test', body: message.text, sent_at: null });
    expect(smtp.received.length).toBe(before);
    expect(await mail.flush()).toEqual([]);
  });

  it('records a refused delivery as failed with the reason, and sends it again on flush', async () => {
    const mail = new MailService(db, { smtpUrl: smtp.url, mailFrom: 'noreply@example.org' });
    smtp.refuse = true;
    const r = await mail.send({ ...message, subject: 'Refused at first' });
    smtp.refuse = false;
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/550|Mailbox unavailable|recipients/i);
    expect(mail.get(r.id)).toMatchObject({ status: 'failed', attempts: 1, sent_at: null });
    const results = await mail.flush();
    mail.close();
    expect(results.find((x) => x.id === r.id)).toEqual({ id: r.id, status: 'sent', error: null });
    expect(mail.get(r.id)).toMatchObject({ status: 'sent', attempts: 2, error: null });
    expect(smtp.received.some((m) => m.subject === 'Refused at first')).toBe(true);
  });

  it('records an unreachable SMTP server as failed', async () => {
    const closed = await startSmtp();
    await closed.close();
    const mail = new MailService(db, { smtpUrl: closed.url, mailFrom: 'noreply@example.org' });
    const r = await mail.send(message);
    mail.close();
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/ECONNREFUSED|connect/i);
  });
});

describe('addresses', () => {
  it('checks addresses typed by visitors and splits address lists', () => {
    expect(isEmailAddress('reader@example.net')).toBe(true);
    for (const bad of ['', 'reader', 'a@b', 'a b@example.org', 'x@example.org\nBcc: y@example.org', '<a@example.org>']) {
      expect(isEmailAddress(bad)).toBe(false);
    }
    expect(addressList(' a@example.org, b@example.org;c@example.org ,')).toEqual(['a@example.org', 'b@example.org', 'c@example.org']);
  });
});
