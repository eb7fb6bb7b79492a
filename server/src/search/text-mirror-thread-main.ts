// The text mirror's fill thread: while a new node makes its mirror (text-mirror.ts), the main thread
// reads the changed documents' texts from PostgreSQL and this thread folds, stems and writes them
// (about two thirds of the work), on the machine's second core; then merges what it wrote into one
// segment, as the compaction does after a SQLite import.
import type { MessagePort } from 'node:worker_threads';
import { BULK_FTS_CONFIG } from './fts-text.ts';
import { MirrorFile, type ChangeRow } from './text-mirror-file.ts';

export interface MirrorFillData {
  file: string;
}

/** Rows of whole documents in seq order, or the end of the fill. */
export type MirrorFillMessage = ChangeRow[] | 'finish';

export type MirrorFillReply = { applied: number; seq: number } | { done: true } | { error: string };

/** Documents written in one transaction (one FTS5 segment of up to BULK_FTS_CONFIG.hashsize of terms each). */
const DOCS_PER_COMMIT = 20_000;

export function serve(port: MessagePort, data: MirrorFillData): void {
  let file: MirrorFile | null = null;
  let before: Record<string, number> = {};
  let pending = 0;
  const fail = (e: unknown) => {
    port.postMessage({ error: (e as Error).message } satisfies MirrorFillReply);
    if (file?.db.inTransaction) file.db.exec('ROLLBACK');
    file?.close();
    file = null;
  };
  try {
    file = new MirrorFile(data.file);
    before = file.ftsConfig({ hashsize: BULK_FTS_CONFIG.hashsize });
  } catch (e) {
    fail(e);
    return;
  }
  port.on('message', (m: MirrorFillMessage) => {
    if (!file) return;
    try {
      if (m === 'finish') {
        if (file.db.inTransaction) file.db.exec('COMMIT');
        file.ftsConfig(before);
        file.compact();
        file.close();
        file = null;
        port.postMessage({ done: true } satisfies MirrorFillReply);
        return;
      }
      if (!file.db.inTransaction) file.db.exec('BEGIN IMMEDIATE');
      const applied = file.apply(m);
      pending += applied;
      if (pending >= DOCS_PER_COMMIT) {
        file.db.exec('COMMIT');
        pending = 0;
      }
      port.postMessage({ applied, seq: file.seq } satisfies MirrorFillReply);
    } catch (e) {
      fail(e);
    }
  });
}
