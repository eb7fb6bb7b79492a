// The one rate limiter of the server: a fixed-window counter per key (client address, or address +
// username), in memory per process. Used by login, password resets and reports.
export class RateLimiter {
  private hits = new Map<string, { count: number; resetAt: number }>();

  constructor(private max: number, private windowMs: number, private now: () => number = Date.now) {}

  /** Counts one attempt; returns 0 when allowed, else the seconds until the window resets. */
  hit(key: string): number {
    if (this.max === 0) return 0; // 0 = no limit
    const t = this.now();
    if (this.hits.size > 10_000) for (const [k, v] of this.hits) if (v.resetAt <= t) this.hits.delete(k);
    let h = this.hits.get(key);
    if (!h || h.resetAt <= t) {
      h = { count: 0, resetAt: t + this.windowMs };
      this.hits.set(key, h);
    }
    h.count++;
    return h.count > this.max ? Math.max(1, Math.ceil((h.resetAt - t) / 1000)) : 0;
  }
}
