// PostgreSQL checks a foreign key row by row (a trigger and a lookup per row and key): in an import
// into an empty catalogue those checks were most of the server's work on its COPYs (a data source has
// two keys: about 37 µs a row, three times its insert and index upkeep). So such an import drops the
// foreign keys among the tables it fills and adds them again before its commit, where PostgreSQL
// checks each one with a single join over the rows. A row that breaks one fails the import, as the row
// check would have; a rollback brings the keys back with everything else. The cost: from the drop to
// the commit those tables (all empty before the import) are locked, so another session's read of them
// waits, at most `lock_timeout` (docs/architecture.md, "An import", PostgreSQL).
import type { PgConnection } from '../db/postgres.ts';

/** The tables an import fills; their foreign keys among themselves are suspended. */
const FILLED_TABLES = ['entries', 'agents', 'data_sources', 'entry_agents', 'entry_languages'] as const;

export class PgSuspendedKeys {
  private constructor(private conn: PgConnection, private keys: { table: string; name: string; def: string }[]) {}

  /**
   * In the import's transaction: drops the foreign keys among FILLED_TABLES when `entries` holds no row
   * (null otherwise: into a catalogue with rows the checks stay, and nothing is locked).
   */
  static suspendIfEmpty(conn: PgConnection): PgSuspendedKeys | null {
    if (!conn.inTransaction) throw new Error('PgSuspendedKeys: a transaction must be open');
    if (conn.prepare('SELECT EXISTS (SELECT 1 FROM entries)').pluck().get()) return null;
    const tables = JSON.stringify(FILLED_TABLES);
    const keys = conn.prepare(`SELECT c.conrelid::regclass::text AS "table", c.conname AS name, pg_get_constraintdef(c.oid) AS def
      FROM pg_constraint c WHERE c.contype = 'f'
        AND c.conrelid::regclass::text IN (SELECT jsonb_array_elements_text(?::jsonb))
        AND c.confrelid::regclass::text IN (SELECT jsonb_array_elements_text(?::jsonb))
      ORDER BY c.conrelid::regclass::text, c.conname`).all(tables, tables) as { table: string; name: string; def: string }[];
    for (const k of keys) conn.exec(`ALTER TABLE ${quoteIdent(k.table)} DROP CONSTRAINT ${quoteIdent(k.name)}`);
    return new PgSuspendedKeys(conn, keys);
  }

  /** Adds the keys again (before the commit): each checked over every row at once. */
  restore(): void {
    for (const k of this.keys) this.conn.exec(`ALTER TABLE ${quoteIdent(k.table)} ADD CONSTRAINT ${quoteIdent(k.name)} ${k.def}`);
    this.keys = [];
  }
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
