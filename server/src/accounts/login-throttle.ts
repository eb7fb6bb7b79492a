// How fast logins may fail, so that passwords cannot be guessed while nobody can lock an honest user out.
//
// Three limits, each a slowdown, none a lockout:
// - per account and address: after 5 failures each further one doubles the wait (1 s … 15 min). This is
//   what binds a guesser at one account from one place; a typo-prone owner waits seconds, and an owner
//   elsewhere is not touched by it.
// - per address (the one the proxy saw, TRUST_PROXY): 50 failures at once, then one per 15 s, over all
//   accounts. This binds a spray of one password over many accounts. A reading room behind one NAT
//   shares it, so it is generous, and a saturated address still gets one try per 15 s (never shut).
// - per account: 50 failures at once from anywhere, then one per 30 s. This slows a guesser who spreads
//   one account's guesses over many addresses (a botnet); an address could not be made to lock the
//   account, since it slows rather than shuts.
// A login that comes from a known device (a browser that has logged into this account before: an
// HttpOnly cookie) or a known address (this account logged in from it within 90 days) skips the address
// and account limits: however hard an attacker sprays, the owner gets in at once from where they usually
// log in; only the account-and-address delays, which an attacker elsewhere cannot raise, apply there.
//
// An attempt is counted before the password is checked (so parallel requests cannot slip in before the
// count) and given back when it succeeds.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { Backoff, Marks, Pace } from '../http/rate-limit.ts';

export const LOGIN_LIMITS = {
  pair: { free: 5, baseMs: 1000, capMs: 15 * 60_000, forgetMs: 60 * 60_000 },
  address: { burst: 50, intervalMs: 15_000 },
  account: { burst: 50, intervalMs: 30_000 },
  knownDays: 90,
};

export interface LoginAttempt {
  /** The normalised username. */
  username: string;
  /** The client address (req.ip, after TRUST_PROXY). */
  address: string;
  /** The device cookie's value, if the browser sent one. */
  device?: string;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export class LoginThrottle {
  private pair: Backoff;
  private address: Pace;
  private account: Pace;
  private knownDevices: Marks;
  private knownAddresses: Marks;

  constructor(db: Db, limits = LOGIN_LIMITS, now: () => number = Date.now) {
    this.pair = new Backoff(db, 'login-pair', limits.pair, now);
    this.address = new Pace(db, 'login-address', limits.address.burst, limits.address.intervalMs, now);
    this.account = new Pace(db, 'login-account', limits.account.burst, limits.account.intervalMs, now);
    this.knownDevices = new Marks(db, 'login-device', limits.knownDays * 86400_000, now);
    this.knownAddresses = new Marks(db, 'login-known', limits.knownDays * 86400_000, now);
  }

  // The address comes first in keys: it never contains '|', so no username can make two keys meet.
  private pairKey(a: LoginAttempt) {
    return `${a.address}|${a.username}`;
  }

  private known(a: LoginAttempt): boolean {
    return (!!a.device && this.knownDevices.has(`${sha256(a.device)}|${a.username}`)) || this.knownAddresses.has(this.pairKey(a));
  }

  /**
   * Checks and counts one attempt: the seconds to wait (nothing counted), or 0 when the password may be
   * checked now (then the attempt counts as a failure until succeeded() takes it back).
   */
  begin(a: LoginAttempt): number {
    const known = this.known(a);
    const wait = Math.max(
      this.pair.wait(this.pairKey(a)),
      known ? 0 : this.address.wait(a.address),
      known ? 0 : this.account.wait(a.username),
    );
    if (wait > 0) return wait;
    this.pair.hit(this.pairKey(a));
    this.address.hit(a.address);
    this.account.hit(a.username);
    return 0;
  }

  /** A right password: the attempt is taken back, and the device and address become known for the account. */
  succeeded(a: LoginAttempt): { device: string } {
    this.pair.clear(this.pairKey(a));
    this.address.refund(a.address);
    this.account.refund(a.username);
    const device = a.device && /^[\w-]{43}$/.test(a.device) ? a.device : randomBytes(32).toString('base64url');
    this.knownDevices.set(`${sha256(device)}|${a.username}`);
    this.knownAddresses.set(this.pairKey(a));
    return { device };
  }
}
