// Files of data sources (Muse sources, zips, PDFs) kept under DATA_DIR/files/<data source id>/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import type { Db } from '../db/index.ts';
import { idList } from '../db/dialect.ts';
import { processAlive } from '../processes.ts';
import { derivedFilesDir, dropDerivedFiles } from './derived-files.ts';

export const CONTENT_TYPES: Record<string, string> = {
  '.muse': 'text/plain; charset=utf-8',
  '.zip': 'application/zip',
  '.pdf': 'application/pdf',
  '.epub': 'application/epub+zip',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
};

/** Where each process lists the files it writes: files/.journal/<host>-<pid>-<thread>. */
const JOURNAL_DIR = '.journal';
/** Journals this process keeps, removed when it exits normally (one listener for all stores). */
const openJournals = new Map<string, number>();
let exitHook = false;

export class FileStore {
  constructor(private db: Db, private dataDir: string) {}

  /**
   * Each file is listed in this process's journal before it is written. A process killed inside a
   * transaction (an import, a harvest batch) leaves rows rolled back and files nobody records; the next
   * process on this host removes them at its start (`recoverJournals`), instead of the hourly sweep.
   */
  private note(rel: string) {
    const journal = path.join(this.dataDir, 'files', JOURNAL_DIR, `${os.hostname()}-${process.pid}-${threadId}`);
    let fd = openJournals.get(journal);
    if (fd === undefined) {
      fs.mkdirSync(path.dirname(journal), { recursive: true });
      fd = fs.openSync(journal, 'a');
      openJournals.set(journal, fd);
      if (!exitHook) {
        exitHook = true;
        process.once('exit', () => {
          for (const [file, d] of openJournals) {
            fs.closeSync(d);
            fs.rmSync(file, { force: true });
          }
        });
      }
    }
    fs.writeSync(fd, `${rel}\n`);
  }

  /**
   * Removes the files listed in the journals of this host's dead processes that no row records, then
   * the journals. Under the write lock, so no other process is inside a transaction; a file written
   * after its journal's last line (an id handed out again since) is left to the hourly sweep.
   * Returns the files removed.
   */
  recoverJournals(): number {
    const dir = path.join(this.dataDir, 'files', JOURNAL_DIR);
    if (!fs.existsSync(dir)) return 0;
    const host = `${os.hostname()}-`;
    let removed = 0;
    for (const name of fs.readdirSync(dir)) {
      if (!name.startsWith(host)) continue; // another machine's process: its own host recovers it
      const pid = Number(name.slice(host.length).split('-')[0]);
      if (!Number.isInteger(pid) || pid === process.pid || processAlive(pid)) continue;
      const journal = path.join(dir, name);
      const writtenBy = fs.statSync(journal).mtimeMs + 2000;
      const listed = [...new Set(fs.readFileSync(journal, 'utf8').split('\n').filter((l) => l.startsWith('files/')))];
      const recorded = this.db.sqlite.prepare('SELECT 1 FROM data_source_files WHERE path = ?').pluck();
      this.db.sqlite.transaction(() => {
        for (const rel of listed) {
          const abs = path.join(this.dataDir, rel);
          const stat = fs.statSync(abs, { throwIfNoEntry: false });
          if (!stat || recorded.get(rel) !== undefined || stat.mtimeMs > writtenBy) continue;
          fs.rmSync(abs, { force: true });
          removed++;
          const folder = path.dirname(abs);
          if (fs.readdirSync(folder).length === 0) fs.rmdirSync(folder);
        }
      }).immediate();
      fs.rmSync(journal, { force: true });
    }
    return removed;
  }

  /** Stores bytes as the data source's file with this extension (".muse", ".zip"...); replaces an older one. */
  put(dataSourceId: number, ext: string, bytes: Uint8Array): string {
    const dir = path.join(this.dataDir, 'files', String(dataSourceId));
    fs.mkdirSync(dir, { recursive: true });
    const rel = path.join('files', String(dataSourceId), `text${ext}`);
    this.note(rel);
    const abs = path.join(this.dataDir, rel);
    // The same bytes again (a re-harvest): left as they are, so files derived from them stay valid.
    if (!sameBytes(abs, bytes)) {
      fs.writeFileSync(abs, bytes);
      dropDerivedFiles(this.dataDir, dataSourceId);
    }
    this.db.sqlite
      .prepare(`INSERT INTO data_source_files (data_source_id, ext, path, content_type, size) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (data_source_id, ext) DO UPDATE SET path = excluded.path, content_type = excluded.content_type, size = excluded.size`)
      .run(dataSourceId, ext, rel, CONTENT_TYPES[ext] ?? 'application/octet-stream', bytes.length);
    return rel;
  }

  /**
   * A folder for files made from this data source's stored ones (derived-files.ts): under
   * DATA_DIR/derived/<id>/, so put() of changed bytes and removeAll() drop it with the rest.
   */
  derivedDir(dataSourceId: number, kind: string): string {
    return path.join(derivedFilesDir(this.dataDir, dataSourceId), kind);
  }

  /** Deletes a stored file by the relative path `put` returned (undoing a failed import). */
  remove(relPath: string) {
    fs.rmSync(path.join(this.dataDir, relPath), { force: true });
  }

  /** Deletes every file of a data source (its rows go with the data source's row). */
  removeAll(dataSourceId: number) {
    fs.rmSync(path.join(this.dataDir, 'files', String(dataSourceId)), { recursive: true, force: true });
    dropDerivedFiles(this.dataDir, dataSourceId);
    this.db.sqlite.prepare('DELETE FROM data_source_files WHERE data_source_id = ?').run(dataSourceId);
  }

  /**
   * Deletes files no row records (a process killed inside an import's transaction: the rows rolled
   * back, the files stayed, and their ids may be handed out again). Files younger than `minAgeMs` are
   * left alone: a running import may not have committed their rows yet. Returns the files removed.
   */
  sweepUnrecorded(minAgeMs = 3600_000, now = Date.now()): number {
    const root = path.join(this.dataDir, 'files');
    if (!fs.existsSync(root)) return 0;
    const recorded = new Set(this.db.sqlite.prepare('SELECT path FROM data_source_files').pluck().all() as string[]);
    let removed = 0;
    for (const folder of fs.readdirSync(root)) {
      if (folder === JOURNAL_DIR) continue;
      const dir = path.join(root, folder);
      if (!fs.statSync(dir).isDirectory()) continue;
      const files = fs.readdirSync(dir);
      for (const name of files) {
        const rel = path.join('files', folder, name);
        // mtimeMs has a fraction of a millisecond and Date.now() has none: a file written this
        // millisecond would otherwise be younger than 0.
        const age = Math.max(0, now - fs.statSync(path.join(dir, name)).mtimeMs);
        if (recorded.has(rel) || age < minAgeMs) continue;
        fs.rmSync(path.join(dir, name), { force: true });
        removed++;
      }
      if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
    }
    return removed;
  }

  get(dataSourceId: number, ext: string): { absPath: string; contentType: string; size: number } | null {
    const row = this.db.sqlite
      .prepare('SELECT path, content_type, size FROM data_source_files WHERE data_source_id = ? AND ext = ?')
      .get(dataSourceId, ext) as { path: string; content_type: string; size: number } | undefined;
    if (!row) return null;
    const absPath = path.join(this.dataDir, row.path);
    if (!fs.existsSync(absPath)) return null;
    return { absPath, contentType: row.content_type, size: row.size };
  }

  list(dataSourceIds: number[]): Map<number, string[]> {
    const out = new Map<number, string[]>();
    if (dataSourceIds.length === 0) return out;
    const rows = this.db.sqlite
      .prepare(`SELECT data_source_id, ext FROM data_source_files WHERE data_source_id IN ${idList(this.db.sqlite.dialect)} ORDER BY ext`)
      .all(JSON.stringify(dataSourceIds)) as { data_source_id: number; ext: string }[];
    for (const r of rows) out.set(r.data_source_id, [...(out.get(r.data_source_id) ?? []), r.ext]);
    return out;
  }
}

function sameBytes(absPath: string, bytes: Uint8Array): boolean {
  const st = fs.statSync(absPath, { throwIfNoEntry: false });
  return !!st && st.size === bytes.length && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).equals(fs.readFileSync(absPath));
}
