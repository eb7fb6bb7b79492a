// Every collection_data option changes the built PDF as docs/bookbuilder.md says: per option, the book
// is built with two values (the default and another unless both are given) and the two PDFs compared
// on what the option is about: page size, page count, fonts, text or text positions.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { availableFonts } from '@uc/muse';
import { collectionDataSchema, defaultCollectionData, type CollectionData } from '@uc/shared';
import { renderGrey } from '../covers/test/pdf-inspect.ts';
import { buildBook } from './build.ts';
import { pdfInfo, pdfPageCount, pdfPageSizesMm, pdfTextSpans, type TextSpan } from './pdf-checks.ts';
import { greyPng } from './testing.ts';

const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. ';

const MUSE = `#title Options Book
#subtitle Every Option
#author Ann Author
#notes Notes of the text
#cover cover.png

* A Part

** First Chapter

${LOREM.repeat(4)}

${LOREM.repeat(3)}A note.[1]

<code>mono_code_here</code> and **bold words** in the text.

*** A Section

${LOREM.repeat(6)}

** Second Chapter

Second chapter text with a note.[2]

${LOREM.repeat(8)}

[1] First note.

[2] Second note.
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'book-options-'));
const musePath = path.join(dir, 'options.muse');
fs.writeFileSync(musePath, MUSE);
const zipPath = path.join(dir, 'options.zip');
fs.writeFileSync(zipPath, zipSync({ 'options/options.muse': new TextEncoder().encode(MUSE), 'options/cover.png': greyPng(120, 160) }));
const secondPath = path.join(dir, 'second.muse');
fs.writeFileSync(secondPath, `#title Second Text\n#author Bea Writer\n\n** Its Chapter\n\n${LOREM.repeat(3)}\n`);

interface Book {
  pdf: Uint8Array;
  pages: number;
  sizes: { width: number; height: number }[];
  spans(page: number): TextSpan[];
  text(page: number): string;
  /** The first span holding the string, with its page. */
  find(s: string): (TextSpan & { page: number }) | undefined;
}

const built = new Map<string, Promise<Book>>();
let n = 0;

/** The book built with these options over the defaults; two texts make a collection (its title "The Collection"). */
function book(data: Partial<CollectionData>, texts: 1 | 2 = 1): Promise<Book> {
  const key = JSON.stringify([texts, data]);
  if (!built.has(key)) built.set(key, make(data, texts));
  return built.get(key)!;
}

async function make(data: Partial<CollectionData>, texts: 1 | 2): Promise<Book> {
  const outPath = path.join(dir, `${n++}.pdf`);
  const list = [{ musePath, zipPath }, ...(texts === 2 ? [{ musePath: secondPath, zipPath: null }] : [])];
  const header = texts === 2 ? { title: 'The Collection' } : {};
  await buildBook({ texts: list, data: { ...defaultCollectionData(), ...header, ...data }, outPath });
  const pdf = new Uint8Array(fs.readFileSync(outPath));
  const spans = new Map<number, TextSpan[]>();
  const b: Book = {
    pdf,
    pages: pdfPageCount(pdf),
    sizes: await pdfPageSizesMm(pdf),
    spans(page) {
      if (!spans.has(page)) spans.set(page, pdfTextSpans(pdf, page));
      return spans.get(page)!;
    },
    text: (page) => b.spans(page).map((s) => s.text).join(' ').replace(/\s+/g, ' '),
    find(s) {
      for (let p = 0; p < b.pages; p++) {
        const span = b.spans(p).find((x) => x.text.includes(s));
        if (span) return { ...span, page: p };
      }
      return undefined;
    },
  };
  return b;
}

/** A heading's span: the largest one holding the string (the contents list it smaller). */
const heading = (b: Book, s: string) => {
  let best: (TextSpan & { page: number }) | undefined;
  for (let p = 0; p < b.pages; p++) for (const x of b.spans(p)) if (x.text.includes(s) && (!best || x.size > best.size)) best = { ...x, page: p };
  return best!;
};
const size = (b: Book, page = 0) => [Math.round(b.sizes[page].width), Math.round(b.sizes[page].height)];
const LINE = 'Lorem ipsum dolor sit amet';
/** Where body text starts on the first page that has it. */
const bodyStart = async (b: Book) => b.find(LINE)!;
/** Every page's text spans with their positions, as one comparable value. */
const layout = (b: Book) => Array.from({ length: b.pages }, (_, p) => b.spans(p).map((s) => `${s.text}@${s.x.toFixed(1)},${s.baseline.toFixed(1)}`)).join('\n');
const all = (b: Book) => Array.from({ length: b.pages }, (_, p) => b.text(p)).join('\n');
/** Ink on the title page's lower half (the cover image sits there). */
const inkBelowTitle = (b: Book) => {
  const img = renderGrey(b.pdf, { page: 0, dpi: 30, region: { x: 0, y: b.sizes[0].height / 2, width: b.sizes[0].width, height: b.sizes[0].height / 2 } })!;
  return img.luminance.filter((v) => v < 200).length / img.luminance.length;
};

// a second mono family: one of the common packages' (fonts-linuxlibertine, fonts-liberation, fonts-noto-mono,
// fonts-urw-base35) when installed, else any family the font files call mono
const monoFamilies = availableFonts().filter((f) => f.type === 'mono' && f.name !== 'DejaVu Sans Mono').map((f) => f.name);
const secondMono = ['Linux Libertine Mono O', 'Liberation Mono', 'Noto Sans Mono', 'Nimbus Mono PS', 'Noto Mono'].find((n) => monoFamilies.includes(n)) ?? monoFamilies[0];
if (!secondMono) console.warn('options-pdf.test.ts: no second monospaced font (Debian package fonts-linuxlibertine or fonts-liberation): "monofont" is skipped');

type Check = () => Promise<void>;
const cases: Record<keyof CollectionData, Check> = {
  async papersize() {
    expect(size(await book({}))).toEqual([148, 210]);
    expect(size(await book({ papersize: 'a4' }))).toEqual([210, 297]);
  },
  async papersize_width() {
    expect(size(await book({ papersize: 'custom', papersize_width: 120, papersize_height: 180 }))).toEqual([120, 180]);
    expect(size(await book({ papersize: 'custom', papersize_width: 130, papersize_height: 180 }))).toEqual([130, 180]);
  },
  async papersize_height() {
    expect(size(await book({ papersize: 'custom', papersize_width: 120, papersize_height: 180 }))).toEqual([120, 180]);
    expect(size(await book({ papersize: 'custom', papersize_width: 120, papersize_height: 200 }))).toEqual([120, 200]);
  },
  async mainfont() {
    expect((await bodyStart(await book({}))).font).toMatch(/DejaVuSerif/);
    expect((await bodyStart(await book({ mainfont: 'DejaVu Sans' }))).font).toMatch(/DejaVuSans(?!Mono)/);
  },
  async sansfont() {
    const a = heading(await book({ sansfontsections: true, sansfont: 'DejaVu Sans' }), 'A Section');
    const b = heading(await book({ sansfontsections: true, sansfont: 'DejaVu Sans Mono' }), 'A Section');
    expect(a.font).toMatch(/DejaVuSans-Bold/);
    expect(b.font).toMatch(/DejaVuSansMono/);
  },
  async monofont() {
    expect((await book({})).find('mono_code')!.font).toMatch(/DejaVuSansMono/);
    if (!secondMono) return;
    const other = (await book({ monofont: secondMono! })).find('mono_code')!;
    expect(other.font).not.toMatch(/DejaVu/);
  },
  async fontsize() {
    expect((await bodyStart(await book({}))).size).toBe(12);
    expect((await bodyStart(await book({ fontsize: 10 }))).size).toBe(10);
  },
  async imposition_schema() {
    const plain = await book({});
    const imposed = await book({ imposition_schema: '2up' });
    expect(size(imposed)).toEqual([296, 210]);
    expect(imposed.pages).toBeLessThan(plain.pages);
  },
  async signature_2up() {
    const plain = await book({});
    expect((await book({ imposition_schema: '2up', signature_2up: '0' })).pages).toBe(Math.ceil(plain.pages / 4) * 2);
    expect((await book({ imposition_schema: '2up', signature_2up: '32' })).pages).toBe(Math.ceil(plain.pages / 32) * 16);
  },
  async signature_4up() {
    const plain = await book({ papersize: 'a6' });
    expect((await book({ papersize: 'a6', imposition_schema: '4up', signature_4up: '0' })).pages).toBe(Math.ceil(plain.pages / 8) * 2);
    expect((await book({ papersize: 'a6', imposition_schema: '4up', signature_4up: '48' })).pages).toBe(Math.ceil(plain.pages / 48) * 12);
  },
  async fill_signature() {
    const filled = await book({ imposition_schema: '2up', signature_2up: '32', fill_signature: true });
    const short = await book({ imposition_schema: '2up', signature_2up: '32', fill_signature: false });
    expect(short.pages).toBeLessThan(filled.pages);
  },
  async cropmarks() {
    expect(size(await book({ imposition_schema: '2up', cropmarks: false }))).toEqual([296, 210]);
    // the crop paper holds each page, then two of them go on a sheet
    expect(size(await book({ imposition_schema: '2up', cropmarks: true, crop_papersize: 'a4' }))).toEqual([420, 297]);
  },
  async crop_papersize() {
    expect(size(await book({ imposition_schema: '2up', cropmarks: true, crop_papersize: 'a4' }))).toEqual([420, 297]);
    expect(size(await book({ imposition_schema: '2up', cropmarks: true, crop_papersize: 'b4' }))).toEqual([500, 353]);
  },
  async crop_papersize_width() {
    const crop = (w: number, h: number) => book({ imposition_schema: '2up', cropmarks: true, crop_papersize: 'custom', crop_papersize_width: w, crop_papersize_height: h });
    expect(size(await crop(180, 240))).toEqual([360, 240]);
    expect(size(await crop(190, 240))).toEqual([380, 240]);
  },
  async crop_papersize_height() {
    const crop = (w: number, h: number) => book({ imposition_schema: '2up', cropmarks: true, crop_papersize: 'custom', crop_papersize_width: w, crop_papersize_height: h });
    expect(size(await crop(180, 240))).toEqual([360, 240]);
    expect(size(await crop(180, 250))).toEqual([360, 250]);
  },
  async crop_paper_thickness() {
    // creep: the inner sheets of a signature move their pages towards the fold
    const at = (t: number) => book({ imposition_schema: '2up', signature_2up: '16', cropmarks: true, crop_papersize: 'a4', crop_paper_thickness: t });
    expect(layout(await at(0))).not.toEqual(layout(await at(0.3)));
    expect(size(await at(0.3))).toEqual(size(await at(0)));
  },
  async creep() {
    // without crop marks (beyond the reference): the same shift of the pages of outer sheets
    const at = (t: number) => book({ imposition_schema: '2up', signature_2up: '16', creep: t });
    const x = (b: Book) => b.find(LINE)!.x;
    expect(size(await at(0.3))).toEqual(size(await at(0)));
    expect(Math.abs(x(await at(0.3)) - x(await at(0)))).toBeGreaterThan(0.25);
  },
  async division_factor() {
    const a = await bodyStart(await book({}));
    const b = await bodyStart(await book({ division_factor: 9 }));
    // DIV 12: inner margin 148/12 (+15 pt indent); DIV 9: 148/9
    expect(b.x - a.x).toBeCloseTo(148 / 9 - 148 / 12, 0);
  },
  async areaset_width() {
    const narrow = await book({ division_factor: 0, areaset_width: 90, areaset_height: 150 });
    const wide = await book({ division_factor: 0, areaset_width: 110, areaset_height: 150 });
    const right = (b: Book) => Math.max(...b.spans(b.find(LINE)!.page).filter((s) => s.size === 12).map((s) => s.right));
    expect(right(wide) - right(narrow)).toBeGreaterThan(10);
  },
  async areaset_height() {
    const short = await book({ division_factor: 0, areaset_width: 100, areaset_height: 120 });
    const tall = await book({ division_factor: 0, areaset_width: 100, areaset_height: 170 });
    expect(short.pages).toBeGreaterThan(tall.pages);
  },
  async geometry_top_margin() {
    const top = (t: number) => book({ division_factor: 0, areaset_width: 100, areaset_height: 150, geometry_top_margin: t, geometry_outer_margin: 20 });
    const a = (await top(10)).find('Second chapter text')!;
    const b = (await top(30)).find('Second chapter text')!;
    expect(b.baseline - a.baseline).toBeCloseTo(20, 0);
  },
  async geometry_outer_margin() {
    const outer = (o: number) => book({ division_factor: 0, areaset_width: 100, areaset_height: 150, geometry_top_margin: 20, geometry_outer_margin: o });
    // the inner margin is what the outer one and the text block leave
    const a = await bodyStart(await outer(10));
    const b = await bodyStart(await outer(25));
    expect(a.x - b.x).toBeCloseTo(15, 0);
  },
  async binding_correction() {
    const a = await bodyStart(await book({}));
    const b = await bodyStart(await book({ binding_correction: 12 }));
    // BCOR is added to the inner margin, and the rest is divided as before: 12 + (148-12)/12 - 148/12
    expect(b.x - a.x).toBeCloseTo(12 + (148 - 12) / 12 - 148 / 12, 0);
  },
  async opening() {
    // page numbers of the chapter openings: odd ones only with opening=right, even ones with left
    const pages = async (opening: string) => {
      const b = await book({ twoside: true, opening });
      return ['First Chapter', 'Second Chapter'].map((c) => heading(b, c).page + 1);
    };
    const any = await pages('any');
    expect(any.some((p) => p % 2 === 0)).toBe(true);
    expect((await pages('right')).every((p) => p % 2 === 1)).toBe(true);
    expect((await pages('left')).every((p) => p % 2 === 0)).toBe(true);
  },
  async chapter_newpage() {
    // the test text is short (an article): 'auto' lets its chapters follow on, as 'never' does (issue 32 point 15)
    const always = await book({ chapter_newpage: 'always' });
    const never = await book({ chapter_newpage: 'never' });
    const auto = await book({ chapter_newpage: 'auto' });
    const gap = (b: Book) => heading(b, 'Second Chapter').page - heading(b, 'First Chapter').page;
    expect(never.pages).toBeLessThan(always.pages);
    expect(gap(never)).toBeLessThan(gap(always));
    expect(auto.pages).toBe(never.pages);
    expect(heading(auto, 'Second Chapter').page).toBe(heading(never, 'Second Chapter').page);
  },
  async twoside() {
    // two-sided: the inner margin alternates, so a verso's text starts further left than a recto's
    const x = (b: Book, page: number) => Math.min(...b.spans(page).filter((s) => s.size === 12 && s.text.includes(' ')).map((s) => s.x));
    const one = await book({ twoside: false });
    const two = await book({ twoside: true });
    const body = (b: Book) => Array.from({ length: b.pages }, (_, p) => p).filter((p) => b.text(p).includes('Lorem') && p >= b.find(LINE)!.page);
    const [p1, p2] = body(two);
    expect(Math.abs(x(two, p1) - x(two, p2))).toBeGreaterThan(3);
    const [q1, q2] = body(one);
    expect(Math.abs(x(one, q1) - x(one, q2))).toBeLessThan(0.5);
    expect(two.pages % 2).toBe(0);
  },
  async headings() {
    const page = (b: Book) => b.find('Lorem ipsum dolor sit amet')!.page + 2;
    const none = await book({});
    const titled = await book({ headings: 'title_subtitle' });
    expect(none.text(page(none))).not.toContain('Options Book');
    expect(titled.text(page(titled))).toContain('Options Book');
  },
  async linespacing() {
    const pitch = (b: Book) => {
      const ls = b.spans(b.find(LINE)!.page).filter((s) => s.size === 12).map((s) => s.baseline);
      return ls[2] - ls[1];
    };
    const one = pitch(await book({}));
    expect(pitch(await book({ linespacing: 1.5 })) / one).toBeCloseTo(1.5, 1);
  },
  async parindent() {
    const indent = (b: Book) => b.find('Lorem ipsum dolor sit amet')!.x;
    expect(indent(await book({ parindent: 40 })) - indent(await book({}))).toBeCloseTo((25 * 25.4) / 72, 0);
  },
  async tex_tolerance() {
    expect(layout(await book({ tex_tolerance: 0 }))).not.toEqual(layout(await book({ tex_tolerance: 10000 })));
  },
  async tex_emergencystretch() {
    // both above the 60 pt of the reference's form: still a different setting
    expect(layout(await book({ tex_emergencystretch: 100 }))).not.toEqual(layout(await book({ tex_emergencystretch: 1000 })));
  },
  async notoc() {
    expect(all(await book({}))).toContain('Contents');
    expect(all(await book({ notoc: true }))).not.toContain('Contents');
  },
  async nofinalpage() {
    const with_ = await book({});
    const without = await book({ nofinalpage: true });
    expect(without.pages).toBe(with_.pages - 1);
    expect(with_.text(with_.pages - 1)).toContain('Notes of the text');
  },
  async nocoverpage() {
    expect((await book({})).text(0)).not.toContain('Lorem');
    const run = await book({ nocoverpage: true });
    expect(run.text(0)).toContain('Options Book');
    expect(run.text(0)).toContain('Contents');
  },
  async body_only() {
    const b = await book({ body_only: true });
    expect(all(b)).not.toContain('Ann Author');
    expect(b.pages).toBeLessThan((await book({})).pages);
  },
  async impressum() {
    const plain = await book({});
    const imp = await book({ impressum: true });
    expect(plain.text(1)).not.toContain('Notes of the text');
    expect(imp.text(1)).toContain('Notes of the text');
  },
  async sansfontsections() {
    expect(heading(await book({}), 'A Section').font).toMatch(/DejaVuSerif/);
    expect(heading(await book({ sansfontsections: true }), 'A Section').font).toMatch(/DejaVuSans/);
  },
  async nobold() {
    expect(heading(await book({}), 'A Section').font).toMatch(/Bold/);
    expect(heading(await book({ nobold: true }), 'A Section').font).not.toMatch(/Bold/);
    expect((await book({ nobold: true })).find('bold words')!.font).not.toMatch(/Bold/);
  },
  async start_with_empty_page() {
    expect((await book({})).text(0)).toContain('Options Book');
    const b = await book({ start_with_empty_page: true });
    expect(b.text(0)).toBe('');
    expect(b.text(1)).toContain('Options Book');
  },
  async ignore_cover() {
    expect(inkBelowTitle(await book({}))).toBeGreaterThan(0.05);
    expect(inkBelowTitle(await book({ ignore_cover: true }))).toBeLessThan(0.01);
  },
  async continuefootnotes() {
    // the second chapter's note is 1 again, or 2 when numbered through
    const mark = (b: Book) => b.spans(b.find('Second note')!.page).find((s) => s.text.includes('Second note'))!;
    const reset = await book({});
    const through = await book({ continuefootnotes: true });
    const num = (b: Book) => {
      const p = b.find('Second note')!.page;
      const spans = b.spans(p);
      const i = spans.indexOf(mark(b));
      return (spans[i].text.match(/^\s*(\d+)/)?.[1] ?? spans[i - 1]?.text.trim()) as string;
    };
    expect(num(reset)).toBe('1');
    expect(num(through)).toBe('2');
  },
  async centerchapter() {
    const x = async (d: Partial<CollectionData>) => heading(await book(d), 'Second Chapter');
    const left = await x({});
    const centred = await x({ centerchapter: true });
    expect(centred.x - left.x).toBeGreaterThan(15);
    expect(Math.abs(centred.x + centred.right - 148 - (148 / 12 - (2 * 148) / 12))).toBeLessThan(2);
  },
  async centersection() {
    const left = heading(await book({}), 'A Section');
    const centred = heading(await book({ centersection: true }), 'A Section');
    expect(centred.x - left.x).toBeGreaterThan(15);
  },
  async title() {
    const a = await book({ title: 'First Name' }, 2);
    const b = await book({ title: 'Other Name' }, 2);
    expect(a.text(0)).toContain('First Name');
    expect(b.text(0)).toContain('Other Name');
    expect(pdfInfo(b.pdf).title).toBe('Other Name');
  },
  async subtitle() {
    const b = await book({ subtitle: 'A Subtitle Here' }, 2);
    expect((await book({}, 2)).text(0)).not.toContain('A Subtitle Here');
    expect(b.text(0)).toContain('A Subtitle Here');
    expect(pdfInfo(b.pdf).subject).toBe('A Subtitle Here');
  },
  async author() {
    const b = await book({ author: 'The Editors' }, 2);
    expect((await book({}, 2)).text(0)).not.toContain('The Editors');
    expect(b.text(0)).toContain('The Editors');
    expect(pdfInfo(b.pdf).author).toBe('The Editors');
  },
  async date() {
    expect((await book({}, 2)).text(0)).not.toContain('1999');
    expect((await book({ date: '1999' }, 2)).text(0)).toContain('1999');
  },
  async notes() {
    const b = await book({ notes: 'Collection notes' }, 2);
    expect(all(await book({}, 2))).not.toContain('Collection notes');
    expect(b.text(b.pages - 1)).toContain('Collection notes');
  },
  async source() {
    const b = await book({ source: 'Collection source' }, 2);
    expect(all(await book({}, 2))).not.toContain('Collection source');
    expect(b.text(b.pages - 1)).toContain('Collection source');
  },
};

describe('every collection_data option changes the PDF', () => {
  it('has a case for every field', () => {
    expect(Object.keys(collectionDataSchema.shape).sort()).toEqual(Object.keys(cases).sort());
  });
  for (const [name, check] of Object.entries(cases)) it(name, check, 60_000);
});
