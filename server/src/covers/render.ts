// One cover: checked values + template → Typst → a PDF sheet (build) or an SVG image with the fold
// lines (preview). Pure file-in/file-out like the book build, so it runs in the build thread.
import fs from 'node:fs';
import path from 'node:path';
import bwipjs from 'bwip-js/node';
import { FILES_DIR, compileTypstPdf, imageFormat, mm, museFragmentTypst, museHelpers, resolveLayout, typstString, typstToSvg, TypstCompileError } from '@uc/muse';
import { COVER_PANEL_INSET_MM, SPINE_TEXT_MIN_MM, coverImageBoxMm, coverLayout } from '@uc/shared';
import type { CoverValues, TemplateToken } from './tokens.ts';

export interface CoverRenderInput {
  /** The template's Typst source and its tokens. */
  template: string;
  templateTokens: TemplateToken[];
  values: CoverValues;
  /** The session's uploads (file tokens name files in it). */
  filesDir: string;
  /** SVG with fold lines and the bleed shaded, instead of the PDF. */
  preview: boolean;
  /** Where the PDF goes (build only). */
  outPath?: string;
}

export interface CoverRenderResult { svg?: string; pages: number; bytes: number; widthMm: number; heightMm: number }

const BARCODE_FILE = 'isbn-barcode.svg';

/** Where the small copy of an upload for previews lives, inside the session's files folder. */
export function previewImageName(file: string): string {
  return `preview/${file.replace(/\.(png|jpg)$/, '')}.jpg`;
}

/** An EAN-13 "Bookland" barcode with its digits and the ISBN line above, as SVG. */
export function isbnBarcodeSvg(hyphenatedIsbn13: string): string {
  return bwipjs.toSVG({ bcid: 'isbn', text: hyphenatedIsbn13, includetext: true, textxalign: 'center', backgroundcolor: 'FFFFFF', padding: 4 });
}

/** The Typst source of the cover and the files it reads. */
export function coverTypst(input: CoverRenderInput): { source: string; files: Map<string, Uint8Array> } {
  const { values } = input;
  const L = coverLayout(values.geometry);
  const g = values.geometry;
  const files = new Map<string, Uint8Array>();
  const layout = resolveLayout({ mainfont: values.font });
  const entries: string[] = [];
  for (const t of input.templateTokens) {
    const v = values.tokens[t.name];
    let expr = 'none';
    if (t.type === 'int') expr = String(v ?? 0);
    else if (t.type === 'bool') expr = v ? 'true' : 'false';
    else if (v !== null && v !== undefined && v !== '') {
      if (t.type === 'muse_str') expr = `[${museFragmentTypst(String(v), 'inline')}]`;
      else if (t.type === 'muse_body') expr = `[${museFragmentTypst(String(v), 'body')}]`;
      else if (t.type === 'isbn') {
        files.set(BARCODE_FILE, new TextEncoder().encode(isbnBarcodeSvg(String(v))));
        expr = typstString(`${FILES_DIR}/${BARCODE_FILE}`);
      } else if (t.type === 'file') {
        const small = path.join(input.filesDir, previewImageName(String(v)));
        const bytes = new Uint8Array(fs.readFileSync(input.preview && fs.existsSync(small) ? small : path.join(input.filesDir, String(v))));
        if (imageFormat(bytes)) {
          // The preview copy is a JPEG whatever the upload was: the name's extension tells Typst the format.
          const name = String(v).replace(/\.(png|jpg)$/, `.${imageFormat(bytes)}`);
          files.set(name, bytes);
          expr = typstString(`${FILES_DIR}/${name}`);
        }
      }
    }
    entries.push(`${t.name}: ${expr}`);
  }
  const part = (p: { name: string; x: number; width: number }) => `(name: ${typstString(p.name)}, x: ${mm(p.x)}, width: ${mm(p.width)})`;
  const out: string[] = [
    `#set document(title: "Cover")`,
    `#set page(width: ${mm(L.width)}, height: ${mm(L.height)}, margin: 0pt)`,
    `#set text(font: (${typstString(values.font)}, "DejaVu Serif"), size: 12pt, lang: ${typstString(values.lang)})`,
    '#set par(justify: false, first-line-indent: 0pt)',
    ...museHelpers(layout),
    `#let sheet = (width: ${mm(L.width)}, height: ${mm(L.height)}, trim: (x: ${mm(L.trim.x)}, y: ${mm(L.trim.y)}, width: ${mm(L.trim.width)}, height: ${mm(L.trim.height)}), parts: (${L.parts.map(part).join(', ')},), preview: ${input.preview})`,
    `#let cover = (${entries.join(', ')}${entries.length ? ',' : ':'})`,
    `#let cover-inset = ${COVER_PANEL_INSET_MM}mm`,
    `#let cover-text-width = ${mm(coverImageBoxMm(g).width)}`,
    `#let cover-image-height = ${mm(coverImageBoxMm(g).height)}`,
    `#let cover-spine-width = ${mm(g.spinewidth)}`,
    '#let cover-part(name) = sheet.parts.find(p => p.name == name)',
    '#let cover-panel(name, body) = { let p = cover-part(name); if p != none and p.width > 0pt { place(top + left, dx: p.x, dy: sheet.trim.y, block(width: p.width, height: sheet.trim.height, inset: cover-inset, clip: true, body)) } }',
    // a spine too narrow to read stays blank (SPINE_TEXT_MIN_MM), whatever the template puts on it
    `#let cover-spine-text-min = ${mm(SPINE_TEXT_MIN_MM)}`,
    '#let cover-spine(body) = { let p = cover-part("spine"); if p != none and p.width >= cover-spine-text-min { place(top + left, dx: p.x, dy: sheet.trim.y, block(width: p.width, height: sheet.trim.height, clip: true, place(center + horizon, rotate(90deg, reflow: true, block(width: sheet.trim.height - 20mm, align(center + horizon, body)))))) } }',
  ];
  if (input.preview) {
    // The bleed shaded, the finished cover white: what will be cut off is visible at a glance.
    out.push(`#place(top + left, dx: ${mm(g.marklength)}, dy: ${mm(g.marklength)}, rect(width: ${mm(L.width - 2 * g.marklength)}, height: ${mm(L.height - 2 * g.marklength)}, fill: rgb("#fbe3e3"), stroke: none))`);
    out.push(`#place(top + left, dx: ${mm(L.trim.x)}, dy: ${mm(L.trim.y)}, rect(width: ${mm(L.trim.width)}, height: ${mm(L.trim.height)}, fill: white, stroke: none))`);
  }
  out.push('', input.template, '');
  out.push(...marks(L, g.marklength));
  if (input.preview) out.push(...guides(L));
  return { source: out.join('\n'), files };
}

type Layout = ReturnType<typeof coverLayout>;

function line(x1: number, y1: number, x2: number, y2: number, stroke: string): string {
  return `#place(top + left, line(start: (${mm(x1)}, ${mm(y1)}), end: (${mm(x2)}, ${mm(y2)}), stroke: ${stroke}))`;
}

/** The x of every fold: where one part of the sheet meets the next. */
function folds(L: Layout): number[] {
  return L.parts.slice(1).map((p) => p.x);
}

/** Crop marks at the trim corners and fold marks at each fold, all in the margin outside the bleed. */
function marks(L: Layout, m: number): string[] {
  if (m <= 0) return [];
  const { x, y, width, height } = L.trim;
  const [x1, y1, W, H] = [x + width, y + height, L.width, L.height];
  const s = '0.25pt + black';
  const out: string[] = [];
  for (const yy of [y, y1]) out.push(line(0, yy, m, yy, s), line(W - m, yy, W, yy, s));
  for (const xx of [x, x1, ...folds(L)]) out.push(line(xx, 0, xx, m, s), line(xx, H - m, xx, H, s));
  return out;
}

/** Preview only: the trim box and the folds as dashed lines. */
function guides(L: Layout): string[] {
  const { x, y, width, height } = L.trim;
  const trim = '(paint: rgb("#c0392b"), thickness: 0.6pt, dash: "dashed")';
  const fold = '(paint: rgb("#2163b6"), thickness: 0.6pt, dash: "dashed")';
  return [
    `#place(top + left, dx: ${mm(x)}, dy: ${mm(y)}, rect(width: ${mm(width)}, height: ${mm(height)}, stroke: ${trim}))`,
    ...folds(L).map((fx) => line(fx, y, fx, y + height, fold)),
  ];
}

export function renderCover(input: CoverRenderInput): CoverRenderResult {
  const { source, files } = coverTypst(input);
  const L = coverLayout(input.values.geometry);
  try {
    if (input.preview) {
      const svg = typstToSvg(source, files);
      return { svg, pages: 1, bytes: svg.length, widthMm: L.width, heightMm: L.height };
    }
    const { pdf, pages } = compileTypstPdf(source, files);
    if (!input.outPath) throw new Error('No output path for the cover');
    fs.mkdirSync(path.dirname(input.outPath), { recursive: true });
    const tmp = `${input.outPath}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, pdf);
    fs.renameSync(tmp, input.outPath);
    return { pages, bytes: pdf.length, widthMm: L.width, heightMm: L.height };
  } catch (e) {
    if (e instanceof TypstCompileError) {
      const first = e.summary();
      throw new Error(`Typesetting the cover failed${first ? `: ${first}` : ''}`);
    }
    throw e;
  }
}
