// The cover builder through its HTTP API (spec §7 POST /bookcover, /bookcover/upload): tokens, every
// token type's refusals, uploads, previews, and the built PDF checked like a print shop would.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as mupdf from 'mupdf';
import { SPINE_TEXT_MIN_MM, bookcoverResponseSchema, coverLayout, type BookcoverResponse, type BookcoverUploadResponse, type BookbuilderResponse } from '@uc/shared';
import { createJobWorker } from '../app.ts';
import { CSRF_HEADERS, multipartBody, testApp, type TestApp } from '../test/fixture.ts';
import { decodeBarcodes, pdfFonts, pdfPageSizesMm, pdfTextLines, renderGrey, type GreyImage } from './test/pdf-inspect.ts';

let t: TestApp;
let jobs: ReturnType<typeof createJobWorker>;

beforeAll(async () => {
  t = await testApp();
  jobs = createJobWorker({ jobConcurrency: 1, bookBuildConcurrency: 1 }, t.services);
  jobs.start();
}, 60_000);

afterAll(async () => {
  await jobs.stop();
  await t.close();
});

type Reply = { status: number; json: BookcoverResponse & { error?: string } };

async function cover(body: object): Promise<Reply> {
  const res = await t.app.inject({ method: 'POST', url: '/collector/api/bookcover', payload: body, headers: CSRF_HEADERS });
  const json = res.json();
  if (res.statusCode === 200 && !json.error) bookcoverResponseSchema.parse(json);
  return { status: res.statusCode, json };
}

async function newSession(): Promise<string> {
  const r = await cover({ action: 'get_tokens' });
  expect(r.status).toBe(200);
  return r.json.session_id!;
}

async function upload(sessionId: string, field: string, content: Uint8Array | string, name = 'picture.png') {
  const { payload, contentType } = multipartBody({ session_id: sessionId }, { field, name, content });
  const res = await t.app.inject({ method: 'POST', url: '/collector/api/bookcover/upload', headers: { ...CSRF_HEADERS, 'content-type': contentType }, payload });
  return { status: res.statusCode, json: res.json() as Partial<BookcoverUploadResponse> & { error?: string } };
}

/** A real image of the given pixels, drawn by MuPDF (grey, with a darker square). */
function image(width: number, height: number, format: 'png' | 'jpg'): Uint8Array {
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, width, height], false);
  pix.clear(180);
  try {
    return format === 'png' ? pix.asPNG() : pix.asJPEG(80);
  } finally {
    pix.destroy();
  }
}

async function checkJob(session_id: string, check_job_id: number): Promise<BookbuilderResponse> {
  const res = await t.app.inject({ method: 'POST', url: '/collector/api/bookbuilder', payload: { action: 'check_job', session_id, check_job_id }, headers: CSRF_HEADERS });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function buildPdf(args: Record<string, unknown>): Promise<Buffer> {
  const r = await cover({ action: 'build', args });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  expect(r.json).toMatchObject({ session_id: args.session_id, status: 'inactive' });
  const deadline = Date.now() + 45_000;
  for (;;) {
    const s = await checkJob(String(args.session_id), r.json.job_id!);
    if (s.status === 'finished') break;
    if (s.status === 'failed' || s.status === 'not found') throw new Error(`cover job ${s.status}: ${s.error}`);
    if (Date.now() > deadline) throw new Error('cover job too slow');
    await new Promise((res) => setTimeout(res, 100));
  }
  const pdf = await t.app.inject(`/collector/api/bookbuilder/${args.session_id}`);
  expect(pdf.statusCode).toBe(200);
  expect(pdf.headers['content-type']).toBe('application/pdf');
  expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="bookcover-\d{4}-\d\d-\d\d--\d\d-\d\d-\d\d\.pdf"$/);
  return pdf.rawPayload;
}

/**
 * The bars of a 1D barcode in a greyscale image (the longest run of rows with one same dark/light
 * pattern of at least 50 edges), and how much ink lies above and below them: millimetres of rows with
 * ink within `aboveMm` above the bars, and of rows within `belowMm` below with more edges than the
 * guard bars that reach down (6 bars, 12 edges) alone would make.
 */
function barcodeInk(img: GreyImage, dpi: number, aboveMm = 8, belowMm = 6) {
  const pxPerMm = dpi / 25.4;
  const rows = Array.from({ length: img.height }, (_, y) => {
    let edges = 0;
    let ink = 0;
    let prev = false;
    let pattern = '';
    for (let x = 0; x < img.width; x++) {
      const dark = img.luminance[y * img.width + x] < 128;
      if (dark) ink++;
      if (dark !== prev) {
        edges++;
        pattern += `${x},`;
      }
      prev = dark;
    }
    return { edges, ink, pattern };
  });
  let best = { top: 0, bottom: -1 };
  for (let y = 0; y < rows.length; ) {
    let end = y;
    while (end + 1 < rows.length && rows[y].edges >= 50 && rows[end + 1].pattern === rows[y].pattern) end++;
    if (rows[y].edges >= 50 && end - y > best.bottom - best.top) best = { top: y, bottom: end };
    y = end + 1;
  }
  const count = (from: number, to: number, ok: (r: (typeof rows)[number]) => boolean) =>
    rows.slice(Math.max(0, from), Math.max(0, to)).filter(ok).length / pxPerMm;
  return {
    barsMm: (best.bottom - best.top + 1) / pxPerMm,
    aboveMm: count(best.top - Math.round(aboveMm * pxPerMm), best.top, (r) => r.ink > 0),
    belowMm: count(best.bottom + 1, best.bottom + 1 + Math.round(belowMm * pxPerMm), (r) => r.edges > 12),
  };
}

describe('get_tokens', () => {
  it('answers the sheet tokens then the template tokens, with a session that can be resumed', async () => {
    const r = await cover({ action: 'get_tokens' });
    expect(r.status).toBe(200);
    const tokens = r.json.tokens!;
    expect(tokens.map((x) => `${x.name}:${x.type}`)).toEqual([
      'coverheight:int', 'coverwidth:int', 'spinewidth:int', 'flapwidth:int', 'wrapwidth:int', 'bleedwidth:int', 'marklength:int',
      'font_name:select', 'foldingmargin:bool', 'language_code:select',
      'author_muse_str:muse_str', 'title_muse_str:muse_str', 'subtitle_muse_str:muse_str', 'image_file:file',
      'image_width_in_mm_int:int', 'front_footer_muse_str:muse_str', 'back_text_muse_body:muse_body', 'isbn_isbn:isbn',
    ]);
    const byName = Object.fromEntries(tokens.map((x) => [x.name, x]));
    expect(byName.coverheight).toMatchObject({ value: 210, min: 50, max: 600 });
    expect(byName.coverwidth.value).toBe(148);
    expect(byName.bleedwidth.value).toBe(10);
    expect(byName.marklength.value).toBe(5);
    expect(byName.font_name.value).toBe('DejaVu Serif');
    expect(byName.font_name.options!.map((o) => o.value)).toContain('DejaVu Sans');
    expect(byName.language_code.options).toHaveLength(32);
    expect(byName.image_width_in_mm_int.desc).toBe('Image Width In Mm');
    expect(byName.back_text_muse_body.desc).toBe('Back Text');

    const sid = r.json.session_id!;
    expect((await cover({ action: 'get_tokens', session_id: sid })).json.session_id).toBe(sid);
    // An expired or unknown session gives a fresh one; a Book Builder session is not a cover session.
    const other = (await cover({ action: 'get_tokens', session_id: 'AAAAAAAAAAAAAAAAAAAAAA' })).json.session_id;
    expect(other).not.toBe(sid);
    expect(other).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
  });
});

describe('refusals the spec\'s way (200 with `error` naming the field), and nothing stored', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['negative dimension', { coverwidth: -5 }, /^coverwidth: a whole number of at least 0/],
    ['fractional dimension', { spinewidth: '12.5' }, /^spinewidth: a whole number/],
    ['huge dimension', { coverheight: 100000 }, /^coverheight: at most 600$/],
    ['too small a panel', { coverwidth: 10 }, /^coverwidth: at least 50$/],
    ['huge bleed', { bleedwidth: 31 }, /^bleedwidth: at most 30$/],
    ['template int not a number', { image_width_in_mm_int: 'wide' }, /^image_width_in_mm_int: a whole number/],
    ['bool not a bool', { foldingmargin: 'maybe' }, /^foldingmargin: yes or no/],
    ['unknown font', { font_name: 'No Such Font' }, /^font_name: the font "No Such Font" is not available/],
    ['unknown language', { language_code: 'xx' }, /^language_code: please choose/],
    ['unclosed Muse tag in a line', { title_muse_str: 'A <em>broken title' }, /^title_muse_str: <em> is never closed$/],
    ['stray closing tag in the back text', { back_text_muse_body: 'Fine paragraph.\n\nThen </strong> out of nowhere.' }, /^back_text_muse_body: <\/strong> closes a tag that was never opened$/],
    ['too long a line', { subtitle_muse_str: 'x'.repeat(1001) }, /^subtitle_muse_str: at most 1000 characters$/],
    ['ISBN with a wrong check digit', { isbn_isbn: '978-0-306-40615-8' }, /^isbn_isbn: this is not a valid ISBN/],
    ['ISBN-10 with a wrong check digit', { isbn_isbn: '0-306-40615-3' }, /^isbn_isbn: this is not a valid ISBN/],
    ['ISBN of the wrong length', { isbn_isbn: '12345' }, /^isbn_isbn: an ISBN has 10 or 13 digits/],
    ['ISBN with letters', { isbn_isbn: '978-0-306-4O615-7' }, /^isbn_isbn: an ISBN has 10 or 13 digits/],
    ['image never uploaded', { image_file: 'image_file.png' }, /^image_file: this image is not in the session/],
    ['image path escaping the session', { image_file: '../../catalogue.sqlite' }, /^image_file: this image is not in the session/],
  ];
  for (const [what, args, message] of cases) {
    it(what, async () => {
      const sid = await newSession();
      const jobsBefore = t.services.db.sqlite.prepare('SELECT count(*) FROM jobs').pluck().get();
      for (const action of ['build', 'preview']) {
        const r = await cover({ action, args: { session_id: sid, ...args } });
        expect(r.status, JSON.stringify(r.json)).toBe(200);
        expect(r.json.error).toMatch(message);
      }
      expect(t.services.db.sqlite.prepare('SELECT count(*) FROM jobs').pluck().get()).toBe(jobsBefore);
      expect(t.services.bookbuilder.sessions.output(sid)).toBeNull();
    });
  }

  it('an unknown session or a malformed one', async () => {
    expect(await cover({ action: 'build', args: { session_id: 'AAAAAAAAAAAAAAAAAAAAAA' } })).toMatchObject({ status: 404, json: { error: expect.stringMatching(/^Cover session not found/) } });
    expect((await cover({ action: 'preview', args: { session_id: '../../etc' } })).status).toBe(400);
    expect((await cover({ action: 'build', args: {} })).status).toBe(400);
    expect((await cover({ action: 'explode' })).status).toBe(400);
    // A Book Builder session is not a cover session.
    const book = t.services.bookbuilder.sessions.create('book');
    expect((await cover({ action: 'build', args: { session_id: book } })).status).toBe(404);
  });
});

describe('uploads', () => {
  it('stores a PNG or a JPEG by its content under the token name, and the preview warns under 300 dpi', async () => {
    const sid = await newSession();
    const png = await upload(sid, 'image_file', image(600, 400, 'png'), 'holiday photo.PNG');
    expect(png.status, JSON.stringify(png.json)).toBe(200);
    expect(png.json.image).toEqual({ token: 'image_file', file: 'image_file.png', width_px: 600, height_px: 400, bytes: expect.any(Number) });
    // Spec §7 / the anchor: the answer's tokens map the token to its stored file.
    expect(png.json.tokens).toEqual({ image_file: 'image_file.png' });
    // A JPEG sent with a .png name is stored as what it is, and replaces the PNG.
    const jpg = await upload(sid, 'image_file', image(3000, 2000, 'jpg'), 'liar.png');
    expect(jpg.json.image).toMatchObject({ file: 'image_file.jpg', width_px: 3000, height_px: 2000 });
    const dir = path.join(t.services.bookbuilder.sessions.dir(sid), 'files');
    expect(fs.readdirSync(dir).sort()).toEqual(['image_file.jpg', 'preview']);
    // Previews embed a small copy: a 6-megapixel photo does not make every redraw megabytes long.
    expect(fs.readdirSync(path.join(dir, 'preview'))).toEqual(['image_file.jpg']);

    // 3000 px across 118 mm is 646 dpi: no warning; 600 px is 129 dpi: a warning naming the field.
    const sharp = await cover({ action: 'preview', args: { session_id: sid, image_file: 'image_file.jpg' } });
    expect(sharp.json.warnings).toEqual([]);
    expect(sharp.json.svg!.length).toBeLessThan(jpg.json.image!.bytes);
    await upload(sid, 'image_file', image(600, 400, 'png'));
    const soft = await cover({ action: 'preview', args: { session_id: sid, image_file: 'image_file.png' } });
    expect(soft.json.warnings).toEqual([expect.stringMatching(/^image_file: the image prints at 129 dpi at 118 mm wide/)]);
    // A smaller placed width raises the resolution.
    const small = await cover({ action: 'preview', args: { session_id: sid, image_file: 'image_file.png', image_width_in_mm_int: 50 } });
    expect(small.json.warnings).toEqual([]);
  });

  it('refuses what is not an image, too many pixels, too many bytes, unknown fields and sessions', async () => {
    const sid = await newSession();
    const text = await upload(sid, 'image_file', 'just some text, not a picture', 'fake.png');
    expect(text).toMatchObject({ status: 400, json: { error: 'image_file: this file is not a PNG or JPEG image' } });
    // A PNG header claiming 10000 × 10000 pixels (100 megapixels): refused from its header.
    const header = Buffer.from(image(10, 10, 'png'));
    header.writeUInt32BE(10000, 16);
    header.writeUInt32BE(10000, 20);
    const huge = await upload(sid, 'image_file', header);
    expect(huge).toMatchObject({ status: 400, json: { error: 'image_file: the image has too many pixels (100 megapixels; at most 60)' } });
    const big = Buffer.concat([Buffer.from(image(10, 10, 'png')), Buffer.alloc(50 * 1024 * 1024)]);
    const tooBig = await upload(sid, 'image_file', big);
    expect(tooBig).toMatchObject({ status: 413, json: { error: 'image_file: the image is too large: at most 20 MB' } });
    // A PNG whose header is fine but whose pixels are cut off.
    const cut = Buffer.from(image(300, 200, 'png')).subarray(0, 60);
    expect(await upload(sid, 'image_file', cut)).toMatchObject({ status: 400, json: { error: 'image_file: this image cannot be read (damaged or an unusual kind of PNG)' } });
    expect(await upload(sid, 'title_muse_str', image(10, 10, 'png'))).toMatchObject({ status: 400, json: { error: 'title_muse_str: this cover has no image field of that name' } });
    expect((await upload('AAAAAAAAAAAAAAAAAAAAAA', 'image_file', image(10, 10, 'png'))).status).toBe(404);
    // Refused from the header now, before anything is written: the session has no files folder at all.
    const files = path.join(t.services.bookbuilder.sessions.dir(sid), 'files');
    expect(fs.existsSync(files) ? fs.readdirSync(files) : []).toEqual([]);
  });
});

describe('preview', () => {
  it('draws the sheet as SVG at the computed size and redraws when a value changes', async () => {
    const sid = await newSession();
    const args = { session_id: sid, spinewidth: 12, title_muse_str: 'Preview Title' };
    const a = await cover({ action: 'preview', args });
    expect(a.status, JSON.stringify(a.json)).toBe(200);
    expect(a.json.svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(a.json.sheet).toEqual({ width_mm: 5 * 2 + 10 * 2 + 148 * 2 + 12, height_mm: 210 + 30 });
    const b = await cover({ action: 'preview', args: { ...args, title_muse_str: 'Another Title' } });
    expect(b.json.svg).not.toBe(a.json.svg);
    const wider = await cover({ action: 'preview', args: { ...args, flapwidth: 80, foldingmargin: true } });
    expect(wider.json.sheet!.width_mm).toBe(a.json.sheet!.width_mm + 160 + 14);
  });

  it('draws a dashed fold line, the full height of the cover, at every fold (either side of the spine, flaps, wrap, hinges)', async () => {
    const sid = await newSession();
    /** The dashed vertical lines of the SVG: x and length in mm (Typst writes them as `M 0 0v <length>` moved by a matrix). */
    const dashedVerticals = (svg: string) =>
      [...svg.matchAll(/<path\b[^>]*>/g)]
        .map((m) => m[0])
        .filter((p) => /stroke-dasharray=/.test(p))
        .map((p) => ({ m: /transform="matrix\(1 0 0 1 ([\d.]+) [\d.]+\)"/.exec(p), d: /\bd="M 0 0v ([\d.]+) "/.exec(p) }))
        .filter((x) => x.m && x.d)
        .map((x) => ({ x: (Number(x.m![1]) * 25.4) / 72, length: (Number(x.d![1]) * 25.4) / 72 }))
        .sort((p, q) => p.x - q.x);
    for (const geometry of [
      { coverwidth: 148, coverheight: 210, spinewidth: 12, flapwidth: 0, wrapwidth: 0, bleedwidth: 10, marklength: 5, foldingmargin: false },
      { coverwidth: 130, coverheight: 200, spinewidth: 20, flapwidth: 60, wrapwidth: 15, bleedwidth: 3, marklength: 5, foldingmargin: true },
    ]) {
      const r = await cover({ action: 'preview', args: { session_id: sid, ...geometry } });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      const L = coverLayout(geometry);
      const g = geometry;
      // Flaps, the hard-cover wrap and the hinges each widen the sheet on both sides (reference §4.1, +14 mm hinges).
      expect(r.json.sheet!.width_mm).toBe(2 * (g.coverwidth + g.flapwidth + g.wrapwidth + g.bleedwidth + g.marklength) + g.spinewidth + (g.foldingmargin ? 14 : 0));
      const folds = L.parts.slice(1).map((p) => p.x);
      expect(folds).toHaveLength(g.flapwidth ? 8 : 2);
      const lines = dashedVerticals(r.json.svg!);
      expect(lines.map((l) => l.x)).toEqual(folds.map((x) => expect.closeTo(x, 1)));
      for (const l of lines) expect(l.length).toBeCloseTo(geometry.coverheight, 0);
    }
  });
});

describe('build', () => {
  it('makes one PDF sheet of the computed size, fonts embedded, a barcode that scans, the spine text rotated and centred', async () => {
    const sid = await newSession();
    const args = {
      session_id: sid, coverwidth: 135, coverheight: 216, spinewidth: 14, bleedwidth: 3, marklength: 6, flapwidth: 0,
      author_muse_str: 'Ada Example', title_muse_str: 'The <em>Long</em> Winter', subtitle_muse_str: 'A novel',
      back_text_muse_body: 'A story about **snow** and patience.\n\nA second paragraph.', isbn_isbn: '0-306-40615-2',
      front_footer_muse_str: 'Small Press', language_code: 'en', font_name: 'DejaVu Serif',
    };
    const pdf = await buildPdf(args);
    const L = coverLayout({ coverwidth: 135, coverheight: 216, spinewidth: 14, bleedwidth: 3, marklength: 6, flapwidth: 0, wrapwidth: 0, foldingmargin: false });
    const [size, ...more] = await pdfPageSizesMm(pdf);
    expect(more).toEqual([]);
    expect(Math.abs(size.width - L.width)).toBeLessThan(0.1);
    expect(Math.abs(size.height - L.height)).toBeLessThan(0.1);
    expect(L.width).toBe(135 * 2 + 14 + 2 * 3 + 2 * 6);

    const fonts = await pdfFonts(pdf);
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.filter((f) => !f.embedded)).toEqual([]);
    expect(fonts.some((f) => /DejaVuSerif/.test(f.name))).toBe(true);

    // The barcode sits on the back panel and reads as the ISBN-13 of the ISBN-10 typed in.
    const back = L.parts.find((p) => p.name === 'back')!;
    expect(await decodeBarcodes(pdf, { region: { x: back.x, y: L.trim.y, width: back.width, height: L.trim.height } })).toEqual([{ format: 'EAN_13', text: '9780306406157' }]);
    const front = L.parts.find((p) => p.name === 'front')!;
    expect(await decodeBarcodes(pdf, { region: { x: front.x, y: L.trim.y, width: front.width, height: L.trim.height } })).toEqual([]);
    // Flush right at the foot of the back panel, as in the reference.
    const lowerRight = { x: back.x + back.width / 2, y: L.trim.y + L.trim.height / 2, width: back.width / 2, height: L.trim.height / 2 };
    expect(await decodeBarcodes(pdf, { region: lowerRight })).toEqual([{ format: 'EAN_13', text: '9780306406157' }]);
    // Its human-readable lines (drawn as outlines, so seen as ink, not text): "ISBN 978-…" above the
    // bars and the digits below them.
    const ink = barcodeInk(renderGrey(pdf, { dpi: 300, region: { x: back.x, y: L.trim.y, width: back.width, height: L.trim.height } })!, 300);
    expect(ink.barsMm).toBeGreaterThan(15);
    expect(ink.aboveMm).toBeGreaterThan(1.2);
    expect(ink.belowMm).toBeGreaterThan(1.2);

    // The spine: author and title read top to bottom, centred across the spine's width and its height.
    const spine = L.parts.find((p) => p.name === 'spine')!;
    const lines = await pdfTextLines(pdf);
    const onSpine = lines.filter((l) => l.x >= spine.x - 0.5 && l.x + l.width <= spine.x + spine.width + 0.5);
    expect(onSpine.map((l) => l.text).join(' ')).toMatch(/Ada Example\s+The Long Winter/);
    for (const l of onSpine) {
      expect(l.dir).toEqual([0, 1]);
      expect(l.height).toBeGreaterThan(l.width);
      expect(Math.abs(l.x + l.width / 2 - (spine.x + spine.width / 2))).toBeLessThan(1.5);
    }
    const top = Math.min(...onSpine.map((l) => l.y));
    const bottom = Math.max(...onSpine.map((l) => l.y + l.height));
    expect(Math.abs((top + bottom) / 2 - (L.trim.y + L.trim.height / 2))).toBeLessThan(1.5);
    // The title is on the front panel, the back text on the back panel.
    expect(lines.find((l) => /Long Winter/.test(l.text) && l.dir[0] === 1)!.x).toBeGreaterThan(front.x);
    // The front as the reference lays it out: author, title, subtitle from the top, centred; the footer at the foot.
    const onFront = (re: RegExp) => lines.find((l) => re.test(l.text) && l.dir[0] === 1 && l.x > front.x && l.x + l.width < front.x + front.width)!;
    const [author, title, subtitle, footer] = [/Ada Example/, /Long Winter/, /A novel/, /Small Press/].map(onFront);
    expect(author.y).toBeLessThan(title.y);
    expect(title.y).toBeLessThan(subtitle.y);
    expect(author.y - L.trim.y).toBeLessThan(30);
    expect(footer.y + footer.height).toBeGreaterThan(L.trim.y + L.trim.height - 25);
    for (const l of [author, title, subtitle, footer]) expect(Math.abs(l.x + l.width / 2 - (front.x + front.width / 2))).toBeLessThan(1.5);
    expect(lines.find((l) => /snow/.test(l.text))!.x + 1).toBeLessThan(back.x + back.width);
  });

  it('leaves a spine too narrow to read blank: no text under SPINE_TEXT_MIN_MM (6 mm), the text from there on (issue 32 point 14)', async () => {
    const spineText = async (spinewidth: number) => {
      const sid = await newSession();
      const pdf = await buildPdf({ session_id: sid, coverwidth: 135, coverheight: 216, spinewidth, bleedwidth: 3, marklength: 6, author_muse_str: 'Ada Example', title_muse_str: 'The Long Winter' });
      const L = coverLayout({ coverwidth: 135, coverheight: 216, spinewidth, bleedwidth: 3, marklength: 6, flapwidth: 0, wrapwidth: 0, foldingmargin: false });
      const spine = L.parts.find((p) => p.name === 'spine')!;
      const lines = await pdfTextLines(pdf);
      // text turned to read along the spine, within its width
      return lines.filter((l) => l.dir[0] === 0 && l.x >= spine.x - 0.5 && l.x + l.width <= spine.x + spine.width + 0.5).map((l) => l.text).join(' ');
    };
    expect(SPINE_TEXT_MIN_MM).toBe(6);
    expect(await spineText(4)).toBe('');
    expect(await spineText(5)).toBe('');
    expect(await spineText(6)).toMatch(/Ada Example/);
  });

  it('places an uploaded image; the job is checked with the Book Builder\'s check_job only on its own session', async () => {
    const sid = await newSession();
    await upload(sid, 'image_file', image(1200, 800, 'jpg'));
    const pdf = await buildPdf({ session_id: sid, title_muse_str: 'With a picture', image_file: 'image_file.jpg' });
    const doc = new mupdf.PDFDocument(pdf);
    try {
      const xobjects = doc.loadPage(0).getObject().get('Resources').get('XObject');
      const kinds: string[] = [];
      xobjects.forEach((v: mupdf.PDFObject) => void kinds.push(String(v.resolve().get('Subtype'))));
      expect(kinds.some((k) => /Image/.test(k))).toBe(true);
    } finally {
      doc.destroy();
    }
    // The same job under another session is "not found".
    const other = await newSession();
    const jobId = (t.services.db.sqlite.prepare("SELECT max(id) FROM jobs WHERE kind = 'cover_build'").pluck().get()) as number;
    expect((await checkJob(other, jobId)).status).toBe('not found');
    expect((await checkJob(sid, jobId)).status).toBe('finished');
  });
});

describe('another template (COVER_TEMPLATE)', () => {
  it('offers the tokens it names, in its order, and draws with them', async () => {
    const file = path.join(t.dir, 'site-cover.typ');
    fs.writeFileSync(file, [
      '#cover-panel("front", { if cover.dark_bool { set text(fill: white) }; text(size: 30pt, cover.tagline_muse_str); v(cover.gap_int * 1mm); cover.blurb_muse_body })',
      '#cover-spine(cover.tagline_muse_str)',
      '#cover-panel("back", if cover.code_isbn != none { image(cover.code_isbn, height: 3cm) })',
    ].join('\n'));
    const site = await testApp(undefined, { coverTemplate: file });
    try {
      const res = await site.app.inject({ method: 'POST', url: '/collector/api/bookcover', payload: { action: 'get_tokens' }, headers: CSRF_HEADERS });
      const { tokens, session_id } = res.json() as BookcoverResponse;
      expect(tokens!.slice(10).map((x) => `${x.name}:${x.type}:${x.desc}`)).toEqual([
        'dark_bool:bool:Dark', 'tagline_muse_str:muse_str:Tagline', 'gap_int:int:Gap', 'blurb_muse_body:muse_body:Blurb', 'code_isbn:isbn:Code',
      ]);
      const bad = await site.app.inject({ method: 'POST', url: '/collector/api/bookcover', payload: { action: 'preview', args: { session_id, code_isbn: '9780306406158' } }, headers: CSRF_HEADERS });
      expect(bad.json().error).toMatch(/^code_isbn: this is not a valid ISBN/);
      const ok = await site.app.inject({ method: 'POST', url: '/collector/api/bookcover', payload: { action: 'preview', args: { session_id, dark_bool: true, tagline_muse_str: 'Read *this*', gap_int: 12, blurb_muse_body: 'One.\n\nTwo.', code_isbn: '9780306406157', spinewidth: 10 } }, headers: CSRF_HEADERS });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().svg).toMatch(/^<svg/);
    } finally {
      await site.close();
    }
  });

  it('a template that does not compile fails the preview with a 422 and the build job with the reason', async () => {
    const file = path.join(t.dir, 'broken-cover.typ');
    fs.writeFileSync(file, '#cover-panel("front", cover.title_muse_str + undefined-function())');
    const site = await testApp(undefined, { coverTemplate: file });
    try {
      const { session_id } = (await site.app.inject({ method: 'POST', url: '/collector/api/bookcover', payload: { action: 'get_tokens' }, headers: CSRF_HEADERS })).json() as BookcoverResponse;
      const r = await site.app.inject({ method: 'POST', url: '/collector/api/bookcover', payload: { action: 'preview', args: { session_id, title_muse_str: 'x' } }, headers: CSRF_HEADERS });
      expect(r.statusCode).toBe(422);
      expect(r.json().error).toMatch(/^The cover could not be drawn: Typesetting the cover failed: /);
      const build = await site.app.inject({ method: 'POST', url: '/collector/api/bookcover', payload: { action: 'build', args: { session_id, title_muse_str: 'x' } }, headers: CSRF_HEADERS });
      const worker = createJobWorker({ jobConcurrency: 1 }, site.services);
      worker.start();
      try {
        let status: BookbuilderResponse = { status: 'inactive' };
        for (let i = 0; i < 300 && (status.status === 'inactive' || status.status === 'active'); i++) {
          await new Promise((res) => setTimeout(res, 100));
          status = (await site.app.inject({ method: 'POST', url: '/collector/api/bookbuilder', payload: { action: 'check_job', session_id, check_job_id: build.json().job_id }, headers: CSRF_HEADERS })).json();
        }
        expect(status).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Typesetting the cover failed: /) });
        expect((await site.app.inject(`/collector/api/bookbuilder/${session_id}`)).statusCode).toBe(404);
      } finally {
        await worker.stop();
      }
    } finally {
      await site.close();
    }
  });
});
