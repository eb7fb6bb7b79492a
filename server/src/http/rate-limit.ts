// A fixed-window counter per key (client address, or address + username): the one rate limiter of the
// server, in memory (per process), for login, password resets and reports.
export class RateLimiter {
  private hits = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly max: number, private readonly windowMs: number, private readonly now = () => Date.now()) {}

  /** Counts a hit; false when the key is over its limit in the current window. */
  hit(key: string): boolean {
    const t = this.now();
    if (this.hits.size > 10000) for (const [k, v] of this.hits) if (v.resetAt <= t) this.hits.delete(k);
    const cur = this.hits.get(key);
    if (!cur || cur.resetAt <= t) {
      this.hits.set(key, { count: 1, resetAt: t + this.windowMs });
      return true;
    }
    cur.count++;
    return cur.count <= this.max;
  }

  /** Seconds until the key may try again. */
  retryAfter(key: string): number {
    const cur = this.hits.get(key);
    return cur ? Math.max(1, Math.ceil((cur.resetAt - this.now()) / 1000)) : 0;
  }
}
