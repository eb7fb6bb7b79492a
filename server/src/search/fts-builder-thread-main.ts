// The full-text builder's thread: writes the full-text rows of a bulk load into entry_fts of a scratch
// database of its own (same definition as the catalogue's), on the machine's second core, while the
// load stores records on the first. fts-builder.ts moves the finished index into the catalogue.
import type { MessagePort } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { BULK_FTS_CONFIG, FtsFingerprints, fingerprintOf, ftsRow, type FtsText } from './fts-text.ts';
import { sqliteRowid } from './layers.ts';

export interface FtsBuilderData {
  /** The scratch database, made by the builder with the catalogue's definition of entry_fts. */
  file: string;
}

/** An entry's text (its row is written, replacing the one written before) or its id alone (its row goes). */
export type FtsOp = [number, ...FtsText] | [number];

export type FtsBuilderReply = { applied: number } | { done: true } | { error: string };

export function serve(port: MessagePort, data: FtsBuilderData): void {
  let db: Database.Database | null = null;
  const fail = (e: unknown) => {
    port.postMessage({ error: (e as Error).message } satisfies FtsBuilderReply);
    db?.close();
    db = null;
  };
  try {
    db = new Database(data.file);
    // A scratch file: nothing to recover after a crash (the import starts again from its file). The
    // journal (the few pages changed, not the new ones) in memory: `OFF` is refused in defensive mode.
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    for (const [k, v] of Object.entries(BULK_FTS_CONFIG)) db.exec(`INSERT INTO entry_fts (entry_fts, rank) VALUES ('${k}', ${v})`);
    db.exec('BEGIN');
  } catch (e) {
    fail(e);
    return;
  }
  const insert = db.prepare('INSERT INTO entry_fts (rowid, title, authors, body, fulltext) VALUES (?, ?, ?, ?, ?)');
  const remove = db.prepare('DELETE FROM entry_fts WHERE rowid = ?');
  // An entry indexed again in the same load keeps its row when its text is the same (as the Indexer does).
  const written = new FtsFingerprints();
  port.on('message', (m: FtsOp[] | 'finish') => {
    if (!db) return;
    try {
      if (m === 'finish') {
        db.exec('COMMIT');
        db.close();
        db = null;
        port.postMessage({ done: true } satisfies FtsBuilderReply);
        return;
      }
      for (const op of m) {
        const id = op[0];
        const before = written.get(id);
        if (op.length === 1) {
          if (before) remove.run(sqliteRowid(id));
          written.set(id, 0);
          continue;
        }
        const fingerprint = fingerprintOf(op);
        if (fingerprint === before) continue;
        if (before) remove.run(sqliteRowid(id));
        const [rowid, ...columns] = ftsRow(id, op.slice(1) as FtsText);
        insert.run(sqliteRowid(rowid), ...columns);
        written.set(id, fingerprint);
      }
      port.postMessage({ applied: m.length } satisfies FtsBuilderReply);
    } catch (e) {
      fail(e);
    }
  });
}
