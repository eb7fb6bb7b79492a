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
 * import reading its file asynchronously): SQLite's `BEGIN IMMEDIATE`, PostgreSQL's `BEGIN` with the
 * write lock. Inside it `inTransaction` is true and transaction() calls nest as savepoints. End it with
 * exactly one of commit() or rollback().
 */
export function beginImmediate(conn: SqlConnection): { commit(): void; rollback(): void } {
  if (conn.dialect === 'postgres') {
    const pg = conn as unknown as PgConnection;
    pg.begin();
    return { commit: () => pg.end('COMMIT'), rollback: () => pg.end('ROLLBACK') };
  }
  conn.exec('BEGIN IMMEDIATE');
  return { commit: () => conn.exec('COMMIT'), rollback: () => conn.exec('ROLLBACK') };
}
