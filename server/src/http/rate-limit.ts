// The rate limits of the server, all kept in one database table so every process serving the site
// counts together: fixed-window counters per key (password resets, reports), a paced burst (Pace) and
// growing delays (Backoff) for logins (accounts/login-throttle.ts), and remembered keys (Marks).
import ipaddr from 'ipaddr.js';
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

/**
 * A pace with a burst (GCRA): `burst` attempts at once, then one per `intervalMs`. One row per key whose
 * reset_at is the "theoretical arrival time": each attempt pushes it `intervalMs` further (from now when it
 * lies in the past), and a key may go on while it lies less than burst−1 intervals ahead. Unlike a
 * fixed window it never shuts a key for the whole window: a saturated key gets one attempt per interval.
 */
export class Pace {
  private q;

  constructor(db: Db, private scope: string, private burst: number, private intervalMs: number, private now: () => number = Date.now) {
    const s = db.sqlite;
    this.q = {
      hit: s.prepare(`INSERT INTO rate_limits (key, count, reset_at) VALUES (@key, 1, @first)
        ON CONFLICT (key) DO UPDATE SET
          count = rate_limits.count + 1,
          reset_at = CASE WHEN rate_limits.reset_at > @now THEN rate_limits.reset_at ELSE @now END + @interval`),
      refund: s.prepare('UPDATE rate_limits SET reset_at = reset_at - @interval, count = count - 1 WHERE key = @key AND reset_at > @now'),
      get: s.prepare('SELECT reset_at FROM rate_limits WHERE key = ? AND reset_at > ?').pluck(),
    };
  }

  private key(k: string): string {
    return `${this.scope}|${k}`;
  }

  /** Counts one attempt. */
  hit(key: string): void {
    if (this.burst === 0) return;
    const t = this.now();
    this.q.hit.run({ key: this.key(key), first: t + this.intervalMs, now: t, interval: this.intervalMs });
  }

  /** Takes back one attempt counted by hit (one that turned out honest, e.g. a successful login). */
  refund(key: string): void {
    if (this.burst === 0) return;
    this.q.refund.run({ key: this.key(key), interval: this.intervalMs, now: this.now() });
  }

  /** The seconds until the key may try again (0: now). */
  wait(key: string): number {
    if (this.burst === 0) return 0;
    const t = this.now();
    const tat = this.q.get.get(this.key(key), t) as number | undefined;
    if (tat === undefined) return 0;
    const ms = tat - t - (this.burst - 1) * this.intervalMs;
    return ms > 0 ? Math.ceil(ms / 1000) : 0;
  }
}

/**
 * Growing delays per key: after `free` failures, each further one makes the key wait twice as long
 * (baseMs, 2×baseMs, … up to capMs) before its next attempt. The count is forgotten `forgetMs` after
 * the last failure (reset_at = last failure + forgetMs, so the last failure's time is known).
 */
export class Backoff {
  private q;

  constructor(db: Db, private scope: string, private opts: { free: number; baseMs: number; capMs: number; forgetMs: number },
    private now: () => number = Date.now) {
    const s = db.sqlite;
    this.q = {
      hit: s.prepare(`INSERT INTO rate_limits (key, count, reset_at) VALUES (@key, 1, @forgetAt)
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN rate_limits.reset_at <= @now THEN 1 ELSE rate_limits.count + 1 END,
          reset_at = @forgetAt`),
      get: s.prepare('SELECT count, reset_at FROM rate_limits WHERE key = ? AND reset_at > ?'),
      clear: s.prepare('DELETE FROM rate_limits WHERE key = ?'),
    };
  }

  private key(k: string): string {
    return `${this.scope}|${k}`;
  }

  /** The delay after `count` failures. */
  delayMs(count: number): number {
    const { free, baseMs, capMs } = this.opts;
    return count < free ? 0 : Math.min(capMs, baseMs * 2 ** Math.min(count - free, 30));
  }

  hit(key: string): void {
    const t = this.now();
    this.q.hit.run({ key: this.key(key), forgetAt: t + this.opts.forgetMs, now: t });
  }

  /** The seconds until the key may try again (0: now). */
  wait(key: string): number {
    const t = this.now();
    const r = this.q.get.get(this.key(key), t) as { count: number; reset_at: number } | undefined;
    if (!r) return 0;
    const ms = r.reset_at - this.opts.forgetMs + this.delayMs(r.count) - t;
    return ms > 0 ? Math.ceil(ms / 1000) : 0;
  }

  clear(key: string): void {
    this.q.clear.run(this.key(key));
  }
}

/** Keys remembered for a while (a known login device or address), in the same table. */
export class Marks {
  private q;

  constructor(db: Db, private scope: string, private ttlMs: number, private now: () => number = Date.now) {
    const s = db.sqlite;
    this.q = {
      set: s.prepare(`INSERT INTO rate_limits (key, count, reset_at) VALUES (@key, 1, @until)
        ON CONFLICT (key) DO UPDATE SET reset_at = @until`),
      has: s.prepare('SELECT 1 FROM rate_limits WHERE key = ? AND reset_at > ?'),
    };
  }

  set(key: string): void {
    this.q.set.run({ key: `${this.scope}|${key}`, until: this.now() + this.ttlMs });
  }

  has(key: string): boolean {
    return !!this.q.has.get(`${this.scope}|${key}`, this.now());
  }
}

/** Drops ended windows of every limiter (the hourly cleanup). */
export function purgeRateLimits(db: Db, now = Date.now()): number {
  return db.sqlite.prepare('DELETE FROM rate_limits WHERE reset_at <= ?').run(now).changes;
}

/**
 * The subject an address-based limit counts for a client address: an IPv4 address as it is (also when
 * written IPv4-mapped, `::ffff:a.b.c.d`), an IPv6 address by its /64 network, since one subscriber is given
 * a whole /64 and could otherwise take a fresh address for every attempt.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  if (addr.kind() === 'ipv4') return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

