// The built book as a reader and a print shop see it, measured on the PDF: title page and headings
// set as marked (never justified or hyphenated), KOMA's heading sizes, LaTeX's line pitch, nothing
// running into the margin, the outline and metadata, the table of contents and the running heads.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { collectionToTypst, compileTypstPdf, missingGlyphs, museToTypst, type TypstOptions } from '@uc/muse';
import { defaultCollectionData, type CollectionData } from '@uc/shared';
import { buildBook } from './build.ts';
import { greyPng } from './testing.ts';
import { pdfFonts, pdfInfo, pdfOutline, pdfPageCount, pdfTags, pdfTextSpans, type TextSpan } from './pdf-checks.ts';
import { pageOrder } from '@uc/imposition';
import * as mupdf from 'mupdf';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { imposeOptions } from './options.ts';

const A4 = { widthMm: 210, left: 210 / 12, right: 210 - (2 * 210) / 12 };
const A5 = { left: 148 / 12, right: 148 - (2 * 148) / 12, top: 210 / 12 };

function build(muse: string, options: TypstOptions = {}): Uint8Array {
  return compileTypstPdf(museToTypst(muse, options)).pdf;
}

const SOFT_HYPHEN = '\u00ad';
const endsHyphenated = (s: TextSpan) => /[\u00ad-]\s*$/.test(s.text);
const lines = (spans: TextSpan[]) => {
  // spans on one baseline form a line
  const byBaseline = new Map<number, TextSpan[]>();
  for (const s of spans) {
    const key = [...byBaseline.keys()].find((k) => Math.abs(k - s.baseline) < 0.3) ?? s.baseline;
    byBaseline.set(key, [...(byBaseline.get(key) ?? []), s]);
  }
  return [...byBaseline.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([baseline, ss]) => ({
      baseline,
      text: ss.map((s) => s.text).join(''),
      x: Math.min(...ss.map((s) => s.x)),
      right: Math.max(...ss.map((s) => s.right)),
      size: Math.max(...ss.map((s) => s.size)),
    }));
};

const LONG_TITLE = `#title Extraordinary Considerations about Internationalisation and Bibliographies
#subtitle Incomprehensibilities of Telecommunications Bibliotecarianism Considered Thoroughly
#author Someone Else
#topics anarchism, libraries; mutual aid
#lang en
`;

const BODY = `
* The First Part

** A chapter whose title is long enough to need two lines in the table of contents and then some more

Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.

*** A section [1]

Text.

**** A subsection

Text.

***** Level five

Text.

** A second chapter

[1] A note in a heading: the bookmark leaves it out.

${'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '.repeat(40)}
`;

describe('title page and aligned text', () => {
  it('sets the title and subtitle centred, never hyphenated nor justified', () => {
    const pdf = build(LONG_TITLE + '\nText.\n', { papersize: 'a4' });
    const title = lines(pdfTextSpans(pdf, 0));
    const big = title.filter((l) => l.size > 14);
    expect(big.length).toBeGreaterThanOrEqual(4); // title and subtitle both wrap
    expect(big.map((l) => l.text).join(' ')).not.toContain(SOFT_HYPHEN);
    for (const l of big) {
      expect(/[\u00ad-]\s*$/.test(l.text)).toBe(false);
      // centred on the text area, not stretched to its edges
      expect(Math.abs((l.x + l.right) / 2 - (A4.left + A4.right) / 2)).toBeLessThan(1);
    }
    expect(big.some((l) => l.right < A4.right - 5)).toBe(true);
  });

  it('keeps <center>, <right> and table cells ragged and unhyphenated', () => {
    const long = 'Considerations regarding internationalisation, telecommunications and bibliographical incomprehensibilities accumulate relentlessly. '.repeat(2);
    const muse = `#title T\n#nocoverpage 1\n\n<center>\n${long}\n</center>\n\n<right>\n${long}\n</right>\n\n | ${long} | x |\n`;
    const pdf = build(muse, { papersize: 'a4', nocoverpage: true, notoc: true, nofinalpage: true });
    const body = lines(pdfTextSpans(pdf, 0)).filter((l) => l.size === 12 && l.text.length > 20);
    expect(body.length).toBeGreaterThan(6);
    expect(body.filter((l) => /[\u00ad]\s*$/.test(l.text))).toEqual([]);
    const centred = body.filter((l) => Math.abs((l.x + l.right) / 2 - (A4.left + A4.right) / 2) < 1);
    // a final full stop may hang into the margin (optical margin alignment)
    const flushRight = body.filter((l) => Math.abs(l.right - A4.right) < 1.5 && l.x > A4.left + 5);
    expect(centred.length).toBeGreaterThanOrEqual(2);
    expect(flushRight.length).toBeGreaterThanOrEqual(2);
  });
});

describe('headings', () => {
  const pdf = build(LONG_TITLE + BODY, { headings: 'part_chapter', twoside: true });
  const all = Array.from({ length: pdfPageCount(pdf) }, (_, i) => ({ page: i, lines: lines(pdfTextSpans(pdf, i)) }));
  // the heading itself: the largest line with the text (the contents and running heads repeat it)
  const find = (text: string) => {
    const found = all.flatMap((p) => p.lines.filter((x) => x.text.includes(text)).map((l) => ({ ...l, page: p.page })));
    if (!found.length) throw new Error(`not found: ${text}`);
    return found.sort((a, b) => b.size - a.size)[0];
  };

  it('follows KOMA: part 29.9, chapter 24.9, section 17.3, subsection 14.4, level five 12 pt', () => {
    expect(find('The First Part').size).toBeCloseTo(29.9, 0);
    expect(find('A second chapter').size).toBeCloseTo(24.9, 0);
    expect(find('A section').size).toBeCloseTo(17.3, 0);
    expect(find('A subsection').size).toBeCloseTo(14.4, 0);
    expect(find('Level five').size).toBe(12);
  });

  it('opens chapters lower on the page, and never hyphenates a heading', () => {
    const chapter = find('A second chapter');
    expect(chapter.baseline - A5.top).toBeGreaterThan(20);
    const headingLines = all.flatMap((p) => p.lines).filter((l) => l.size > 14);
    expect(headingLines.filter((l) => /\u00ad\s*$/.test(l.text))).toEqual([]);
  });

  it('gives 12 pt type LaTeX’s 14.5 pt line pitch', () => {
    const page = all.find((p) => p.lines.filter((l) => l.size === 12).length > 20)!;
    const body = page.lines.filter((l) => l.size === 12 && l.baseline > A5.top && l.baseline < 180);
    const gaps = body.slice(1).map((l, i) => (l.baseline - body[i].baseline) * (72 / 25.4));
    const median = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)];
    expect(median).toBeCloseTo(14.5, 0);
  });

  it('writes the outline from the headings, and Subject and Keywords from the subtitle and topics', () => {
    const outline = pdfOutline(pdf);
    expect(outline.map((o) => o.title)).toEqual([
      'The First Part',
      'A chapter whose title is long enough to need two lines in the table of contents and then some more',
      'A section',
      'A subsection',
      'A second chapter',
    ]);
    expect(outline.find((o) => o.title === 'A section')!.depth).toBe(2);
    const info = pdfInfo(pdf);
    expect(info.subject).toBe('Incomprehensibilities of Telecommunications Bibliotecarianism Considered Thoroughly');
    expect(info.keywords).toBe('anarchism, libraries, mutual aid');
  });

  it('keeps a long contents entry’s page number on the entry’s last line', () => {
    const toc = all.find((p) => p.lines.some((l) => l.text.startsWith('Contents')))!;
    const numbered = toc.lines.filter((l) => /\d\s*$/.test(l.text) && l.baseline < 180);
    expect(numbered.length).toBe(5);
    for (const l of numbered) expect(l.text).toMatch(/[A-Za-z]/);
  });

  it('prints running heads only on ordinary pages, never over the page number', () => {
    const head = (p: (typeof all)[number]) => p.lines.filter((l) => l.baseline < A5.top);
    const foot = (p: (typeof all)[number]) => p.lines.filter((l) => l.baseline > 185);
    const part = all[find('The First Part').page];
    expect(part.lines.map((l) => l.text.trim())).toEqual(['The First Part']);
    const opening = all[find('A second chapter').page];
    expect(head(opening)).toEqual([]);
    expect(foot(opening).map((l) => l.text.trim())).toEqual([String(opening.page + 1)]);
    // blank pages left by "next recto" breaks stay blank
    const blanks = all.filter((p) => p.lines.length === 0);
    expect(blanks.length).toBeGreaterThan(0);
    const ordinary = all.filter((p) => head(p).length > 0);
    expect(ordinary.length).toBeGreaterThan(0);
    for (const p of ordinary) {
      const spans = pdfTextSpans(pdf, p.page).filter((s) => s.baseline < A5.top);
      const num = spans.find((s) => s.text.trim() === String(p.page + 1))!;
      expect(num).toBeDefined();
      for (const s of spans) if (s !== num) expect(s.right < num.x || s.x > num.right).toBe(true);
    }
  });

  it('heads a page with its own chapter (recto) and part (verso); a head too long for the line keeps its first words and ends with “…”', () => {
    const heads = all.map((p) => ({ page: p.page, spans: pdfTextSpans(pdf, p.page).filter((s) => s.baseline < A5.top) })).filter((p) => p.spans.length);
    const text = (p: (typeof heads)[number]) => p.spans.filter((s) => s.text.trim() !== String(p.page + 1)).map((s) => s.text).join(' ').trim();
    const long = 'A chapter whose title is long enough to need two lines in the table of contents and then some more';
    const longPages = heads.filter((p) => p.page > find('The First Part').page && p.page < find('A second chapter').page);
    expect(longPages.length).toBeGreaterThan(0);
    for (const p of longPages) {
      // one line, level with the page number: nothing of a wrapped second line above or below it
      const num = p.spans.find((s) => s.text.trim() === String(p.page + 1))!;
      for (const s of p.spans) expect(Math.abs(s.baseline - num.baseline), s.text).toBeLessThan(0.3);
      const head = text(p);
      expect(head).toMatch(p.page % 2 === 0 ? /^A chapter whose title is .+ …$/ : /^The First Part$/);
      if (p.page % 2 === 0) expect(long.startsWith(head.replace(/ …$/, ''))).toBe(true);
    }
    const after = heads.filter((p) => p.page > find('A second chapter').page);
    expect(after.map(text)).toEqual(after.map((p) => (p.page % 2 === 0 ? 'A second chapter' : 'The First Part')));
  });
});

describe('title page options', () => {
  it('puts the title on a recto after start_with_empty_page in two-sided mode, and nobold sets it regular', () => {
    const pdf = build(LONG_TITLE + BODY, { twoside: true, start_with_empty_page: true, nobold: true });
    expect(pdfTextSpans(pdf, 0)).toEqual([]);
    expect(pdfTextSpans(pdf, 1)).toEqual([]);
    const title = pdfTextSpans(pdf, 2).filter((s) => s.size > 20);
    expect(title.map((s) => s.text).join('')).toContain('Extraordinary');
    expect(title.every((s) => !/bold/i.test(s.font))).toBe(true);
  });
});

describe('contents', () => {
  it('runs on after the title block with nocoverpage: title and contents on page 1, the text right after', () => {
    const pdf = build(LONG_TITLE + BODY, { nocoverpage: true });
    const first = pdfTextSpans(pdf, 0).map((s) => s.text).join(' ');
    expect(first).toContain('Extraordinary');
    expect(first).toContain('Contents');
    expect(first).toContain('The First Part');
    const firstTwo = [...pdfTextSpans(pdf, 0), ...pdfTextSpans(pdf, 1)];
    expect(firstTwo.find((s) => s.text.includes('The First Part') && s.size > 20)).toBeDefined();
    expect(firstTwo.map((s) => s.text).join(' ')).toContain('Lorem ipsum');
  });

  it('is titled in the text’s language (Persian)', () => {
    const pdf = build('#title کتاب\n#lang fa\n\n** فصل یکم\n\nمتن.\n', { notoc: false });
    const pages = Array.from({ length: pdfPageCount(pdf) }, (_, i) => pdfTextSpans(pdf, i).map((s) => s.text).join(' ')).join('\n');
    expect(pages.replace(/\s+/g, ' ')).toMatch(/فهرست مطالب|مطالب فهرست/);
    expect(pages).not.toContain('Contents');
  });
});

describe('lines stay inside the text area', () => {
  it('breaks overlong words, identifiers, hashes and URLs', () => {
    const muse = `#title T\n\nSome words then ${'x'.repeat(80)} and a hash ${'0123456789abcdef'.repeat(4)} and <code>a_very_long_identifier_name_in_code_that_goes_on_and_on</code> and [[https://example.org/averylongpathsegmentwithoutslashes0123456789012345678901234567890?x=1&y=2]] end.\n`;
    const pdf = build(muse, { notoc: true, nofinalpage: true, nocoverpage: true });
    const spans = pdfTextSpans(pdf, 0).filter((s) => s.size <= 12);
    expect(spans.map((s) => s.text).join('')).toContain('x'.repeat(10));
    for (const s of spans) expect(s.right).toBeLessThanOrEqual(A5.right + 0.2);
  });

  it('sets a table too wide for the text area smaller until its longest words fit, and one that fits at the body size', () => {
    const row = (cells: string[], sep = '|') => ` ${sep} ${cells.join(` ${sep} `)} ${sep}`;
    const cols = (n: number, w: string) => Array.from({ length: n }, (_, i) => `${w}${i}`);
    const muse = [
      '#title T',
      '',
      row(['Name', 'Place'], '||'),
      row(['Ann', 'Paris']),
      '',
      row(cols(9, 'Heading'), '||'),
      row(cols(9, 'Internationalisation')),
      row(cols(9, 'ab')),
      '',
      row(cols(20, 'w')),
      '',
    ].join('\n');
    const pdf = build(muse, { notoc: true, nofinalpage: true, nocoverpage: true });
    const spans = Array.from({ length: pdfPageCount(pdf) }, (_, i) => pdfTextSpans(pdf, i)).flat();
    const text = spans.map((s) => s.text).join(' ');
    for (const w of [...cols(9, 'Internationalisation'), ...cols(20, 'w'), 'Paris']) expect(text).toContain(w);
    for (const s of spans) {
      expect(s.right, s.text).toBeLessThanOrEqual(A5.right + 0.2);
      expect(s.x, s.text).toBeGreaterThanOrEqual(A5.left - 0.2);
    }
    expect(spans.find((s) => s.text.includes('Paris'))!.size).toBe(12);
    expect(spans.find((s) => s.text.includes('Internationalisation8'))!.size).toBeLessThan(6);
    expect(spans.find((s) => s.text.includes('w19'))!.size).toBeLessThan(12);
  });
});

describe('#hyphenation', () => {
  const LOREM = 'Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'.split(' ');
  // every fourth word the one the directive is about
  const text = Array.from({ length: 300 }, (_, i) => (i % 4 === 0 ? 'internationalisation' : LOREM[i % LOREM.length])).join(' ');
  const endings = (directive: string) => {
    const pdf = build(`#title Hyphens\n#lang en\n${directive}\n\n${text}\n`, { notoc: true, nofinalpage: true, nocoverpage: true });
    return lines(pdfTextSpans(pdf, 0).filter((s) => s.size <= 12 && s.baseline > 40))
      .filter((l) => endsHyphenated({ text: l.text } as TextSpan))
      .map((l) => l.text.trim().split(/\s+/).pop()!.replace(/[\u00ad-]$/, ''));
  };

  it('breaks a listed word only where the directive says, and a listed word without hyphens never', () => {
    // without the directive the word breaks where the patterns say (in-ter-na-tion-al-i-sa-tion)
    const free = endings('');
    expect(free.filter((w) => w.startsWith('intern')).length).toBeGreaterThan(0);
    expect(free).not.toContain('internationa');
    const only = endings('#hyphenation internationa-lisation 12-3');
    expect(only).toContain('internationa');
    expect(only.filter((w) => w.startsWith('intern') && w !== 'internationa')).toEqual([]);
    const never = endings('#hyphenation internationalisation');
    expect(never.length).toBeGreaterThan(0);
    expect(never.filter((w) => w.startsWith('intern'))).toEqual([]);
  });
});

describe('floated images', () => {
  const LOREM = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ';
  const width = A5.right - A5.left;
  const wrapped = (side: 'l' | 'r') => {
    const muse = `#title Floats\n\n[[pic.png 30${side}]]\n\n${LOREM.repeat(6)}\n`;
    const files = new Map([['pic.png', greyPng(100, 150)]]);
    const pdf = compileTypstPdf(museToTypst(muse, { files, notoc: true, nofinalpage: true, nocoverpage: true }), files).pdf;
    return lines(pdfTextSpans(pdf, 0).filter((s) => s.size <= 12 && s.baseline > 40));
  };

  it('wraps the next paragraph around an image floated right, the image 30% of the text width', () => {
    const ls = wrapped('r');
    const full = ls.findIndex((l) => l.right > A5.right - 1);
    // beside the image: lines end before its left edge (30% of the text width and a gap from the right)
    const beside = ls.slice(0, full);
    expect(beside.length).toBeGreaterThanOrEqual(6);
    for (const l of beside) {
      expect(l.right).toBeLessThan(A5.right - 0.3 * width);
      expect(l.right).toBeGreaterThan(A5.right - 0.3 * width - 8);
    }
    // below it: the rest of the paragraph runs the full width
    expect(ls.slice(full).filter((l) => l.right > A5.right - 1).length).toBeGreaterThanOrEqual(3);
  });

  it('wraps it on the right of an image floated left', () => {
    const ls = wrapped('l');
    const full = ls.findIndex((l) => l.x < A5.left + 1);
    const beside = ls.slice(0, full);
    expect(beside.length).toBeGreaterThanOrEqual(6);
    // the first line keeps its paragraph indent (15 pt)
    for (const l of beside) {
      expect(l.x).toBeGreaterThan(A5.left + 0.3 * width);
      expect(l.x).toBeLessThan(A5.left + 0.3 * width + 8 + 15 * (25.4 / 72));
    }
    expect(ls.slice(full).filter((l) => l.x < A5.left + 1).length).toBeGreaterThanOrEqual(3);
  });
});

describe('collections', () => {
  it('puts every text’s title in the outline', () => {
    const { source, files } = collectionToTypst([{ muse: LONG_TITLE + BODY }, { muse: '#title Second text\n\nJust a paragraph.\n' }], {});
    const outline = pdfOutline(compileTypstPdf(source, files).pdf);
    expect(outline.filter((o) => o.depth === 0).map((o) => o.title)).toEqual([
      'Extraordinary Considerations about Internationalisation and Bibliographies',
      'The First Part',
      'Second text',
    ]);
  });
});

describe('characters no font has', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'book-glyphs-'));
  const buildOne = async (muse: string) => {
    const musePath = path.join(dir, 'text.muse');
    fs.writeFileSync(musePath, muse);
    const outPath = path.join(dir, 'out.pdf');
    await buildBook({ texts: [{ musePath, zipPath: null }], data: { ...defaultCollectionData(), title: 'Glyphs' }, outPath });
    return new Uint8Array(fs.readFileSync(outPath));
  };
  const cjk = '漢字のテスト、ルビ';

  if (missingGlyphs(cjk).length > 0) console.warn('book-pdf.test.ts: no CJK font (Debian package fonts-noto-cjk): "builds CJK text and ruby" is skipped');
  // a font that has the letters: not the bundled DejaVu nor the compiler's Libertinus (Noto CJK, Droid Sans Fallback…)
  const notCjk = /DejaVu|Libertinus|NewCM/i;
  it.skipIf(missingGlyphs(cjk).length > 0)('builds CJK text and ruby with a font that has them, embedded', async () => {
    const pdf = await buildOne(`#title CJK\n#lang ja\n\n${cjk}\n\n<ruby>東京|とうきょう</ruby>に行く。\n`);
    const fonts = await pdfFonts(pdf);
    expect(fonts.every((f) => f.embedded)).toBe(true);
    const spans = Array.from({ length: pdfPageCount(pdf) }, (_, i) => pdfTextSpans(pdf, i)).flat();
    expect(spans.map((s) => s.text).join('')).toContain('漢字のテスト');
    expect(spans.find((s) => s.text.includes('漢字'))!.font).not.toMatch(notCjk);
    // the ruby: its reading set at half size above the base, in a CJK font (no empty boxes)
    const base = spans.find((s) => s.text.includes('東京'))!;
    const reading = spans.find((s) => s.text.includes('とうきょう'))!;
    expect(reading.size).toBeCloseTo(base.size / 2, 1);
    expect(reading.baseline).toBeLessThan(base.baseline);
    expect(reading.font).not.toMatch(notCjk);
  });

  // scripts few machines have a font for: the first one this machine lacks
  const rare = ['\u{1D2E0}', '\u{16A40}', '\u{11D00}', '\u{1E900}', '\u{10600}'].find((c) => missingGlyphs(c).length > 0);
  it.skipIf(!rare)('refuses a text with characters no font has, naming the text and a font that has them', async () => {
    const error = await buildOne(`#title Rare\n\nBefore ${rare} after.\n`).then(() => null, (e: Error) => e.message);
    expect(error).toMatch(/^No installed font has some characters of this text/);
    expect(error).toContain(`"${rare}" (as in "Before ${rare} after."): install `);
    expect(error).toMatch(/install .*Noto/);
    expect(missingGlyphs(`x 漢 y`)).toEqual(missingGlyphs('漢').length ? [{ chars: '漢', sample: 'x 漢 y', font: 'Noto Sans CJK (Debian package fonts-noto-cjk)' }] : []);
  });
});

describe('fonts', () => {
  // plain, imposed and crop-marked (its labels are drawn by the imposition, not by Typst)
  let variants: Promise<Record<string, string>> | undefined;
  const builtVariants = () =>
    (variants ??= (async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'book-fonts-'));
      const musePath = path.join(dir, 'text.muse');
      fs.writeFileSync(musePath, LONG_TITLE + BODY + '\n<code>mono</code> and <sf>sans</sf>.\n');
      const extras: Record<string, Partial<CollectionData>> = {
        plain: {},
        imposed: { imposition_schema: '2up' },
        cropmarks: { imposition_schema: '2up', cropmarks: true, crop_papersize: 'a3' },
      };
      const out: Record<string, string> = {};
      for (const [name, extra] of Object.entries(extras)) {
        out[name] = path.join(dir, `${name}.pdf`);
        await buildBook({ texts: [{ musePath, zipPath: null }], data: { ...defaultCollectionData(), title: 'Fonts', ...extra }, outPath: out[name] });
      }
      return out;
    })());

  it('embeds every font in plain, imposed and crop-marked output', async () => {
    for (const [name, outPath] of Object.entries(await builtVariants())) {
      const fonts = await pdfFonts(new Uint8Array(fs.readFileSync(outPath)));
      expect(fonts.length, name).toBeGreaterThanOrEqual(2);
      expect(fonts.filter((f) => !f.embedded).map((f) => `${name}: ${f.name}`)).toEqual([]);
    }
  });

  // An independent reader (poppler-utils' pdffonts, what print shops and the issue name) must see the
  // same fonts, all embedded and marked as subsets; .ci/run installs it.
  const pdffonts = spawnSync('pdffonts', ['-v'], { encoding: 'utf8' }).error ? null : 'pdffonts';
  if (!pdffonts) console.warn('book-pdf.test.ts: pdffonts (Debian package poppler-utils) is not installed; the cross-check with it is skipped');
  it.skipIf(!pdffonts)('agrees with poppler’s pdffonts: the same fonts, every one embedded and a tagged subset', async () => {
    for (const [name, outPath] of Object.entries(await builtVariants())) {
      const run = spawnSync('pdffonts', [outPath], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      // name type... emb sub uni object-id gen, after two header lines; the name has no spaces
      const rows = run.stdout.trim().split('\n').slice(2).map((l) => {
        const f = l.trim().split(/\s+/);
        return { name: f[0], emb: f.at(-5), sub: f.at(-4) };
      });
      const ours = await pdfFonts(new Uint8Array(fs.readFileSync(outPath)));
      expect(rows.map((r) => r.name).sort(), name).toEqual(ours.map((f) => f.name).sort());
      expect(rows.filter((r) => r.emb !== 'yes' || r.sub !== 'yes').map((r) => `${name}: ${r.name} emb ${r.emb} sub ${r.sub}`)).toEqual([]);
    }
  });
});

describe('imposed output', () => {
  it('keeps the book’s tags: structure tree in reading order, Lang, MarkInfo, metadata, and an outline pointing at the sheet sides', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'book-tags-'));
    const musePath = path.join(dir, 'text.muse');
    fs.writeFileSync(musePath, LONG_TITLE + BODY);
    const variants: Record<string, Partial<CollectionData>> = {
      plain: {},
      '2up': { imposition_schema: '2up' },
      '4up with crop marks': { imposition_schema: '4up', cropmarks: true, crop_papersize: 'a3' },
    };
    const built: Record<string, { pdf: Uint8Array; bookPages: number; data: CollectionData }> = {};
    for (const [name, extra] of Object.entries(variants)) {
      const outPath = path.join(dir, `${name}.pdf`);
      const data = { ...defaultCollectionData(), ...extra };
      const r = await buildBook({ texts: [{ musePath, zipPath: null }], data, outPath });
      built[name] = { pdf: new Uint8Array(fs.readFileSync(outPath)), bookPages: r.bookPages, data };
    }
    const plain = await pdfTags(built.plain.pdf);
    expect(plain).toMatchObject({ lang: 'en', marked: true, problems: [] });
    expect(plain.elements.length).toBeGreaterThan(20);
    for (const name of ['2up', '4up with crop marks']) {
      const { pdf, bookPages, data } = built[name];
      // the same elements in the same order, each mark of content found where it says, none left unowned
      expect(await pdfTags(pdf), name).toEqual(plain);
      expect(pdfInfo(pdf), name).toEqual(pdfInfo(built.plain.pdf));
      // each bookmark opens the sheet side that holds its page
      const order = pageOrder(bookPages, imposeOptions(data)!);
      const outline = (pdf: Uint8Array) => {
        const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
        try {
          const flat: { title: string; page: number }[] = [];
          const walk = (items: NonNullable<ReturnType<mupdf.Document['loadOutline']>>) => items.forEach((i) => (flat.push({ title: i.title ?? '', page: i.page ?? -1 }), walk(i.down ?? [])));
          walk(doc.loadOutline() ?? []);
          return flat;
        } finally {
          doc.destroy();
        }
      };
      const bookOutline = outline(built.plain.pdf);
      expect(bookOutline.length).toBeGreaterThan(3);
      expect(outline(pdf), name).toEqual(bookOutline.map((o) => ({ title: o.title, page: order.sides.findIndex((s) => s.slots.includes(o.page + 1)) })));
      expect(pdfOutline(pdf)).toEqual(pdfOutline(built.plain.pdf));
    }
    // the check sees a form whose marked content the parent tree no longer reaches
    const broken = await PDFDocument.load(built['2up'].pdf);
    const form = broken.context.enumerateIndirectObjects().map(([, o]) => o).find((o): o is PDFRawStream => o instanceof PDFRawStream && o.dict.has(PDFName.of('StructParents')))!;
    form.dict.delete(PDFName.of('StructParents'));
    expect((await pdfTags(await broken.save())).problems).toContainEqual(expect.stringMatching(/the parent tree does not name the element of MCID \d+/));
  });
});
