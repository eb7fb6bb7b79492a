// The Book Builder's sessions and texts on each back end: adding copies (once, quotas, another library's
// copy of the same entry), removing and reordering, queueing a build and reading its state, keeping
// only the newest output, expiring sessions. bookbuilder.test.ts builds real books through the app (SQLite).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultCollectionData } from '@uc/shared';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { CatalogueRows } from '../test/catalogue-rows.ts';
import { FileStore } from '../catalogue/files.ts';
import { CatalogueService } from '../catalogue/service.ts';
import { LibraryService } from '../libraries/service.ts';
import { AuthorResolver } from '../agents/resolve.ts';
import { JobQueue } from '../jobs/queue.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { HttpError } from '../http/errors.ts';
import { BuilderSessions } from './sessions.ts';
import { ALREADY_FROM_OTHER_LIBRARY, BOOK_BUILD_JOB, BookBuilderService } from './service.ts';
import type { BuildProgress, BuildResult } from './build.ts';
import type { BuildRunner } from './runner.ts';

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('Book Builder on %s', (dialect) => {
  let db: Db;
  let dir: string;
  let sessions: BuilderSessions;
  let queue: JobQueue;
  let builder: BookBuilderService;
  let catalogue: CatalogueService;
  let files: FileStore;
  /** Data sources with a Muse source: two copies of one entry, and others; one in a private library. */
  let ds: { a: number; aOther: number; b: number; c: number; hidden: number; noMuse: number };

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-bb-'));
    db = openDatabase(await migratedTestDatabase(dialect));
    const libraries = new LibraryService(db);
    files = new FileStore(db, path.join(dir, 'data'));
    catalogue = new CatalogueService(db, libraries, files, new AuthorResolver(db));
    sessions = new BuilderSessions(db, path.join(dir, 'data'), 7 * 86400_000);
    queue = new JobQueue(db);
    const data = defaultCollectionData();
    builder = new BookBuilderService(db, sessions, catalogue, files, queue, { maxSessionBytes: 1000, maxTexts: 3 },
      () => [data.mainfont, data.monofont, data.sansfont]);

    const rows = new CatalogueRows(db);
    const one = rows.library('Uno');
    const two = rows.library('Due');
    const closed = rows.library('Chiusa', { public: 0 });
    const text = (site: number, entry: number, body = 'Some text.') => {
      const id = rows.record(site, entry, { authors: ['Writer'] });
      files.put(id, '.muse', Buffer.from(`#title T\n\n${body}\n`));
      return id;
    };
    const shared = rows.entry('Shared text', { authors: ['Writer'] });
    ds = {
      a: text(one.site, shared),
      aOther: text(two.site, shared),
      b: text(one.site, rows.entry('Second')),
      c: text(one.site, rows.entry('Third')),
      hidden: text(closed.site, rows.entry('Hidden')),
      noMuse: rows.record(one.site, rows.entry('Catalogue card only')),
    };
  });
  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const titles = (sid: string) => builder.texts(sid).map((t) => t.attributes.data_source_id);
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return e instanceof HttpError ? e.statusCode : e;
    }
    return null;
  };

  it('adds copies of visible texts once, within the quotas, and says when the entry is there from another library', () => {
    const first = builder.add(null, ds.a, ANONYMOUS);
    const sid = first.session_id!;
    expect(first).toMatchObject({ status: 'OK', limits: { max_texts: 3, max_bytes: 1000 } });
    expect(first.limits!.used_bytes).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(sessions.dir(sid), 'texts', `${first.texts![0]!.id}.muse`))).toBe(true);
    expect(builder.add(sid, ds.a, ANONYMOUS).status).toBe('Already in the Book Builder');
    expect(builder.add(sid, ds.aOther, ANONYMOUS).status).toBe(ALREADY_FROM_OTHER_LIBRARY);
    expect(refusal(() => builder.add(sid, ds.hidden, ANONYMOUS))).toBe(404);
    expect(refusal(() => builder.add(sid, ds.noMuse, ANONYMOUS))).toBe(422);
    expect(builder.add(sid, ds.b, ANONYMOUS).texts!.map((t) => t.attributes.title)).toEqual(['Shared text', 'Shared text', 'Second']);
    expect(refusal(() => builder.add(sid, ds.c, ANONYMOUS))).toBe(409); // at most 3 texts
    expect(titles(sid)).toEqual([ds.a, ds.aOther, ds.b]);
    expect(builder.texts(sid)[0]!.attributes.authors).toEqual(['Writer']);
  });

  it('refuses a text that would pass the session\'s byte quota', () => {
    const sid = builder.add(null, ds.a, ANONYMOUS).session_id!;
    const big = builder.texts(sid)[0]!.attributes.size;
    const small = new BookBuilderService(db, sessions, catalogue, files, queue, { maxSessionBytes: big * 2 - 1, maxTexts: 10 }, () => []);
    expect(refusal(() => small.add(sid, ds.b, ANONYMOUS))).toBe(413);
  });

  it('removes and reorders texts, numbering them again', () => {
    let sid = '';
    for (const id of [ds.a, ds.b, ds.c]) sid = builder.add(sid || null, id, ANONYMOUS).session_id!;
    const [ta, tb, tc] = builder.texts(sid).map((t) => t.id);
    builder.reorder(sid, tc!, ta!);
    expect(titles(sid)).toEqual([ds.c, ds.a, ds.b]);
    builder.reorder(sid, tc!, null);
    expect(titles(sid)).toEqual([ds.a, ds.b, ds.c]);
    builder.remove(sid, tb!);
    expect(titles(sid)).toEqual([ds.a, ds.c]);
    expect(db.sqlite.prepare('SELECT position FROM book_session_texts WHERE session_id = ? ORDER BY position').pluck().all(sid)).toEqual([1, 2]);
    expect(refusal(() => builder.remove(sid, tb!))).toBe(404);
    expect(refusal(() => builder.reorder('AAAAAAAAAAAAAAAAAAAAAA', ta!, null))).toBe(404);
    // A new text goes after the others.
    expect(titles(builder.add(sid, ds.b, ANONYMOUS).session_id!)).toEqual([ds.a, ds.c, ds.b]);
  });

  it('queues a build, reports its state, keeps only the newest output, and expires old sessions with their texts', () => {
    const sid = builder.add(null, ds.a, ANONYMOUS).session_id!;
    expect(refusal(() => builder.build(sid, { ...defaultCollectionData(), mainfont: 'Comic Sans' }))).toBe(400);
    const queued = builder.build(sid, { ...defaultCollectionData(), title: 'A book' });
    expect(queued).toMatchObject({ session_id: sid, status: 'inactive' });
    const jobId = queued.job_id!;
    expect(builder.checkJob(sid, jobId)).toMatchObject({ status: 'inactive', queue_position: 0 });
    expect(builder.checkJob(sid, jobId + 99).status).not.toBe('inactive');
    const job = queue.claim('w', [BOOK_BUILD_JOB])!;
    expect(job.id).toBe(jobId);
    queue.finish(jobId, { pages: 12 });
    expect(builder.checkJob(sid, jobId)).toMatchObject({ status: 'finished', pages: 12 });

    const write = (name: string) => fs.writeFileSync(path.join(sessions.dir(sid), name), '%PDF');
    write('book-2.pdf');
    sessions.storeOutput(sid, 2, 'book-2.pdf', 10);
    write('book-1.pdf');
    sessions.storeOutput(sid, 1, 'book-1.pdf', 9); // an older job finishing later changes nothing
    expect(sessions.output(sid)).toMatchObject({ jobId: 2 });
    expect(fs.existsSync(path.join(sessions.dir(sid), 'book-1.pdf'))).toBe(false);

    const other = builder.add(null, ds.b, ANONYMOUS).session_id!;
    expect(sessions.cleanup(Date.now() + 8 * 86400_000)).toMatchObject({ sessions: 2 });
    expect(sessions.get(sid, 'any')).toBeNull();
    expect(sessions.get(other, 'any')).toBeNull();
    expect(db.sqlite.prepare('SELECT count(*) FROM book_session_texts').pluck().get()).toBe(0);
    // An expired session answers with a fresh empty one.
    const fresh = builder.list(sid);
    expect(fresh.session_id).not.toBe(sid);
    expect(fresh.texts).toEqual([]);
  });

  it('tells a running build\'s step (a large book advances per chunk) while this process runs it', async () => {
    const sid = builder.add(null, ds.a, ANONYMOUS).session_id!;
    const jobId = builder.build(sid, { ...defaultCollectionData(), title: 'A book' }).job_id!;
    const job = queue.claim('w', [BOOK_BUILD_JOB])!;
    let release = () => {};
    const runner = {
      run: async (_input: unknown, _signal: AbortSignal, onProgress?: (p: BuildProgress) => void): Promise<BuildResult> => {
        onProgress?.({ step: 2, steps: 5, label: 'Typesetting part 1 of 3 (from page 5)' });
        await new Promise<void>((r) => (release = r));
        return { pages: 3, bookPages: 3, sheets: null, bytes: 4, typstSeconds: 0, imposeSeconds: 0, chunks: 3, childMaxRssKb: 0, childCpuSeconds: 0 };
      },
    } as unknown as BuildRunner;
    const running = builder.jobHandler(runner, { concurrency: 1, timeoutMs: 60_000 }).run(job.payload, { jobId, signal: new AbortController().signal });
    await new Promise((r) => setTimeout(r, 10));
    expect(builder.checkJob(sid, jobId)).toMatchObject({ status: 'active', progress: { step: 2, steps: 5 } });
    release();
    await running;
    expect(builder.checkJob(sid, jobId).progress ?? null).toBeNull();
  });
});
