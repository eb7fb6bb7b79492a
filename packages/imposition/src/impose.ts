// Imposition of a real PDF with pdf-lib: every source page is embedded once as a form XObject
// and drawn on the sheet sides computed by pageOrder(); with crop marks each slot holds a
// crop-paper cell with the page placed on it (creep included) and the marks around it.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import {
  PDFDocument,
  PDFEmbeddedPage,
  PDFName,
  PDFObjectCopier,
  PDFPageEmbedder,
  PDFRawStream,
  PDFRef,
  appendBezierCurve,
  beginMarkedContent,
  clip,
  closePath,
  concatTransformationMatrix,
  drawObject,
  endMarkedContent,
  endPath,
  lineTo,
  moveTo,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setLineWidth,
  setStrokingGrayscaleColor,
  stroke,
  type PDFFont,
  type PDFOperator,
  type PDFPage,
} from 'pdf-lib';
import { logicalSequence, pageOrder, validateImposeOptions, type ImposeOptions, type PageOrder } from './order.ts';
import { cropLayout, creepUnits, CROP_DEFAULTS, type CropPageLayout } from './cropmarks.ts';
import { carryTags, type PlacedPage } from './tags.ts';
import { sheetLayout } from './sheet.ts';

/** Saddle-stitched schemas: nested sheets, so the inner ones creep. */
const CREEP_SCHEMAS: readonly string[] = ['2up', 'duplex2up', '2down', '4up'];
import { ImpositionError } from './signature.ts';
import { mmToPt, paperSizePt, round3 } from './paper.ts';

export interface ImposeExtraOptions {
  /** text printed under each crop-marked page before the page number (default: none) */
  cropTitle?: string;
}

export interface ImposeResult {
  pdf: Uint8Array;
  /** physical sheets of paper when printed on both sides (output pages / 2, rounded up) */
  sheets: number;
  /** slots on each side of a sheet (2 for 2up, 4 for 4up, 8 for 1x8x2, 1 for 1x1) */
  pagesPerSheetSide: number;
  /** pages of the imposed PDF (= sheet sides) */
  outputPages: number;
  /** size of an output page in pt */
  sheetSizePt: [number, number];
  /** the order that was applied */
  order: PageOrder;
  /** things worth telling the user (ignored options, marks falling off the paper, mixed page sizes) */
  warnings: string[];
}

const BLACK = rgb(0, 0, 0);
const SIZE_TOLERANCE = 0.5; // pt

/** Validated crop settings, or null without crop marks. */
function cropSettings(options: ImposeOptions): { paperPt: [number, number]; paperLabel: string; thicknessPt: number } | null {
  if (!options.cropmarks) return null;
  const paper = options.cropPaper ?? 'a4';
  const paperPt = paperSizePt(paper)!; // checked by validateImposeOptions
  const t = options.cropPaperThicknessMm ?? CROP_DEFAULTS.thicknessMm;
  const paperLabel = typeof paper === 'string' ? paper : `${paper.widthMm}mm:${paper.heightMm}mm`;
  return { paperPt, paperLabel, thicknessPt: mmToPt(t) };
}

/** The crop labels' font, embedded (a print shop's preflight rejects an unembedded standard font). */
let labelFont: Uint8Array | null = null;
function labelFontBytes(): Uint8Array {
  const pkg = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json');
  labelFont ??= readFileSync(path.join(path.dirname(pkg), 'ttf', 'DejaVuSansMono.ttf'));
  return labelFont;
}

/** Only characters the standard (WinAnsi) fonts can show. */
function latin1(text: string): string {
  return text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

/** Rotation about the origin then translation: the matrix of a slot (counter-clockwise degrees). */
function slotMatrix(rotate: number, x: number, y: number): [number, number, number, number, number, number] {
  if (rotate === 90) return [0, 1, -1, 0, x, y];
  if (rotate === 180) return [-1, 0, 0, -1, x, y];
  return [1, 0, 0, 1, x, y];
}

/** Origin of a slot (column c, row r from the top) for the given rotation, as in the fixtures. */
function slotOrigin(c: number, r: number, rows: number, w: number, h: number, rotate: number): [number, number] {
  if (rotate === 180) return [round3((c + 1) * w), round3((rows - r) * h)];
  if (rotate === 90) return [round3((c + 1) * w), round3((rows - 1 - r) * h)];
  return [round3(c * w), round3((rows - 1 - r) * h)];
}

type Matrix = [number, number, number, number, number, number];

/**
 * Draws the source page into a box of w×h at (x, y), scaled down and centred if its size differs;
 * answers the matrix from the page to the sheet, given the slot's.
 */
function drawFitted(page: PDFPage, emb: PDFEmbeddedPage, x: number, y: number, w: number, h: number, slot: Matrix): Matrix {
  const ew = emb.width;
  const eh = emb.height;
  const exact = Math.abs(ew - w) <= SIZE_TOLERANCE && Math.abs(eh - h) <= SIZE_TOLERANCE;
  const s = exact ? 1 : Math.min(1, w / ew, h / eh);
  const ox = exact ? x : x + (w - ew * s) / 2;
  const oy = exact ? y : y + (h - eh * s) / 2;
  if (exact) page.drawPage(emb, { x, y });
  else page.drawPage(emb, { x: ox, y: oy, xScale: s, yScale: s });
  const [a, b, c, d, e, f] = slot;
  return [a * s, b * s, c * s, d * s, a * ox + c * oy + e, b * ox + d * oy + f];
}

/** The operators of the marks of one crop page (lines, registration targets), in crop-paper coordinates. */
function markOperators(layout: CropPageLayout): PDFOperator[] {
  const r = CROP_DEFAULTS.targetRadiusPt;
  const half = CROP_DEFAULTS.targetCrossPt / 2;
  const k = 0.5523 * r; // Bézier approximation of a quarter circle
  const ops: PDFOperator[] = [setLineWidth(CROP_DEFAULTS.lineWidthPt), setStrokingGrayscaleColor(0)];
  for (const m of layout.marks) {
    const [tx, ty] = m.to;
    ops.push(moveTo(m.from[0], m.from[1]), lineTo(tx, ty));
    ops.push(moveTo(tx - half, ty), lineTo(tx + half, ty), moveTo(tx, ty - half), lineTo(tx, ty + half));
  }
  ops.push(stroke());
  for (const m of layout.marks) {
    const [x, y] = m.to;
    ops.push(
      moveTo(x + r, y),
      appendBezierCurve(x + r, y + k, x + k, y + r, x, y + r),
      appendBezierCurve(x - k, y + r, x - r, y + k, x - r, y),
      appendBezierCurve(x - r, y - k, x - k, y - r, x, y - r),
      appendBezierCurve(x + k, y - r, x + r, y - k, x + r, y),
      closePath(),
    );
  }
  ops.push(stroke());
  return ops;
}

/** Page labels of one crop page: `Pg NNNN` outside the four corners, a line above and below the page. */
function drawLabels(page: PDFPage, layout: CropPageLayout, font: PDFFont, label: string, pageSize: [number, number]): void {
  const size = CROP_DEFAULTS.fontSizePt;
  const r = CROP_DEFAULTS.targetRadiusPt;
  const [W, H] = pageSize;
  const gap = CROP_DEFAULTS.markOffsetPt + CROP_DEFAULTS.markLengthPt + r + 2;
  const pg = `Pg ${String(layout.page).padStart(4, '0')}`;
  const pgWidth = font.widthOfTextAtSize(pg, size);
  page.drawText(pg, { x: layout.x - gap - pgWidth, y: layout.y - gap - size, size, font, color: BLACK });
  page.drawText(pg, { x: layout.x + W + gap, y: layout.y - gap - size, size, font, color: BLACK });
  page.drawText(pg, { x: layout.x - gap - pgWidth, y: layout.y + H + gap, size, font, color: BLACK });
  page.drawText(pg, { x: layout.x + W + gap, y: layout.y + H + gap, size, font, color: BLACK });
  const sig = layout.signature ? ` #${layout.signature}/${layout.positionInSignature}` : '';
  const text = latin1(`${label ? `${label} ` : ''}page ${layout.page}${sig}`);
  const tw = font.widthOfTextAtSize(text, size);
  const cx = layout.x + W / 2 - tw / 2;
  const vgap = CROP_DEFAULTS.markOffsetPt + CROP_DEFAULTS.markLengthPt / 2 + r + 2;
  page.drawText(text, { x: cx, y: layout.y + H + vgap, size, font, color: BLACK });
  page.drawText(text, { x: cx, y: layout.y - vgap - size, size, font, color: BLACK });
}

/**
 * The book's pages as form XObjects of `out`, as `out.embedPages` makes them, except that a page whose
 * content is one Flate stream keeps its compressed bytes (pdf-lib would inflate and deflate every page
 * again: 0.5 s of a 300-page book's imposition) and is written once. Call `embed()` before `out.flush()`.
 */
async function embedBookPages(out: PDFDocument, pages: PDFPage[]): Promise<{ pages: PDFEmbeddedPage[]; embed: () => Promise<void> }> {
  if (pages.length === 0) return { pages: [], embed: async () => {} };
  const copy = PDFObjectCopier.for(pages[0].node.context, out.context).copy;
  // the copied pages' content streams the forms do not use (dropped once every form is made: pages may share one)
  const unused = new Set<PDFRef>();
  const embedded = await Promise.all(
    pages.map(async (p) => {
      const node = copy(p.node);
      const embedder = await PDFPageEmbedder.for(node);
      const generic = embedder.embedIntoContext.bind(embedder);
      embedder.embedIntoContext = async (context, ref) => {
        const { Contents, Resources } = node.normalizedEntries();
        // the page's own stream, between the q and Q streams pdf-lib wraps a page's content in (a form's
        // Do saves and restores the graphics state anyway)
        const wrappers = [context.getPushGraphicsStateContentStream(), context.getPopGraphicsStateContentStream()];
        const own = (Contents?.asArray() ?? []).filter((r) => !wrappers.includes(r as PDFRef));
        const stream = own.length === 1 ? context.lookup(own[0]) : undefined;
        if (!(stream instanceof PDFRawStream) || stream.dict.lookup(PDFName.of('Filter')) !== PDFName.of('FlateDecode') || stream.dict.has(PDFName.of('DecodeParms'))) {
          return generic(context, ref);
        }
        if (own[0] instanceof PDFRef) unused.add(own[0]);
        const { left, bottom, right, top } = embedder.boundingBox;
        const form = context.stream(stream.contents, {
          Type: 'XObject',
          Subtype: 'Form',
          FormType: 1,
          BBox: [left, bottom, right, top],
          Matrix: embedder.transformationMatrix,
          Resources,
          Filter: 'FlateDecode',
        });
        if (!ref) return context.register(form);
        context.assign(ref, form);
        return ref;
      };
      return PDFEmbeddedPage.of(out.context.nextRef(), out, embedder);
    }),
  );
  const embed = async () => {
    for (const e of embedded) await e.embed();
    for (const r of unused) out.context.delete(r);
  };
  return { pages: embedded, embed };
}

async function loadSource(pdf: Uint8Array): Promise<PDFDocument> {
  if (!(pdf instanceof Uint8Array) || pdf.length === 0) throw new ImpositionError('the input is empty: expected the bytes of a PDF');
  try {
    return await PDFDocument.load(pdf, { updateMetadata: false });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (/encrypt/i.test(msg)) throw new ImpositionError('the PDF is encrypted; imposition needs an unencrypted PDF');
    throw new ImpositionError(`cannot read the PDF: ${msg}`);
  }
}

/**
 * Imposes a PDF for printing and binding at home: pages arranged on sheets per the schema, in
 * signatures, optionally on a larger crop paper with crop marks and paper-thickness compensation.
 * Throws ImpositionError for bad options or an unreadable PDF.
 */
export async function impose(pdf: Uint8Array, options: ImposeOptions & ImposeExtraOptions): Promise<ImposeResult> {
  // validate the options before the (possibly large) PDF is parsed
  validateImposeOptions(options);
  const crop = cropSettings(options);
  const src = await loadSource(pdf);
  const srcPages = src.getPages();
  if (srcPages.length === 0) throw new ImpositionError('the PDF has no pages');

  const warnings: string[] = [];
  const order = pageOrder(srcPages.length, options);
  for (const k of order.ignored) warnings.push(`${k} does not apply to the ${order.schema} schema and was ignored`);
  if (!options.cropmarks && (options.cropPaper !== undefined || options.cropPaperThicknessMm !== undefined)) {
    warnings.push('crop paper settings were ignored because crop marks are off');
  }

  const first = srcPages[0].getMediaBox();
  const W = first.width;
  const H = first.height;
  if (srcPages.some((p) => {
    const b = p.getMediaBox();
    return Math.abs(b.width - W) > SIZE_TOLERANCE || Math.abs(b.height - H) > SIZE_TOLERANCE;
  })) {
    warnings.push(`pages differ in size; every page is fitted into the size of page 1 (${round3(W)}×${round3(H)} pt)`);
  }
  if (srcPages.some((p) => p.getRotation().angle % 360 !== 0)) {
    warnings.push('some pages carry a /Rotate entry, which imposition ignores (pages are placed as stored)');
  }

  // cell = what one slot holds: the page, or the crop paper around it
  let cellW = W;
  let cellH = H;
  let layouts: CropPageLayout[] = [];
  if (crop && order.cropPass) {
    [cellW, cellH] = crop.paperPt;
    const cp = order.cropPass;
    layouts = cropLayout(cp.sequence.length, {
      pageSize: [W, H],
      paperSize: crop.paperPt,
      margins: cp.margins,
      twoside: cp.twoside,
      signatures: cp.signatures,
      thicknessPt: crop.thicknessPt,
    });
    if (cellW + SIZE_TOLERANCE < W || cellH + SIZE_TOLERANCE < H) {
      warnings.push(`the crop paper ${crop.paperLabel} (${cellW}×${cellH} pt) is smaller than the page (${round3(W)}×${round3(H)} pt): the page is cut off`);
    } else {
      const room = CROP_DEFAULTS.markOffsetPt + CROP_DEFAULTS.markLengthPt;
      if (cellW - W < room * 2 || cellH - H < room * 2) {
        warnings.push(`the crop paper ${crop.paperLabel} leaves less than ${Math.ceil(room / (72 / 25.4))} mm around the page: some crop marks fall off the paper`);
      }
    }
  }
  const { rows, cols } = order.grid;
  const slotW = order.sideways ? cellH : cellW;
  const slotH = order.sideways ? cellW : cellH;
  // the one rule for the sheet's size, which the Book Builder shows before building
  const { sheet } = sheetLayout({ width: W, height: H }, order.schema, crop && order.cropPass ? { width: cellW, height: cellH } : null);
  const sheetW = round3(sheet.width);
  const sheetH = round3(sheet.height);

  const out = await PDFDocument.create();
  const book = await embedBookPages(out, srcPages);
  const embedded = book.pages;
  if (crop) out.registerFontkit(fontkit);
  // A subset's name starts with six capitals and "+" (PDF 32000 §9.6.4; pdffonts and preflight read
  // it so): pdf-lib would write "DejaVuSansMono-1234". One label subset per file, so one fixed tag.
  const font = crop ? await out.embedFont(labelFontBytes(), { subset: true, customName: 'UCCROP+DejaVuSansMono' }) : null;
  // the input's metadata survives imposition (as in the reference)
  const title = src.getTitle();
  const author = src.getAuthor();
  const subject = src.getSubject();
  const keywords = src.getKeywords();
  const created = src.getCreationDate();
  if (title) out.setTitle(title);
  if (author) out.setAuthor(author);
  if (subject) out.setSubject(subject);
  if (keywords) out.setKeywords([keywords]);
  if (created) out.setCreationDate(created);
  out.setCreator('union-catalogue imposition');
  out.setModificationDate(new Date());

  // Creep without crop marks (beyond the reference): each page moves by its sheet's depth in the
  // signature times the paper thickness, as on crop paper (odd logical pages +x, even ones -x).
  const creepPt = new Map<number, number>();
  if (!crop && options.creepMm && CREEP_SCHEMAS.includes(order.schema) && order.signatures.length) {
    const units = creepUnits(order.signatures);
    const seq = logicalSequence(srcPages.length, order.paddedPages, !!options.coverLast && !order.ignored.includes('coverLast'));
    seq.forEach((p, i) => {
      if (p !== null) creepPt.set(p, (i % 2 === 0 ? 1 : -1) * units[i] * mmToPt(options.creepMm!));
    });
  }

  const markForms = new Map<string, PDFRef>();
  // where each book page went, for its tags (structure, outline)
  const placed: (PlacedPage | undefined)[] = srcPages.map(() => undefined);
  const place = (srcPage: number, sheet: PDFPage, matrix: Matrix) => {
    placed[srcPage - 1] ??= { sheet: sheet.ref, form: embedded[srcPage - 1].ref, matrix };
  };
  for (const side of order.sides) {
    const page = out.addPage([sheetW, sheetH]);
    side.slots.forEach((srcPage, i) => {
      const c = i % cols;
      const r = Math.floor(i / cols);
      const rotate = side.rotations[i];
      const [x, y] = slotOrigin(c, r, rows, slotW, slotH, rotate);
      if (!crop) {
        if (srcPage === null) return;
        page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...slotMatrix(rotate, x, y)));
        const dx = creepPt.get(srcPage) ?? 0;
        // a shifted page stays inside its slot
        if (dx) page.pushOperators(rectangle(0, 0, W, H), clip(), endPath());
        place(srcPage, page, drawFitted(page, embedded[srcPage - 1], dx, 0, W, H, slotMatrix(rotate, x, y)));
        page.pushOperators(popGraphicsState());
        return;
      }
      const cropPage = side.cropPages?.[i] ?? null;
      if (cropPage === null) return; // padding slot of the imposer: nothing, not even marks
      const layout = layouts[cropPage - 1];
      // everything of a crop page stays on its crop paper (as when it was a page of its own)
      page.pushOperators(
        pushGraphicsState(),
        concatTransformationMatrix(...slotMatrix(rotate, x, y)),
        rectangle(0, 0, cellW, cellH),
        clip(),
        endPath(),
      );
      if (srcPage !== null) place(srcPage, page, drawFitted(page, embedded[srcPage - 1], layout.x, layout.y, W, H, slotMatrix(rotate, x, y)));
      const key = JSON.stringify(layout.marks);
      let marks = markForms.get(key);
      if (!marks) {
        marks = out.context.register(out.context.formXObject(markOperators(layout), { BBox: [0, 0, cellW, cellH] }));
        markForms.set(key, marks);
      }
      // marks and labels are no part of the book: artifacts for a reader of the tags
      page.pushOperators(beginMarkedContent('Artifact'), drawObject(page.node.newXObject('CropMarks', marks)));
      drawLabels(page, layout, font!, options.cropTitle ?? '', [W, H]);
      page.pushOperators(endMarkedContent(), popGraphicsState());
    });
  }

  // the forms of the pages exist once embedded and flushed; their tags then point into them
  await book.embed();
  await out.flush();
  carryTags(src, out, placed);
  const bytes = await out.save({ useObjectStreams: true });
  return {
    pdf: bytes,
    sheets: order.sheets,
    pagesPerSheetSide: rows * cols,
    outputPages: order.sides.length,
    sheetSizePt: [sheetW, sheetH],
    order,
    warnings,
  };
}
