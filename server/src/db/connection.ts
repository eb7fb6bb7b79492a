// The synchronous connection every service uses (db.sqlite): the subset of better-sqlite3's API the code
// calls, implemented by better-sqlite3 itself (SQLite) and by PgConnection (PostgreSQL, postgres.ts).
// docs/architecture.md, "Database back ends".
import type BetterSqlite3 from 'better-sqlite3';
import type { PgConnection } from './postgres.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface SqlConnection
  extends Pick<BetterSqlite3.Database, 'prepare' | 'transaction' | 'pragma' | 'inTransaction' | 'open' | 'name'> {
  readonly dialect: Dialect;
  exec(source: string): unknown;
  close(): unknown;
}

/** The SQLite connection as it was: better-sqlite3, tagged with its dialect. */
export function sqliteConnection(sqlite: BetterSqlite3.Database): BetterSqlite3.Database & SqlConnection {
  return Object.assign(sqlite, { dialect: 'sqlite' as const });
}

/**
 * A write transaction held across awaits, for work that cannot be one synchronous transaction() (a bulk
 * import reading its file asynchronously): on SQLite the write lock of the main database, taken at once
 * (what `BEGIN IMMEDIATE` does, but that also locks every attached database: the import's full-text
 * builder writes its attached scratch database from another thread meanwhile), PostgreSQL's `BEGIN`
 * with the write lock. Inside it `inTransaction` is true and transaction() calls nest as savepoints.
 * End it with exactly one of commit() or rollback().
 */
export function beginImmediate(conn: SqlConnection): { commit(): void; rollback(): void } {
  if (conn.dialect === 'postgres') {
    const pg = conn as unknown as PgConnection;
    pg.begin();
    return { commit: () => pg.end('COMMIT'), rollback: () => pg.end('ROLLBACK') };
  }
  // Read before the transaction: in WAL mode a transaction that read first cannot take the write lock
  // once another connection has committed since (it fails at once instead of waiting).
  const version = Number(conn.pragma('main.user_version', { simple: true }));
  conn.exec('BEGIN');
  try {
    // A write that changes nothing, to the main database only, as the first statement: its write lock
    // (waiting as long as busy_timeout says), as `BEGIN IMMEDIATE` takes it.
    conn.pragma(`main.user_version = ${version}`);
  } catch (e) {
    conn.exec('ROLLBACK');
    throw e;
  }
  return { commit: () => conn.exec('COMMIT'), rollback: () => conn.exec('ROLLBACK') };
}

/**
 * Runs `write` without waiting for another connection's lock; null when the database was busy. For
 * writes that can simply be tried again (a job's heartbeat): SQLite's busy timeout blocks the whole
 * thread while it waits, for as long as another connection's write transaction lasts. Outside a
 * transaction only (inside one, `write` runs as it is: the transaction holds its locks already).
 */
export function writeWithoutWaiting<T>(conn: SqlConnection, write: () => T): T | null {
  if (conn.inTransaction) return write();
  const sqlite = conn.dialect === 'sqlite';
  const wait = sqlite ? Number(conn.pragma('busy_timeout', { simple: true })) : 0;
  // PostgreSQL's lock_timeout 0 would mean "wait for ever": 1 ms is its "do not wait".
  if (sqlite) conn.pragma('busy_timeout = 0');
  else conn.exec("SET lock_timeout = '1ms'");
  try {
    return write();
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'SQLITE_BUSY' || code === PG_LOCK_NOT_AVAILABLE) return null;
    throw e;
  } finally {
    if (sqlite) conn.pragma(`busy_timeout = ${wait}`);
    else conn.exec(`SET lock_timeout = '${PG_LOCK_TIMEOUT}'`);
  }
}

/** PostgreSQL's SQLSTATE for a lock not granted within lock_timeout. */
const PG_LOCK_NOT_AVAILABLE = '55P03';
/** What a PostgreSQL statement waits for a lock, as SQLite's busy_timeout (db/index.ts). */
export const PG_LOCK_TIMEOUT = '5s';

