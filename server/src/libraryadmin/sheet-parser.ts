// Reads uploaded spreadsheets off the main thread: files are read in worker threads (sheet-thread.mjs)
// with a heap limit and a time limit, so a workbook that unpacks to hundreds of MB costs that thread
// its memory and CPU while searches and /healthz go on. A thread past its time limit, out of memory or
// aborted is ended; an idle one is kept a minute for the next file (a thread takes a second to start).
// What can be refused cheaply is refused before any thread: the unpacked size the zip declares.
import { Worker } from 'node:worker_threads';
import { checkDeclaredSize, DEFAULT_SHEET_LIMITS, SpreadsheetError, type ParsedSheet, type SheetFormat, type SheetLimits } from './spreadsheet.ts';
import type { SheetAnswer, SheetPreview, SheetReply, SheetRequest, SheetTask } from './sheet-thread-main.ts';

export interface SheetParserOptions extends SheetLimits {
  /** A file still being read after this long is refused (its thread is ended): SPREADSHEET_PARSE_SECONDS. */
  parseSeconds: number;
  /** A reading thread's heap (V8's old generation), in MB. */
  heapMb: number;
  /** Files read at once; more wait their turn (each thread may take heapMb). */
  concurrency: number;
  /** An idle thread is ended after this long. */
  idleMs: number;
}

export const SPREADSHEET_PARSE_SECONDS = 120;

/**
 * The heap of a reading thread for an unpacked-size limit: a sheet's rows and strings take a few times
 * its XML (71 MB of dense number cells took about 250 MB), with room for the mapped records.
 */
export function sheetHeapMb(maxUnpackedBytes: number): number {
  return Math.max(256, Math.ceil((12 * maxUnpackedBytes) / 1024 / 1024));
}

interface Slot { worker: Worker; idleTimer: NodeJS.Timeout | null; ready: Promise<void> }

export class SheetParser {
  readonly options: SheetParserOptions;
  private idle: Slot[] = [];
  private running = 0;
  private waiting: (() => void)[] = [];
  private seq = 0;
  private closed = false;

  constructor(options: Partial<SheetParserOptions> = {}) {
    const limits = { ...DEFAULT_SHEET_LIMITS, ...options };
    this.options = { parseSeconds: SPREADSHEET_PARSE_SECONDS, heapMb: sheetHeapMb(limits.maxUnpackedBytes), concurrency: 2, idleMs: 60_000, ...limits };
  }

  get limits(): SheetLimits {
    const { maxRows, maxColumns, maxUnpackedBytes } = this.options;
    return { maxRows, maxColumns, maxUnpackedBytes };
  }

  /** The upload's preview: counts, sample, columns and the first bad rows (the records stay in the thread). */
  preview(content: Uint8Array, format: SheetFormat, csvType: string, siteId: number): Promise<SheetPreview> {
    return this.run({ content, format, csvType, siteId, limits: this.limits, preview: true }) as Promise<SheetPreview>;
  }

  /** Every good record and bad row of the file (the processing job). */
  records(content: Uint8Array, format: SheetFormat, csvType: string, siteId: number, signal?: AbortSignal): Promise<ParsedSheet> {
    return this.run({ content, format, csvType, siteId, limits: this.limits, preview: false }, signal) as Promise<ParsedSheet>;
  }

  /** Ends the idle threads; a thread still reading ends when it answers. */
  async close(): Promise<void> {
    this.closed = true;
    const slots = this.idle;
    this.idle = [];
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private async run(task: SheetTask, signal?: AbortSignal): Promise<ParsedSheet | SheetPreview> {
    // Refused on the spot, without a thread: a workbook whose zip directory declares too much XML.
    if (task.format === 'xlsx') checkDeclaredSize(task.content, task.limits.maxUnpackedBytes);
    await this.turn(signal);
    try {
      return await this.inThread(task, signal);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Waits for a free place among the `concurrency` threads (taken when this resolves). */
  private async turn(signal?: AbortSignal): Promise<void> {
    while (this.running >= this.options.concurrency) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    signal?.throwIfAborted();
    this.running++;
  }

  private spawn(): Slot {
    const worker = new Worker(new URL('./sheet-thread.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb, maxYoungGenerationSizeMb: 32 },
    });
    worker.unref();
    const ready = new Promise<void>((resolve, reject) => {
      const onMsg = (m: { ready?: boolean }) => {
        if (!m?.ready) return;
        worker.off('message', onMsg);
        worker.off('error', reject);
        resolve();
      };
      worker.on('message', onMsg);
      worker.once('error', reject);
    });
    ready.catch(() => {}); // answered where it is awaited
    const slot: Slot = { worker, idleTimer: null, ready };
    worker.once('exit', () => {
      this.idle = this.idle.filter((s) => s !== slot);
    });
    return slot;
  }

  /** Runs the task in an idle thread (or a new one); the thread goes back to the idle ones only when it answered. */
  private async inThread(task: SheetTask, signal?: AbortSignal): Promise<ParsedSheet | SheetPreview> {
    const { parseSeconds, heapMb, idleMs } = this.options;
    const slot = this.idle.pop() ?? this.spawn();
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.worker.ref(); // a read under way keeps the process (an idle thread does not)
    const id = ++this.seq;
    // A copy of the file's bytes alone (a Buffer may be a view of a larger pool), moved to the thread.
    const content = new Uint8Array(task.content);
    return new Promise((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (keep: boolean, fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        slot.worker.off('message', onMsg);
        slot.worker.off('error', onError);
        slot.worker.off('exit', onExit);
        if (keep && !this.closed) {
          slot.worker.unref();
          slot.idleTimer = setTimeout(() => void slot.worker.terminate(), idleMs);
          slot.idleTimer.unref();
          this.idle.push(slot);
        } else void slot.worker.terminate();
        fn();
      };
      const tooLong = () => finish(false, () => reject(new SpreadsheetError('Reading the file took more than {{seconds}} s: split it or save it as CSV', { seconds: parseSeconds })));
      const onAbort = () => finish(false, () => reject(signal!.reason instanceof Error ? signal!.reason : new Error('Stopped')));
      const onMsg = (m: SheetAnswer) => {
        if (m?.id !== id) return;
        const r: SheetReply = m.reply;
        finish(true, () => {
          if (r.ok) resolve(r.parsed);
          else if ('template' in r) reject(new SpreadsheetError(r.template, r.values));
          else reject(new Error(r.error));
        });
      };
      const onError = (e: Error & { code?: string }) => finish(false, () => {
        if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') reject(new SpreadsheetError('Reading the file needs more than {{mb}} MB of memory: split it or save it as CSV', { mb: heapMb }));
        else reject(new Error(`The spreadsheet could not be read: ${e.message}`));
      });
      const onExit = (code: number) => finish(false, () => reject(new Error(`The spreadsheet could not be read (thread exit ${code})`)));
      signal?.addEventListener('abort', onAbort, { once: true });
      slot.worker.on('message', onMsg);
      slot.worker.on('error', onError);
      slot.worker.on('exit', onExit);
      slot.ready.then(
        () => {
          if (settled) return;
          // The time limit counts the reading, not the thread's start (slow on a busy machine).
          timer = setTimeout(tooLong, parseSeconds * 1000);
          slot.worker.postMessage({ id, task: { ...task, content } } satisfies SheetRequest, [content.buffer]);
        },
        (e: Error) => onError(e),
      );
    });
  }
}
