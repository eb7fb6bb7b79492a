// Book Builder sessions (spec §3, §4, §7): texts copied into a session, their order, builds as durable
// jobs, the produced PDF, and the cleanup of old sessions. Files live under DATA_DIR/bookbuilder/<session>/.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  JOB_NOT_FOUND,
  bookSessionIdSchema,
  makeCollectionDataSchema,
  type BookText,
  type BookbuilderResponse,
  type CollectionData,
} from '@uc/shared';
import type { Db } from '../db/index.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { FileStore } from '../catalogue/files.ts';
import type { Viewer } from '../http/viewer.ts';
import { HttpError, notFound } from '../http/errors.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { JobHandler } from '../jobs/worker.ts';
import type { BuildResult } from './build.ts';
import type { BuildRunner } from './runner.ts';

export const BOOK_BUILD_JOB = 'book_build';

export interface BookBuilderSettings {
  dataDir: string;
  maxSessionBytes: number;
  maxTexts: number;
  /** Sessions untouched for longer are deleted with their files. */
  sessionMaxAgeMs: number;
}

interface BuildPayload { session_id: string; text_ids: number[]; data: CollectionData }
interface TextRow { id: number; session_id: string; position: number; data_source_id: number; entry_id: number | null; title: string; authors: string; size: number }
interface SessionRow { id: string; job_id: number | null; output: string | null; output_job_id: number | null; output_pages: number | null; last_modified: string }

const iso = (ms = Date.now()) => new Date(ms).toISOString();
const MiB = 1024 * 1024;
const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`;

export class BookBuilderService {
  private q;
  readonly root: string;

  constructor(
    private db: Db,
    private catalogue: CatalogueService,
    private files: FileStore,
    private queue: JobQueue,
    private settings: BookBuilderSettings,
    /** Font families a build may use (checked before a job is queued). */
    private fontNames: () => string[],
  ) {
    this.root = path.join(settings.dataDir, 'bookbuilder');
    const s = db.sqlite;
    this.q = {
      session: s.prepare('SELECT id, job_id, output, output_job_id, output_pages, last_modified FROM book_sessions WHERE id = ?'),
      createSession: s.prepare('INSERT INTO book_sessions (id, created, last_modified) VALUES (?, ?, ?)'),
      touch: s.prepare('UPDATE book_sessions SET last_modified = ? WHERE id = ?'),
      setJob: s.prepare('UPDATE book_sessions SET job_id = ?, last_modified = ? WHERE id = ?'),
      setOutput: s.prepare('UPDATE book_sessions SET output = ?, output_job_id = ?, output_pages = ? WHERE id = ?'),
      texts: s.prepare('SELECT * FROM book_session_texts WHERE session_id = ? ORDER BY position, id'),
      usage: s.prepare('SELECT count(*) AS n, coalesce(sum(size), 0) AS bytes FROM book_session_texts WHERE session_id = ?'),
      byDataSource: s.prepare('SELECT id FROM book_session_texts WHERE session_id = ? AND data_source_id = ?').pluck(),
      insertText: s.prepare(`INSERT INTO book_session_texts (session_id, position, data_source_id, entry_id, title, authors, size, created)
        VALUES (?, (SELECT coalesce(max(position), 0) + 1 FROM book_session_texts WHERE session_id = ?), ?, ?, ?, ?, ?, ?) RETURNING id`).pluck(),
      deleteText: s.prepare('DELETE FROM book_session_texts WHERE id = ? AND session_id = ?'),
      setPosition: s.prepare('UPDATE book_session_texts SET position = ? WHERE id = ?'),
      dsAuthors: s.prepare('SELECT authors FROM data_sources WHERE id = ?').pluck(),
      old: s.prepare('SELECT id FROM book_sessions WHERE last_modified < ?').pluck(),
      deleteSession: s.prepare('DELETE FROM book_sessions WHERE id = ?'),
      allIds: s.prepare('SELECT id FROM book_sessions').pluck(),
    };
  }

  private dir(sessionId: string): string {
    return path.join(this.root, sessionId);
  }

  private textPaths(sessionId: string, textId: number) {
    const d = path.join(this.dir(sessionId), 'texts');
    return { muse: path.join(d, `${textId}.muse`), zip: path.join(d, `${textId}.zip`) };
  }

  private session(id: string | null | undefined): SessionRow | null {
    if (!id || !bookSessionIdSchema.safeParse(id).success) return null;
    return (this.q.session.get(id) as SessionRow | undefined) ?? null;
  }

  private requireSession(id: string | null | undefined): SessionRow {
    const s = this.session(id);
    if (!s) throw notFound('Book Builder session not found: it may have expired. Add the texts again.');
    return s;
  }

  private createSession(): string {
    const id = randomBytes(16).toString('base64url');
    const t = iso();
    this.q.createSession.run(id, t, t);
    return id;
  }

  texts(sessionId: string): BookText[] {
    return (this.q.texts.all(sessionId) as TextRow[]).map((r) => ({
      id: r.id,
      sid: r.session_id,
      attributes: { entry_id: r.entry_id, data_source_id: r.data_source_id, title: r.title, authors: JSON.parse(r.authors) as string[], size: r.size },
    }));
  }

  private listing(sessionId: string, status = 'OK'): BookbuilderResponse {
    const u = this.q.usage.get(sessionId) as { n: number; bytes: number };
    return {
      session_id: sessionId,
      texts: this.texts(sessionId),
      status,
      limits: { max_texts: this.settings.maxTexts, max_bytes: this.settings.maxSessionBytes, used_bytes: u.bytes },
    };
  }

  /** Copies a data source's Muse source (and its zip with the images) into the session; creates the session if needed. */
  add(sessionId: string | null | undefined, dataSourceId: number, viewer: Viewer): BookbuilderResponse {
    const ds = this.catalogue.visibleDataSource(dataSourceId, viewer);
    if (!ds) throw notFound('No such data source');
    const muse = this.files.get(ds.id, '.muse');
    if (!muse) throw new HttpError(422, 'This text has no Muse source: it cannot go into the Book Builder');
    const zip = this.files.get(ds.id, '.zip');
    const size = muse.size + (zip?.size ?? 0);

    const existing = this.session(sessionId);
    const sid = existing?.id ?? this.createSession();
    if (this.q.byDataSource.get(sid, ds.id) !== undefined) return this.listing(sid, 'Already in the Book Builder');
    const u = this.q.usage.get(sid) as { n: number; bytes: number };
    if (u.n >= this.settings.maxTexts) {
      throw new HttpError(409, `The Book Builder holds at most ${this.settings.maxTexts} texts: remove some before adding more`);
    }
    if (u.bytes + size > this.settings.maxSessionBytes) {
      throw new HttpError(413, `Quota exceeded: a book may hold at most ${mib(this.settings.maxSessionBytes)} of sources (${mib(u.bytes)} used, this text needs ${mib(size)})`);
    }
    const authors = (this.q.dsAuthors.get(ds.id) as string | undefined) ?? '[]';
    const textId = this.q.insertText.get(sid, sid, ds.id, ds.entry_id, ds.title, authors, size, iso()) as number;
    const dest = this.textPaths(sid, textId);
    try {
      fs.mkdirSync(path.dirname(dest.muse), { recursive: true });
      fs.copyFileSync(muse.absPath, dest.muse);
      if (zip) fs.copyFileSync(zip.absPath, dest.zip);
    } catch (e) {
      this.q.deleteText.run(textId, sid);
      fs.rmSync(dest.muse, { force: true });
      fs.rmSync(dest.zip, { force: true });
      throw e;
    }
    this.q.touch.run(iso(), sid);
    return this.listing(sid);
  }

  /** The session's texts; an unknown or expired session answers with no session and no texts. */
  list(sessionId: string | null | undefined): BookbuilderResponse {
    const s = this.session(sessionId);
    if (!s) return { session_id: null, texts: [], status: 'OK' };
    return this.listing(s.id);
  }

  remove(sessionId: string | null | undefined, textId: number): BookbuilderResponse {
    const s = this.requireSession(sessionId);
    if (this.q.deleteText.run(textId, s.id).changes === 0) throw notFound('This text is not in the Book Builder');
    const p = this.textPaths(s.id, textId);
    fs.rmSync(p.muse, { force: true });
    fs.rmSync(p.zip, { force: true });
    this.renumber(s.id, this.texts(s.id).map((t) => t.id));
    return this.listing(s.id);
  }

  /** Places move_id just before to_id (null: at the end). */
  reorder(sessionId: string | null | undefined, moveId: number, toId: number | null): BookbuilderResponse {
    const s = this.requireSession(sessionId);
    const ids = this.texts(s.id).map((t) => t.id);
    if (!ids.includes(moveId) || (toId !== null && !ids.includes(toId))) throw notFound('This text is not in the Book Builder');
    if (moveId !== toId) {
      const rest = ids.filter((id) => id !== moveId);
      const at = toId === null ? rest.length : rest.indexOf(toId);
      rest.splice(at, 0, moveId);
      this.renumber(s.id, rest);
    }
    return this.listing(s.id);
  }

  private renumber(sessionId: string, ids: number[]): void {
    this.db.sqlite.transaction(() => {
      ids.forEach((id, i) => this.q.setPosition.run(i + 1, id));
      this.q.touch.run(iso(), sessionId);
    })();
  }

  /** Validates the options against the session (texts, virtual header, fonts) and queues a build. */
  build(sessionId: string | null | undefined, data: CollectionData): BookbuilderResponse {
    const s = this.requireSession(sessionId);
    const texts = this.texts(s.id);
    if (texts.length === 0) throw new HttpError(409, 'Add at least one text before building the book');
    const checked = makeCollectionDataSchema({ texts: texts.length }).safeParse(data);
    if (!checked.success) {
      const i = checked.error.issues[0];
      throw new HttpError(400, `Invalid request (collection_data.${i.path.join('.')}: ${i.message})`);
    }
    const fonts = new Set(this.fontNames());
    const keys: ('mainfont' | 'monofont' | 'sansfont')[] = data.sansfontsections ? ['mainfont', 'monofont', 'sansfont'] : ['mainfont', 'monofont'];
    for (const key of keys) {
      if (!fonts.has(data[key])) throw new HttpError(400, `Invalid request (collection_data.${key}: the font "${data[key]}" is not available on this server)`);
    }
    const payload: BuildPayload = { session_id: s.id, text_ids: texts.map((t) => t.id), data: checked.data };
    const jobId = this.queue.enqueue(BOOK_BUILD_JOB, payload, { maxAttempts: 2 });
    this.q.setJob.run(jobId, iso(), s.id);
    return { session_id: s.id, job_id: jobId, status: 'inactive' };
  }

  /** The state of a build of this session (spec §4): inactive, active, finished, failed or 'not found'. */
  checkJob(sessionId: string | null | undefined, jobId: number): BookbuilderResponse {
    const s = this.session(sessionId);
    const job = this.queue.get<BuildPayload, BuildResult>(jobId);
    if (!s || !job || job.kind !== BOOK_BUILD_JOB || job.payload.session_id !== s.id) {
      return { session_id: s?.id ?? null, job_id: jobId, status: JOB_NOT_FOUND, error: null };
    }
    return {
      session_id: s.id,
      job_id: jobId,
      status: job.status,
      error: job.status === 'failed' ? job.error : null,
      queue_position: job.status === 'inactive' ? this.queue.position(jobId) : null,
      pages: job.status === 'finished' ? job.result?.pages ?? null : null,
      book_pages: job.status === 'finished' ? job.result?.bookPages ?? null : null,
      sheets: job.status === 'finished' ? job.result?.sheets ?? null : null,
    };
  }

  /** The last built PDF of a session, or null. */
  output(sessionId: string): { absPath: string; size: number; jobId: number | null } | null {
    const s = this.session(sessionId);
    if (!s?.output) return null;
    const absPath = path.join(this.dir(s.id), s.output);
    if (!fs.existsSync(absPath)) return null;
    return { absPath, size: fs.statSync(absPath).size, jobId: s.output_job_id };
  }

  /** The job handler: builds in a worker thread and records the output on the session. */
  jobHandler(runner: BuildRunner, opts: { concurrency: number; timeoutMs: number }): JobHandler {
    return {
      concurrency: opts.concurrency,
      timeoutMs: opts.timeoutMs,
      run: async (raw, ctx) => {
        const p = raw as BuildPayload;
        const s = this.session(p.session_id);
        if (!s) throw new Error('The session no longer exists');
        const wanted = new Set(p.text_ids);
        const texts = this.texts(s.id).filter((t) => wanted.has(t.id));
        if (texts.length === 0) throw new Error('The session has no texts to build');
        const file = `book-${ctx.jobId}.pdf`;
        const result = await runner.run(
          {
            texts: texts.map((t) => {
              const tp = this.textPaths(s.id, t.id);
              return { musePath: tp.muse, zipPath: fs.existsSync(tp.zip) ? tp.zip : null };
            }),
            data: p.data,
            outPath: path.join(this.dir(s.id), file),
          },
          ctx.signal,
        );
        const before = this.session(s.id);
        if (!before) {
          fs.rmSync(path.join(this.dir(s.id), file), { force: true });
          throw new Error('The session no longer exists');
        }
        // Keep the newest build only (a slower older job must not replace a newer output).
        if (before.output_job_id !== null && before.output_job_id > ctx.jobId) {
          fs.rmSync(path.join(this.dir(s.id), file), { force: true });
        } else {
          this.q.setOutput.run(file, ctx.jobId, result.pages, s.id);
          if (before.output && before.output !== file) fs.rmSync(path.join(this.dir(s.id), before.output), { force: true });
        }
        return result;
      },
    };
  }

  /** Deletes sessions untouched for longer than the setting, and folders without a session. */
  cleanup(now = Date.now()): { sessions: number; folders: number } {
    const old = this.q.old.all(iso(now - this.settings.sessionMaxAgeMs)) as string[];
    for (const id of old) {
      this.q.deleteSession.run(id);
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
