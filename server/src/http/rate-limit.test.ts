// The rate limiter counts in the database: two processes (two connections) count together, windows end,
// and the hourly purge drops ended ones; on each back end. The health check answers from the database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { Backoff, Pace, RateLimiter, purgeRateLimits } from './rate-limit.ts';
import { healthRoutes } from './health.ts';

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('rate limits and readiness on %s', (dialect) => {
  let a: Db;
  let b: Db;
  let now = 1_000_000;
  const clock = () => now;
  beforeAll(async () => {
    const target = await migratedTestDatabase(dialect);
    a = openDatabase(target);
    b = openDatabase(target);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('counts the attempts of every process together and lets them in again when the window ends', () => {
    const onA = new RateLimiter(a, 'login', 3, 60_000, clock);
    const onB = new RateLimiter(b, 'login', 3, 60_000, clock);
    expect([onA.hit('ann'), onB.hit('ann'), onA.hit('ann')]).toEqual([0, 0, 0]);
    expect(onB.blocked('ann')).toBe(60);
    expect(onB.hit('ann')).toBe(60);
    expect(onA.blocked('bob')).toBe(0);
    // Another scope with the same key counts apart.
    expect(new RateLimiter(b, 'reset', 1, 60_000, clock).hit('ann')).toBe(0);
    now += 30_000;
    expect(onA.blocked('ann')).toBe(30);
    now += 30_000;
    expect(onA.blocked('ann')).toBe(0);
    expect(onA.hit('ann')).toBe(0);
    onB.clear('ann');
    expect(a.sqlite.prepare('SELECT count(*) FROM rate_limits WHERE key = ?').pluck().get('login|ann')).toBe(0);
  });

  it('Pace: a burst, then one attempt per interval counted by every process; a refund takes one back; an idle key is purged', () => {
    const onA = new Pace(a, 'pace', 3, 10_000, clock);
    const onB = new Pace(b, 'pace', 3, 10_000, clock);
    for (let i = 0; i < 3; i++) {
      expect(onB.wait('x')).toBe(0);
      (i % 2 ? onA : onB).hit('x');
    }
    expect(onA.wait('x')).toBe(10);
    onB.refund('x');
    expect(onA.wait('x')).toBe(0);
    onA.hit('x');
    now += 4_000;
    expect(onB.wait('x')).toBe(6); // never shut for long: one more after one interval
    now += 6_000;
    expect(onB.wait('x')).toBe(0);
    onB.hit('x');
    expect(onA.wait('x')).toBe(10);
    now += 40_000;
    expect(purgeRateLimits(a, now)).toBeGreaterThanOrEqual(1);
    expect(onA.wait('x')).toBe(0);
  });

  it('Backoff: free failures, then waits that double up to the cap, forgotten after a quiet spell or cleared', () => {
    const opts = { free: 2, baseMs: 1000, capMs: 8000, forgetMs: 60_000 };
    const onA = new Backoff(a, 'backoff', opts, clock);
    const onB = new Backoff(b, 'backoff', opts, clock);
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      onA.hit('k');
      waits.push(onB.wait('k'));
      now += waits[i] * 1000;
    }
    expect(waits).toEqual([0, 1, 2, 4, 8, 8, 8]);
    now += 60_000;
    expect(onB.wait('k')).toBe(0);
    onA.hit('k');
    expect(onA.wait('k')).toBe(0); // the count started again
    onA.hit('k');
    onB.clear('k');
    expect(onA.wait('k')).toBe(0);
  });

  it('purges ended windows only', () => {
    const limiter = new RateLimiter(a, 'purge', 5, 1000, clock);
    limiter.hit('old');
    now += 2000;
    limiter.hit('new');
    expect(purgeRateLimits(b, now)).toBeGreaterThanOrEqual(1);
    expect(a.sqlite.prepare("SELECT key FROM rate_limits WHERE key LIKE 'purge|%'").pluck().all()).toEqual(['purge|new']);
  });

  it('is ready when the database answers and the data folder is writable', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-health-'));
    const app = Fastify();
    await app.register(healthRoutes(a, dir));
    try {
      expect((await app.inject('/readyz')).json()).toEqual({ status: 'ready' });
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
