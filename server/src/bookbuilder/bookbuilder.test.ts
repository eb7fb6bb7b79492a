// The Book Builder API end to end on a test catalogue with real Muse texts: sessions, limits,
// validation, durable build jobs in worker threads, and the real PDFs they produce.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, PDFDict, PDFName } from 'pdf-lib';
import { bookbuilderResponseSchema, defaultCollectionData, toBuildPayload, type BookbuilderResponse, type CollectionData } from '@uc/shared';
import { repoRoot } from '../config.ts';
import { createJobWorker } from '../app.ts';
import { fixtureLines, museEntryLine, testApp, type TestApp } from '../test/fixture.ts';
import { BuilderSessions } from './sessions.ts';
import { BookBuilderService } from './service.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { HttpError } from '../http/errors.ts';
import { bookTypst } from './build.ts';

const texts = path.join(repoRoot, 'demo', 'texts');
const museEntry = museEntryLine;

let t: TestApp;
let jobs: ReturnType<typeof createJobWorker>;
let csrf: Record<string, string> = {};
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await testApp([
    ...fixtureLines(),
    museEntry(101, 'Keeping Paper Alive', 'keeping-paper-alive.muse', 'en'),
    museEntry(102, 'How to Use the Union Catalogue', 'how-to-use-the-catalogue.muse', 'en'),
    museEntry(103, 'Lettera a chi apre una biblioteca', 'lettera-a-chi-apre-una-biblioteca.muse', 'it'),
    museEntry(104, 'Hidden Muse Text', 'small-shelves-long-memories.muse', 'en', 3),
    museEntry(106, 'Japanese Text', path.join(import.meta.dirname, 'fixtures', 'japanese.muse'), 'ja'),
    // One text held by two libraries: two data sources of one entry.
    {
      ...museEntry(105, 'Twice Held Text', 'keeping-paper-alive.muse', 'en'),
      data_sources: [1, 2].map((library_id) => ({ library_id, identifier: `muse-105-${library_id}`, year_edition: 2026, downloads: [], muse_file: path.join(texts, 'keeping-paper-alive.muse') })),
    },
  ]);
  const dsId = (title: string) => t.services.db.sqlite.prepare('SELECT id FROM data_sources WHERE title = ?').pluck().get(title) as number;
  const byIdentifier = t.services.db.sqlite.prepare('SELECT id FROM data_sources WHERE identifier = ?').pluck();
  ids['Twice Held Text 1'] = byIdentifier.get('muse-105-1') as number;
  ids['Twice Held Text 2'] = byIdentifier.get('muse-105-2') as number;
  for (const k of ['Keeping Paper Alive', 'How to Use the Union Catalogue', 'Lettera a chi apre una biblioteca', 'Hidden Muse Text', 'Mutual Aid', 'Japanese Text']) ids[k] = dsId(k);
  // A GET hands out the CSRF cookie when the app checks it; send it back on every POST.
  const res = await t.app.inject('/collector/api/general');
  const cookie = res.cookies.find((c) => c.name === 'csrftoken');
  if (cookie) csrf = { cookie: `csrftoken=${cookie.value}`, 'x-csrftoken': cookie.value };
  jobs = createJobWorker({ jobConcurrency: 1, bookBuildConcurrency: 1 }, t.services);
  jobs.start();
}, 60_000);

afterAll(async () => {
  await jobs.stop();
  await t.close();
});

async function call(body: object): Promise<{ status: number; json: BookbuilderResponse & { error?: string } }> {
  const res = await t.app.inject({ method: 'POST', url: '/collector/api/bookbuilder', payload: body, headers: csrf });
  const json = res.json();
  if (res.statusCode === 200) bookbuilderResponseSchema.parse(json);
  return { status: res.statusCode, json };
}

async function ok(body: object): Promise<BookbuilderResponse> {
  const r = await call(body);
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json;
}

async function waitForJob(session_id: string, job_id: number, timeoutMs = 45_000): Promise<BookbuilderResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await ok({ action: 'check_job', session_id, check_job_id: job_id });
    if (r.status === 'finished' || r.status === 'failed' || r.status === 'not found') return r;
    if (Date.now() > deadline) throw new Error(`job ${job_id} still ${r.status}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function newSession(...titles: string[]): Promise<string> {
  let sid: string | null = null;
  for (const title of titles) sid = (await ok({ action: 'add', add: ids[title], session_id: sid })).session_id!;
  return sid!;
}

/** Builds with these collection_data settings, sent as the build payload of spec §7 (as the web app does). */
async function buildPdf(sid: string, data: Partial<CollectionData>): Promise<{ doc: PDFDocument; bytes: Buffer; job: BookbuilderResponse }> {
  const b = await ok({ action: 'build', session_id: sid, collection_data: toBuildPayload({ ...defaultCollectionData(), ...data }) });
  expect(b.status).toBe('inactive');
  const job = await waitForJob(sid, b.job_id!);
  expect(job.status, job.error ?? '').toBe('finished');
  const res = await t.app.inject(`/collector/api/bookbuilder/${sid}?inline=1`);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.headers['content-disposition']).toMatch(/^inline; filename="bookbuilder-.*\.pdf"$/);
  return { doc: await PDFDocument.load(res.rawPayload), bytes: res.rawPayload, job };
}

const pt = (mm: number) => (mm * 72) / 25.4;
function pageSize(doc: PDFDocument, i = 0) {
  const { width, height } = doc.getPage(i).getSize();
  return [Math.round(width * 10) / 10, Math.round(height * 10) / 10];
}
const size = (wMm: number, hMm: number) => [Math.round(pt(wMm) * 10) / 10, Math.round(pt(hMm) * 10) / 10];

function embeddedFonts(doc: PDFDocument): string[] {
  const names = new Set<string>();
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (obj instanceof PDFDict && obj.get(PDFName.of('Type')) === PDFName.of('FontDescriptor')) {
      const embedded = obj.get(PDFName.of('FontFile2')) ?? obj.get(PDFName.of('FontFile3')) ?? obj.get(PDFName.of('FontFile'));
      const name = obj.get(PDFName.of('FontName'));
      if (embedded && name) names.add(name.toString().replace(/^\/([A-Z]{6}\+)?/, ''));
    }
  }
  return [...names].sort();
}

const hasPdftotext = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasPdftotext) console.warn('bookbuilder.test.ts: pdftotext (Debian package poppler-utils) is not installed; the checks of the built PDFs\' text are skipped');
function firstPageText(bytes: Buffer): string {
  return execFileSync('pdftotext', ['-f', '1', '-l', '1', '-', '-'], { input: bytes }).toString('utf8').replace(/\s+/g, ' ');
}

describe('texts in a session', () => {
  it('adds texts (creating the session), ignores a second add of the same text, lists them in order', async () => {
    const a = await ok({ action: 'add', add: ids['Keeping Paper Alive'] });
    expect(a.session_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a.texts!.map((x) => x.attributes.title)).toEqual(['Keeping Paper Alive']);
    expect(a.texts![0]).toMatchObject({ sid: a.session_id, attributes: { data_source_id: ids['Keeping Paper Alive'], authors: ['Demo Author'] } });
    expect(a.texts![0].attributes.size).toBeGreaterThan(1000);
    const b = await ok({ action: 'add', add: String(ids['How to Use the Union Catalogue']), session_id: a.session_id });
    expect(b.session_id).toBe(a.session_id);
    const again = await ok({ action: 'add', add: ids['Keeping Paper Alive'], session_id: a.session_id });
    expect(again.status).toBe('Already in the Book Builder');
    const list = await ok({ action: 'list', session_id: a.session_id });
    expect(list.texts!.map((x) => x.attributes.title)).toEqual(['Keeping Paper Alive', 'How to Use the Union Catalogue']);
    expect(list.limits).toEqual({ max_texts: 200, max_bytes: 64 * 1024 * 1024, used_bytes: list.texts!.reduce((s, x) => s + x.attributes.size, 0) });
    // The copy is the session's own: it survives the catalogue file going away.
    expect(fs.readdirSync(path.join(t.services.bookbuilder.sessions.root, a.session_id!, 'texts')).sort()).toEqual(
      list.texts!.flatMap((x) => [`${x.id}.muse`, `${x.id}.zip`]).sort(),
    );
  });

  it('adds another library\'s copy of a text already in the session, and says so', async () => {
    const first = await ok({ action: 'add', add: ids['Twice Held Text 1'] });
    expect(first.status).toBe('OK');
    const sid = first.session_id;
    const second = await ok({ action: 'add', add: ids['Twice Held Text 2'], session_id: sid });
    expect(second.status).toBe('This text is already in the Book Builder from another library');
    expect(second.texts!.map((x) => x.attributes.data_source_id)).toEqual([ids['Twice Held Text 1'], ids['Twice Held Text 2']]);
    expect(new Set(second.texts!.map((x) => x.attributes.entry_id)).size).toBe(1);
    // The same data source again is still the plain no-op.
    expect((await ok({ action: 'add', add: ids['Twice Held Text 2'], session_id: sid })).status).toBe('Already in the Book Builder');
    // After removing the first copy, adding an unrelated text answers OK.
    await ok({ action: 'remove', session_id: sid, remove_id: second.texts![0].id });
    expect((await ok({ action: 'add', add: ids['Keeping Paper Alive'], session_id: sid })).status).toBe('OK');
  });

  it('an unknown session adds into a new one and lists as empty', async () => {
    const a = await ok({ action: 'add', add: ids['Keeping Paper Alive'], session_id: 'AAAAAAAAAAAAAAAAAAAAAA' });
    expect(a.session_id).not.toBe('AAAAAAAAAAAAAAAAAAAAAA');
    const fresh = await ok({ action: 'list', session_id: 'AAAAAAAAAAAAAAAAAAAAAA' });
    expect(fresh).toMatchObject({ session_id: expect.stringMatching(/^[A-Za-z0-9_-]{16,64}$/), texts: [], status: 'OK' });
    expect([a.session_id, 'AAAAAAAAAAAAAAAAAAAAAA']).not.toContain(fresh.session_id);
    expect(await ok({ action: 'list' })).toEqual({ session_id: null, texts: [], status: 'OK' });
  });

  it('reorders (before a text, or to the end) and removes', async () => {
    const sid = await newSession('Keeping Paper Alive', 'How to Use the Union Catalogue', 'Lettera a chi apre una biblioteca');
    const [k, h, l] = (await ok({ action: 'list', session_id: sid })).texts!.map((x) => x.id);
    const order = (r: BookbuilderResponse) => r.texts!.map((x) => x.id);
    expect(order(await ok({ action: 'reorder', session_id: sid, move_id: l, to_id: k }))).toEqual([l, k, h]);
    expect(order(await ok({ action: 'reorder', session_id: sid, move_id: l, to_id: null }))).toEqual([k, h, l]);
    expect(order(await ok({ action: 'reorder', session_id: sid, move_id: h, to_id: k }))).toEqual([h, k, l]);
    expect(order(await ok({ action: 'remove', session_id: sid, remove_id: k }))).toEqual([h, l]);
    expect(fs.existsSync(path.join(t.services.bookbuilder.sessions.root, sid, 'texts', `${k}.muse`))).toBe(false);
    expect(await call({ action: 'remove', session_id: sid, remove_id: k })).toMatchObject({ status: 404 });
    expect(await call({ action: 'reorder', session_id: sid, move_id: 999999, to_id: h })).toMatchObject({ status: 404 });
    expect(await call({ action: 'remove', session_id: 'BBBBBBBBBBBBBBBBBBBBBB', remove_id: h })).toMatchObject({ status: 404, json: { error: expect.stringContaining('session not found') } });
  });

  it('refuses texts without a Muse source, unknown and private data sources', async () => {
    expect(await call({ action: 'add', add: ids['Mutual Aid'] })).toMatchObject({ status: 422, json: { error: expect.stringContaining('no Muse source') } });
    expect(await call({ action: 'add', add: 999999 })).toMatchObject({ status: 404, json: { error: 'No such data source' } });
    expect(await call({ action: 'add', add: ids['Hidden Muse Text'] })).toMatchObject({ status: 404 });
  });

  it('enforces the text and size limits with clear errors', async () => {
    const s = t.services;
    const small = (maxTexts: number, maxSessionBytes: number) =>
      new BookBuilderService(s.db, new BuilderSessions(s.db, path.join(t.dir, 'limits'), 1000), s.catalogue, s.files, s.jobs, { maxTexts, maxSessionBytes }, () => s.fonts.names());
    const two = small(2, 64 * 1024 * 1024);
    let sid = two.add(null, ids['Keeping Paper Alive'], ANONYMOUS).session_id!;
    two.add(sid, ids['How to Use the Union Catalogue'], ANONYMOUS);
    expect(() => two.add(sid, ids['Lettera a chi apre una biblioteca'], ANONYMOUS)).toThrow(/at most 2 texts/);
    try {
      two.add(sid, ids['Lettera a chi apre una biblioteca'], ANONYMOUS);
    } catch (e) {
      expect((e as HttpError).statusCode).toBe(409);
    }
    const first = two.list(sid).texts![0].attributes.size;
    const tiny = small(200, first + 1000);
    sid = tiny.add(null, ids['Keeping Paper Alive'], ANONYMOUS).session_id!;
    try {
      tiny.add(sid, ids['How to Use the Union Catalogue'], ANONYMOUS);
      expect.unreachable();
    } catch (e) {
      expect((e as HttpError).statusCode).toBe(413);
      expect((e as Error).message).toMatch(/^Quota exceeded: a book may hold at most [\d.]+ MiB of sources \(.* used, this text needs .*\)$/);
    }
  });
});

describe('validation', () => {
  it('answers 400 JSON without internals for requests no correct client sends', async () => {
    for (const body of [
      { action: 'explode' },
      { action: 'add', add: 'x' },
      { action: 'list', session_id: '../../../etc/passwd' },
      { action: 'build', session_id: 'AAAAAAAAAAAAAAAAAAAAAA', collection_data: { bcor: '5px' } },
      { action: 'build', session_id: 'AAAAAAAAAAAAAAAAAAAAAA', collection_data: { papersize: 'a4-ish' } },
    ]) {
      const r = await call(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(r.json)).toEqual(['error']);
      expect(r.json.error).toMatch(/^Invalid request/);
      expect(r.json.error).not.toMatch(/at .*\.ts/);
    }
  });

  // Contract of issue 17: a form's validation message is a refusal the user must read, answered 200 with error.
  it('answers a form value out of bounds 200 with the error naming the field, without internals', async () => {
    for (const [body, field] of [
      [{ fontsize: 20 }, 'fontsize'],
      [{ papersize: '500mm:501mm' }, 'papersize'],
      [{ linespacing: 1.55 }, 'linespacing'],
      [{ bcor: '51mm' }, 'bcor'],
    ] as const) {
      const r = await call({ action: 'build', session_id: 'AAAAAAAAAAAAAAAAAAAAAA', collection_data: body });
      expect(r.status, JSON.stringify(body)).toBe(200);
      expect(Object.keys(r.json)).toEqual(['error']);
      expect(r.json.error).toMatch(/^Invalid request/);
      expect(r.json.error).toContain(field);
      expect(r.json.error).not.toMatch(/at .*\.ts/);
    }
    // The spec's client sends an empty papersize for a custom size without its width and height.
    const r = await call({ action: 'build', session_id: 'AAAAAAAAAAAAAAAAAAAAAA', collection_data: { papersize: '' } });
    expect(r).toMatchObject({ status: 200, json: { error: expect.stringContaining('Please set') } });
  });

  it('checks the session, the texts, the virtual header and the fonts before queueing', async () => {
    expect(await call({ action: 'build', session_id: 'AAAAAAAAAAAAAAAAAAAAAA', collection_data: {} })).toMatchObject({ status: 404 });
    const sid = await newSession('Keeping Paper Alive', 'How to Use the Union Catalogue');
    const builds = () => t.services.db.sqlite.prepare("SELECT count(*) FROM jobs WHERE kind = 'book_build'").pluck().get() as number;
    const before = builds();
    // Refusals the user can mend: 200 with error (issue 17), and no job.
    const noTitle = await call({ action: 'build', session_id: sid, collection_data: {} });
    expect(noTitle).toMatchObject({ status: 200, json: { error: expect.stringContaining('collection_data.title: A collection of several texts needs a title') } });
    expect(noTitle.json.job_id).toBeUndefined();
    const font = await call({ action: 'build', session_id: sid, collection_data: { title: 'T', mainfont: 'Comic Sans' } });
    expect(font).toMatchObject({ status: 200, json: { error: expect.stringContaining('"Comic Sans" is not available') } });
    const proportional = await call({ action: 'build', session_id: sid, collection_data: { title: 'T', monofont: 'DejaVu Serif' } });
    expect(proportional).toMatchObject({ status: 200, json: { error: expect.stringContaining('"DejaVu Serif" is not a monospaced font') } });
    await ok({ action: 'remove', session_id: sid, remove_id: (await ok({ action: 'list', session_id: sid })).texts![0].id });
    await ok({ action: 'remove', session_id: sid, remove_id: (await ok({ action: 'list', session_id: sid })).texts![0].id });
    expect(await call({ action: 'build', session_id: sid, collection_data: {} })).toMatchObject({ status: 200, json: { error: expect.stringContaining('at least one text') } });
    expect(builds()).toBe(before);
  });

  it('GET of a session without a book is a 404 JSON; a bad id a 400', async () => {
    const sid = await newSession('Keeping Paper Alive');
    expect((await t.app.inject(`/collector/api/bookbuilder/${sid}`)).json()).toEqual({ error: 'No PDF has been built in this session yet' });
    expect((await t.app.inject('/collector/api/bookbuilder/CCCCCCCCCCCCCCCCCCCCCC')).statusCode).toBe(404);
    expect((await t.app.inject('/collector/api/bookbuilder/bad')).statusCode).toBe(400);
  });
});

describe('fonts and headings', () => {
  it('lists the fonts the compiler has, with server-rendered previews', async () => {
    const { fonts } = await ok({ action: 'get_fonts' });
    const names = fonts!.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['DejaVu Serif', 'DejaVu Sans', 'DejaVu Sans Mono']));
    const mono = fonts!.find((f) => f.name === 'DejaVu Sans Mono')!;
    expect(mono).toMatchObject({
      type: 'mono',
      preview_pdf: '/collector/api/bookbuilder/fonts/DejaVu-Sans-Mono.pdf',
      preview_png: '/collector/api/bookbuilder/fonts/DejaVu-Sans-Mono.png',
      preview_svg: '/collector/api/bookbuilder/fonts/DejaVu-Sans-Mono.svg',
    });
    const png = await t.app.inject(mono.preview_png);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const svg = await t.app.inject(mono.preview_svg);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.body).toMatch(/^<svg/);
    const pdf = await t.app.inject(mono.preview_pdf);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await t.app.inject('/collector/api/bookbuilder/fonts/No-Such-Font.svg')).statusCode).toBe(404);
  });

  it("writes the previews in the reader's language (a pangram of it), cached apart from the English ones", async () => {
    const res = await t.app.inject({ method: 'POST', url: '/collector/api/bookbuilder', payload: { action: 'get_fonts' }, headers: { ...csrf, 'accept-language': 'el' } });
    const serif = (res.json() as BookbuilderResponse).fonts!.find((f) => f.name === 'DejaVu Serif')!;
    expect(serif.preview_svg).toBe('/collector/api/bookbuilder/fonts/DejaVu-Serif.svg?lang=el');
    expect(serif.preview_png).toBe('/collector/api/bookbuilder/fonts/DejaVu-Serif.png?lang=el');
    const greek = await t.app.inject(serif.preview_svg);
    const english = await t.app.inject('/collector/api/bookbuilder/fonts/DejaVu-Serif.svg');
    expect(greek.statusCode).toBe(200);
    expect(greek.body).toMatch(/^<svg/);
    // Other sentences, other glyphs: the Greek specimen is not the English one.
    expect(greek.body).not.toBe(english.body);
    expect((await t.app.inject('/collector/api/bookbuilder/fonts/DejaVu-Serif.svg?lang=xx')).statusCode).toBe(400);
  });

  it('offers, for a session, DejaVu and the families that have every letter of its texts', async () => {
    const offered = (fonts: BookbuilderResponse['fonts']) => fonts!.filter((f) => f.offered).map((f) => f.name);
    const latin = (await ok({ action: 'add', add: ids['Keeping Paper Alive'] })).session_id!;
    const ja = (await ok({ action: 'add', add: ids['Japanese Text'] })).session_id!;
    const forLatin = (await ok({ action: 'get_fonts', session_id: latin })).fonts!;
    const forJa = (await ok({ action: 'get_fonts', session_id: ja })).fonts!;
    const cjk = forJa.filter((f) => /CJK/.test(f.name)).map((f) => f.name);

    // Latin text: the Latin serifs (the compiler's Libertinus at least) are offered beside DejaVu
    expect(offered(forLatin)).toEqual(expect.arrayContaining(['DejaVu Serif', 'DejaVu Sans', 'DejaVu Sans Mono', 'Libertinus Serif', 'New Computer Modern']));
    expect(forLatin.find((f) => f.name === 'Libertinus Serif')).toMatchObject({ offered: true, covers_texts: true, missing: '', bundled: false });
    // Japanese text: DejaVu still (bundled, marked as lacking the letters), the CJK families, no Latin-only serif
    expect(offered(forJa).sort()).toEqual(['DejaVu Sans', 'DejaVu Sans Mono', 'DejaVu Serif', ...cjk].sort());
    expect(forJa.find((f) => f.name === 'DejaVu Serif')).toMatchObject({ offered: true, bundled: true, covers_texts: false, missing: expect.stringContaining('町') });
    const libertinus = forJa.find((f) => f.name === 'Libertinus Serif')!;
    expect(libertinus).toMatchObject({ offered: false, covers_texts: false });
    expect([...libertinus.missing]).toEqual(expect.arrayContaining(['町', '図', '書']));
    expect([...libertinus.missing].length).toBe(12);
    for (const name of cjk) expect(forJa.find((f) => f.name === name)).toMatchObject({ offered: true, covers_texts: true, missing: '' });
    // a build refuses what the list does not offer, naming the letters
    const builds = () => t.services.db.sqlite.prepare("SELECT count(*) FROM jobs WHERE kind = 'book_build'").pluck().get() as number;
    const before = builds();
    const refused = await call({ action: 'build', session_id: ja, collection_data: { mainfont: 'Libertinus Serif' } });
    expect(refused).toMatchObject({ status: 200, json: { error: expect.stringMatching(/collection_data\.mainfont: the font "Libertinus Serif" lacks letters of these texts \(町.*\)/) } });
    expect(builds()).toBe(before);
    // without a session nothing is measured: every family is offered
    expect((await ok({ action: 'get_fonts' })).fonts!.every((f) => f.offered && f.covers_texts)).toBe(true);
  });

  it('lists the heading styles with descriptions', async () => {
    const { headings } = await ok({ action: 'get_headings' });
    expect(headings!.map((h) => h.name)).toEqual(['0', 'part_chapter', 'title_subtitle', 'author_title', 'chapter_section', 'section_subsection', 'title_chapter', 'title_section']);
    expect(headings![0].desc).toBe('None');
  });
});

describe('builds', () => {
  it('builds one text as itself: A5, its title on page 1, DejaVu embedded', async () => {
    const sid = await newSession('Keeping Paper Alive');
    const { doc, bytes, job } = await buildPdf(sid, {});
    expect(doc.getPageCount()).toBe(job.pages);
    expect(doc.getPageCount()).toBeGreaterThan(4);
    expect(pageSize(doc)).toEqual(size(148, 210));
    expect(doc.getTitle()).toBe('Keeping Paper Alive');
    expect(embeddedFonts(doc)).toEqual(expect.arrayContaining(['DejaVuSerif', 'DejaVuSerif-Bold']));
    if (hasPdftotext) expect(firstPageText(bytes)).toContain('Keeping Paper Alive');
  });

  it('builds a collection under its virtual header with every option taking effect', async () => {
    const sid = await newSession('Keeping Paper Alive', 'Lettera a chi apre una biblioteca');
    const { doc, bytes } = await buildPdf(sid, {
      title: 'Paper and Libraries', subtitle: 'Two texts', author: 'The Editors', papersize: 'b5', fontsize: 10, mainfont: 'DejaVu Sans', monofont: 'DejaVu Sans Mono',
      twoside: true, headings: 'title_chapter', linespacing: 1.2, parindent: 0,
    });
    expect(pageSize(doc)).toEqual(size(176, 250));
    expect(doc.getTitle()).toBe('Paper and Libraries');
    expect(doc.getAuthor()).toBe('The Editors');
    expect(doc.getPageCount() % 2).toBe(0);
    expect(embeddedFonts(doc)).toContain('DejaVuSans');
    expect(embeddedFonts(doc)).not.toContain('DejaVuSerif');
    if (hasPdftotext) {
      const first = firstPageText(bytes);
      expect(first).toContain('Paper and Libraries');
      expect(first).toContain('The Editors');
    }
  });

  it('maps every collection_data field into the Typst source', () => {
    const d: CollectionData = {
      ...defaultCollectionData(),
      papersize: 'custom', papersize_width: 120, papersize_height: 180, division_factor: 0, areaset_width: 90, areaset_height: 140,
      geometry_top_margin: 12, geometry_outer_margin: 10, binding_correction: 5, twoside: true, opening: 'right', headings: 'part_chapter',
      linespacing: 1.5, parindent: 20, tex_tolerance: 1000, tex_emergencystretch: 15, fontsize: 11, mainfont: 'DejaVu Serif', sansfont: 'DejaVu Sans',
      sansfontsections: true, nobold: true, centerchapter: true, centersection: true, continuefootnotes: true, notoc: true, nofinalpage: false,
      start_with_empty_page: true, impressum: true, title: 'T', notes: 'Impressum notes', source: 'The source',
    };
    const muse = fs.readFileSync(path.join(texts, 'keeping-paper-alive.muse'), 'utf8');
    const { source } = bookTypst([{ muse, files: new Map() }, { muse, files: new Map() }], d);
    expect(source).toContain('#set page(width: 120mm, height: 180mm, margin: (inside: 20mm, outside: 10mm, top: 12mm, bottom: 28mm), binding: left');
    expect(source).toContain('size: 11pt');
    expect(source).toContain('first-line-indent: (amount: 20pt');
    // linespacing 1.5 stretches LaTeX's 14.5 pt pitch (for 12 pt): (14.5/12 × 1.5 − 1)em between line boxes
    expect(source).toContain('leading: 0.813em');
    expect(source).toContain('justification-limits: (spacing: (min: 66.67%, max: 207.7%), tracking: (min: 0em, max: 0.01em))');
    expect(source).toContain('#show heading: set text(font: ("DejaVu Sans"');
    expect(source).toContain('#museBreak("odd")');
    expect(source).not.toContain('#museToc()');
    expect(source).not.toContain('counter(footnote).update(0)');
    expect(source).toContain('#page(header: none, footer: none)[]');
    expect(source).toContain('Impressum notes');
    expect(source).toContain('The source');
    expect(source).not.toContain('#strong[');
  });

  it('imposes 2up with 16-page signatures: sheets twice as wide, pages padded to the signature', async () => {
    const sid = await newSession('Keeping Paper Alive');
    const plain = (await buildPdf(sid, {})).job.pages!;
    const { doc, job } = await buildPdf(sid, { imposition_schema: '2up', signature_2up: '16' });
    expect(pageSize(doc)).toEqual(size(296, 210));
    expect(job.pages).toBe((Math.ceil(plain / 16) * 16) / 2);
    expect(job.book_pages).toBe(plain);
    expect(job.sheets).toBe(Math.ceil(plain / 16) * 4);
    expect(doc.getPageCount()).toBe(job.pages);
  });

  it('puts crop marks on the crop paper before imposing (2up of A4 = A3 landscape)', async () => {
    const sid = await newSession('Keeping Paper Alive');
    const { doc } = await buildPdf(sid, { imposition_schema: '2up', cropmarks: true, crop_papersize: 'a4', crop_paper_thickness: 0.1 });
    expect(pageSize(doc)).toEqual(size(420, 297));
    const fourUp = await buildPdf(sid, { papersize: 'a6', imposition_schema: '4up', signature_4up: '8' });
    expect(pageSize(fourUp.doc)).toEqual(size(210, 296));
  });

  it('custom paper sizes take effect', async () => {
    const sid = await newSession('Lettera a chi apre una biblioteca');
    const { doc } = await buildPdf(sid, { papersize: 'custom', papersize_width: 120, papersize_height: 180 });
    expect(pageSize(doc)).toEqual(size(120, 180));
  });

  it('a queued build waits for a worker and survives a restart; unknown jobs are "not found"', async () => {
    await jobs.stop();
    const sid = await newSession('Lettera a chi apre una biblioteca');
    const b = await ok({ action: 'build', session_id: sid, collection_data: {} });
    const queued = await ok({ action: 'check_job', session_id: sid, check_job_id: b.job_id });
    expect(queued).toMatchObject({ status: 'inactive', queue_position: 0, error: null });
    // A worker takes it and dies mid-build (no finish, no heartbeat) …
    expect(t.services.jobs.claim('crashed', ['book_build'])?.id).toBe(b.job_id);
    expect((await ok({ action: 'check_job', session_id: sid, check_job_id: b.job_id })).status).toBe('active');
    // … the next start puts it back and runs it.
    t.services.db.sqlite.prepare("UPDATE jobs SET heartbeat = '2000-01-01T00:00:00.000Z' WHERE id = ?").run(b.job_id);
    jobs = createJobWorker({ jobConcurrency: 1 }, t.services);
    jobs.start();
    expect((await waitForJob(sid, b.job_id!)).status).toBe('finished');
    expect(await ok({ action: 'check_job', session_id: sid, check_job_id: 999999 })).toMatchObject({ status: 'not found' });
    const other = await newSession('Keeping Paper Alive');
    expect(await ok({ action: 'check_job', session_id: other, check_job_id: b.job_id })).toMatchObject({ status: 'not found' });
  });

  it('a failing build reports failed with its reason', async () => {
    const sid = await newSession('Keeping Paper Alive');
    // Break the copied source on disk: the job must fail with a reason, not hang.
    const id = (await ok({ action: 'list', session_id: sid })).texts![0].id;
    fs.rmSync(path.join(t.services.bookbuilder.sessions.root, sid, 'texts', `${id}.muse`));
    const b = await ok({ action: 'build', session_id: sid, collection_data: {} });
    const r = await waitForJob(sid, b.job_id!);
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/ENOENT/);
  });
});

describe('cleanup', () => {
  it('deletes sessions untouched for longer than the setting, with their files', async () => {
    const sid = await newSession('Keeping Paper Alive');
    const dir = path.join(t.services.bookbuilder.sessions.root, sid);
    expect(fs.existsSync(dir)).toBe(true);
    const r = t.services.bookbuilder.sessions.cleanup(Date.now() + 8 * 86400_000);
    expect(r.sessions).toBeGreaterThan(0);
    expect(fs.existsSync(dir)).toBe(false);
    const fresh = await ok({ action: 'list', session_id: sid });
    expect(fresh).toMatchObject({ texts: [] });
    expect(fresh.session_id).not.toBe(sid);
  });
});
