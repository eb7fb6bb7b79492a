// The durable job queue and its worker: lifecycle, limits, failures, timeouts and restart recovery.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { JobQueue } from './queue.ts';
import { JobWorker, type JobHandler } from './worker.ts';

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('jobs on %s', (dialect) => {
  let target: string;
  let db: Db;
  let queue: JobQueue;
  const workers: JobWorker[] = [];

  beforeEach(async () => {
    target = await migratedTestDatabase(dialect);
    db = openDatabase(target);
    queue = new JobQueue(db);
  });

  afterEach(async () => {
    for (const w of workers.splice(0)) await w.stop(100);
    await db.close();
  });

  function worker(handlers: Record<string, JobHandler>, concurrency = 1, extra: object = {}): JobWorker {
    const w = new JobWorker(queue, handlers, { concurrency, pollMs: 10, heartbeatMs: 50, ...extra });
    workers.push(w);
    return w;
  }

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  describe('JobQueue', () => {
    it('enqueues, claims the oldest job of a handled kind, finishes and fails', () => {
      const a = queue.enqueue('a', { n: 1 });
      const b = queue.enqueue('b', { n: 2 });
      const a2 = queue.enqueue('a', { n: 3 });
      expect(queue.get(a)).toMatchObject({ kind: 'a', status: 'inactive', payload: { n: 1 }, attempts: 0 });
      expect(queue.position(a2)).toBe(1);
      expect(queue.position(b)).toBe(0);
      const got = queue.claim('w1', ['b']);
      expect(got).toMatchObject({ id: b, status: 'active', attempts: 1, worker: 'w1' });
      expect(queue.position(b)).toBeNull();
      queue.finish(b, { pages: 3 });
      expect(queue.get(b)).toMatchObject({ status: 'finished', result: { pages: 3 } });
      expect(queue.claim('w1', ['a'])?.id).toBe(a);
      queue.fail(a, 'broken');
      expect(queue.get(a)).toMatchObject({ status: 'failed', error: 'broken' });
      expect(queue.claim('w1', [])).toBeNull();
      expect(queue.counts()).toEqual({ inactive: 1, active: 0, finished: 1, failed: 1 });
      expect(queue.get(9999)).toBeNull();
    });

    it('says whether a job of a kind is queued or running (for jobs of which one at a time is enough)', () => {
      expect(queue.hasOpen('a')).toBe(false);
      const id = queue.enqueue('a', {});
      expect(queue.hasOpen('a')).toBe(true);
      expect(queue.hasOpen('b')).toBe(false);
      expect(queue.claim('w1', ['a'])?.id).toBe(id);
      expect(queue.hasOpen('a')).toBe(true);
      queue.finish(id, null);
      expect(queue.hasOpen('a')).toBe(false);
    });

    it('two queues on one database never claim the same job', async () => {
      const other = openDatabase(target);
      const q2 = new JobQueue(other);
      for (let i = 0; i < 20; i++) queue.enqueue('k', { i });
      const seen: number[] = [];
      for (let i = 0; i < 20; i++) seen.push((i % 2 ? queue : q2).claim(`w${i % 2}`, ['k'])!.id);
      expect(new Set(seen).size).toBe(20);
      await other.close();
    });

    it.skipIf(dialect !== 'postgres')('a claim takes the next job instead of waiting for another process\'s claim to commit', async () => {
      const other = openDatabase(target);
      const q2 = new JobQueue(other);
      const first = queue.enqueue('k', {});
      const second = queue.enqueue('k', {});
      const ids = db.sqlite.transaction(() => [queue.claim('w1', ['k'])!.id, q2.claim('w2', ['k'])!.id])();
      expect(ids).toEqual([first, second]);
      expect(queue.get(first)?.worker).toBe('w1');
      await other.close();
    });

    it('purges old finished jobs only', async () => {
      const a = queue.enqueue('a', {});
      queue.claim('w', ['a']);
      queue.finish(a, null);
      queue.enqueue('a', {});
      await sleep(5);
      expect(queue.purge(1)).toBe(1);
      expect(queue.counts().inactive).toBe(1);
    });
  });

  describe('JobWorker', () => {
    it('runs jobs to finished or failed, with the failure reason kept', async () => {
      const w = worker({
        ok: { run: async (p) => ({ doubled: (p as { n: number }).n * 2 }) },
        bad: { run: async () => { throw new Error('Typst said no'); } },
      });
      const ok = queue.enqueue('ok', { n: 21 });
      const bad = queue.enqueue('bad', {});
      w.start();
      await w.idle();
      expect(queue.get(ok)).toMatchObject({ status: 'finished', result: { doubled: 42 } });
      expect(queue.get(bad)).toMatchObject({ status: 'failed', error: 'Typst said no' });
    });

    it('runs at most `concurrency` jobs at once, and at most the kind limit of one kind', async () => {
      let now = 0;
      let peak = 0;
      let peakBuild = 0;
      let nowBuild = 0;
      const slow = (kind: 'build' | 'csv'): JobHandler => ({
        concurrency: kind === 'build' ? 1 : undefined,
        run: async () => {
          now++;
          if (kind === 'build') nowBuild++;
          peak = Math.max(peak, now);
          peakBuild = Math.max(peakBuild, nowBuild);
          await sleep(30);
          now--;
          if (kind === 'build') nowBuild--;
        },
      });
      const w = worker({ build: slow('build'), csv: slow('csv') }, 2);
      for (let i = 0; i < 4; i++) queue.enqueue('build', {});
      for (let i = 0; i < 4; i++) queue.enqueue('csv', {});
      w.start();
      await w.idle();
      expect(peak).toBe(2);
      expect(peakBuild).toBe(1);
      expect(queue.counts().finished).toBe(8);
    });

    it('fails a job that runs past its time limit', async () => {
      const w = worker({
        hang: { timeoutMs: 50, run: (_p, ctx) => new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))) },
      });
      const id = queue.enqueue('hang', {});
      w.start();
      await w.idle();
      expect(queue.get(id)).toMatchObject({ status: 'failed', error: 'Timed out after 0 s' });
    });

    it('puts back jobs left active by a crashed worker when it starts, and gives up after max attempts', async () => {
      const survivor = queue.enqueue('k', { v: 'survivor' });
      const doomed = queue.enqueue('k', { v: 'doomed' }, { maxAttempts: 1 });
      // A worker claims both, then "crashes": no finish, no heartbeat.
      expect(queue.claim('crashed-worker', ['k'])?.id).toBe(survivor);
      expect(queue.claim('crashed-worker', ['k'])?.id).toBe(doomed);
      expect(queue.counts().active).toBe(2);
      await sleep(5);

      const ran: string[] = [];
      const w = worker({ k: { run: async (p) => { ran.push((p as { v: string }).v); } } }, 1, { staleMs: 0 });
      w.start();
      await w.idle();
      expect(ran).toEqual(['survivor']);
      expect(queue.get(survivor)).toMatchObject({ status: 'finished', attempts: 2 });
      expect(queue.get(doomed)).toMatchObject({ status: 'failed', error: expect.stringContaining('Interrupted 1 times') });
    });

    it('does not take over jobs of a live worker (fresh heartbeat)', async () => {
      const id = queue.enqueue('k', {});
      queue.claim('other-live-worker', ['k']);
      const w = worker({ k: { run: async () => undefined } }, 1, { staleMs: 60_000 });
      w.start();
      await sleep(100);
      expect(queue.get(id)?.status).toBe('active');
    });

    it.runIf(dialect === 'sqlite')('never stalls the thread on a database another process holds locked, and keeps the job', async () => {
      const logged: string[] = [];
      const id = queue.enqueue('k', {});
      const w = worker({ k: { run: () => sleep(400).then(() => 'done') } }, 1, { log: (msg: string) => logged.push(msg) });
      w.start();
      await sleep(30); // claimed before the lock is taken
      // Another connection (a harvest thread, another process) holds the write lock for 250 ms. A
      // heartbeat that waited for it (busy_timeout, 5 s here) would freeze this thread, searches included.
      const other = openDatabase(target);
      other.sqlite.exec('BEGIN IMMEDIATE');
      let last = performance.now();
      let longestGap = 0;
      const tick = setInterval(() => {
        longestGap = Math.max(longestGap, performance.now() - last);
        last = performance.now();
      }, 5);
      await sleep(250); // several beats meet the lock
      clearInterval(tick);
      other.sqlite.exec('COMMIT');
      await other.close();
      await w.idle();
      expect(longestGap).toBeLessThan(100);
      expect(logged).toContain('job heartbeat failed');
      expect(queue.get(id)).toMatchObject({ status: 'finished', result: 'done' });
    });

    it.runIf(dialect === 'sqlite')('leaves a queued job to the next poll instead of waiting for a database another connection holds', async () => {
      const id = queue.enqueue('k', {});
      const other = openDatabase(target);
      other.sqlite.exec('BEGIN IMMEDIATE');
      const started = performance.now();
      try {
        expect(queue.claim('w1', ['k'])).toBeNull();
        expect(performance.now() - started).toBeLessThan(1000); // not busy_timeout's 5 s
      } finally {
        other.sqlite.exec('COMMIT');
        await other.close();
      }
      expect(queue.claim('w1', ['k'])?.id).toBe(id);
    });

    it('claims nothing, and writes nothing, while no job of its kinds is queued', () => {
      queue.enqueue('other', {});
      const other = openDatabase(target);
      try {
        if (dialect === 'sqlite') other.sqlite.exec('BEGIN IMMEDIATE'); // a write would wait for this lock
        expect(queue.claim('w1', ['k'])).toBeNull();
      } finally {
        if (dialect === 'sqlite') other.sqlite.exec('COMMIT');
      }
      return other.close();
    });

    it('survives a restart: a queued job is run by the next worker', async () => {
      const id = queue.enqueue('k', { x: 1 });
      await db.close();
      db = openDatabase(target);
      await migrate(db);
      queue = new JobQueue(db);
      const w = worker({ k: { run: async () => 'done' } });
      w.start();
      await w.idle();
      expect(queue.get(id)).toMatchObject({ status: 'finished', result: 'done' });
    });
  });
});
