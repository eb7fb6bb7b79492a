// The text mirror's SQLite file (text-mirror.ts) as both the node's main thread and its fill thread
// (text-mirror-thread-main.ts) write it: the FTS5 entry_fts, each entry's rowids, and the state (seq,
// catalogue, format). No database module imports here: the thread loads this alone.
import BetterSqlite3 from 'better-sqlite3';
import { ENTRY_FTS5_TABLE, FTS5_DEFAULT_CONFIG, ftsRow } from './fts-text.ts';
import { sqliteRowid } from './layers.ts';

/** A changed document's row from PostgreSQL: entry id, seq, then one full-text row's rowid and texts (nulls: the entry has none). */
export type ChangeRow = [number, number, number | null, string | null, string | null, string | null, string | null, string | null];

export class MirrorFile {
  readonly db: BetterSqlite3.Database;
  private q;

  constructor(file: string) {
    const db = new BetterSqlite3(file);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      // The page cache of the SQLite catalogue's connection (db/index.ts): FTS5 reads doclists page by page.
      db.pragma('cache_size = -65536');
      db.exec(`CREATE TABLE IF NOT EXISTS mirror_state (k TEXT PRIMARY KEY, v) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS mirror_rows (entry_id INTEGER PRIMARY KEY, rowids TEXT NOT NULL)`);
      if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'entry_fts'`).get()) db.exec(ENTRY_FTS5_TABLE);
    } catch (e) {
      db.close();
      throw e;
    }
    this.db = db;
    this.q = {
      state: db.prepare('SELECT v FROM mirror_state WHERE k = ?').pluck(),
      allState: db.prepare('SELECT k, v FROM mirror_state').raw(),
      setState: db.prepare('INSERT INTO mirror_state (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v'),
      rowsOf: db.prepare('SELECT rowids FROM mirror_rows WHERE entry_id = ?').pluck(),
      putRows: db.prepare('INSERT INTO mirror_rows (entry_id, rowids) VALUES (?, ?) ON CONFLICT (entry_id) DO UPDATE SET rowids = excluded.rowids'),
      dropRows: db.prepare('DELETE FROM mirror_rows WHERE entry_id = ?'),
      ftsDelete: db.prepare('DELETE FROM entry_fts WHERE rowid = ?'),
      ftsInsert: db.prepare('INSERT INTO entry_fts (rowid, title, authors, body, fulltext) VALUES (?, ?, ?, ?, ?)'),
    };
  }

  /** The last change of search_docs the file holds (0: none). */
  get seq(): number {
    return Number(this.q.state.get('seq') ?? 0);
  }

  state(): Map<string, unknown> {
    return new Map(this.q.allState.all() as [string, unknown][]);
  }

  setState(k: string, v: string | number): void {
    this.q.setState.run(k, v);
  }

  /**
   * In the caller's transaction: applies the changed documents of `rows` (in seq order, a document's
   * rows together) that are past the file's seq (another node sharing the file may have applied some),
   * replacing each entry's rows; then records the last seq. Answers how many documents it applied.
   */
  apply(rows: readonly ChangeRow[]): number {
    const q = this.q;
    const from = this.seq;
    let docs = 0;
    let last = from;
    let i = 0;
    while (i < rows.length) {
      const [entryId, seq] = rows[i]!;
      if (Number(seq) <= from) {
        i++;
        continue;
      }
      const entry = Number(entryId);
      const held = q.rowsOf.get(entry) as string | undefined;
      if (held) for (const rowid of JSON.parse(held) as number[]) q.ftsDelete.run(sqliteRowid(rowid));
      const now: number[] = [];
      for (; i < rows.length && rows[i]![1] === seq; i++) {
        const [, , rowid, title, authors, body, fulltext, languages] = rows[i]!;
        if (rowid === null) continue;
        const row = ftsRow(Number(rowid), [title!, authors!, body!, fulltext!, languages!]);
        q.ftsInsert.run(sqliteRowid(row[0]), row[1], row[2], row[3], row[4]);
        now.push(row[0]);
      }
      if (now.length) q.putRows.run(entry, JSON.stringify(now));
      else if (held) q.dropRows.run(entry);
      last = Number(seq);
      docs++;
    }
    if (last > from) q.setState.run('seq', last);
    return docs;
  }

  /** FTS5's settings (e.g. BULK_FTS_CONFIG for a fill); answers those it replaced. */
  ftsConfig(values: Record<string, number>): Record<string, number> {
    const before: Record<string, number> = {};
    for (const [k, v] of Object.entries(values)) {
      before[k] = Number(this.db.prepare('SELECT v FROM entry_fts_config WHERE k = ?').pluck().get(k) ?? (FTS5_DEFAULT_CONFIG as Record<string, number>)[k] ?? v);
      // FTS5 takes integers only: a bound JavaScript number is a REAL.
      this.db.exec(`INSERT INTO entry_fts (entry_fts, rank) VALUES ('${k}', ${Math.trunc(v)})`);
    }
    return before;
  }

  /**
   * Merges the index's segments into one, a short transaction of about `stepPages` pages at a time (a
   * node sharing the file waits one step at most), then moves the rewritten pages from the WAL into the
   * file (readers would look every page up in the WAL until then: a third slower at 100,000 entries).
   * The same steps as the catalogue's compaction (compaction.ts).
   */
  compact(stepPages = 2000): number {
    const step = this.db.prepare(`INSERT INTO entry_fts (entry_fts, rank) VALUES ('merge', ?)`);
    const changes = this.db.prepare('SELECT total_changes()').pluck();
    let steps = 0;
    for (;;) {
      const before = changes.get() as number;
      step.run(-stepPages);
      steps++;
      // A step that merged nothing changes at most the structure record: the index is one segment.
      if ((changes.get() as number) - before < 2) break;
    }
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    return steps;
  }

  close(): void {
    this.db.close();
  }
}
