// A large book is laid out in chunks, each in a child process, and merged (chunked.ts, merge-pdf.ts).
// Built here through that path with a chunk size low enough that every chapter is a chunk of its own,
// and compared with the same book laid out in one pass: the reader must not be able to tell.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef } from 'pdf-lib';
import { defaultCollectionData, type CollectionData } from '@uc/shared';
import { bookTypstPieces, buildBook, type BuildResult } from './build.ts';
import { BuildRunner } from './runner.ts';
import { wantsChunks } from './chunked.ts';
import { pdfFonts, pdfInfo, pdfOutline, pdfPageCount, pdfPageSizesMm, pdfTags, pdfTextSpans } from './pdf-checks.ts';

const SENTENCE = 'The library keeps the pamphlets of the commune in boxes of grey card, and the readers come on Thursdays. ';
const para = (n: number) => SENTENCE.repeat(n).trim();

// Four chapters in two parts; notes numbered through the book (continuefootnotes), so numbering must
// carry across chunks; a reference forward ("??" is the page of the anchor), one back, and one from the
// final page (the header's notes).
const MUSE = `#title Chunks of a Book
#author A. Writer
#lang en
#notes Printed for the reading room; the harbour is on [[#late][page ??]].

* Part One

** Chapter One

#early
${para(12)} First note here.[1]

${para(30)} A second note.[2] See the harbour on [[#late][page ??]].

** Chapter Two

${para(40)} The third note.[3]

${para(10)}

* Part Two

** Chapter Three

#late
${para(6)} The fourth note.[4] Back to the library on [[#early][page ??]].

${para(30)} The fifth note.[5]

** Chapter Four

${para(25)}

[1] Note one.

[2] Note two.

[3] Note three.

[4] Note four.

[5] The fifth note, in the last part.
`;

const DATA: CollectionData = { ...defaultCollectionData(), twoside: true, opening: 'right', headings: 'part_chapter', continuefootnotes: true };

let dir: string;
let chunked: { result: BuildResult; pdf: Uint8Array };
let onePass: { result: BuildResult; pdf: Uint8Array };
const progress: string[] = [];

async function build(name: string, chunkBytes: number, runner?: BuildRunner) {
  const input = { texts: [{ musePath: path.join(dir, 'book.muse'), zipPath: null }], data: DATA, outPath: path.join(dir, `${name}.pdf`), chunkBytes };
  // as a build job does it: in a build thread, its progress passed on
  const result = runner ? await runner.run(input, undefined, (p) => progress.push(p.label)) : await buildBook(input);
  return { result, pdf: new Uint8Array(fs.readFileSync(input.outPath)) };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chunked-book-'));
  fs.writeFileSync(path.join(dir, 'book.muse'), MUSE);
  // each chapter is over 2,000 bytes of Typst: one chunk per chapter (the first with the part before it)
  const runner = new BuildRunner();
  try {
    chunked = await build('chunked', 2000, runner);
  } finally {
    await runner.close();
  }
  onePass = await build('one-pass', 1e9);
}, 240_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * The text of a page: each piece has its own font subsets (named ABCDEF+Family), whose glyph boxes may
 * differ by a hair, so the family, and where each line starts rather than its ink's right edge.
 */
const spans = (pdf: Uint8Array, page: number) =>
  pdfTextSpans(pdf, page).map((s) => ({ text: s.text, size: s.size, font: s.font.replace(/^[A-Z]{6}\+/, ''), x: Math.round(s.x * 100) / 100, baseline: Math.round(s.baseline * 100) / 100 }));
const pageOf = (pdf: Uint8Array, pages: number, text: string, size?: number) => {
  for (let p = 0; p < pages; p++) if (spans(pdf, p).some((s) => s.text.includes(text) && (size === undefined || s.size === size))) return p + 1;
  return -1;
};
/** The page each link annotation of a page leads to (1-based), with the link's rectangle. */
async function linkTargets(pdf: Uint8Array, page: number): Promise<number[]> {
  const doc = await PDFDocument.load(pdf);
  const refs = doc.getPages().map((p) => p.ref.toString());
  const annots = doc.getPages()[page - 1].node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  return (annots?.asArray() ?? []).map((a) => {
    const dest = (doc.context.lookup(a) as PDFDict).lookup(PDFName.of('Dest'));
    const target = dest instanceof PDFArray ? dest.get(0) : undefined;
    return target instanceof PDFRef ? refs.indexOf(target.toString()) + 1 : -1;
  });
}

describe('a book laid out in chunks', () => {
  it('is laid out in several chunks, with progress per chunk', () => {
    expect(onePass.result.chunks).toBe(0);
    expect(chunked.result.chunks).toBeGreaterThanOrEqual(4);
    const parts = progress.filter((m) => /^Typesetting part \d+ of \d+/.test(m));
    expect(parts).toHaveLength(chunked.result.chunks);
    expect(progress.at(-1)).toBe('Joining the parts');
  });

  it('has the same pages as the book laid out at once, word for word and place for place', () => {
    const pages = pdfPageCount(onePass.pdf);
    expect(chunked.result.bookPages).toBe(pages);
    expect(pdfPageCount(chunked.pdf)).toBe(pages);
    expect(pdfPageSizesMm(chunked.pdf)).toEqual(pdfPageSizesMm(onePass.pdf));
    for (let p = 0; p < pages; p++) expect(spans(chunked.pdf, p), `page ${p + 1}`).toEqual(spans(onePass.pdf, p));
  });

  it('numbers its pages on without a gap across the chunks', () => {
    const pages = pdfPageCount(chunked.pdf);
    const numbered: number[] = [];
    for (let p = 0; p < pages; p++) {
      // the number printed in the head or the foot: a span of digits alone
      const n = spans(chunked.pdf, p).find((s) => /^\d+$/.test(s.text.trim()) && s.size >= 10 && (s.baseline < 25 || s.baseline > 185));
      if (n) {
        expect(Number(n.text), `page ${p + 1}`).toBe(p + 1);
        numbered.push(p + 1);
      }
    }
    // every chunk's pages carry numbers (only part pages, blank pages and the front go without)
    expect(numbered.length).toBeGreaterThan(pages * 0.6);
  });

  it('lists every heading in the contents with the page it is on, linked there', async () => {
    const pages = pdfPageCount(chunked.pdf);
    const tocPage = pageOf(chunked.pdf, pages, 'Contents');
    const byBaseline = new Map<number, string>();
    for (const s of spans(chunked.pdf, tocPage - 1)) {
      const key = Math.round(s.baseline);
      byBaseline.set(key, (byBaseline.get(key) ?? '') + s.text);
    }
    const toc = [...byBaseline.values()];
    const linked = await linkTargets(chunked.pdf, tocPage);
    for (const title of ['Part One', 'Chapter One', 'Chapter Two', 'Part Two', 'Chapter Three', 'Chapter Four']) {
      const heading = pageOf(chunked.pdf, pages, title, title.startsWith('Part') ? 29.9 : 24.9);
      expect(heading, title).toBeGreaterThan(tocPage);
      const line = toc.find((l) => l.startsWith(title));
      expect(line, title).toMatch(new RegExp(`\\.\\s*${heading}$`));
      expect(linked, title).toContain(heading);
    }
  });

  it('keeps the outline, parts holding their chapters across chunks', () => {
    const outline = pdfOutline(chunked.pdf);
    expect(outline).toEqual(pdfOutline(onePass.pdf));
    expect(outline).toEqual([
      { title: 'Part One', depth: 0 },
      { title: 'Chapter One', depth: 1 },
      { title: 'Chapter Two', depth: 1 },
      { title: 'Part Two', depth: 0 },
      { title: 'Chapter Three', depth: 1 },
      { title: 'Chapter Four', depth: 1 },
    ]);
  });

  it('numbers the notes on across chunks', () => {
    const pages = pdfPageCount(chunked.pdf);
    const page = pageOf(chunked.pdf, pages, 'The fifth note, in the last part');
    expect(page).toBeGreaterThan(pageOf(chunked.pdf, pages, 'Chapter Three', 24.9) - 1);
    const ss = spans(chunked.pdf, page - 1);
    const note = ss.find((s) => s.text.includes('The fifth note, in the last part'))!;
    // the number before the note's text, as a superscript
    const mark = ss.find((s) => s.text.trim() === '5' && s.x < note.x && note.x - s.x < 5 && Math.abs(s.baseline - note.baseline) < 3);
    expect(mark).toBeDefined();
  });

  it('prints and links page references to other chunks, forward and back', async () => {
    const pages = pdfPageCount(chunked.pdf);
    const late = pageOf(chunked.pdf, pages, 'Chapter Three', 24.9);
    const early = pageOf(chunked.pdf, pages, 'Chapter One', 24.9);
    const forward = pageOf(chunked.pdf, pages, 'See the harbour on');
    const back = pageOf(chunked.pdf, pages, 'Back to the library on');
    const text = (p: number) => spans(chunked.pdf, p - 1).map((s) => s.text).join(' ').replace(/\s+/g, ' ');
    expect(text(forward)).toContain(`See the harbour on page ${late}`);
    expect(text(back)).toContain(`Back to the library on page ${early}`);
    expect(await linkTargets(chunked.pdf, forward)).toContain(late);
    expect(await linkTargets(chunked.pdf, back)).toContain(early);
    expect(text(pages)).toContain(`the harbour is on page ${late}`);
    expect(await linkTargets(chunked.pdf, pages)).toContain(late);
  });

  it('keeps the document information and tells the whole page count in its XMP', () => {
    expect(pdfInfo(chunked.pdf)).toEqual(pdfInfo(onePass.pdf));
    expect(pdfInfo(chunked.pdf).title).toBe('Chunks of a Book');
    const xmp = (pdf: Uint8Array) => /<xmpTPg:NPages>(\d+)</.exec(Buffer.from(pdf).toString('latin1'))?.[1];
    expect(xmp(chunked.pdf)).toBe(String(pdfPageCount(chunked.pdf)));
  });

  it('embeds every font and keeps a structure tree that matches its content', async () => {
    const fonts = await pdfFonts(chunked.pdf);
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.filter((f) => !f.embedded)).toEqual([]);
    const tags = await pdfTags(chunked.pdf);
    const whole = await pdfTags(onePass.pdf);
    expect(tags.problems).toEqual([]);
    expect(tags.marked).toBe(true);
    expect(tags.lang).toBe('en');
    expect(tags.elements).toEqual(whole.elements);
  });
});

describe('which books are laid out in chunks', () => {
  const pieces = (muse: string, data: Partial<CollectionData> = {}) => bookTypstPieces([{ muse, files: new Map() }], { ...defaultCollectionData(), ...data }).book;

  it('a book over one and a half chunks that starts new pages at its chapters', () => {
    expect(wantsChunks(pieces(MUSE), 2000)).toBe(true);
    // the same book under the default chunk size (about 800 pages) keeps the one-pass path
    expect(wantsChunks(pieces(MUSE))).toBe(false);
  });

  it('not a text whose chapters run on (nocoverpage), nor one without chapters', () => {
    expect(wantsChunks(pieces(MUSE, { nocoverpage: true }), 2000)).toBe(false);
    expect(wantsChunks(pieces(`#title Plain\n\n${para(200)}\n`), 2000)).toBe(false);
  });
});

describe('a collection laid out in chunks', () => {
  it('is cut between its texts and gives the pages of the one-pass book', async () => {
    const texts = [1, 2, 3].map((i) => {
      const musePath = path.join(dir, `text-${i}.muse`);
      fs.writeFileSync(musePath, `#title Text ${i}\n#lang en\n\n** Opening ${i}\n\n${para(25)} A note.[1]\n\n** Closing ${i}\n\n${para(25)}\n\n[1] Note of text ${i}.\n`);
      return { musePath, zipPath: null };
    });
    const data = { ...defaultCollectionData(), title: 'Three Texts', twoside: true, headings: 'title_chapter' as const };
    const cut = await buildBook({ texts, data, outPath: path.join(dir, 'coll-cut.pdf'), chunkBytes: 3000 });
    const whole = await buildBook({ texts, data, outPath: path.join(dir, 'coll-whole.pdf'), chunkBytes: 1e9 });
    expect(cut.chunks).toBe(3);
    expect(whole.chunks).toBe(0);
    const a = new Uint8Array(fs.readFileSync(path.join(dir, 'coll-cut.pdf')));
    const b = new Uint8Array(fs.readFileSync(path.join(dir, 'coll-whole.pdf')));
    expect(cut.bookPages).toBe(whole.bookPages);
    for (let p = 0; p < whole.bookPages; p++) expect(spans(a, p), `page ${p + 1}`).toEqual(spans(b, p));
    expect(pdfOutline(a)).toEqual(pdfOutline(b));
    expect((await pdfTags(a)).problems).toEqual([]);
  }, 120_000);
});
