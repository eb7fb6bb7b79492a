// The one way the site sends e-mail: every message is first stored in the `outbox` table, then handed
// to SMTP (nodemailer) when SMTP_URL is set, and its delivery status is kept on the row. Without SMTP
// the outbox is the record (status stays 'queued'; an operator can read it, or send it later).
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/index.ts';

export type OutboxStatus = 'queued' | 'sent' | 'failed';

export interface MailMessage {
  /** What sent it (bug-report, data-source-error, ...): for operators reading the outbox. */
  kind: string;
  to: string[];
  cc?: string[];
  replyTo?: string | null;
  subject: string;
  text: string;
}

export interface OutboxRow {
  id: number;
  kind: string;
  to_address: string;
  cc_address: string | null;
  from_address: string;
  reply_to: string | null;
  subject: string;
  body: string;
  status: OutboxStatus;
  error: string | null;
  attempts: number;
  created: string;
  sent_at: string | null;
}

export interface MailResult {
  id: number;
  status: OutboxStatus;
  /** Why SMTP refused or failed (no secrets: the server's reply or the network error). */
  error: string | null;
}

export interface MailSettings {
  smtpUrl: string | null;
  mailFrom: string;
}

/** Loose e-mail check for addresses typed by visitors: one @, no spaces or angle brackets, a dot in the domain. */
export function isEmailAddress(s: string): boolean {
  return s.length <= 254 && /^[^\s@<>(),;:"\\]+@[^\s@<>(),;:"\\]+\.[^\s@<>(),;:"\\]+$/.test(s);
}

/** Splits a comma-separated address list setting into addresses. */
export function addressList(s: string | null | undefined): string[] {
  return (s ?? '').split(/[,;]/).map((a) => a.trim()).filter(Boolean);
}

export class MailService {
  private transport: Transporter | null;
  private q;

  constructor(private db: Db, private settings: MailSettings) {
    this.transport = settings.smtpUrl
      ? nodemailer.createTransport({
          url: settings.smtpUrl,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 20_000,
        })
      : null;
    const s = db.sqlite;
    this.q = {
      insert: s.prepare(`INSERT INTO outbox (kind, to_address, cc_address, from_address, reply_to, subject, body)
        VALUES (?, ?, ?, ?, ?, ?, ?)`),
      sent: s.prepare(`UPDATE outbox SET status = 'sent', error = NULL, attempts = attempts + 1,
        sent_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?`),
      failed: s.prepare(`UPDATE outbox SET status = 'failed', error = ?, attempts = attempts + 1 WHERE id = ?`),
      get: s.prepare('SELECT * FROM outbox WHERE id = ?'),
      pending: s.prepare(`SELECT * FROM outbox WHERE status IN ('queued', 'failed') ORDER BY id LIMIT ?`),
      byStatus: s.prepare('SELECT status, count(*) AS n FROM outbox GROUP BY status'),
    };
  }

  get smtpEnabled(): boolean {
    return this.transport !== null;
  }

  /** Stores the message, then sends it when SMTP is configured. Never throws for delivery problems. */
  async send(msg: MailMessage): Promise<MailResult> {
    if (msg.to.length === 0) throw new Error('a message needs at least one recipient');
    const id = Number(this.q.insert.run(
      msg.kind, msg.to.join(', '), msg.cc?.length ? msg.cc.join(', ') : null, this.settings.mailFrom,
      msg.replyTo ?? null, msg.subject, msg.text,
    ).lastInsertRowid);
    return this.deliver(this.get(id)!);
  }

  /** Sends the queued and failed messages again (oldest first); returns what happened to each. */
  async flush(limit = 100): Promise<MailResult[]> {
    if (!this.transport) return [];
    const out: MailResult[] = [];
    for (const row of this.q.pending.all(limit) as OutboxRow[]) out.push(await this.deliver(row));
    return out;
  }

  get(id: number): OutboxRow | null {
    return (this.q.get.get(id) as OutboxRow | undefined) ?? null;
  }

  /** Messages by delivery status (for the metrics: a growing 'queued' or 'failed' count needs an operator). */
  outboxCounts(): { status: string; n: number }[] {
    return this.q.byStatus.all() as { status: string; n: number }[];
  }

  close(): void {
    this.transport?.close();
  }

  private async deliver(row: OutboxRow): Promise<MailResult> {
    if (!this.transport) return { id: row.id, status: 'queued', error: null };
    try {
      await this.transport.sendMail({
        from: row.from_address,
        to: row.to_address,
        cc: row.cc_address ?? undefined,
        replyTo: row.reply_to ?? undefined,
        subject: row.subject,
        text: row.body,
        headers: { 'X-Outbox-Id': String(row.id) },
      });
      this.q.sent.run(row.id);
      return { id: row.id, status: 'sent', error: null };
    } catch (err) {
      const error = String((err as Error)?.message ?? err).slice(0, 1000);
      this.q.failed.run(error, row.id);
      return { id: row.id, status: 'failed', error };
    }
  }
}
