// Reports from visitors: bug reports to the site administrators and data-source error reports (or
// questions) to the holding library. Each is stored in `reports` and e-mailed through the mail service.
import type { Db } from '../db/index.ts';
import { HttpError } from '../http/errors.ts';
import type { Viewer } from '../http/viewer.ts';
import type { LibraryService } from '../libraries/service.ts';
import { addressList, isEmailAddress, type MailResult, type MailService } from '../mail/service.ts';
import type { PagesService } from '../pages/service.ts';

export const REPORT_NOT_SENT = 'The report was saved, but the e-mail could not be sent now';

export interface ReportSettings {
  /** Comma-separated addresses for bug reports; '' = the site's contact_email. */
  adminEmail: string;
  /** Public address of the site for links in the messages ('' = paths only). */
  publicUrl: string;
}

export interface ReportResult {
  id: number;
  mail: MailResult;
}

export type DataSourceReportType = 'error' | 'question';

export class ReportService {
  private q;

  constructor(
    private db: Db,
    private mail: MailService,
    private pages: PagesService,
    private libraries: LibraryService,
    private settings: ReportSettings,
  ) {
    const s = db.sqlite;
    this.q = {
      insert: s.prepare('INSERT INTO reports (kind, message, sender, user_id, library_id, data_source_id) VALUES (?, ?, ?, ?, ?, ?)'),
      setOutbox: s.prepare('UPDATE reports SET outbox_id = ? WHERE id = ?'),
      dataSource: s.prepare(`SELECT d.id, d.entry_id, d.title, s.library_id, coalesce(e.canonical_entry_id, e.id) AS link_entry_id
        FROM data_sources d JOIN sites s ON s.id = d.site_id LEFT JOIN entries e ON e.id = d.entry_id WHERE d.id = ?`),
    };
  }

  /** Where bug reports go: the ADMIN_EMAIL setting, else the site's contact address. */
  adminRecipients(): string[] {
    const configured = addressList(this.settings.adminEmail);
    return configured.length ? configured : addressList(this.pages.general().contact_email);
  }

  /** A bug report from anyone: `message` already combines the page address, the sender and the text. */
  async bugReport(input: { message: string; emailFrom: string }, viewer: Viewer): Promise<ReportResult> {
    const message = cleanMessage(input.message);
    const sender = input.emailFrom.trim();
    if (!message) throw new HttpError(400, 'Please write a message');
    if (!isEmailAddress(sender)) throw new HttpError(400, 'Please give a valid e-mail address');
    const to = this.adminRecipients();
    if (to.length === 0) throw new HttpError(503, 'This site has no address to receive reports');
    const site = this.pages.general().site_name;
    const id = Number(this.q.insert.run('bug', message, sender, viewer.userId, null, null).lastInsertRowid);
    const mail = await this.mail.send({
      kind: 'bug-report',
      to,
      replyTo: sender,
      subject: `[${site}] Bug Report #${id}`,
      text: `${message}\n\n-- \nBug report #${id} sent by ${sender} through ${site}${this.settings.publicUrl ? ` (${this.settings.publicUrl})` : ''}\n`,
    });
    this.q.setOutbox.run(mail.id, id);
    return { id, mail };
  }

  /**
   * A logged-in user reports an error in (or asks about) a data source: mailed to the holding library's
   * internal address, copied to the administrators, reply-to the user.
   */
  async dataSourceReport(
    dataSourceId: number,
    input: { message: string; reportType: DataSourceReportType },
    reporter: { viewer: Viewer; email: string | null },
  ): Promise<ReportResult> {
    if (reporter.viewer.userId === null) throw new HttpError(401, 'Please log in');
    const message = cleanMessage(input.message);
    if (!message) throw new HttpError(400, 'Please write a message');
    const ds = this.q.dataSource.get(dataSourceId) as
      | { id: number; entry_id: number | null; title: string; library_id: number; link_entry_id: number | null }
      | undefined;
    const lib = ds ? this.libraries.get(ds.library_id) : undefined;
    if (!ds || !ds.link_entry_id || !lib || !this.libraries.isVisible(lib, reporter.viewer)) throw new HttpError(404, 'No such data source');
    const libraryTo = addressList(lib.email_internal).filter(isEmailAddress);
    if (libraryTo.length === 0) throw new HttpError(409, 'This library cannot be contacted through the site');
    const email = reporter.email?.trim() ?? '';
    if (!isEmailAddress(email)) throw new HttpError(403, 'Your account has no e-mail address');

    const site = this.pages.general().site_name;
    const id = Number(this.q.insert.run(input.reportType === 'question' ? 'question' : 'data-source-error', message, email,
      reporter.viewer.userId, lib.id, ds.id).lastInsertRowid);
    const intro = input.reportType === 'question'
      ? 'asked the following about your bibliographical entry listed at'
      : 'reported the following about your bibliographical entry listed at';
    const link = `${this.settings.publicUrl}/entry/${ds.link_entry_id}`;
    const label = input.reportType === 'question' ? 'User Question' : 'Error Report';
    const mail = await this.mail.send({
      kind: input.reportType === 'question' ? 'data-source-question' : 'data-source-error',
      to: libraryTo,
      cc: this.adminRecipients().filter((a) => !libraryTo.includes(a)),
      replyTo: email,
      subject: `[${site} ${label} #${id}] ${ds.title.replace(/\s+/g, ' ').trim()}`.slice(0, 250),
      text: ['Greetings,', '', `${email} ${intro}`, link, '', message, '', 'Thanks', '-- ', site, this.settings.publicUrl]
        .join('\n').trimEnd() + '\n',
    });
    this.q.setOutbox.run(mail.id, id);
    return { id, mail };
  }
}

/** Trims, normalises line ends and drops control characters other than tab and newline. */
function cleanMessage(s: string): string {
  return s.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').trim();
}
