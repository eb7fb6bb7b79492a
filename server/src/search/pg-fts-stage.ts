// PostgreSQL's full-text rows of a bulk load (the JSONL import), written set-wise: during the load every
// row's texts go by COPY into a temporary table of the transaction, and once at its end into entry_fts
// by one INSERT ... SELECT (a row staged twice, or dropped, is written once or not at all). Into an
// empty entry_fts its secondary indexes are dropped and built again after the insert (one sorted build
// instead of a million insertions): entry_fts is locked from there to the commit, when there was
// nothing to find in it anyway (docs/architecture.md, "An import", PostgreSQL).
import type { Db } from '../db/index.ts';
import { jsonIds } from '../db/dialect.ts';
import type { PgConnection } from '../db/postgres.ts';
import type { StoredFtsText } from './fts-text.ts';

/** Memory for the index builds at the end (a session setting of the import's transaction only). */
const BUILD_MEMORY = '256MB';

export class PgFtsStage {
  /** The staged copy of each row id (its `n`); a row staged again or dropped leaves its old copy stale. */
  private staged = new Map<number, number>();
  private stale: number[] = [];
  private n = 0;
  private conn: PgConnection;
  /** entry_fts held no row when the load began: its indexes are built after the rows are in. */
  private wasEmpty: boolean;

  constructor(db: Db) {
    if (db.sqlite.dialect !== 'postgres' || !db.sqlite.inTransaction) throw new Error('PgFtsStage: a PostgreSQL transaction must be open');
    this.conn = db.sqlite as unknown as PgConnection;
    this.wasEmpty = !this.conn.prepare('SELECT EXISTS (SELECT 1 FROM entry_fts)').pluck().get();
    // Dropped with the transaction, whether it commits or rolls back.
    this.conn.exec(`CREATE TEMP TABLE import_fts (n bigint NOT NULL, rowid bigint NOT NULL, ${TEXTS.map((c) => `${c} text NOT NULL`).join(', ')}) ON COMMIT DROP;
      CREATE TEMP TABLE import_docs (entry_id bigint NOT NULL, seq bigint NOT NULL, doc text, libraries text, layers text) ON COMMIT DROP`);
  }

  /**
   * A batch's search_docs rows, all sent without waiting: COPYed into a temporary table and inserted
   * from it in seq order, which is then emptied. From one JSON parameter (the Indexer's PG_PUT_DOCS)
   * the server parsed every document as JSON text inside JSON (436 against 275 ms at 50,000 entries),
   * and this thread escaped it so.
   */
  putDocs(rows: [number, number, string | null, string | null, string | null][]): void {
    this.conn.copyRows('import_docs (entry_id, seq, doc, libraries, layers)', rows, { later: true });
    this.conn.runLater(`INSERT INTO search_docs (entry_id, seq, doc, libraries, layers)
      SELECT entry_id, seq, doc, libraries, layers FROM import_docs ORDER BY seq
      ON CONFLICT (entry_id) DO UPDATE SET ${PG_DOC_UPDATE}`, []);
    // (TRUNCATE, which cannot be prepared: a DELETE would leave the dead rows for every later insert to read.)
    this.conn.execLater('TRUNCATE import_docs');
  }

  /** Rows as entry_fts stores them; the last one given for a row id is the one written. */
  put(rows: StoredFtsText[]): void {
    if (!rows.length) return;
    const first = this.n;
    // Sent without waiting: the server stores them while the load goes on (PgConnection.settle).
    this.conn.copyRows(`import_fts (n, rowid, ${TEXTS.join(', ')})`, rows.map((row, i) => [first + i, ...row]), { later: true });
    for (const [rowid] of rows) {
      const old = this.staged.get(rowid);
      if (old !== undefined) this.stale.push(old);
      this.staged.set(rowid, this.n++);
    }
  }

  /** Rows deleted from entry_fts: a copy of them still staged is not written either. */
  drop(rowids: Iterable<number>): void {
    for (const rowid of rowids) {
      const old = this.staged.get(rowid);
      if (old === undefined) continue;
      this.stale.push(old);
      this.staged.delete(rowid);
    }
  }

  /** Writes the staged rows into entry_fts (before the commit, in the load's transaction). */
  finish(): void {
    const c = this.conn;
    if (this.stale.length) {
      c.prepare(`DELETE FROM import_fts WHERE n IN (${jsonIds('postgres', '?')})`).run(JSON.stringify(this.stale));
    }
    this.stale = [];
    this.staged.clear();
    if (!this.n) return;
    c.exec(`SET LOCAL maintenance_work_mem = '${BUILD_MEMORY}'; SET LOCAL work_mem = '${BUILD_MEMORY}'`);
    // The indexes other than the primary key, as they are defined now.
    const indexes = this.wasEmpty
      ? (c.prepare(`SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
          WHERE x.indrelid = 'entry_fts'::regclass AND NOT x.indisprimary`).all() as { name: string; def: string }[])
      : [];
    for (const i of indexes) c.exec(`DROP INDEX ${quoteIdent(i.name)}`);
    c.exec(`INSERT INTO entry_fts (rowid, ${TEXTS.join(', ')}) SELECT rowid, ${TEXTS.join(', ')} FROM import_fts`);
    for (const i of indexes) c.exec(i.def);
    c.exec('DROP TABLE import_fts');
    this.n = 0;
  }
}

/** What a search_docs row written again takes of the new one. */
export const PG_DOC_UPDATE = 'seq = excluded.seq, doc = excluded.doc, libraries = excluded.libraries, layers = excluded.layers';

/** entry_fts's text columns (fts-text.ts, PG_ENTRY_TEXT_TABLE), in `StoredFtsText` order. */
const TEXTS = ['title', 'authors', 'body', 'fulltext', 'languages'] as const;

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
