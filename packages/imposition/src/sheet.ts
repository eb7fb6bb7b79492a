// The printed sheet: its size from the page size, the imposition schema and the crop-mark paper, its
// paper name, and the crop paper that keeps the sheet on a home printer's paper. Pure and unit-free
// (mm in the web app, pt in impose()), with no pdf-lib import, so the Book Builder page shows before a
// build exactly the sheet impose() then makes.

import { SCHEMAS, type ImpositionSchema } from './schemas.ts';
import { CROP_DEFAULTS } from './cropmarks.ts';
import { NAMED_PAPER_SIZES, PT_PER_MM } from './paper.ts';

export interface Size {
  width: number;
  height: number;
}

export interface SheetLayout {
  /** the printed sheet (one output page of the PDF) */
  sheet: Size;
  /** what one slot of the grid holds: the page, or the crop paper around it (before a sideways turn) */
  cell: Size;
  /** slots per sheet side (2 for 2up, 4 for 4up, 8 for 1x8x2, 1 for 1x1 or no schema) */
  slots: number;
}

/**
 * The sheet a book comes out on: without a schema the page itself; with one, the schema's grid of
 * cells, a cell being the page or, with crop marks, the crop paper (2down turns the cells on their
 * side). `crop` null or absent = no crop marks. Any unit, the same for all sizes.
 */
export function sheetLayout(page: Size, schema: ImpositionSchema | '' | null | undefined, crop?: Size | null): SheetLayout {
  const cell = crop ? { width: crop.width, height: crop.height } : { width: page.width, height: page.height };
  if (!schema) return { sheet: { ...cell }, cell, slots: 1 };
  const info = SCHEMAS[schema];
  const slotW = info.sideways ? cell.height : cell.width;
  const slotH = info.sideways ? cell.width : cell.height;
  return { sheet: { width: info.cols * slotW, height: info.rows * slotH }, cell, slots: info.rows * info.cols };
}

/** Named papers for naming a sheet (A and B series, the North American sizes). In mm. */
const SHEET_NAMES: readonly [string, Size][] = [
  'a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'letter', 'legal', 'tabloid', 'half-letter', 'quarter-letter',
].map((n) => [n, { width: NAMED_PAPER_SIZES[n].widthMm, height: NAMED_PAPER_SIZES[n].heightMm }]);

/** How far (mm) a sheet may be from a named size and still carry its name (2up of A5 is 296 × 210 mm: A4). */
export const SHEET_NAME_TOLERANCE_MM = 1.5;

/** The name of a paper size in mm (a4, letter, tabloid, …) in either orientation, or null; `landscape` when wider than high. */
export function sheetName(mm: Size): { name: string; landscape: boolean } | null {
  const landscape = mm.width > mm.height + 0.01;
  const [short, long] = landscape ? [mm.height, mm.width] : [mm.width, mm.height];
  for (const [name, s] of SHEET_NAMES) {
    if (Math.abs(s.width - short) <= SHEET_NAME_TOLERANCE_MM && Math.abs(s.height - long) <= SHEET_NAME_TOLERANCE_MM) return { name, landscape };
  }
  return null;
}

/** The paper a home printer takes for a book of this page size: Letter for the North American sizes, else A4. In mm. */
export function homePrinterPaper(page: Size): { name: 'a4' | 'letter'; size: Size } {
  // Letter, Half and Quarter Letter and the generic 210 mm × 11 in are 11 in or 8.5 in high
  const inches = [279.4, 215.9, 139.7].some((h) => Math.abs(page.height - h) < 0.5);
  return inches ? { name: 'letter', size: { width: 215.9, height: 279.4 } } : { name: 'a4', size: { width: 210, height: 297 } };
}

/** Room the crop marks need on each side of the page: offset + line length (13 mm). */
export const CROP_MARK_ROOM_MM = (CROP_DEFAULTS.markOffsetPt + CROP_DEFAULTS.markLengthPt) / PT_PER_MM;

const fits = (inner: Size, outer: Size) => inner.width <= outer.width + 0.01 && inner.height <= outer.height + 0.01;

/**
 * The crop-mark paper that keeps the imposed sheet on `printer` paper (either orientation): the largest
 * named paper that fits a cell of that sheet and holds the page, else the cell itself (whole mm). When
 * no cell of the printer's paper holds the page, `fitsPrinter` is false and the answer is the smallest
 * named paper holding the page with room for the marks (the sheet then outgrows the printer's paper).
 * `room` is the least space left beside the page on the crop paper (the marks want CROP_MARK_ROOM_MM). In mm.
 */
export function fittingCropPaper(page: Size, schema: ImpositionSchema, printer: Size): { paper: Size; name: string | null; fitsPrinter: boolean; room: number } {
  const info = SCHEMAS[schema];
  const room = (paper: Size) => Math.min(paper.width - page.width, paper.height - page.height) / 2;
  const cells = [printer, { width: printer.height, height: printer.width }].map((sheet) => {
    const slot = { width: sheet.width / info.cols, height: sheet.height / info.rows };
    return info.sideways ? { width: slot.height, height: slot.width } : slot;
  });
  let best: { paper: Size; name: string | null; fitsPrinter: boolean; room: number } | null = null;
  for (const cell of cells) {
    if (!fits(page, cell)) continue;
    const named = SHEET_NAMES.filter(([, s]) => fits(s, cell) && fits(page, s)).sort(([, a], [, b]) => b.width * b.height - a.width * a.height)[0];
    const paper = named ? { ...named[1] } : { width: Math.floor(cell.width), height: Math.floor(cell.height) };
    if (!fits(page, paper)) continue;
    const candidate = { paper, name: named ? named[0] : null, fitsPrinter: true, room: room(paper) };
    if (!best || candidate.room > best.room) best = candidate;
  }
  if (best) return best;
  const want = { width: page.width + 2 * CROP_MARK_ROOM_MM, height: page.height + 2 * CROP_MARK_ROOM_MM };
  const larger = SHEET_NAMES.filter(([, s]) => fits(want, s)).sort(([, a], [, b]) => a.width * a.height - b.width * b.height)[0];
  const paper = larger ? { ...larger[1] } : { width: Math.ceil(want.width), height: Math.ceil(want.height) };
  return { paper, name: larger ? larger[0] : null, fitsPrinter: false, room: room(paper) };
}
