// The full-text index of an import into an empty catalogue, built on the second core: the Indexer
// hands each entry's text to a thread (fts-builder-thread-main.ts) that writes entry_fts in a scratch
// database, attached to the import's connection, and before the import commits, the finished index
// (FTS5's own tables, which a full-text table is made of) is copied into the catalogue's by three
// statements, inside the import's transaction. Writing the full-text rows was about a quarter of the
// import's main thread (at 300,000 entries: 12 of 55 s), and the folding of their text some more.
// SQLite only; only where entry_fts holds no row (it is replaced whole).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { Db } from '../db/index.ts';
import { processAlive } from '../processes.ts';
import type { SqlConnection } from '../db/connection.ts';
import type { FtsText } from './fts-text.ts';
import type { FtsBuilderData, FtsBuilderReply, FtsOp } from './fts-builder-thread-main.ts';

/** Entries' texts sent to the thread together (one message). */
const OPS_PER_MESSAGE = 1000;
/** Texts sent and not yet written past which the import waits for the thread (memory). */
const MAX_BACKLOG = 40_000;
/** FTS5's tables that hold entry_fts's index (its settings, entry_fts_config, stay the catalogue's). */
const INDEX_TABLES = ['entry_fts_data', 'entry_fts_idx', 'entry_fts_docsize'] as const;

export class FtsBuilder {
  private ops: FtsOp[] = [];
  private sent = 0;
  private applied = 0;
  private failure: Error | null = null;
  private finished = false;
  private wake: (() => void) | null = null;

  private worker: Worker | null = null;

  private constructor(private db: Database.Database, private file: string) {}

  /**
   * Before the import's transaction (SQLite cannot attach inside one): the scratch database, made with
   * the catalogue's definition of entry_fts and attached as `import_fts`. Null on PostgreSQL. The
   * transaction must then take the write lock of the main database only (`beginImmediate`), or the
   * thread could not write the scratch database.
   */
  static attach(db: Db): FtsBuilder | null {
    if (db.sqlite.dialect !== 'sqlite') return null;
    const s = sqliteHandle(db.sqlite);
    if (s.inTransaction) throw new Error('FtsBuilder: a transaction is open');
    // A catalogue with an index now keeps it (start() decides again inside the transaction): no scratch file.
    if (s.prepare(HAS_INDEX).pluck().get()) return null;
    const definition = s.prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'entry_fts'`).pluck().get() as string;
    // Beside the catalogue (same disk), named by process: a leftover is one whose process is gone.
    const file = s.memory ? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'uc-fts-')), 'index.sqlite') : `${s.name}${SCRATCH_SUFFIX}${process.pid}`;
    removeScratch(file);
    try {
      const made = new Database(file);
      try {
        made.exec(definition);
      } finally {
        made.close();
      }
      s.prepare(`ATTACH ? AS ${SCRATCH}`).run(file);
    } catch (e) {
      removeScratch(file);
      throw e;
    }
    return new FtsBuilder(s, file);
  }

  /**
   * In the import's transaction: starts the thread when entry_fts holds no row (no entry has an index
   * document); answers whether it did (if not, the import writes its full-text rows itself).
   */
  start(): boolean {
    if (!this.db.inTransaction) throw new Error('FtsBuilder: no transaction is open');
    if (this.db.prepare(HAS_INDEX).pluck().get()) return false;
    const worker = new Worker(new URL('./fts-builder-thread.mjs', import.meta.url), { workerData: { file: this.file } satisfies FtsBuilderData });
    worker.on('message', (m: FtsBuilderReply) => {
      if ('applied' in m) this.applied += m.applied;
      else if ('done' in m) this.finished = true;
      else this.failure ??= new Error(`The full-text index could not be built: ${m.error}`);
      this.notify();
    });
    worker.on('error', (e) => {
      this.failure ??= e;
      this.notify();
    });
    worker.on('exit', (code) => {
      if (!this.finished) this.failure ??= new Error(`The full-text builder thread ended (code ${code}) before the index was built`);
      this.notify();
    });
    this.worker = worker;
    return true;
  }

  /**
   * Removes the scratch databases of imports that were killed (the disk space they hold): those of
   * processes that no longer run.
   */
  static removeLeftovers(db: Db): void {
    if (db.sqlite.dialect !== 'sqlite') return;
    const s = sqliteHandle(db.sqlite);
    if (s.memory) return;
    const dir = path.dirname(s.name);
    const prefix = path.basename(s.name) + SCRATCH_SUFFIX;
    for (const name of fs.readdirSync(dir)) {
      if (!name.startsWith(prefix)) continue;
      const pid = Number.parseInt(name.slice(prefix.length), 10);
      if (Number.isInteger(pid) && !processAlive(pid)) removeScratch(path.join(dir, name));
    }
  }

  /** The entry's full-text row is this text's (replacing one given before in the same load). */
  put(entryId: number, text: FtsText): void {
    this.push([entryId, ...text]);
  }

  /** The entry has no full-text row (any given before in the same load goes). */
  drop(entryId: number): void {
    this.push([entryId]);
  }

  private push(op: FtsOp): void {
    this.ops.push(op);
    if (this.ops.length >= OPS_PER_MESSAGE) this.send();
  }

  private send(): void {
    if (this.failure) throw this.failure;
    if (!this.ops.length) return;
    this.worker!.postMessage(this.ops);
    this.sent += this.ops.length;
    this.ops = [];
  }

  /** Waits while the thread is far behind (the texts waiting for it are held in memory). */
  async keepUp(): Promise<void> {
    while (this.sent - this.applied > MAX_BACKLOG) await this.next();
    if (this.failure) throw this.failure;
  }

  private next(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve) => (this.wake = resolve));
  }

  private notify(): void {
    this.wake?.();
    this.wake = null;
  }

  /**
   * Waits for the thread to write everything given, then replaces the catalogue's entry_fts with the
   * built index (in the open transaction: a rollback undoes it).
   */
  async finishInto(): Promise<void> {
    this.send();
    this.worker!.postMessage('finish');
    while (!this.finished) await this.next();
    await this.worker!.terminate();
    // FTS5's tables are read-only to SQL in SQLite's defensive mode (better-sqlite3's default): lifted
    // for the copy only.
    const s = this.db;
    s.unsafeMode(true);
    try {
      for (const table of INDEX_TABLES) {
        s.exec(`DELETE FROM main.${table}`);
        s.exec(`INSERT INTO main.${table} SELECT * FROM ${SCRATCH}.${table}`);
      }
    } finally {
      s.unsafeMode(false);
    }
    forgetFtsStructure(s);
  }

  /** After the import's commit or rollback: stops the thread if it runs, detaches and removes the scratch database. */
  async close(): Promise<void> {
    if (this.worker) {
      this.worker.removeAllListeners();
      await this.worker.terminate();
    }
    this.db.exec(`DETACH ${SCRATCH}`);
    removeScratch(this.file);
    if (path.basename(path.dirname(this.file)).startsWith('uc-fts-')) fs.rmSync(path.dirname(this.file), { recursive: true, force: true });
  }
}

/** Whether an entry has an index document (the catalogue's entry_fts then holds rows the builder would replace). */
const HAS_INDEX = 'SELECT EXISTS (SELECT 1 FROM main.search_docs WHERE doc IS NOT NULL)';

/** The scratch database's schema name on the import's connection, and its file name after the catalogue's. */
const SCRATCH = 'import_fts';
const SCRATCH_SUFFIX = '-import-fts-';

function removeScratch(file: string): void {
  for (const f of [file, `${file}-journal`]) fs.rmSync(f, { force: true });
}

/**
 * FTS5 keeps what it read of an index's layout per connection and reads it again only when another
 * connection committed; this connection's own copy of the tables would go unseen (searches on it would
 * find nothing until then). A rollback of a change to the table makes FTS5 forget it: a setting written
 * and rolled back, in a savepoint of the open transaction.
 */
function forgetFtsStructure(s: Database.Database): void {
  const automerge = s.prepare(`SELECT v FROM entry_fts_config WHERE k = 'automerge'`).pluck().get() ?? 4;
  s.exec('SAVEPOINT fts_reload');
  try {
    s.exec(`INSERT INTO entry_fts (entry_fts, rank) VALUES ('automerge', ${Math.trunc(Number(automerge))})`);
  } finally {
    s.exec('ROLLBACK TO fts_reload');
    s.exec('RELEASE fts_reload');
  }
}

/** The better-sqlite3 connection itself (SQLite's db.sqlite is one). */
const sqliteHandle = (connection: SqlConnection) => connection as unknown as Database.Database;
