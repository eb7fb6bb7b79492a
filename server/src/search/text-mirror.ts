// PostgreSQL's full-text index, one per app node: a SQLite file of the node's own holding the FTS5
// entry_fts that the SQLite back end keeps in its catalogue, made from PostgreSQL's entry_fts (each row's
// texts as stored) and kept in step by search_docs' seq, as the in-memory columns are. Searches ask it
// the FTS5 statements of fts.ts, so both back ends find and rank alike, at FTS5's speed (a GIN-indexed
// tsvector cost a heap fetch and a ts_rank per matching row: docs/architecture.md, "Database back ends").
// Nodes on one machine may share the file (SQLite's locks); across machines each keeps its own.
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Db } from '../db/index.ts';
import { sqliteConnection, type SqlConnection } from '../db/connection.ts';
import { ENTRY_FTS5_TABLE, ftsRow } from './fts-text.ts';
import { INDEX_FORMAT, catalogueId } from './indexer.ts';
import { sqliteRowid } from './layers.ts';

/** What the file's rows are made by: a file of another format (or index format) is made again. */
const MIRROR_FORMAT = 1;

export class TextMirror {
  private db: (BetterSqlite3.Database & SqlConnection) | null = null;
  private local!: ReturnType<TextMirror['localStatements']>;
  private source;

  /** `file`: the node's SQLite file (':memory:' for one that lives as long as the process). */
  constructor(private catalogue: Db, private file: string) {
    const s = catalogue.sqlite;
    this.source = {
      maxSeq: s.prepare('SELECT coalesce(max(seq), 0) FROM search_docs').pluck(),
      // Changed documents in seq order with their rows' texts (none: the entry left the index).
      changes: s.prepare(`SELECT d.entry_id, d.seq, f.rowid, f.title, f.authors, f.body, f.fulltext, f.languages
        FROM (SELECT entry_id, seq FROM search_docs WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?) d
        LEFT JOIN entry_fts f ON f.entry_id = d.entry_id ORDER BY d.seq, f.rowid`).raw(),
    };
  }

  /** The FTS5 connection searches read (opened, and made or checked, at first use). */
  get conn(): BetterSqlite3.Database & SqlConnection {
    return this.db ?? this.open();
  }

  /** The last change of search_docs the file holds (read from the file: other processes may share it). */
  get seq(): number {
    this.conn;
    return Number(this.local.state.get('seq') ?? 0);
  }

  /**
   * Applies the documents changed after the file's seq, up to `upTo` and at most `maxDocs` of them, in
   * one transaction; answers how many it applied (fewer than `maxDocs`: the file is at `upTo`).
   */
  advance(upTo: number, maxDocs: number): number {
    const db = this.conn;
    const l = this.local;
    const run = db.transaction(() => {
      const from = Number(l.state.get('seq') ?? 0);
      if (from >= upTo) return 0;
      const rows = this.source.changes.all(from, upTo, maxDocs) as ChangeRow[];
      let docs = 0;
      let last = from;
      let i = 0;
      while (i < rows.length) {
        const [entryId, seq] = rows[i]!;
        const entry = Number(entryId);
        const held = l.rowsOf.get(entry) as string | undefined;
        if (held) for (const rowid of JSON.parse(held) as number[]) l.ftsDelete.run(sqliteRowid(rowid));
        const now: number[] = [];
        for (; i < rows.length && rows[i]![1] === seq; i++) {
          const [, , rowid, title, authors, body, fulltext, languages] = rows[i]!;
          if (rowid === null) continue;
          const row = ftsRow(Number(rowid), [title!, authors!, body!, fulltext!, languages!]);
          l.ftsInsert.run(sqliteRowid(row[0]), row[1], row[2], row[3], row[4]);
          now.push(row[0]);
        }
        if (now.length) l.putRows.run(entry, JSON.stringify(now));
        else if (held) l.dropRows.run(entry);
        last = Number(seq);
        docs++;
      }
      l.setState.run('seq', last);
      return docs;
    });
    return run.immediate();
  }

  /** Closes the file (the next use opens it again). */
  close(): void {
    this.db?.close();
    this.db = null;
  }

  private open(): BetterSqlite3.Database & SqlConnection {
    if (this.file !== ':memory:') fs.mkdirSync(path.dirname(this.file), { recursive: true });
    let db = this.connect();
    const why = this.mismatch(db);
    if (why) {
      // Made again from the start: rows of another catalogue or format must not be searched.
      db.close();
      if (this.file !== ':memory:') for (const f of [this.file, `${this.file}-wal`, `${this.file}-shm`]) fs.rmSync(f, { force: true });
      db = this.connect();
      if (why !== 'new') this.onReset?.(why);
    }
    this.db = db;
    this.local = this.localStatements(db);
    if (why) {
      this.local.setState.run('catalogue', catalogueId(this.catalogue.sqlite) ?? '');
      this.local.setState.run('format', `${MIRROR_FORMAT}/${INDEX_FORMAT}`);
      this.local.setState.run('seq', 0);
    }
    return db;
  }

  /** Told why a file was made again (for the log). */
  onReset: ((why: string) => void) | null = null;

  private connect(): BetterSqlite3.Database & SqlConnection {
    const db = sqliteConnection(new BetterSqlite3(this.file));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.exec(`CREATE TABLE IF NOT EXISTS mirror_state (k TEXT PRIMARY KEY, v) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS mirror_rows (entry_id INTEGER PRIMARY KEY, rowids TEXT NOT NULL)`);
    if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'entry_fts'`).get()) db.exec(ENTRY_FTS5_TABLE);
    return db;
  }

  /** Why the file's rows cannot be used with this catalogue ('new': it holds none yet); null when they can. */
  private mismatch(db: BetterSqlite3.Database): string | null {
    const state = new Map((db.prepare('SELECT k, v FROM mirror_state').raw().all() as [string, unknown][]));
    if (!state.has('seq')) return 'new';
    if (state.get('format') !== `${MIRROR_FORMAT}/${INDEX_FORMAT}`) return 'it was made in another format';
    if (state.get('catalogue') !== (catalogueId(this.catalogue.sqlite) ?? '')) return 'it was made from another catalogue';
    if (Number(state.get('seq')) > Number(this.source.maxSeq.get())) return 'it is ahead of the catalogue (a restored backup?)';
    return null;
  }

  private localStatements(db: BetterSqlite3.Database) {
    return {
      state: db.prepare('SELECT v FROM mirror_state WHERE k = ?').pluck(),
      setState: db.prepare('INSERT INTO mirror_state (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v'),
      rowsOf: db.prepare('SELECT rowids FROM mirror_rows WHERE entry_id = ?').pluck(),
      putRows: db.prepare('INSERT INTO mirror_rows (entry_id, rowids) VALUES (?, ?) ON CONFLICT (entry_id) DO UPDATE SET rowids = excluded.rowids'),
      dropRows: db.prepare('DELETE FROM mirror_rows WHERE entry_id = ?'),
      ftsDelete: db.prepare('DELETE FROM entry_fts WHERE rowid = ?'),
      ftsInsert: db.prepare('INSERT INTO entry_fts (rowid, title, authors, body, fulltext) VALUES (?, ?, ?, ?, ?)'),
    };
  }
}

/** entry id, seq, then the row's rowid and texts (nulls: the entry has no row). */
type ChangeRow = [number, number, number | null, string | null, string | null, string | null, string | null, string | null];
