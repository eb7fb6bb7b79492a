// Inside a spreadsheet thread: reads a file (CSV or XLSX) and maps its rows, then answers with the
// result or the refusal's message template. The thread has a heap limit and is ended past its time
// limit by its parent (sheet-parser.ts), so a workbook bomb costs that thread, never the server's.
import type { MessagePort } from 'node:worker_threads';
import type { RowError } from '@uc/shared';
import type { MessageValues } from '../http/messages.ts';
import { yieldToRequests } from '../jobs/thread-priority.ts';
import { mapRows, readRows, SpreadsheetError, type ParsedSheet, type SheetFormat, type SheetLimits } from './spreadsheet.ts';

export interface SheetTask {
  content: Uint8Array;
  format: SheetFormat;
  csvType: string;
  siteId: number;
  limits: SheetLimits;
  /** Only what the upload's preview shows (counts, sample, columns, the first bad rows), not the records. */
  preview: boolean;
}

/** What the uploader is shown before anything is stored. */
export interface SheetPreview {
  header: string[];
  recordCount: number;
  errorCount: number;
  /** The first bad rows (at most PREVIEW_ERRORS). */
  errors: RowError[];
  sample: ParsedSheet['sample'];
  columns: ParsedSheet['columns'];
}

export const PREVIEW_ERRORS = 1000;

export type SheetReply =
  | { ok: true; parsed: ParsedSheet | SheetPreview }
  | { ok: false; template: string; values?: MessageValues }
  | { ok: false; error: string };

export function previewOf(p: ParsedSheet): SheetPreview {
  return { header: p.header, recordCount: p.records.length, errorCount: p.errors.length, errors: p.errors.slice(0, PREVIEW_ERRORS), sample: p.sample, columns: p.columns };
}

export interface SheetRequest { id: number; task: SheetTask }
export type SheetAnswer = { id: number; reply: SheetReply };

async function read(task: SheetTask): Promise<SheetReply> {
  try {
    const parsed = mapRows(await readRows(task.content, task.format, task.limits), task.csvType, task.siteId);
    return { ok: true, parsed: task.preview ? previewOf(parsed) : parsed };
  } catch (e) {
    return e instanceof SpreadsheetError ? { ok: false, template: e.template, values: e.values } : { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Reads one file per message, one at a time (the parent sends the next when this one is answered). */
export function serve(port: MessagePort | null): void {
  if (!port) return;
  yieldToRequests(); // readers' requests on the main thread come first
  port.on('message', async (m: SheetRequest) => {
    port.postMessage({ id: m.id, reply: await read(m.task) } satisfies SheetAnswer);
  });
  port.postMessage({ ready: true });
}
