// One process at a time through a node's one-time start work (the migrations, the demo's first load).
// Several nodes, or `serve` and `worker`, started together on an empty DATA_DIR would otherwise each
// migrate (the second failing on a table the first just made) and each load the demo catalogue.
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

/** How long a start waits for another process's start work (a large first migration, the demo import). */
const WAIT_MS = 60 * 60_000;

/**
 * Takes DATA_DIR's start lock, waiting while another process holds it; returns its release. The lock is
 * an exclusive transaction on a small SQLite file of its own: the operating system lets it go when its
 * process dies, so a crashed start never leaves it held.
 */
export function acquireStartLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lock = new BetterSqlite3(path.join(dataDir, 'start.lock'));
  try {
    lock.pragma(`busy_timeout = ${WAIT_MS}`);
    lock.exec('BEGIN EXCLUSIVE');
  } catch (e) {
    lock.close();
    throw new Error(`Another process has held ${path.join(dataDir, 'start.lock')} for ${WAIT_MS / 60_000} minutes (its migrations or demo import): stop it or wait, then start again.`, { cause: e });
  }
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    lock.exec('ROLLBACK');
    lock.close();
  };
}
