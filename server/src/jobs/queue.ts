// The durable job queue: one `jobs` table, claimed atomically (one UPDATE … RETURNING), so any number
// of worker processes can share it. Statuses: inactive (queued) → active → finished | failed.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { jsonValues, skipLocked } from '../db/dialect.ts';
import { writeWithoutWaiting } from '../db/connection.ts';

export type JobState = 'inactive' | 'active' | 'finished' | 'failed';

export interface Job<P = unknown, R = unknown> {
  id: number;
  kind: string;
  status: JobState;
  payload: P;
  result: R | null;
  error: string | null;
  attempts: number;
  maxAttempts: number;
  worker: string | null;
  created: string;
  started: string | null;
  finished: string | null;
}

interface JobRow {
  id: number; kind: string; status: JobState; payload: string; result: string | null; error: string | null;
  attempts: number; max_attempts: number; worker: string | null; heartbeat: string | null;
  created: string; started: string | null; finished: string | null;
}

function toJob<P, R>(r: JobRow): Job<P, R> {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    payload: JSON.parse(r.payload) as P,
    result: r.result === null ? null : (JSON.parse(r.result) as R),
    error: r.error,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    worker: r.worker,
    created: r.created,
    started: r.started,
    finished: r.finished,
  };
}

const iso = (ms = Date.now()) => new Date(ms).toISOString();

/** A name for one worker (process + random part), kept on the jobs it holds. */
export function newWorkerId(): string {
  return `${process.pid}-${randomBytes(4).toString('hex')}`;
}

export class JobQueue {
  private q;
  /** Called after enqueue: lets an in-process worker start at once instead of at its next poll. */
  onEnqueue: (() => void) | null = null;

  constructor(private db: Db) {
    const s = db.sqlite;
    this.q = {
      insert: s.prepare('INSERT INTO jobs (kind, payload, max_attempts, created) VALUES (?, ?, ?, ?) RETURNING id').pluck(),
      get: s.prepare('SELECT * FROM jobs WHERE id = ?'),
      // status is checked again outside the subquery: on PostgreSQL a claim that waited for another
      // one's row re-reads that row only.
      claim: s.prepare(`UPDATE jobs SET status = 'active', attempts = attempts + 1, worker = ?, started = ?, heartbeat = ?, error = NULL
        WHERE id = (SELECT id FROM jobs WHERE status = 'inactive' AND kind IN (${jsonValues(s.dialect, '?')}) ORDER BY id LIMIT 1${skipLocked(s.dialect)})
          AND status = 'inactive'
        RETURNING *`),
      open: s.prepare(`SELECT 1 FROM jobs WHERE kind = ? AND status IN ('inactive', 'active') LIMIT 1`).pluck(),
      anyQueued: s.prepare(`SELECT 1 FROM jobs WHERE status = 'inactive' AND kind IN (${jsonValues(s.dialect, '?')}) LIMIT 1`).pluck(),
      heartbeat: s.prepare(`UPDATE jobs SET heartbeat = ? WHERE id = ? AND worker = ? AND status = 'active'`),
      finish: s.prepare(`UPDATE jobs SET status = 'finished', result = ?, finished = ?, heartbeat = NULL WHERE id = ? AND status = 'active'`),
      fail: s.prepare(`UPDATE jobs SET status = 'failed', error = ?, finished = ?, heartbeat = NULL WHERE id = ? AND status IN ('active', 'inactive')`),
      stale: s.prepare(`SELECT id, attempts, max_attempts FROM jobs WHERE status = 'active' AND (heartbeat IS NULL OR heartbeat < ?) AND (worker IS NULL OR worker != ?)`),
      requeue: s.prepare(`UPDATE jobs SET status = 'inactive', worker = NULL, heartbeat = NULL WHERE id = ? AND status = 'active'`),
      ahead: s.prepare(`SELECT count(*) FROM jobs WHERE status = 'inactive' AND id < ? AND kind = ?`).pluck(),
      counts: s.prepare('SELECT status, count(*) AS n FROM jobs GROUP BY status'),
      countsByKind: s.prepare('SELECT kind, status, count(*) AS n FROM jobs GROUP BY kind, status'),
      purge: s.prepare(`DELETE FROM jobs WHERE status IN ('finished', 'failed') AND coalesce(finished, created) < ?`),
    };
  }

  enqueue<P>(kind: string, payload: P, opts: { maxAttempts?: number } = {}): number {
    const id = this.q.insert.get(kind, JSON.stringify(payload ?? {}), opts.maxAttempts ?? 3, iso()) as number;
    this.onEnqueue?.();
    return id;
  }

  /** True while a job of this kind is queued or running (for jobs of which one at a time is enough). */
  hasOpen(kind: string): boolean {
    return this.q.open.get(kind) !== undefined;
  }

  get<P = unknown, R = unknown>(id: number): Job<P, R> | null {
    const r = this.q.get.get(id) as JobRow | undefined;
    return r ? toJob<P, R>(r) : null;
  }

  /** Takes the oldest queued job of one of these kinds for this worker, or null. */
  claim(workerId: string, kinds: string[]): Job | null {
    if (kinds.length === 0) return null;
    const list = JSON.stringify(kinds);
    // A read first, and a claim that does not wait: a write waits for another connection's (a harvest's)
    // write transaction, which on SQLite blocks the thread that serves searches. A busy database
    // leaves the job to the next poll.
    if (!this.q.anyQueued.get(list)) return null;
    const t = iso();
    const r = writeWithoutWaiting(this.db.sqlite, () => this.q.claim.get(workerId, t, t, list) as JobRow | undefined);
    return r ? toJob(r) : null;
  }

  heartbeat(id: number, workerId: string): void {
    this.q.heartbeat.run(iso(), id, workerId);
  }

  /**
   * The heartbeat without waiting for another connection's write lock (SQLite: its busy timeout blocks
   * the whole thread, for as long as a harvest's batch takes); false when the database was busy.
   */
  tryHeartbeat(id: number, workerId: string): boolean {
    return writeWithoutWaiting(this.db.sqlite, () => {
      this.heartbeat(id, workerId);
      return true;
    }) ?? false;
  }

  finish(id: number, result: unknown): void {
    this.q.finish.run(JSON.stringify(result ?? null), iso(), id);
  }

  fail(id: number, error: string): void {
    this.q.fail.run(error.slice(0, 2000), iso(), id);
  }

  /**
   * Jobs left active by a worker that stopped (no heartbeat for staleMs) go back to the queue, or fail
   * once they have been tried maxAttempts times (a job that kills its worker must not loop forever).
   * Jobs of `exceptWorker` (the caller's own) are left alone. Returns how many were requeued / failed.
   */
  recoverStale(staleMs: number, exceptWorker = ''): { requeued: number; failed: number } {
    const out = { requeued: 0, failed: 0 };
    const rows = this.q.stale.all(iso(Date.now() - staleMs), exceptWorker) as { id: number; attempts: number; max_attempts: number }[];
    for (const r of rows) {
      if (r.attempts >= r.max_attempts) {
        this.fail(r.id, `Interrupted ${r.attempts} times (the worker stopped while running it)`);
        out.failed++;
      } else if (this.q.requeue.run(r.id).changes) {
        out.requeued++;
      }
    }
    return out;
  }

  /** How many queued jobs of the same kind are ahead of this one (null when it is not queued). */
  position(id: number): number | null {
    const job = this.get(id);
    if (!job || job.status !== 'inactive') return null;
    return this.q.ahead.get(id, job.kind) as number;
  }

  counts(): Record<JobState, number> {
    const out: Record<JobState, number> = { inactive: 0, active: 0, finished: 0, failed: 0 };
    for (const r of this.q.counts.all() as { status: JobState; n: number }[]) out[r.status] = r.n;
    return out;
  }

  /** Jobs by kind and state (the metrics' queue depth; finished and failed ones are kept until purge()). */
  countsByKind(): { kind: string; state: JobState; n: number }[] {
    return (this.q.countsByKind.all() as { kind: string; status: JobState; n: number }[]).map((r) => ({ kind: r.kind, state: r.status, n: Number(r.n) }));
  }

  /** Deletes finished and failed jobs older than maxAgeMs. */
  purge(maxAgeMs: number): number {
    return this.q.purge.run(iso(Date.now() - maxAgeMs)).changes;
  }
}
