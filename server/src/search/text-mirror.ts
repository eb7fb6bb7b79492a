// PostgreSQL's full-text index, one per app node: a SQLite file of the node's own holding the FTS5
// entry_fts that the SQLite back end keeps in its catalogue, made from PostgreSQL's entry_fts (each row's
// texts as stored) and kept in step by search_docs' seq, as the in-memory columns are. Searches ask it
// the FTS5 statements of fts.ts, so both back ends find and rank alike, at FTS5's speed (a GIN-indexed
// tsvector cost a heap fetch and a ts_rank per matching row: docs/architecture.md, "Database back ends").
// Nodes on one machine may share the file (SQLite's locks); across machines each keeps its own.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from '../db/index.ts';
import { sqliteConnection, type SqlConnection } from '../db/connection.ts';
import { INDEX_FORMAT, catalogueId } from './indexer.ts';
import { MirrorFile, type ChangeRow } from './text-mirror-file.ts';
import type { MirrorFillData, MirrorFillMessage, MirrorFillReply } from './text-mirror-thread-main.ts';

/** What the file's rows are made by: a file of another format (or index format) is made again. */
const MIRROR_FORMAT = 1;
/** Documents read from PostgreSQL at a time by a fill, and read but not yet written past which it waits. */
const FILL_DOCS = 2_000;
const FILL_BACKLOG = 3;

export class TextMirror {
  private file: MirrorFile | null = null;
  private source;
  /** A fill runs (its thread writes the file: `advance` leaves it alone meanwhile). */
  private filling = false;
  /** Told why a file was made again (for the log). */
  onReset: ((why: string) => void) | null = null;

  /** `path`: the node's SQLite file (':memory:' for one that lives as long as the process: no fill thread then). */
  constructor(private catalogue: Db, private readonly path: string) {
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
    return sqliteConnection(this.opened().db);
  }

  /** The last change of search_docs the file holds (read from the file: other processes may share it). */
  get seq(): number {
    return this.opened().seq;
  }

  /**
   * Applies the documents changed after the file's seq, up to `upTo` and at most `maxDocs` of them, in
   * one transaction; answers how many it applied (fewer than `maxDocs`: the file is at `upTo`). Nothing
   * while a fill runs.
   */
  advance(upTo: number, maxDocs: number): number {
    const file = this.opened();
    // Read first: the usual case (nothing new) takes no write lock on a file other nodes may share.
    if (this.filling || file.seq >= upTo) return 0;
    const run = file.db.transaction(() => {
      const from = file.seq;
      if (from >= upTo) return 0;
      return file.apply(this.source.changes.all(from, upTo, maxDocs) as ChangeRow[]);
    });
    return run.immediate();
  }

  /**
   * Whether a fill pays: the file is this far behind `upTo` (a new file, or another process's large
   * import) and has a thread to write it (not in memory).
   */
  shouldFill(upTo: number, atLeast: number): boolean {
    return this.path !== ':memory:' && upTo - this.seq > atLeast;
  }

  /**
   * Brings the file to `upTo` with a thread writing it: this thread reads the documents' texts from
   * PostgreSQL (yielding to the event loop between reads), the other folds, stems and writes them.
   */
  async fill(upTo: number): Promise<void> {
    const file = this.opened();
    this.filling = true;
    const worker = new Worker(new URL('./text-mirror-thread.mjs', import.meta.url), { workerData: { file: this.path } satisfies MirrorFillData });
    let failure: Error | null = null;
    let done = false;
    let inFlight = 0;
    let wake: (() => void) | null = null;
    const notify = () => {
      wake?.();
      wake = null;
    };
    worker.on('message', (m: MirrorFillReply) => {
      if ('applied' in m) inFlight--;
      else if ('done' in m) done = true;
      else failure ??= new Error(`The text mirror could not be made: ${m.error}`);
      notify();
    });
    worker.on('error', (e) => {
      failure ??= e;
      notify();
    });
    worker.on('exit', (code) => {
      if (!done) failure ??= new Error(`The text mirror's thread ended (code ${code}) before the file was made`);
      notify();
    });
    const next = () => new Promise<void>((resolve) => (wake = resolve));
    try {
      let from = file.seq;
      while (from < upTo) {
        while (inFlight >= FILL_BACKLOG && !failure) await next();
        if (failure) throw failure;
        const rows = this.source.changes.all(from, upTo, FILL_DOCS) as ChangeRow[];
        if (!rows.length) break;
        worker.postMessage(rows satisfies MirrorFillMessage);
        inFlight++;
        from = Number(rows[rows.length - 1]![1]);
        await new Promise((r) => setImmediate(r));
      }
      worker.postMessage('finish' satisfies MirrorFillMessage);
      while (!done && !failure) await next();
      if (failure) throw failure;
    } finally {
      this.filling = false;
      worker.removeAllListeners();
      await worker.terminate();
    }
  }

  /** Closes the file (the next use opens it again). */
  close(): void {
    this.file?.close();
    this.file = null;
  }

  private opened(): MirrorFile {
    if (this.file) return this.file;
    if (this.path !== ':memory:') fs.mkdirSync(path.dirname(this.path), { recursive: true });
    let file = new MirrorFile(this.path);
    const why = this.mismatch(file);
    if (why) {
      // Made again from the start: rows of another catalogue or format must not be searched.
      file.close();
      if (this.path !== ':memory:') for (const f of [this.path, `${this.path}-wal`, `${this.path}-shm`]) fs.rmSync(f, { force: true });
      file = new MirrorFile(this.path);
      if (why !== 'new') this.onReset?.(why);
      file.setState('catalogue', catalogueId(this.catalogue.sqlite) ?? '');
      file.setState('format', `${MIRROR_FORMAT}/${INDEX_FORMAT}`);
      file.setState('seq', 0);
    }
    this.file = file;
    return file;
  }

  /** Why the file's rows cannot be used with this catalogue ('new': it holds none yet); null when they can. */
  private mismatch(file: MirrorFile): string | null {
    const state = file.state();
    if (!state.has('seq')) return 'new';
    if (state.get('format') !== `${MIRROR_FORMAT}/${INDEX_FORMAT}`) return 'it was made in another format';
    if (state.get('catalogue') !== (catalogueId(this.catalogue.sqlite) ?? '')) return 'it was made from another catalogue';
    if (Number(state.get('seq')) > Number(this.source.maxSeq.get())) return 'it is ahead of the catalogue (a restored backup?)';
    return null;
  }
}
