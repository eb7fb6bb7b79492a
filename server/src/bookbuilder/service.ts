// Book Builder sessions (spec §3, §4, §7): texts copied into a session, their order, builds as durable
// jobs, the produced PDF, and the cleanup of old sessions. Files live under DATA_DIR/bookbuilder/<session>/.
import fs from 'node:fs';
import path from 'node:path';
import {
  JOB_NOT_FOUND,
  makeCollectionDataSchema,
  payloadField,
  type BookFormat,
  type BookText,
  type BookbuilderResponse,
  type CollectionData,
} from '@uc/shared';
import { availableFonts, lettersMissing, parseMuse, museSections, sectionTitles, textLetters } from '@uc/muse';
import { isBundledFont } from './fonts.ts';
import type { Db } from '../db/index.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { FileStore } from '../catalogue/files.ts';
import type { Viewer } from '../http/viewer.ts';
import { HttpError, notFound } from '../http/errors.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { JobContext, JobHandler } from '../jobs/worker.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { BuildResult } from './build.ts';
import type { BuildRunner } from './runner.ts';
import { BUILD_JOB_OF, BuilderSessions, type SessionRow } from './sessions.ts';

export const BOOK_BUILD_JOB = BUILD_JOB_OF.book;

export interface BookBuilderSettings {
  maxSessionBytes: number;
  maxTexts: number;
}

/** The queued job's payload: the session's texts and the parsed options. */
interface BuildJobPayload { session_id: string; text_ids: number[]; data: CollectionData; format?: BookFormat }
interface TextRow { id: number; session_id: string; position: number; data_source_id: number; entry_id: number | null; title: string; authors: string; size: number; partial: string | null }

/** The `add` status when the session already has the same entry from another data source (an addition to spec §7). */
export const ALREADY_FROM_OTHER_LIBRARY = 'This text is already in the Book Builder from another library';

const iso = (ms = Date.now()) => new Date(ms).toISOString();
const MiB = 1024 * 1024;
const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`;

export class BookBuilderService {
  private q;
  /** The step of each build this process runs (check_job shows it; a build run by another worker process has none). */
  private progress = new Map<number, { step: number; steps: number }>();

  constructor(
    private db: Db,
    readonly sessions: BuilderSessions,
    private catalogue: CatalogueService,
    private files: FileStore,
    private queue: JobQueue,
    private settings: BookBuilderSettings,
    /** Font families a build may use (checked before a job is queued). */
    private fontNames: () => string[],
    /** A family's kind (the monofont must be a monospaced one). */
    private fontType: (name: string) => string | undefined = (name) => availableFonts().find((f) => f.name === name)?.type,
    /** The letters a family lacks as the font list found them in its thread (null: ask the compiler here). */
    private knownMissing: (family: string, letters: Set<string>) => string[] | null = () => null,
  ) {
    const s = db.sqlite;
    this.q = {
      texts: s.prepare('SELECT * FROM book_session_texts WHERE session_id = ? ORDER BY position, id'),
      usage: s.prepare('SELECT count(*) AS n, coalesce(sum(size), 0) AS bytes FROM book_session_texts WHERE session_id = ?'),
      byDataSource: s.prepare('SELECT id FROM book_session_texts WHERE session_id = ? AND data_source_id = ?').pluck(),
      byEntry: s.prepare('SELECT id FROM book_session_texts WHERE session_id = ? AND entry_id = ? AND data_source_id <> ? LIMIT 1').pluck(),
      insertText: s.prepare(`INSERT INTO book_session_texts (session_id, position, data_source_id, entry_id, title, authors, size, partial, created)
        VALUES (?, (SELECT coalesce(max(position), 0) + 1 FROM book_session_texts WHERE session_id = ?), ?, ?, ?, ?, ?, ?, ?) RETURNING id`).pluck(),
      setPartial: s.prepare('UPDATE book_session_texts SET partial = ? WHERE id = ? AND session_id = ?'),
      deleteText: s.prepare('DELETE FROM book_session_texts WHERE id = ? AND session_id = ?'),
      setPosition: s.prepare('UPDATE book_session_texts SET position = ? WHERE id = ?'),
      dsAuthors: s.prepare('SELECT authors FROM data_sources WHERE id = ?').pluck(),
      // what an EPUB's title page of the text credits: the library and the text's address (null when the record is gone)
      dsCredits: s.prepare(`SELECT d.uri, l.name FROM data_sources d JOIN sites si ON si.id = d.site_id JOIN libraries l ON l.id = si.library_id WHERE d.id = ?`),
    };
  }

  /** The letters of a session's texts, by session, with the text ids and sizes they were read for. */
  private letterCache = new Map<string, { key: string; letters: Set<string> }>();

  /** The distinct letters of the session's texts (their Muse sources): what a font must have to set them (get_fonts). */
  textLetters(sessionId: string | null | undefined): Set<string> {
    const s = this.session(sessionId);
    if (!s) return new Set();
    const rows = this.q.texts.all(s.id) as TextRow[];
    const key = rows.map((r) => `${r.id}:${r.size}`).join(',');
    const hit = this.letterCache.get(s.id);
    if (hit?.key === key) return hit.letters;
    const letters = new Set<string>();
    for (const r of rows) {
      try {
        textLetters(fs.readFileSync(this.textPaths(s.id, r.id).muse, 'utf8'), letters);
      } catch {
        // a copy removed meanwhile has no letters
      }
    }
    // a few sessions' letters only: the cache must not grow with every visitor
    if (this.letterCache.size >= 32) this.letterCache.delete(this.letterCache.keys().next().value!);
    this.letterCache.set(s.id, { key, letters });
    return letters;
  }

  private textPaths(sessionId: string, textId: number) {
    const d = path.join(this.sessions.dir(sessionId), 'texts');
    return { muse: path.join(d, `${textId}.muse`), zip: path.join(d, `${textId}.zip`) };
  }

  private session(id: string | null | undefined): SessionRow | null {
    return this.sessions.get(id, 'book');
  }

  private requireSession(id: string | null | undefined): SessionRow {
    const s = this.session(id);
    if (!s) throw notFound('Book Builder session not found: it may have expired. Add the texts again.');
    return s;
  }

  texts(sessionId: string): BookText[] {
    return (this.q.texts.all(sessionId) as TextRow[]).map((r) => ({
      id: r.id,
      sid: r.session_id,
      attributes: {
        entry_id: r.entry_id, data_source_id: r.data_source_id, title: r.title, authors: JSON.parse(r.authors) as string[], size: r.size,
        ...(r.partial ? { partial: JSON.parse(r.partial) as number[] } : {}),
      },
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

  /**
   * Copies a data source's Muse source (and its zip with the images) into the session; creates the session if needed.
   * `partial` (our addition): only these sections of the text go into the book (museSections' numbers).
   */
  add(sessionId: string | null | undefined, dataSourceId: number, viewer: Viewer, partial?: number[]): BookbuilderResponse {
    const ds = this.catalogue.visibleDataSource(dataSourceId, viewer);
    if (!ds) throw notFound('No such data source');
    const muse = this.files.get(ds.id, '.muse');
    if (!muse) throw new HttpError(422, 'This text has no Muse source: it cannot go into the Book Builder');
    if (partial) {
      const count = museSections(parseMuse(fs.readFileSync(muse.absPath, 'utf8'))).length;
      const past = partial.find((n) => n >= count);
      if (past !== undefined) throw new HttpError(400, 'this text has sections 0 to {{last}}, not {{n}}', { field: 'partial', values: { last: count - 1, n: past } });
    }
    const zip = this.files.get(ds.id, '.zip');
    const size = muse.size + (zip?.size ?? 0);

    const existing = this.session(sessionId);
    const sid = existing?.id ?? this.sessions.create('book');
    if (this.q.byDataSource.get(sid, ds.id) !== undefined) return this.listing(sid, 'Already in the Book Builder');
    const u = this.q.usage.get(sid) as { n: number; bytes: number };
    if (u.n >= this.settings.maxTexts) {
      throw new HttpError(409, 'The Book Builder holds at most {{max}} texts: remove some before adding more', { values: { max: this.settings.maxTexts } });
    }
    if (u.bytes + size > this.settings.maxSessionBytes) {
      throw new HttpError(413, 'Quota exceeded: a book may hold at most {{max}} of sources ({{used}} used, this text needs {{size}})', { values: { max: mib(this.settings.maxSessionBytes), used: mib(u.bytes), size: mib(size) } });
    }
    // Another library's copy of the same text is still added (the editions may differ), but the
    // answer says so, so the user can remove one of them.
    const sameEntry = ds.entry_id !== null && this.q.byEntry.get(sid, ds.entry_id, ds.id) !== undefined;
    const authors = (this.q.dsAuthors.get(ds.id) as string | undefined) ?? '[]';
    const textId = this.q.insertText.get(sid, sid, ds.id, ds.entry_id, ds.title, authors, size, partial ? JSON.stringify(partial) : null, iso()) as number;
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
    this.sessions.touch(sid);
    return this.listing(sid, sameEntry ? ALREADY_FROM_OTHER_LIBRARY : 'OK');
  }

  /** The session's texts; an unknown or expired session answers with no session and no texts. */
  list(sessionId: string | null | undefined): BookbuilderResponse {
    const s = this.session(sessionId);
    if (s) return this.listing(s.id);
    if (!sessionId) return { session_id: null, texts: [], status: 'OK' };
    // An expired session gets a fresh, empty one: the spec's client replaces its list only when the
    // answer names a session, so answering none would leave it showing texts the server no longer has.
    return this.listing(this.sessions.create('book'));
  }

  /** A session text's sections with their headings (museSections' numbering, as `partial` uses it); an empty section 0 is left out. */
  sections(sessionId: string | null | undefined, textId: number): BookbuilderResponse {
    const s = this.requireSession(sessionId);
    const doc = parseMuse(this.textSource(s.id, textId));
    const blocks = museSections(doc);
    return { sections: sectionTitles(doc).map((title, number) => ({ number, title })).filter((x) => x.number > 0 || blocks[0].length > 0) };
  }

  /** Changes a session text's partial selection; null, or every section, keeps the whole text. */
  setPartial(sessionId: string | null | undefined, textId: number, partial: number[] | null): BookbuilderResponse {
    const s = this.requireSession(sessionId);
    const count = museSections(parseMuse(this.textSource(s.id, textId))).length;
    const past = partial?.find((n) => n >= count);
    if (past !== undefined) throw new HttpError(400, 'this text has sections 0 to {{last}}, not {{n}}', { field: 'partial', values: { last: count - 1, n: past } });
    const whole = !partial || partial.length === count;
    this.q.setPartial.run(whole ? null : JSON.stringify(partial), textId, s.id);
    this.sessions.touch(s.id);
    return this.listing(s.id);
  }

  /** The session copy's Muse source of one of its texts. */
  private textSource(sessionId: string, textId: number): string {
    if (!this.texts(sessionId).some((t) => t.id === textId)) throw notFound('This text is not in the Book Builder');
    try {
      return fs.readFileSync(this.textPaths(sessionId, textId).muse, 'utf8');
    } catch {
      throw notFound('This text is not in the Book Builder');
    }
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
      this.sessions.touch(sessionId);
    })();
  }

  /** Validates the options (parsed from the build payload) against the session (texts, virtual header, fonts) and queues a build. */
  build(sessionId: string | null | undefined, data: CollectionData, format: BookFormat = 'pdf'): BookbuilderResponse {
    const s = this.requireSession(sessionId);
    const texts = this.texts(s.id);
    if (texts.length === 0) throw new HttpError(409, 'Add at least one text before building the book');
    const checked = makeCollectionDataSchema({ texts: texts.length }).safeParse(data);
    if (!checked.success) {
      const i = checked.error.issues[0];
      throw new HttpError(400, 'Invalid request ({{detail}})', { issue: { path: `collection_data.${payloadField(String(i.path[0]))}`, issue: i } });
    }
    // an EPUB names no font (the reader's choice stays in force): only a PDF's fonts are checked
    if (format === 'pdf') this.checkFonts(s.id, data);
    const payload: BuildJobPayload = { session_id: s.id, text_ids: texts.map((t) => t.id), data: checked.data, format };
    const jobId = this.queue.enqueue(BOOK_BUILD_JOB, payload, { maxAttempts: 2 });
    this.sessions.setJob(s.id, jobId);
    return { session_id: s.id, job_id: jobId, status: 'inactive' };
  }

  private checkFonts(sessionId: string, data: CollectionData): void {
    const fonts = new Set(this.fontNames());
    const keys: ('mainfont' | 'monofont' | 'sansfont')[] = data.sansfontsections ? ['mainfont', 'monofont', 'sansfont'] : ['mainfont', 'monofont'];
    for (const key of keys) {
      if (!fonts.has(data[key])) throw new HttpError(400, 'the font "{{font}}" is not available on this server', { field: `collection_data.${key}`, values: { font: data[key] } });
    }
    // the families get_fonts offers for these texts: DejaVu (bundled) or one with every letter
    for (const key of keys) {
      const letters = this.textLetters(sessionId);
      const missing = isBundledFont(data[key]) ? [] : (this.knownMissing(data[key], letters) ?? lettersMissing(data[key], letters));
      if (missing.length) {
        throw new HttpError(400, 'the font "{{font}}" lacks letters of these texts ({{letters}}): choose one the Fonts tab offers', {
          field: `collection_data.${key}`,
          values: { font: data[key], letters: missing.slice(0, 12).join('') },
        });
      }
    }
    // code and examples are set in the mono font: a proportional one would lose their columns
    if (this.fontType(data.monofont) !== 'mono') {
      throw new HttpError(400, 'the font "{{font}}" is not a monospaced font', { field: 'collection_data.monofont', values: { font: data.monofont } });
    }
  }

  /**
   * The state of a build of this session (spec §4): inactive, active, finished, failed or 'not found'.
   * Serves the cover builder's sessions too, so one job checker serves both tabs.
   */
  checkJob(sessionId: string | null | undefined, jobId: number): BookbuilderResponse {
    const s = this.sessions.get(sessionId, 'any');
    const job = this.queue.get<{ session_id: string }, Partial<BuildResult>>(jobId);
    if (!s || !job || job.kind !== BUILD_JOB_OF[s.kind] || job.payload.session_id !== s.id) {
      return { session_id: s?.id ?? null, job_id: jobId, status: JOB_NOT_FOUND, error: null };
    }
    return {
      session_id: s.id,
      job_id: jobId,
      status: job.status,
      error: job.status === 'failed' ? job.error : null,
      queue_position: job.status === 'inactive' ? this.queue.position(jobId) : null,
      progress: job.status === 'active' ? this.progress.get(jobId) ?? null : null,
      // an EPUB has no pages
      pages: job.status === 'finished' && job.result?.format !== 'epub' ? job.result?.pages ?? null : null,
      book_pages: job.status === 'finished' && job.result?.format !== 'epub' ? job.result?.bookPages ?? null : null,
      sheets: job.status === 'finished' ? job.result?.sheets ?? null : null,
      format: job.status === 'finished' ? job.result?.format ?? 'pdf' : null,
    };
  }

  /** The job handler: builds in a worker thread and records the output on the session. */
  jobHandler(runner: BuildRunner, opts: { concurrency: number; timeoutMs: number; metrics?: Metrics }): JobHandler {
    return {
      concurrency: opts.concurrency,
      timeoutMs: opts.timeoutMs,
      run: async (raw, ctx) => {
        try {
          const result = await this.runBuild(runner, raw, ctx);
          opts.metrics?.bookBuildEnded('built');
          return result;
        } catch (e) {
          opts.metrics?.bookBuildEnded('failed');
          throw e;
        }
      },
    };
  }

  private async runBuild(runner: BuildRunner, raw: unknown, ctx: JobContext): Promise<BuildResult> {
    const p = raw as BuildJobPayload;
    const s = this.session(p.session_id);
    if (!s) throw new Error('The session no longer exists');
    const wanted = new Set(p.text_ids);
    const texts = this.texts(s.id).filter((t) => wanted.has(t.id));
    if (texts.length === 0) throw new Error('The session has no texts to build');
    const format = p.format ?? 'pdf';
    const file = `book-${ctx.jobId}.${format}`;
    let result: BuildResult;
    try {
      result = await runner.run(
        {
          texts: texts.map((t) => {
            const tp = this.textPaths(s.id, t.id);
            const credits = this.q.dsCredits.get(t.attributes.data_source_id) as { uri: string | null; name: string } | undefined;
            return {
              musePath: tp.muse,
              zipPath: fs.existsSync(tp.zip) ? tp.zip : null,
              sections: t.attributes.partial,
              credits: credits?.name,
              sourceUrl: credits?.uri ?? undefined,
            };
          }),
          data: p.data,
          format,
          outPath: path.join(this.sessions.dir(s.id), file),
        },
        ctx.signal,
        (pr) => this.progress.set(ctx.jobId, { step: pr.step, steps: pr.steps }),
      );
    } finally {
      this.progress.delete(ctx.jobId);
    }
    this.sessions.storeOutput(s.id, ctx.jobId, file, result.pages);
    return result;
  }
}
