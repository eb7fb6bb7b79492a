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

/** A report message in `lang`; a plain string (a run stored before reports were templates) is shown as it is. */
export function renderReport(lang: MessageLanguage, m: ReportMessage | string): string {
  if (typeof m === 'string') return m;
  const values = m.values && Object.fromEntries(Object.entries(m.values).map(([k, v]) => [k, typeof v === 'object' ? renderReport(lang, v) : v]));
  return translateMessage(lang, m.template, values);
}

/** An error whose message goes to a run's report: an English template with values; `message` is the English text (logs, tests). */
export class ReportError extends Error implements ReportMessage {
  readonly template: string;
  constructor(template: string, readonly values?: ReportValues) {
    super(renderReport('en', reportMessage(template, values)));
    this.template = template;
  }
}

/** A failure of the harvest itself (settings, files, the Calibre folder), reported as it is. */
export class HarvestError extends ReportError {}

/** Why something failed, as a value of another message: the error's template, else its own (English) text. */
export function reasonOf(e: unknown): ReportMessage | string {
  if (e instanceof ReportError) return reportMessage(e.template, e.values);
  return e instanceof Error ? e.message : String(e);
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
