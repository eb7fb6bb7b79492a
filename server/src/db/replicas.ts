// Read replicas: reads that may lag go to PostgreSQL hot standbys (DATABASE_REPLICA_URL), everything else
// to the primary (docs/architecture.md, "Read replicas"; docs/operations.md, "Read replicas").
//
// THE rule (chooseStandby): a read outside a transaction may run on a standby that is connected, at most
// REPLICA_MAX_LAG_SECONDS behind, and has replayed the primary's WAL up to this node's floor; otherwise
// it runs on the primary. The floor is a WAL position (LSN) that rises when this node writes (the
// primary's insert position after every state-changing request), when a request brings the position of
// its user's last write from another node (the uc_lsn cookie), and when a standby becomes usable again
// (the primary's position then, so that a reader never sees the catalogue go back to before what this
// node already showed from the primary). So a user always reads what they wrote; others may read a
// standby's slightly older state. Reads on the primary never raise the floor: under a steady stream of
// writes that would keep every read on the primary for ever.
//
// A standby that fails (stopped, unreachable, a query cancelled by a replication conflict) costs no
// request: the read runs again on the primary, the standby is marked down and reconnected in the
// background. A standby never gets a write: run() and every read inside a transaction go to the primary,
// and a hot standby refuses writes anyway (such a refusal is retried on the primary like any failure).
import net from 'node:net';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqlConnection } from './connection.ts';
import { PgConnection } from './postgres.ts';
import type { Db } from './index.ts';

/** A WAL position (PostgreSQL's pg_lsn, "16/B374D848") as a number. */
export type Lsn = bigint;

export function parseLsn(text: string | null | undefined): Lsn | null {
  const m = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text ?? '');
  return m ? (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`) : null;
}

export function formatLsn(lsn: Lsn): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** What the router knows of one standby. */
export interface StandbyState {
  /** Connected, answering, and still a standby (pg_is_in_recovery). */
  up: boolean;
  /** The WAL it has replayed at its last probe (null before the first). */
  replayed: Lsn | null;
  /** How far behind the primary it was at its last probe, in seconds. */
  lagSeconds: number;
}

/**
 * Has a standby that replayed up to `replayed` everything before `lsn`? The primary's insert position
 * at the start of a WAL page lies after the page's header, where replay of the record that filled the
 * page before ends: up to 40 bytes there count as covered (else an idle primary's standby never would be).
 */
export function covers(replayed: Lsn, lsn: Lsn): boolean {
  return replayed >= lsn || (lsn % 8192n <= 40n && replayed >= lsn - (lsn % 8192n));
}

/** May a read outside a transaction use this standby? */
export function usable(s: StandbyState, floor: Lsn, maxLagSeconds: number): boolean {
  return s.up && s.replayed !== null && covers(s.replayed, floor) && s.lagSeconds <= maxLagSeconds;
}

/**
 * THE routing rule: the standby a read goes to (its index, trying them in turn from `turn` so several
 * share the reads), or -1 for the primary: always inside a transaction (it may have written, and its
 * reads must see that), and when no standby is up, close enough, and past the floor.
 */
export function chooseStandby(standbys: readonly StandbyState[], opts: { floor: Lsn; maxLagSeconds: number; inTransaction: boolean; turn?: number }): number {
  if (opts.inTransaction) return -1;
  const n = standbys.length;
  for (let k = 0; k < n; k++) {
    const i = ((opts.turn ?? 0) + k) % n;
    if (usable(standbys[i]!, opts.floor, opts.maxLagSeconds)) return i;
  }
  return -1;
}

/**
 * A standby's lag in seconds from samples of the primary's WAL position over time (oldest first): it holds
 * everything the primary had written at the newest sample at or below what it has replayed. Measured on
 * the primary's clock through this node's, so it works when the primary is idle (the position does not
 * move: lag 0) and when the standby has lost its stream (its position stops: the lag grows).
 */
export function lagFrom(samples: readonly { at: number; lsn: Lsn }[], replayed: Lsn, now: number): number {
  for (let i = samples.length - 1; i >= 0; i--) {
    if (covers(replayed, samples[i]!.lsn)) return i === samples.length - 1 ? 0 : Math.max(0, (now - samples[i + 1]!.at) / 1000);
  }
  return samples.length ? Math.max(0, (now - samples[0]!.at) / 1000) : Infinity;
}

/** Errors that mean the standby's connection is gone (class 08, an administrator's or a crash's shutdown, no SQLSTATE at all). */
export function connectionLost(code: string | undefined): boolean {
  return !code || code === 'PG_ERROR' || code.startsWith('08') || /^57P0[1-4]$/.test(code);
}

/** libpq keeps a dead peer's socket waiting for ever: bounded waits unless the URL sets its own. */
export function withTimeouts(url: string): string {
  const u = new URL(url);
  const defaults: Record<string, string> = { connect_timeout: '3', keepalives_idle: '5', keepalives_interval: '2', keepalives_count: '2', tcp_user_timeout: '5000' };
  for (const [k, v] of Object.entries(defaults)) if (!u.searchParams.has(k)) u.searchParams.set(k, v);
  return u.toString();
}

/** How often the standbys and the primary's position are looked at (and a down standby tried again). */
const PROBE_MS = 500;
/** Samples of the primary's position kept beyond the largest lag allowed. */
const SAMPLE_MARGIN_MS = 5000;
/** A standby behind the floor is asked again at most this often (else reads stay on the primary meanwhile). */
const REPROBE_MS = 5;

const PROBE_SQL = `SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text`;
const PRIMARY_LSN_SQL = 'SELECT pg_current_wal_insert_lsn()::text';

class Standby implements StandbyState {
  conn: PgConnection | null = null;
  up = false;
  replayed: Lsn | null = null;
  lagSeconds = Infinity;
  probedAt = 0;
  private connecting = false;
  /** Whether it was usable (connected and close enough) at the last look: a return raises the floor. */
  wasClose = false;

  constructor(readonly url: string, readonly name: string) {}

  /** Connects in the background: the TCP port is tried first without blocking, so a host that is down costs no request a wait. */
  connect(onDone: () => void, closed: () => boolean): void {
    if (this.connecting || this.conn) return;
    this.connecting = true;
    reachable(this.url).then((ok) => {
      this.connecting = false;
      if (!ok || closed()) return;
      try {
        this.conn = new PgConnection(this.url);
        onDone();
      } catch {
        this.conn = null; // starting up, or refusing us: tried again at the next probe
      }
    }, () => { this.connecting = false; });
  }

  down(): void {
    this.up = false;
    this.replayed = null;
    this.lagSeconds = Infinity;
    try {
      this.conn?.close();
    } catch { /* already gone */ }
    this.conn = null;
  }

  probe(samples: readonly { at: number; lsn: Lsn }[]): void {
    if (!this.conn) return;
    this.probedAt = performance.now();
    const [row] = this.conn.query(PROBE_SQL) as [number, string | null][];
    const replayed = parseLsn(row?.[1]);
    // A promoted standby (not in recovery) is another primary now: never read from it.
    this.up = row?.[0] === 1 && replayed !== null;
    this.replayed = replayed;
    this.lagSeconds = replayed === null ? Infinity : lagFrom(samples, replayed, Date.now());
  }
}

/** Resolves whether a TCP connection to the URL's host and port opens within a few seconds (true for a socket path). */
function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  const host = u.hostname || u.searchParams.get('host') || '';
  if (!host || host.startsWith('/')) return Promise.resolve(true);
  return new Promise((resolve) => {
    const socket = net.connect({ host: host.replace(/^\[|\]$/g, ''), port: Number(u.port || 5432) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(3000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export interface ReplicaOptions {
  maxLagSeconds: number;
  log?: (message: string, extra?: Record<string, unknown>) => void;
}

/** The primary and its standbys, with the floor and the probes; hands each read its connection. */
export class ReadRouter {
  floor: Lsn = 0n;
  readonly standbys: Standby[];
  /** Reads served by each standby and by the primary (tests and logs). */
  readonly counts = { standby: 0, primary: 0, retried: 0 };
  private samples: { at: number; lsn: Lsn }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private turn = 0;

  constructor(readonly primary: PgConnection, urls: readonly string[], private opts: ReplicaOptions) {
    this.standbys = urls.map((url) => new Standby(withTimeouts(url), url.replace(/:[^:@/]*@/, ':***@')));
  }

  set log(log: ReplicaOptions['log']) {
    this.opts.log = log;
  }

  /** Starts the probes (and the first connections). */
  start(): this {
    if (this.timer) return this;
    this.tick();
    this.timer = setInterval(() => this.tick(), PROBE_MS);
    this.timer.unref();
    return this;
  }

  private closed = false;

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const s of this.standbys) s.down();
  }

  /** The primary's WAL insert position now (every commit before this call lies at or below it). */
  primaryLsn(): Lsn {
    return parseLsn((this.primary.query(PRIMARY_LSN_SQL)[0]?.[0] as string | undefined) ?? null) ?? 0n;
  }

  /** After this node wrote: its reads wait for a standby to replay the write. Answers the position (for the uc_lsn cookie). */
  wrote(): Lsn {
    const lsn = this.primaryLsn();
    if (lsn > this.floor) this.floor = lsn;
    return lsn;
  }

  /**
   * A request carries its user's last write position (from any node): reads wait for it too. A
   * position beyond the primary's own (made up) counts as the primary's.
   */
  require(lsn: Lsn): void {
    if (lsn <= this.floor) return;
    const primary = this.primaryLsn();
    this.floor = lsn < primary ? lsn : primary;
  }

  /** The standby a read outside a transaction may use now, or null for the primary. */
  pick(): Standby | null {
    if (this.primary.inTransaction || !this.standbys.length) return null;
    const now = performance.now();
    // One behind the floor may have replayed it since its last probe: ask again (bounded).
    for (const s of this.standbys) {
      if (s.conn && s.up && s.replayed !== null && !covers(s.replayed, this.floor) && now - s.probedAt >= REPROBE_MS) {
        try {
          s.probe(this.samples);
        } catch (e) {
          this.lost(s, e);
        }
      }
    }
    const i = chooseStandby(this.standbys, { floor: this.floor, maxLagSeconds: this.opts.maxLagSeconds, inTransaction: false, turn: this.turn++ });
    return i < 0 ? null : this.standbys[i]!;
  }

  /** Runs a read on a standby when the rule allows, on the primary otherwise or when the standby fails. */
  read<T>(fn: (conn: PgConnection) => T): T {
    const s = this.pick();
    if (s?.conn) {
      try {
        const out = fn(s.conn);
        this.counts.standby++;
        return out;
      } catch (e) {
        this.failed(s, e);
        this.counts.retried++;
      }
    }
    this.counts.primary++;
    return fn(this.primary);
  }

  /** A read failed on a standby: a lost connection marks it down (reconnected later); any failure is retried on the primary. */
  failed(s: Standby, e: unknown): void {
    if (connectionLost((e as { code?: string }).code)) this.lost(s, e);
  }

  private lost(s: Standby, e: unknown): void {
    if (s.up || s.conn) this.opts.log?.('read replica unavailable: reading from the primary', { replica: s.name, error: (e as Error).message });
    s.down();
    s.wasClose = false;
  }

  /** The periodic look: the primary's position, each standby's replay and lag, reconnections. */
  private tick(): void {
    if (this.closed) return;
    const now = Date.now();
    // Not inside a transaction this node holds open across awaits (an import): a failing statement would end it.
    if (!this.primary.inTransaction) {
      try {
        this.samples.push({ at: now, lsn: this.primaryLsn() });
      } catch {
        return; // the primary is unreachable: every request fails anyway, nothing to route
      }
    }
    const keep = now - this.opts.maxLagSeconds * 1000 - SAMPLE_MARGIN_MS;
    while (this.samples.length > 2 && this.samples[1]!.at < keep) this.samples.shift();
    for (const s of this.standbys) {
      if (!s.conn) {
        s.connect(() => this.tick(), () => this.closed);
        continue;
      }
      try {
        s.probe(this.samples);
      } catch (e) {
        this.lost(s, e);
        continue;
      }
      const close = s.up && s.lagSeconds <= this.opts.maxLagSeconds;
      if (close && !s.wasClose) {
        if (this.primary.inTransaction) continue; // next time: the floor needs the primary's position
        // Back (or first seen): this node read newer data from the primary meanwhile; the standby is
        // used again once it holds all of that.
        const p = this.primaryLsn();
        if (p > this.floor) this.floor = p;
        this.opts.log?.('read replica in use', { replica: s.name, lag_seconds: s.lagSeconds });
      } else if (!close && s.wasClose) {
        this.opts.log?.('read replica skipped', { replica: s.name, up: s.up, lag_seconds: s.lagSeconds, max: this.opts.maxLagSeconds });
      }
      s.wasClose = close;
    }
  }
}

/**
 * The SqlConnection of the services whose reads may lag (search, entry pages, feeds, OPDS, sitemaps):
 * reads through the router, writes and transactions on the primary.
 */
export class RoutedConnection implements SqlConnection {
  readonly dialect = 'postgres' as const;

  constructor(readonly router: ReadRouter) {}

  get primary(): PgConnection {
    return this.router.primary;
  }

  get open(): boolean {
    return this.primary.open;
  }

  get name(): string {
    return this.primary.name;
  }

  get inTransaction(): boolean {
    return this.primary.inTransaction;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  prepare(source: string): any {
    // Prepared (and so checked) on the primary now; on a standby at its first use there.
    const p = this.primary.prepare(source) as { reader: boolean; readonly: boolean };
    return new RoutedStatement(this.router, source, p.reader, p.readonly);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  transaction<F extends (...params: any[]) => any>(fn: F): BetterSqlite3.Transaction<F> {
    return this.primary.transaction(fn);
  }

  exec(source: string): this {
    this.primary.exec(source);
    return this;
  }

  pragma(source: string): unknown {
    return this.primary.pragma(source);
  }

  close(): this {
    this.router.close();
    return this;
  }
}

type RunResult = BetterSqlite3.RunResult;

class RoutedStatement {
  busy = false;
  private mode: 'object' | 'raw' | 'pluck' = 'object';
  private bound: unknown[] | null = null;

  constructor(private router: ReadRouter, readonly source: string, readonly reader: boolean, readonly readonly: boolean) {}

  private args(params: unknown[]): unknown[] {
    return this.bound ?? params;
  }

  private rows(params: unknown[]): unknown[] {
    this.mustRead();
    const args = this.args(params);
    // A statement that writes (INSERT ... RETURNING) reads back on the primary.
    if (!this.readonly) return this.router.primary.rows(this.source, args, this.mode);
    return this.router.read((conn) => conn.rows(this.source, args, this.mode));
  }

  run(...params: unknown[]): RunResult {
    return this.router.primary.run(this.source, this.args(params));
  }

  get(...params: unknown[]): unknown {
    return this.rows(params)[0];
  }

  all(...params: unknown[]): unknown[] {
    return this.rows(params);
  }

  /**
   * A cursor on a standby. When the standby fails, the rest comes from the primary: the same query, past
   * the rows already handed out (exact for an ordered read of what the standby had, such as the search
   * index's sync by seq: the primary holds the same rows first, then newer ones).
   */
  *iterate(...params: unknown[]): IterableIterator<unknown> {
    this.mustRead();
    const args = this.args(params);
    const s = this.readonly ? this.router.pick() : null;
    let handed = 0;
    if (s?.conn) {
      const it = s.conn.cursor(this.source, args, this.mode);
      let open = true;
      try {
        for (;;) {
          let next: IteratorResult<unknown>;
          try {
            next = it.next();
          } catch (e) {
            open = false; // the generator ended with its error
            this.router.failed(s, e);
            this.router.counts.retried++;
            break;
          }
          if (next.done) {
            open = false;
            this.router.counts.standby++;
            return;
          }
          handed++;
          yield next.value;
        }
      } finally {
        // The caller stopped early: close the cursor on the standby.
        if (open) it.return(undefined);
      }
    }
    this.router.counts.primary++;
    let skip = handed;
    for (const row of this.router.primary.cursor(this.source, args, this.mode)) {
      if (skip > 0) skip--;
      else yield row;
    }
  }

  pluck(toggle = true): this {
    this.mustRead();
    this.mode = toggle ? 'pluck' : 'object';
    return this;
  }

  raw(toggle = true): this {
    this.mustRead();
    this.mode = toggle ? 'raw' : 'object';
    return this;
  }

  bind(...params: unknown[]): this {
    if (this.bound) throw new TypeError('The bind() method can only be invoked once per statement object');
    this.bound = params;
    return this;
  }

  columns(): BetterSqlite3.ColumnDefinition[] {
    return (this.router.primary.prepare(this.source) as { columns(): BetterSqlite3.ColumnDefinition[] }).columns();
  }

  expand(): this {
    throw new Error('expand() is not supported on PostgreSQL');
  }

  safeIntegers(): this {
    throw new Error('safeIntegers() is not supported on PostgreSQL');
  }

  private mustRead(): void {
    if (!this.reader) throw new TypeError('This statement does not return data. Use run() instead');
  }
}

/**
 * The Db of the services whose reads may lag: `db` itself without standbys (or on SQLite), else one whose
 * synchronous connection routes through a started ReadRouter (closed with `db`).
 */
export function readsOn(db: Db, urls: readonly string[], opts: ReplicaOptions): { reads: Db; router: ReadRouter | null } {
  if (!urls.length || !(db.sqlite instanceof PgConnection)) return { reads: db, router: null };
  const router = new ReadRouter(db.sqlite, urls, opts).start();
  const closePrimary = db.close.bind(db);
  db.close = async () => {
    router.close();
    await closePrimary();
  };
  return { reads: { kysely: db.kysely, sqlite: new RoutedConnection(router), close: db.close }, router };
}
