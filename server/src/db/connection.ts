// The synchronous connection every service uses (db.sqlite): the subset of better-sqlite3's API the code
// calls, implemented by better-sqlite3 itself (SQLite) and by PgConnection (PostgreSQL, postgres.ts).
// docs/architecture.md, "Database back ends".
import type BetterSqlite3 from 'better-sqlite3';

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
