// The in-process worker: polls the jobs table, runs at most `concurrency` jobs at once (and at most
// `perKind[kind]` of one kind), keeps a heartbeat on the jobs it holds, and puts back jobs left
// active by a worker that died. `serve` starts one; `main.ts worker` runs one alone.
import { JobQueue, newWorkerId, type Job } from './queue.ts';
import type { JobOutcome, Metrics } from '../metrics/metrics.ts';

/** How soon a heartbeat that met a busy database is tried again. */
const BUSY_RETRY_MS = 50;

export interface JobContext {
  jobId: number;
  /** Aborted when the job runs past its time limit or the worker stops. */
  signal: AbortSignal;
}

export interface JobHandler {
  run(payload: unknown, ctx: JobContext): Promise<unknown>;
  /** Most jobs of this kind at once (default: the worker's concurrency). */
  concurrency?: number;
  /** Time limit of one run; past it the signal aborts and the job fails. */
  timeoutMs?: number;
}

export interface WorkerOptions {
  concurrency: number;
  pollMs?: number;
  heartbeatMs?: number;
  /** A job whose heartbeat is older than this is taken as abandoned (default 3 heartbeats). */
  staleMs?: number;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
  /** Where each job's run time and outcome is recorded. */
  metrics?: Metrics;
}

export class JobTimeoutError extends Error {}

export class JobWorker {
  readonly id = newWorkerId();
  private running = new Map<number, { kind: string; abort: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | null = null;
  private beat: NodeJS.Timeout | null = null;
  private stopped = true;
  private ticking = false;
  private readonly pollMs: number;
  private readonly heartbeatMs: number;
  private readonly staleMs: number;

  constructor(
    private queue: JobQueue,
    private handlers: Record<string, JobHandler>,
    private opts: WorkerOptions,
  ) {
    this.pollMs = opts.pollMs ?? 500;
    this.heartbeatMs = opts.heartbeatMs ?? 5000;
    this.staleMs = opts.staleMs ?? 3 * this.heartbeatMs;
  }

  get active(): number {
    return this.running.size;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const r = this.queue.recoverStale(this.staleMs, this.id);
    if (r.requeued || r.failed) this.opts.log?.('jobs recovered after a stop', r);
    this.beat = setInterval(() => {
      // A busy database (another process's long write) must not end the process from a timer: the
      // next beat tries again, well before the job counts as stale.
      try {
        for (const id of this.running.keys()) this.beatUntilStored(id, Date.now() + this.heartbeatMs / 2);
        const rec = this.queue.recoverStale(this.staleMs, this.id);
        if (rec.requeued || rec.failed) this.opts.log?.('abandoned jobs recovered', rec);
      } catch (e) {
        this.opts.log?.('job heartbeat failed', { error: (e as Error).message });
      }
    }, this.heartbeatMs);
    this.beat.unref();
    this.schedule(0);
  }

  /** A heartbeat that never blocks the thread on a busy database: tried again shortly until `until`. */
  private beatUntilStored(id: number, until: number): void {
    if (this.stopped || !this.running.has(id)) return;
    try {
      if (this.queue.tryHeartbeat(id, this.id)) return;
    } catch (e) {
      this.opts.log?.('job heartbeat failed', { error: (e as Error).message });
      return;
    }
    if (Date.now() >= until) {
      this.opts.log?.('job heartbeat failed', { reason: 'the database stayed busy' });
      return;
    }
    setTimeout(() => this.beatUntilStored(id, until), BUSY_RETRY_MS).unref();
  }

  /** Looks for work now (after an enqueue in this process). */
  wake(): void {
    if (!this.stopped) this.schedule(0);
  }

  /** Stops taking jobs; running ones get `graceMs` to finish, then are aborted (and requeued on the next start). */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const all = Promise.all([...this.running.values()].map((r) => r.done));
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
    if ((await Promise.race([all, timeout])) === 'timeout') {
      for (const r of this.running.values()) r.abort.abort(new Error('The worker stopped'));
      await all;
    }
    if (this.beat) clearInterval(this.beat);
    this.beat = null;
  }

  /** Resolves when no job is running and none of the handled kinds is queued (tests, the worker command). */
  async idle(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.running.size === 0 && this.queue.counts().inactive === 0) return;
      if (Date.now() > deadline) throw new Error('jobs still running');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref?.();
  }

  private tick(): void {
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    try {
      while (this.running.size < this.opts.concurrency) {
        const kinds = Object.entries(this.handlers)
          .filter(([kind, h]) => [...this.running.values()].filter((r) => r.kind === kind).length < (h.concurrency ?? this.opts.concurrency))
          .map(([kind]) => kind);
        const job = this.queue.claim(this.id, kinds);
        if (!job) break;
        this.launch(job);
      }
    } catch (e) {
      this.opts.log?.('job polling failed', { error: (e as Error).message });
    } finally {
      this.ticking = false;
    }
    this.schedule(this.pollMs);
  }

  private launch(job: Job): void {
    const handler = this.handlers[job.kind];
    const abort = new AbortController();
    let timer: NodeJS.Timeout | null = null;
    if (handler.timeoutMs) {
      timer = setTimeout(() => abort.abort(new JobTimeoutError(`Timed out after ${Math.round(handler.timeoutMs! / 1000)} s`)), handler.timeoutMs);
      timer.unref();
    }
    const began = performance.now();
    let outcome: JobOutcome = 'failed';
    const done = (async () => {
      try {
        const result = await handler.run(job.payload, { jobId: job.id, signal: abort.signal });
        if (abort.signal.aborted) throw abort.signal.reason;
        this.queue.finish(job.id, result ?? null);
        outcome = 'finished';
      } catch (e) {
        const stopping = this.stopped && !(abort.signal.reason instanceof JobTimeoutError);
        if (stopping && abort.signal.aborted) {
          // Interrupted by a shutdown: leave it active; the next start puts it back in the queue.
          this.opts.log?.('job interrupted by shutdown', { id: job.id });
          outcome = 'interrupted';
        } else {
          const msg = e instanceof Error ? e.message : String(e);
          this.opts.log?.('job failed', { id: job.id, kind: job.kind, error: msg });
          try {
            this.queue.fail(job.id, msg || 'Job failed');
          } catch (e2) {
            // Left active without heartbeats: the stale-job recovery takes it up again.
            this.opts.log?.('job state not saved', { id: job.id, error: (e2 as Error).message });
          }
        }
      } finally {
        if (timer) clearTimeout(timer);
        this.opts.metrics?.jobEnded(job.kind, outcome, (performance.now() - began) / 1000);
        this.running.delete(job.id);
        this.schedule(0);
      }
    })();
    this.running.set(job.id, { kind: job.kind, abort, done });
  }
}
