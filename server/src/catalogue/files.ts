// Files of data sources (Muse sources, zips, PDFs) kept under DATA_DIR/files/<data source id>/.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/index.ts';

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

export class FileStore {
  constructor(private db: Db, private dataDir: string) {}

  /** Stores bytes as the data source's file with this extension (".muse", ".zip"...); replaces an older one. */
  put(dataSourceId: number, ext: string, bytes: Uint8Array): string {
    const dir = path.join(this.dataDir, 'files', String(dataSourceId));
    fs.mkdirSync(dir, { recursive: true });
    const rel = path.join('files', String(dataSourceId), `text${ext}`);
    fs.writeFileSync(path.join(this.dataDir, rel), bytes);
    this.db.sqlite
      .prepare(`INSERT INTO data_source_files (data_source_id, ext, path, content_type, size) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (data_source_id, ext) DO UPDATE SET path = excluded.path, content_type = excluded.content_type, size = excluded.size`)
      .run(dataSourceId, ext, rel, CONTENT_TYPES[ext] ?? 'application/octet-stream', bytes.length);
    return rel;
  }

  /** Deletes a stored file by the relative path `put` returned (undoing a failed import). */
  remove(relPath: string) {
    fs.rmSync(path.join(this.dataDir, relPath), { force: true });
  }

  /** Deletes every file of a data source (its rows go with the data source's row). */
  removeAll(dataSourceId: number) {
    fs.rmSync(path.join(this.dataDir, 'files', String(dataSourceId)), { recursive: true, force: true });
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
      const dir = path.join(root, folder);
      if (!fs.statSync(dir).isDirectory()) continue;
      const files = fs.readdirSync(dir);
      for (const name of files) {
        const rel = path.join('files', folder, name);
        if (recorded.has(rel) || now - fs.statSync(path.join(dir, name)).mtimeMs < minAgeMs) continue;
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
      .prepare('SELECT data_source_id, ext FROM data_source_files WHERE data_source_id IN (SELECT value FROM json_each(?)) ORDER BY ext')
      .all(JSON.stringify(dataSourceIds)) as { data_source_id: number; ext: string }[];
    for (const r of rows) out.set(r.data_source_id, [...(out.get(r.data_source_id) ?? []), r.ext]);
    return out;
  }
}
