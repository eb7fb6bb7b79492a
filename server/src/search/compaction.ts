// Compaction of the FTS5 index. Every write transaction leaves a new segment; FTS5 merges them as it
// goes, but a bulk import or a long harvest leaves the index in several large segments, and a query
// reads one doclist per segment: a three-letter prefix over 1,000,000 entries took up to three times
// as long on an as-imported index as on a compacted one. Compacting rewrites the whole index, so it
// runs only when the segments beside the largest hold a good part of the pages (each page then gets
// rewritten once for every few pages written since), as a background job in short steps.
import { Worker } from 'node:worker_threads';
import type { Db } from '../db/index.ts';
import type { JobHandler } from '../jobs/worker.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { CompactionThreadData, CompactionThreadMessage } from './compaction-thread-main.ts';

export const COMPACT_INDEX_JOB = 'search-compact';

/** The index's segments: how many, all their leaf pages, the largest one's. */
export interface IndexShape {
  segments: number;
  pages: number;
  largest: number;
}

export interface CompactionPolicy {
  /** Smaller indexes are left alone (their queries are fast whatever their shape). */
  minPages: number;
  /** Compact when the segments other than the largest hold at least this share of the pages. */
  minScattered: number;
}

/** About 8 MB of index (1 page = 4,050 bytes), some 30,000 entries. */
export const DEFAULT_POLICY: CompactionPolicy = { minPages: 2000, minScattered: 0.25 };

/** Index documents written between two looks at the index's shape. */
const CHECK_AFTER_DOCS = 10_000;

export interface CompactProgress {
  steps: number;
  /** Segments left (1 when done). */
  segments: number;
}

export interface CompactOptions {
  signal?: AbortSignal;
  /** Pages merged per step (one write transaction). */
  stepPages?: number;
  /** Rest between steps as a share of the step's own time (1: half the time working). */
  pause?: number;
  onProgress?: (p: CompactProgress) => void;
}

export class IndexCompaction {
  private q;

  /** `dbFile`: the SQLite file, for running the job in a thread of its own (null: in this thread). */
  constructor(private db: Db, private jobs: JobQueue, readonly policy: CompactionPolicy = DEFAULT_POLICY, private dbFile: string | null = null) {
    const s = db.sqlite;
    // PostgreSQL keeps its GIN index in shape itself (autovacuum merges its pending list).
    this.q = s.dialect === 'sqlite'
      ? {
        // entry_fts_idx holds a row per leaf page boundary of every segment: (segid, term, pgno).
        shape: s.prepare('SELECT count(*) AS segments, coalesce(sum(pages), 0) AS pages, coalesce(max(pages), 0) AS largest FROM (SELECT max(pgno) AS pages FROM entry_fts_idx GROUP BY segid)'),
        // A negative page count puts every segment on one level first: the steps together are an optimize.
        step: s.prepare(`INSERT INTO entry_fts(entry_fts, rank) VALUES('merge', ?)`),
        changes: s.prepare('SELECT total_changes()').pluck(),
        lastSeq: s.prepare('SELECT max(seq) FROM search_docs').pluck(),
      }
      : null;
  }

  /** The index's shape, or null on PostgreSQL (nothing to compact). */
  shape(): IndexShape | null {
    return this.q ? (this.q.shape.get() as IndexShape) : null;
  }

  needed(shape = this.shape()): boolean {
    if (!shape || shape.segments < 2 || shape.pages < this.policy.minPages) return false;
    return (shape.pages - shape.largest) / shape.pages >= this.policy.minScattered;
  }

  /**
   * `schedule()` when the index has changed by at least `CHECK_AFTER_DOCS` documents since this process
   * last looked (and at the first call): measuring the shape reads every segment's page list, about
   * 0.1 s at 1,000,000 entries, too much to do every minute for nothing.
   */
  scheduleIfChanged(): boolean {
    if (!this.q) return false;
    const seq = (this.q.lastSeq.get() as number | null) ?? 0;
    if (this.checkedSeq !== null && seq - this.checkedSeq < CHECK_AFTER_DOCS) return false;
    this.checkedSeq = seq;
    return this.schedule();
  }

  private checkedSeq: number | null = null;

  /** Queues a compaction when the index needs one and none is queued or running; true when queued. */
  schedule(): boolean {
    if (!this.needed() || this.jobs.hasOpen(COMPACT_INDEX_JOB)) return false;
    this.jobs.enqueue(COMPACT_INDEX_JOB, {}, { maxAttempts: 2 });
    return true;
  }

  /**
   * Merges every segment into one, a step at a time. Each step is its own short write transaction of
   * about `stepPages` pages, so other writers (an import, a harvest, a login) wait for one step at most,
   * and readers never wait (WAL). A stopped compaction leaves a valid index; the next one goes on from there.
   */
  async compact(opts: CompactOptions = {}): Promise<CompactProgress> {
    const q = this.q;
    let steps = 0;
    if (!q) return { steps, segments: 0 };
    const stepPages = opts.stepPages ?? 64;
    const pause = opts.pause ?? 1;
    for (;;) {
      opts.signal?.throwIfAborted();
      const started = performance.now();
      const before = q.changes.get() as number;
      q.step.run(-stepPages);
      steps++;
      // A step that merged nothing changes at most the structure record: the index is one segment.
      if ((q.changes.get() as number) - before < 2) break;
      if (steps % 50 === 0) opts.onProgress?.({ steps, segments: this.shape()!.segments });
      const rest = (performance.now() - started) * pause;
      await new Promise((resolve) => (rest >= 1 ? setTimeout(resolve, rest) : setImmediate(resolve)));
    }
    // The rewritten index is all in the WAL now: every reader would look its pages up there (100,000
    // entries searched a third slower) until a checkpoint moves them into the database file.
    if (steps > 1) this.db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const done = { steps, segments: this.shape()!.segments };
    opts.onProgress?.(done);
    return done;
  }

  jobHandler(log?: (msg: string, extra?: Record<string, unknown>) => void): JobHandler {
    return {
      concurrency: 1,
      timeoutMs: 6 * 3600_000,
      run: async (_payload, ctx) => {
        const before = this.shape();
        const started = Date.now();
        const done = this.dbFile ? await this.compactInThread(this.dbFile, ctx.signal) : await this.compact({ signal: ctx.signal });
        const result = { ...done, pages_before: before?.pages ?? 0, segments_before: before?.segments ?? 0, seconds: Math.round((Date.now() - started) / 100) / 10 };
        log?.('search index compacted', result);
        return result;
      },
    };
  }

  /** `compact` in a worker thread on its own connection; an abort (time limit, shutdown) is passed on. */
  private compactInThread(dbFile: string, signal: AbortSignal): Promise<CompactProgress> {
    const worker = new Worker(new URL('./compaction-thread.mjs', import.meta.url), {
      workerData: { dbFile, options: { pause: THREAD_PAUSE } } satisfies CompactionThreadData,
    });
    const onAbort = () => worker.postMessage({ abort: (signal.reason as Error)?.message ?? 'Stopped' });
    signal.addEventListener('abort', onAbort, { once: true });
    return new Promise<CompactProgress>((resolve, reject) => {
      let settled = false;
      worker.on('message', (m: CompactionThreadMessage) => {
        if ('progress' in m) return;
        settled = true;
        if ('done' in m) resolve(m.done);
        else reject(new Error(m.error));
      });
      worker.once('error', (e) => {
        if (!settled) reject(e);
      });
      worker.once('exit', (code) => {
        signal.removeEventListener('abort', onAbort);
        if (!settled) reject(new Error(`The compaction thread ended (code ${code}) before it finished`));
      });
    });
  }
}

/** In a thread of its own the compaction rests a quarter of its step time: other writers get their turns. */
const THREAD_PAUSE = 0.25;
