// Contract: the Book Builder calls as the spec's client (the anchor's front end) sends them, and what it
// reads from the answers. Payloads written down from reading that client: its store keeps collection_data
// with form values (select values as strings, number inputs as numbers) and, on Build, sends a copy with
// the build payload of spec §7 added: papersize as a name or "<w>mm:<h>mm", bcor "<n>mm", division (9
// with the areaset and margins in mm when the factor is 0, which are dropped otherwise),
// tex_emergencystretch "<n>pt", flags as 1 or left out, linespacing left out when 1 or less, one
// signature for the schema (signature_2up/4up and, without one, fill_signature left out), and
// crop_papersize/crop_paper_thickness ("0.1mm") only with crop marks (cropmarks itself never sent).
// Its other reads: list/remove/reorder answer texts and session_id; build answers job_id; check_job
// answers status; get_fonts answers fonts with name, desc, type, preview_pdf and preview_png.
import { PNG } from 'pngjs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../config.ts';
import { createJobWorker } from '../../app.ts';
import { CSRF_HEADERS, entryId, fixtureLines, testApp, type TestApp } from '../fixture.ts';
import { pdfPageSizesMm, pdfTextLines } from '../../covers/test/pdf-inspect.ts';

const texts = path.join(repoRoot, 'demo', 'texts');
let t: TestApp;
let jobs: ReturnType<typeof createJobWorker>;
let dsId: number;

beforeAll(async () => {
  t = await testApp([
    ...fixtureLines(),
    {
      type: 'entry', id: 201, title: 'Keeping Paper Alive', subtitle: null, authors: ['Demo Author'], languages: ['en'], year: 2026, aggregation_id: null, translation_of: null, fulltext: null,
      data_sources: [{ library_id: 1, identifier: 'muse-201', year_edition: 2026, downloads: [], muse_file: path.join(texts, 'keeping-paper-alive.muse') }],
    },
  ]);
  dsId = t.services.db.sqlite.prepare("SELECT id FROM data_sources WHERE identifier = 'muse-201'").pluck().get() as number;
  jobs = createJobWorker({ jobConcurrency: 1, bookBuildConcurrency: 1 }, t.services);
  jobs.start();
}, 60_000);

afterAll(async () => {
  await jobs.stop();
  await t.close();
});

type Answer = Record<string, unknown> & { session_id?: string | null; texts?: { id: number; sid: string; attributes: { title: string; entry_id: number | null } }[] };

/** POST /bookbuilder as the client's axios sends it (JSON, CSRF header from the cookie). */
async function post(body: object): Promise<{ status: number; json: Answer }> {
  const res = await t.app.inject({ method: 'POST', url: '/collector/api/bookbuilder', payload: body, headers: CSRF_HEADERS });
  return { status: res.statusCode, json: res.json() as Answer };
}

async function newSession(): Promise<string> {
  const r = await post({ action: 'add', add: dsId, session_id: null });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json.session_id!;
}

/**
 * What Build sends with the client's default collection_data (papersize a5, fontsize "12", division_factor
 * "12", binding_correction "0", linespacing 1, tex_emergencystretch 30, signature_2up/4up "0",
 * fill_signature true, crop_papersize a4, crop_paper_thickness 0.1, …): the form fields stay, the payload
 * fields are added, and linespacing, the signatures, fill_signature and the crop options are left out.
 */
const DEFAULT_PAYLOAD = {
  papersize: 'a5', mainfont: 'DejaVu Serif', sansfont: 'DejaVu Sans', monofont: 'DejaVu Sans Mono', imposition_schema: '', fontsize: '12',
  division_factor: '12', binding_correction: '0', opening: 'any', parindent: 15, tex_tolerance: 200, tex_emergencystretch: '30pt',
  headings: '0', bcor: '0mm', division: '12',
};

/** Build, poll check_job every second's worth (faster here) until finished, then download as the client links it. */
async function build(sid: string, collection_data: object): Promise<{ pdf: Uint8Array; pages: { width: number; height: number }[] }> {
  const b = await post({ session_id: sid, collection_data, action: 'build' });
  expect(b.status, JSON.stringify(b.json)).toBe(200);
  expect(b.json.job_id).toEqual(expect.any(Number));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const c = await post({ session_id: sid, action: 'check_job', check_job_id: b.json.job_id });
    if (c.json.status === 'finished') break;
    expect(c.json.status, String(c.json.error)).not.toBe('failed');
    expect(['inactive', 'active']).toContain(c.json.status);
    if (Date.now() > deadline) throw new Error('the build did not finish');
    await new Promise((r) => setTimeout(r, 100));
  }
  const res = await t.app.inject(`/collector/api/bookbuilder/${sid}`);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  const pdf = new Uint8Array(res.rawPayload);
  return { pdf, pages: await pdfPageSizesMm(pdf) };
}

const near = (mm: number) => expect.closeTo(mm, 0);
const sized = (w: number, h: number) => ({ width: near(w), height: near(h) });

/** The widest text line on any page, in mm. */
async function widestLineMm(pdf: Uint8Array, pages: number): Promise<number> {
  let widest = 0;
  for (let i = 0; i < pages; i++) for (const l of await pdfTextLines(pdf, i)) widest = Math.max(widest, l.width);
  return widest;
}

describe('the session calls', () => {
  it('add creates the session; list (texts with the entry the book icon links to), reorder (move_id as the drag data string) and remove answer texts and session_id', async () => {
    const sid = await newSession();
    const list = await post({ session_id: sid, action: 'list' });
    expect(list.json).toMatchObject({ session_id: sid, texts: [{ sid, attributes: { title: 'Keeping Paper Alive', entry_id: entryId(t.services, 'Keeping Paper Alive') } }] });
    const first = list.json.texts![0];
    // Dropping a text on itself: move_id comes from dataTransfer.getData, a string.
    const reordered = await post({ session_id: sid, action: 'reorder', move_id: String(first.id), to_id: first.id });
    expect(reordered.json).toMatchObject({ session_id: sid, texts: [{ id: first.id }] });
    const removed = await post({ session_id: sid, action: 'remove', remove_id: first.id });
    expect(removed.json).toMatchObject({ session_id: sid, texts: [] });
  });

  it('get_headings needs no session (get_fonts: below)', async () => {
    const h = await post({ action: 'get_headings' });
    expect(h.json.headings).toContainEqual({ name: '0', desc: 'None' });
  });
});

describe('the build payload (spec §7)', () => {
  let bookPages = 0;

  it('with the defaults: an A5 book', async () => {
    const sid = await newSession();
    const { pages } = await build(sid, DEFAULT_PAYLOAD);
    expect(pages.length).toBeGreaterThan(4);
    for (const p of pages) expect(p).toEqual(sized(148, 210));
    bookPages = pages.length;
  }, 90_000);

  it('a custom size: papersize "<w>mm:<h>mm", division factor 0 → division 9 with the text block in mm', async () => {
    const sid = await newSession();
    const payload = {
      ...DEFAULT_PAYLOAD, papersize: '120mm:180mm', papersize_width: 120, papersize_height: 180,
      division_factor: '0', division: 9, areaset_width: '100mm', areaset_height: '150mm',
    };
    const { pdf, pages } = await build(sid, payload);
    for (const p of pages) expect(p).toEqual(sized(120, 180));
    // Lines fill the 100 mm text block: far wider than the 80 mm of the DIV 9 fallback (the extraction counts
    // a trailing space and glyph overhang, so a full line measures a little over 100 mm).
    const widest = await widestLineMm(pdf, pages.length);
    expect(widest).toBeGreaterThan(95);
    expect(widest).toBeLessThan(104);
  }, 90_000);

  it('2up takes signature from signature_2up (sheets of two A5 pages, padded to 16-page signatures)', async () => {
    const sid = await newSession();
    const { pages } = await build(sid, { ...DEFAULT_PAYLOAD, imposition_schema: '2up', signature: 16, fill_signature: 1 });
    for (const p of pages) expect(p).toEqual(sized(296, 210));
    expect(pages.length).toBe((Math.ceil(bookPages / 16) * 16) / 2);
  }, 90_000);

  it('4up takes signature from signature_4up (A6 pages, four to an A4 sheet)', async () => {
    const sid = await newSession();
    const { pages } = await build(sid, { ...DEFAULT_PAYLOAD, papersize: 'a6', imposition_schema: '4up', signature: 8, fill_signature: 1 });
    for (const p of pages) expect(p).toEqual(sized(210, 296));
  }, 90_000);

  it('crop marks: crop_papersize and crop_paper_thickness "0.1mm" put each page on the crop paper before imposing', async () => {
    const sid = await newSession();
    const { pages } = await build(sid, { ...DEFAULT_PAYLOAD, imposition_schema: '2up', signature: '0', fill_signature: 1, crop_papersize: 'a4', crop_paper_thickness: '0.1mm' });
    for (const p of pages) expect(p).toEqual(sized(420, 297));
    // Without the crop options the same schema prints on sheets of two A5 pages (see 2up above).
  }, 90_000);

  it('booleans are 1 or absent: start_with_empty_page 1 leaves page 1 blank, absent it carries the title', async () => {
    const sid = await newSession();
    const plain = await build(sid, DEFAULT_PAYLOAD);
    expect((await pdfTextLines(plain.pdf, 0)).map((l) => l.text).join(' ')).toContain('Keeping Paper Alive');
    const empty = await build(sid, { ...DEFAULT_PAYLOAD, start_with_empty_page: 1, twoside: 1 });
    expect(await pdfTextLines(empty.pdf, 0)).toEqual([]);
    expect(empty.pages.length).toBeGreaterThan(plain.pages.length);
  }, 120_000);

  it('a bad unit is refused with a 4xx naming the field, and nothing is built', async () => {
    const sid = await newSession();
    const queued = () => t.services.db.sqlite.prepare("SELECT count(*) FROM jobs WHERE kind = 'book_build'").pluck().get() as number;
    const before = queued();
    for (const [field, value] of [['bcor', '5px'], ['tex_emergencystretch', 'thirty'], ['crop_paper_thickness', '0.1 furlong'], ['papersize', 'a4-ish']] as const) {
      const r = await post({ session_id: sid, action: 'build', collection_data: { ...DEFAULT_PAYLOAD, imposition_schema: '2up', signature: 16, [field]: value } });
      expect(r.status, field).toBeGreaterThanOrEqual(400);
      expect(r.status, field).toBeLessThan(500);
      expect(r.json.error, field).toContain(field);
      expect(r.json.job_id, field).toBeUndefined();
    }
    expect(queued()).toBe(before);
    expect((await t.app.inject(`/collector/api/bookbuilder/${sid}`)).statusCode).toBe(404);
  });
});

describe('get_fonts (spec §3 Font)', () => {
  it('lists name, desc, type, preview_pdf and preview_png; the PNG is a picture of the font, not a blank', async () => {
    const { json } = await post({ action: 'get_fonts' });
    const fonts = json.fonts as { name: string; desc: string; type: string; preview_pdf: string; preview_png: string }[];
    expect(fonts.filter((f) => f.type === 'mono').map((f) => f.name)).toContain('DejaVu Sans Mono');
    const serif = fonts.find((f) => f.name === 'DejaVu Serif')!;
    expect(serif).toMatchObject({ desc: expect.stringContaining('DejaVu Serif'), preview_pdf: expect.stringMatching(/\.pdf$/), preview_png: expect.stringMatching(/\.png$/) });
    const res = await t.app.inject(serif.preview_png);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const png = PNG.sync.read(res.rawPayload);
    expect(png.width).toBeGreaterThan(300);
    let dark = 0;
    for (let i = 0; i < png.data.length; i += 4) if (png.data[i] < 128 && png.data[i + 3] > 0) dark++;
    const share = dark / (png.width * png.height);
    // Text on a white page: some ink, mostly paper.
    expect(share).toBeGreaterThan(0.01);
    expect(share).toBeLessThan(0.5);
    const pdf = await t.app.inject(serif.preview_pdf);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });
});
