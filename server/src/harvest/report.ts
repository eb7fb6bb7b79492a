// The texts of a run's report (why the run failed, why a record failed) are stored as message templates
// with their values and put in the reader's language when read, as the server's other messages are
// (http/messages.ts). A value may be a message itself ("{{verb}}: {{reason}}"), translated with it.
import { translateMessage, type MessageLanguage } from '../http/messages.ts';

export type ReportValues = Record<string, string | number | ReportMessage>;
export interface ReportMessage {
  template: string;
  values?: ReportValues;
}

export const reportMessage = (template: string, values?: ReportValues): ReportMessage => (values ? { template, values } : { template });

/**
 * Templates of runs stored before reports left out internals (a resolved private address, a system
 * error naming hosts): shown in today's words, without the values they no longer take.
 */
const RETIRED: Record<string, string> = {
  '{{host}} is a private network address ({{address}}); harvesting those is switched off (HARVEST_ALLOW_PRIVATE)': 'The address {{host}} is not allowed: it is not on the public internet',
  'Cannot reach {{host}}: {{reason}}': 'Cannot reach {{host}}',
  'The answer of {{host}} broke off: {{reason}}': 'The answer of {{host}} broke off',
  'Unexpected error: {{detail}}': 'Unexpected error (the details are in the server log)',
};

/** A report message in `lang`; a plain string (a run stored before reports were templates) is shown as it is. */
export function renderReport(lang: MessageLanguage, m: ReportMessage | string): string {
  if (typeof m === 'string') return m;
  const retired = RETIRED[m.template];
  if (retired) return translateMessage(lang, retired, m.values?.host !== undefined ? { host: String(m.values.host) } : undefined);
  const values = m.values && Object.fromEntries(Object.entries(m.values).map(([k, v]) => [k, typeof v === 'object' ? renderReport(lang, v) : v]));
  return translateMessage(lang, m.template, values);
}

/** An error whose message goes to a run's report: an English template with values; `message` is the English text (logs, tests). */
export class ReportError extends Error implements ReportMessage {
  readonly template: string;
  /** What happened in detail (resolved addresses, system error codes): for the server log only, never the report. */
  detail?: string;
  constructor(template: string, readonly values?: ReportValues, detail?: string) {
    super(renderReport('en', reportMessage(template, values)));
    this.template = template;
    if (detail !== undefined) this.detail = detail;
  }
}

/** A failure of the harvest itself (settings, files, the Calibre folder), reported as it is. */
export class HarvestError extends ReportError {}

/** Why something failed, as a value of another message: the error's template, else its own (English) text. */
export function reasonOf(e: unknown): ReportMessage | string {
  if (e instanceof ReportError) return reportMessage(e.template, e.values);
  return e instanceof Error ? e.message : String(e);
}

/**
 * Why something failed, as a report (read by library admins) may say it: a ReportError's own message;
 * anything else (a bug of ours, a system error naming files or hosts) as one plain line, its detail
 * going to the server log (logDetail).
 */
export function publicReason(e: unknown): ReportMessage {
  return e instanceof ReportError ? reportMessage(e.template, e.values) : reportMessage('an unexpected error (the details are in the server log)');
}

/** The whole story of an error, for the server log. */
export function logDetail(e: unknown): string {
  if (e instanceof ReportError) return e.detail ? `${e.message} (${e.detail})` : e.message;
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}

/** The database form of a report message. */
export const storeReport = (m: ReportMessage | null): string | null => (m ? JSON.stringify(m) : null);

/** A stored report message: its template with values, or an old row's plain text. */
export function readReport(stored: string): ReportMessage | string {
  if (stored.startsWith('{"template"')) {
    try {
      return JSON.parse(stored) as ReportMessage;
    } catch {
      // a plain text that happens to start like one
    }
  }
  return stored;
}
