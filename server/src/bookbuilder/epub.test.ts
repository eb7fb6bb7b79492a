// The Book Builder's EPUB (issue 31): build with format "epub" makes one EPUB 3 of the session's texts
// (the collection's title page and metadata, each text with its own title page and credits, partial
// selections honoured, one table of contents), which EPUBCheck passes; the paper, imposition and crop-mark
// options are ignored; check_job tells the format and GET /bookbuilder/{session} serves it as EPUB.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import { bookbuilderResponseSchema, defaultCollectionData, toBuildPayload, type BookbuilderResponse, type CollectionData } from '@uc/shared';
import { sectionTitles, selectSections } from '@uc/muse';
import { repoRoot } from '../config.ts';
import { createJobWorker } from '../app.ts';
import { bookTypst } from './build.ts';
import { dataSourceId, fixtureLines, museEntryLine, testApp, type TestApp } from '../test/fixture.ts';
import { EPUBCHECK_MISSING, HAVE_EPUBCHECK, epubCheck } from '../../../packages/muse/src/testing/epubcheck.ts';

const texts = path.join(repoRoot, 'demo', 'texts');
const museEntry = museEntryLine;
if (!HAVE_EPUBCHECK) console.log(EPUBCHECK_MISSING);

describe('the Book Builder\'s EPUB', () => {
  let t: TestApp;
  let jobs: ReturnType<typeof createJobWorker>;
  const ds: Record<string, number> = {};

  beforeAll(async () => {
    t = await testApp([
      ...fixtureLines(),
      museEntry(101, 'Keeping Paper Alive', 'keeping-paper-alive.muse', 'en'),
      museEntry(102, 'How to Use the Union Catalogue', 'how-to-use-the-catalogue.muse', 'en'),
      museEntry(103, 'Lettera a chi apre una biblioteca', 'lettera-a-chi-apre-una-biblioteca.muse', 'it'),
    ]);
    for (const id of [101, 102, 103]) ds[id] = dataSourceId(t.services, `muse-${id}`);
    jobs = createJobWorker({ jobConcurrency: 1, bookBuildConcurrency: 1 }, t.services);
    jobs.start();
  }, 60_000);
  afterAll(async () => {
    await jobs?.stop();
    await t?.close();
  });

  async function call(body: object): Promise<{ status: number; json: BookbuilderResponse & { error?: string } }> {
    const res = await t.app.inject({ method: 'POST', url: '/collector/api/bookbuilder', payload: body, headers: { cookie: 'csrftoken=x', 'x-csrftoken': 'x' } });
    const json = res.json();
    if (res.statusCode === 200) bookbuilderResponseSchema.parse(json);
    return { status: res.statusCode, json };
  }
  async function ok(body: object): Promise<BookbuilderResponse> {
    const r = await call(body);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json;
  }
  async function finished(session_id: string, job_id: number): Promise<BookbuilderResponse> {
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      const r = await ok({ action: 'check_job', session_id, check_job_id: job_id });
      if (r.status === 'finished' || r.status === 'failed') return r;
    }
    throw new Error('the build did not end');
  }
  const unpack = (body: Buffer) => Object.fromEntries(Object.entries(unzipSync(new Uint8Array(body))).filter(([n]) => !/\.(png|jpe?g)$/.test(n)).map(([n, d]) => [n, strFromU8(d)]));
  const paper = fs.readFileSync(path.join(texts, 'keeping-paper-alive.muse'), 'utf8');

  let epubSession = '';
  let epubBytes: Buffer = Buffer.alloc(0);

  it('builds a collection as one EPUB with its title page, a title page per text, the partial selection and one contents', async () => {
    const titles = sectionTitles(paper);
    expect(titles.slice(1, 4)).toEqual(['Why paper dies', 'The room', 'Handling']);
    const first = await ok({ action: 'add', add: ds[101], partial: '3, 1' });
    const sid = first.session_id!;
    expect(first.texts![0].attributes.partial).toEqual([1, 3]);
    await ok({ action: 'add', session_id: sid, add: ds[102] });
    await ok({ action: 'add', session_id: sid, add: ds[103] });
    // print options an EPUB ignores: A4, imposed 2up with crop marks
    const data: CollectionData = { ...defaultCollectionData(), title: 'Reading Room *Notes*', subtitle: 'Three texts', author: 'The Editors', date: '2026', papersize: 'a4', imposition_schema: '2up', cropmarks: true };
    const built = await ok({ action: 'build', session_id: sid, collection_data: toBuildPayload(data), format: 'epub' });
    const done = await finished(sid, built.job_id!);
    expect(done.status, done.error ?? '').toBe('finished');
    expect(done.format).toBe('epub');
    expect(done.pages).toBeNull();
    expect(done.sheets).toBeNull();

    const res = await t.app.inject(`/collector/api/bookbuilder/${sid}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/epub+zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="bookbuilder-[-\d]+\.epub"$/);
    // asked to show it inline, an EPUB still comes as a file (browsers do not show one)
    expect((await t.app.inject(`/collector/api/bookbuilder/${sid}?inline=1`)).headers['content-disposition']).toMatch(/^attachment;/);
    epubSession = sid;
    epubBytes = res.rawPayload;
    expect(epubBytes.subarray(30, 58).toString('latin1')).toBe('mimetypeapplication/epub+zip');

    const files = unpack(epubBytes);
    const opf = files['OEBPS/content.opf'];
    expect(opf).toContain('<dc:title>Reading Room Notes</dc:title>');
    expect(opf).toContain('<dc:creator>The Editors</dc:creator>');
    expect(opf).toContain('<dc:date>2026</dc:date>');
    expect(files['OEBPS/text/title.xhtml']).toContain('<h1 class="title">Reading Room Notes</h1>');
    // each text has its own title page with the library's credits
    for (const [n, title] of [['001', 'Keeping Paper Alive'], ['002', 'How to Use the Union Catalogue'], ['003', 'Lettera a chi apre una biblioteca']]) {
      expect(files[`OEBPS/text/t${n}-000.xhtml`]).toContain(title);
      expect(files[`OEBPS/text/t${n}-000.xhtml`]).toContain('Biblioteca Uno');
    }
    // the partial selection: "Why paper dies" and "Handling" (with its subsection), not "The room"
    const firstText = Object.entries(files).filter(([n]) => n.startsWith('OEBPS/text/t001-')).map(([, v]) => v).join('\n');
    expect(firstText).toContain('Why paper dies');
    expect(firstText).toContain('Handling');
    expect(firstText).not.toContain('The room');
    expect(firstText).not.toContain('Simple things that help');
    // one table of contents: the texts at the top level, their headings below
    const toc = files['OEBPS/nav.xhtml'].split('</nav>')[0];
    expect(toc.match(/<nav /g)).toHaveLength(1);
    expect(toc).toMatch(/Keeping Paper Alive<\/a><ol>\s*<li><a [^>]*>Why paper dies/);
    expect(toc).not.toContain('The room');
    expect(toc).toContain('Lettera a chi apre una biblioteca');
    expect(files['OEBPS/content.opf']).toContain('<dc:language>en</dc:language>');
  }, 90_000);

  it.skipIf(!HAVE_EPUBCHECK)('passes EPUBCheck with no error and no warning', () => {
    const file = path.join(t.dir, 'collection.epub');
    fs.writeFileSync(file, epubBytes);
    const { reports, problems } = epubCheck([file]);
    expect(reports).toBe(1);
    expect(problems).toEqual([]);
  }, 60_000);

  it('builds a PDF when no format is given (the spec\'s client), and says so', async () => {
    const built = await ok({ action: 'build', session_id: epubSession, collection_data: toBuildPayload({ ...defaultCollectionData(), title: 'Again' }) });
    const done = await finished(epubSession, built.job_id!);
    expect(done.status, done.error ?? '').toBe('finished');
    expect(done.format).toBe('pdf');
    expect(done.pages).toBeGreaterThan(0);
    const res = await t.app.inject(`/collector/api/bookbuilder/${epubSession}`);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/\.pdf"$/);
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }, 90_000);

  it('honours a partial selection in the PDF too (the Typst source of the book)', () => {
    const { source } = bookTypst([{ muse: selectSections(paper, [1, 3]), files: new Map() }], defaultCollectionData());
    expect(source).toContain('Why paper dies');
    expect(source).toContain('Handling');
    expect(source).not.toContain('The room');
    expect(bookTypst([{ muse: paper, files: new Map() }], defaultCollectionData()).source).toContain('The room');
  });

  it('refuses an unknown format (JSON 400) and a bad partial selection, queueing and adding nothing', async () => {
    const before = t.services.db.sqlite.prepare('SELECT count(*) FROM jobs').pluck().get();
    const r = await call({ action: 'build', session_id: epubSession, collection_data: toBuildPayload({ ...defaultCollectionData(), title: 'X' }), format: 'mobi' });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('Invalid request (format: use pdf or epub)');
    expect(t.services.db.sqlite.prepare('SELECT count(*) FROM jobs').pluck().get()).toBe(before);
    // a selection a person typed wrong is a refusal the spec's client reads from `error` (200, docs/api.md), nothing added
    const bad = await call({ action: 'add', add: ds[101], partial: 'one,two' });
    expect(bad.json.error).toMatch(/partial: section numbers separated by commas/);
    expect(bad.json.texts).toBeUndefined();
    const past = await call({ action: 'add', add: ds[101], partial: '0,99' });
    expect(past.json.error).toMatch(/^partial: this text has sections 0 to 5, not 99/);
    expect(past.json.texts).toBeUndefined();
  });
});
