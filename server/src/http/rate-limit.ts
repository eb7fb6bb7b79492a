// The one rate limiter of the server: fixed-window counters per key (a client address, a username…)
// kept in the database, so every process serving the site counts together. Used by logins (failures
// only), password resets and reports.
import type { Db } from '../db/index.ts';

export class RateLimiter {
  private q;

  /**
   * `scope` separates the counters of different limits sharing the table; `max` attempts per `windowMs`
   * (0 = no limit).
   */
  constructor(db: Db, private scope: string, private max: number, private windowMs: number, private now: () => number = Date.now) {
    const s = db.sqlite;
    this.q = {
      // One statement: a window that has ended starts again at 1, otherwise the count goes up.
      hit: s.prepare(`INSERT INTO rate_limits (key, count, reset_at) VALUES (@key, 1, @resetAt)
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN rate_limits.reset_at <= @now THEN 1 ELSE rate_limits.count + 1 END,
          reset_at = CASE WHEN rate_limits.reset_at <= @now THEN @resetAt ELSE rate_limits.reset_at END
        RETURNING count, reset_at`),
      get: s.prepare('SELECT count, reset_at FROM rate_limits WHERE key = ? AND reset_at > ?'),
      clear: s.prepare('DELETE FROM rate_limits WHERE key = ?'),
    };
  }

  private key(k: string): string {
    return `${this.scope}|${k}`;
  }

  private wait(count: number, resetAt: number, t: number): number {
    return count > this.max ? Math.max(1, Math.ceil((resetAt - t) / 1000)) : 0;
  }

  /** Counts one attempt; returns 0 when allowed, else the seconds until the window resets. */
  hit(key: string): number {
    if (this.max === 0) return 0;
    const t = this.now();
    const r = this.q.hit.get({ key: this.key(key), resetAt: t + this.windowMs, now: t }) as { count: number; reset_at: number };
    return this.wait(r.count, r.reset_at, t);
  }

  /** Whether the key is over its limit already (counts nothing): the seconds to wait, or 0. */
  blocked(key: string): number {
    if (this.max === 0) return 0;
    const t = this.now();
    const r = this.q.get.get(this.key(key), t) as { count: number; reset_at: number } | undefined;
    return r && r.count >= this.max ? Math.max(1, Math.ceil((r.reset_at - t) / 1000)) : 0;
  }

  /** Forgets a key's attempts (a username after a successful login). */
  clear(key: string): void {
    this.q.clear.run(this.key(key));
  }
}

/** Drops ended windows of every limiter (the hourly cleanup). */
export function purgeRateLimits(db: Db, now = Date.now()): number {
  return db.sqlite.prepare('DELETE FROM rate_limits WHERE reset_at <= ?').run(now).changes;
}
