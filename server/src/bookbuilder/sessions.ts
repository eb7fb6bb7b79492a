// The sessions of the Book Builder and the cover builder (one table, a kind each): their folders under
// DATA_DIR/bookbuilder/<session>/, the job of each, the newest output, and the cleanup of old ones.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { bookSessionIdSchema } from '@uc/shared';
import type { Db } from '../db/index.ts';

export type SessionKind = 'book' | 'cover';
/** The job kind that builds each kind of session (check_job serves both). */
export const BUILD_JOB_OF: Record<SessionKind, string> = { book: 'book_build', cover: 'cover_build' };

export interface SessionRow { id: string; kind: SessionKind; job_id: number | null; output: string | null; output_job_id: number | null; output_pages: number | null; last_modified: string }

const iso = (ms = Date.now()) => new Date(ms).toISOString();

export class BuilderSessions {
  private q;
  readonly root: string;

  constructor(db: Db, dataDir: string, private maxAgeMs: number) {
    this.root = path.join(dataDir, 'bookbuilder');
    const s = db.sqlite;
    this.q = {
      session: s.prepare('SELECT id, kind, job_id, output, output_job_id, output_pages, last_modified FROM book_sessions WHERE id = ?'),
      create: s.prepare('INSERT INTO book_sessions (id, kind, created, last_modified) VALUES (?, ?, ?, ?)'),
      touch: s.prepare('UPDATE book_sessions SET last_modified = ? WHERE id = ?'),
      setJob: s.prepare('UPDATE book_sessions SET job_id = ?, last_modified = ? WHERE id = ?'),
      setOutput: s.prepare('UPDATE book_sessions SET output = ?, output_job_id = ?, output_pages = ? WHERE id = ?'),
      old: s.prepare('SELECT id FROM book_sessions WHERE last_modified < ?').pluck(),
      delete: s.prepare('DELETE FROM book_sessions WHERE id = ?'),
      allIds: s.prepare('SELECT id FROM book_sessions').pluck(),
    };
  }

  dir(sessionId: string): string {
    return path.join(this.root, sessionId);
  }

  /** The session of that kind, or null (unknown, expired, malformed id, or another kind). */
  get(id: string | null | undefined, kind: SessionKind | 'any'): SessionRow | null {
    if (!id || !bookSessionIdSchema.safeParse(id).success) return null;
    const row = (this.q.session.get(id) as SessionRow | undefined) ?? null;
    return row && (kind === 'any' || row.kind === kind) ? row : null;
  }

  create(kind: SessionKind): string {
    const id = randomBytes(16).toString('base64url');
    const t = iso();
    this.q.create.run(id, kind, t, t);
    return id;
  }

  touch(id: string): void {
    this.q.touch.run(iso(), id);
  }

  setJob(id: string, jobId: number): void {
    this.q.setJob.run(jobId, iso(), id);
  }

  /**
   * Records a finished build's file (inside the session folder) as the session's output. Only the newest
   * job's file is kept: a slower older job must not replace a newer output.
   */
  storeOutput(id: string, jobId: number, file: string, pages: number): void {
    const before = this.get(id, 'any');
    const abs = path.join(this.dir(id), file);
    if (!before) {
      fs.rmSync(abs, { force: true });
      throw new Error('The session no longer exists');
    }
    if (before.output_job_id !== null && before.output_job_id > jobId) {
      fs.rmSync(abs, { force: true });
      return;
    }
    this.q.setOutput.run(file, jobId, pages, id);
    if (before.output && before.output !== file) fs.rmSync(path.join(this.dir(id), before.output), { force: true });
  }

  /** The last built PDF of a session, or null. */
  output(id: string): { absPath: string; size: number; jobId: number | null; kind: SessionKind } | null {
    const s = this.get(id, 'any');
    if (!s?.output) return null;
    const absPath = path.join(this.dir(s.id), s.output);
    if (!fs.existsSync(absPath)) return null;
    return { absPath, size: fs.statSync(absPath).size, jobId: s.output_job_id, kind: s.kind };
  }

  /** Deletes sessions untouched for longer than the setting, and folders without a session. */
  cleanup(now = Date.now()): { sessions: number; folders: number } {
    const old = this.q.old.all(iso(now - this.maxAgeMs)) as string[];
    for (const id of old) {
      this.q.delete.run(id);
      fs.rmSync(this.dir(id), { recursive: true, force: true });
    }
    let folders = 0;
    if (fs.existsSync(this.root)) {
      const live = new Set(this.q.allIds.all() as string[]);
      for (const name of fs.readdirSync(this.root)) {
        if (live.has(name)) continue;
        // A folder whose session row is not committed yet is young: leave folders of the last hour.
        const st = fs.statSync(path.join(this.root, name));
        if (now - st.mtimeMs < 3600_000) continue;
        fs.rmSync(path.join(this.root, name), { recursive: true, force: true });
        folders++;
      }
    }
    return { sessions: old.length, folders };
  }
}
