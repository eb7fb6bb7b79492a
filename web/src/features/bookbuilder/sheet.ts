// What the chosen options print on, before a build: the sheet (imposition's sheetLayout, the rule
// impose() follows), how many sheets (the last build's pages, else an estimate from the texts' size),
// and the crop-mark paper that keeps a booklet on the home printer's paper. Small and zod-free: the
// store imports it.
import type { CollectionData } from '@uc/shared';
import { CUSTOM_PAPER, FILL_SIGNATURE_SCHEMAS, PAPER_SIZES, paperMm, signatureFor } from '../../../../packages/shared/src/bookbuilder-constants.ts';
import { pageOrder, type ImposeOptions } from '../../../../packages/imposition/src/order.ts';
import { isImpositionSchema } from '../../../../packages/imposition/src/schemas.ts';
import { CROP_MARK_ROOM_MM, fittingCropPaper, homePrinterPaper, sheetLayout, sheetName, type Size } from '../../../../packages/imposition/src/sheet.ts';

type Paper = Pick<CollectionData, 'papersize' | 'papersize_width' | 'papersize_height'>;
type Crop = Pick<CollectionData, 'cropmarks' | 'crop_papersize' | 'crop_papersize_width' | 'crop_papersize_height'>;

/** The page in mm, or null while a custom size is incomplete. */
export function pageMm(d: Paper): Size | null {
  if (d.papersize === CUSTOM_PAPER) return d.papersize_width && d.papersize_height ? { width: d.papersize_width, height: d.papersize_height } : null;
  const p = paperMm(d.papersize);
  return p ? { width: p.widthMm, height: p.heightMm } : null;
}

function cropMm(d: Crop): Size | null {
  if (d.crop_papersize === CUSTOM_PAPER) return d.crop_papersize_width && d.crop_papersize_height ? { width: d.crop_papersize_width, height: d.crop_papersize_height } : null;
  const p = paperMm(d.crop_papersize);
  return p ? { width: p.widthMm, height: p.heightMm } : null;
}

/** Sheet names of imposition → the crop_papersize values of spec §9. */
const SPEC_NAME: Record<string, string> = { 'half-letter': '5.5in:8.5in', 'quarter-letter': '4.25in:5.5in' };

/** English labels (translated where shown) of the sheet names that are not in the paper list. */
export const SHEET_LABELS: Record<string, string> = { a0: 'A0', a1: 'A1', a2: 'A2', b0: 'B0', b1: 'B1', b2: 'B2', legal: 'Legal paper', tabloid: 'Tabloid paper' };

/** The English label of a sheet name (a4, tabloid, …), for t(). */
export function sheetLabel(name: string): string {
  const spec = SPEC_NAME[name] ?? name;
  return PAPER_SIZES.find((p) => p.value === spec)?.label ?? SHEET_LABELS[name] ?? name.toUpperCase();
}

export interface SheetInfo {
  /** the printed sheet in mm */
  sheet: Size;
  /** its paper name (a4, tabloid, …) or null */
  name: string | null;
  imposed: boolean;
  /** the paper the home printer takes for these pages, and whether the sheet goes on it */
  printer: { name: 'a4' | 'letter'; fits: boolean };
  /** with crop marks: the least room beside the page on the crop paper, and whether the marks fit in it */
  crop: { roomMm: number; marksFit: boolean } | null;
}

/** The sheet the options print on, or null while a size is incomplete. */
export function sheetInfo(d: Paper & Crop & Pick<CollectionData, 'imposition_schema'>): SheetInfo | null {
  const page = pageMm(d);
  if (!page) return null;
  const schema = isImpositionSchema(d.imposition_schema) ? d.imposition_schema : '';
  const crop = schema && d.cropmarks ? cropMm(d) : null;
  if (schema && d.cropmarks && !crop) return null;
  const { sheet } = sheetLayout(page, schema, crop);
  const printer = homePrinterPaper(page);
  const fits = (a: Size, b: Size) => (a.width <= b.width + 1.5 && a.height <= b.height + 1.5) || (a.width <= b.height + 1.5 && a.height <= b.width + 1.5);
  const roomMm = crop ? Math.min(crop.width - page.width, crop.height - page.height) / 2 : 0;
  return {
    sheet,
    name: sheetName(sheet)?.name ?? null,
    imposed: !!schema,
    printer: { name: printer.name, fits: fits(sheet, printer.size) },
    crop: crop ? { roomMm, marksFit: roomMm + 0.01 >= CROP_MARK_ROOM_MM } : null,
  };
}

/** The crop-mark paper fields that keep the imposed sheet on the home printer's paper (A4, or Letter for Letter-sized pages). */
export function autoCropPaper(d: Paper & Pick<CollectionData, 'imposition_schema'>): Pick<CollectionData, 'crop_papersize' | 'crop_papersize_width' | 'crop_papersize_height'> | null {
  const page = pageMm(d);
  if (!page || !isImpositionSchema(d.imposition_schema)) return null;
  const fit = fittingCropPaper(page, d.imposition_schema, homePrinterPaper(page).size);
  const spec = fit.name ? (SPEC_NAME[fit.name] ?? fit.name) : null;
  const known = PAPER_SIZES.find((p) => p.value === spec);
  if (known) return { crop_papersize: known.value, crop_papersize_width: undefined, crop_papersize_height: undefined };
  return { crop_papersize: CUSTOM_PAPER, crop_papersize_width: Math.round(fit.paper.width * 10) / 10, crop_papersize_height: Math.round(fit.paper.height * 10) / 10 };
}

/**
 * About how many pages the texts make before a build: their bytes over the characters a page holds
 * (text block from the margin factor, a character 0.5 em wide, lines at 1.2 em × line spacing, 85%
 * filled), plus a title page and the contents. A first guess only: images and markup count as text.
 */
export function estimatePages(bytes: number, texts: number, d: Paper & Pick<CollectionData, 'fontsize' | 'linespacing' | 'division_factor' | 'areaset_width' | 'areaset_height'>): number | null {
  const page = pageMm(d);
  if (!page || bytes <= 0) return null;
  const div = d.division_factor || 12;
  const widthMm = d.division_factor === 0 && d.areaset_width ? d.areaset_width : (page.width * (div - 3)) / div;
  const heightMm = d.division_factor === 0 && d.areaset_height ? d.areaset_height : (page.height * (div - 3)) / div;
  const pt = 72 / 25.4;
  const perLine = (widthMm * pt) / (0.5 * d.fontsize);
  const lines = (heightMm * pt) / (1.2 * d.fontsize * (d.linespacing || 1));
  const perPage = Math.max(1, perLine * lines * 0.85);
  return Math.ceil(bytes / perPage) + 2 + (texts > 1 ? texts : 0);
}

/** The page-order options of the chosen schema, signature and fill (as the server's imposeOptions), or null without a schema. */
export function orderOptions(d: CollectionData, withCropmarks = true): ImposeOptions | null {
  const schema = d.imposition_schema;
  if (!isImpositionSchema(schema)) return null;
  const sig = signatureFor(schema, d);
  const fill = FILL_SIGNATURE_SCHEMAS.includes(schema) ? d.fill_signature : false;
  return {
    schema,
    signature: sig === null || sig === '0' ? undefined : sig === '40-80' ? 'optimized' : Number(sig),
    fillSignature: fill,
    coverLast: fill,
    ...(withCropmarks && d.cropmarks ? { cropmarks: true } : {}),
  };
}

/** Sheets of paper for `pages` book pages with the chosen schema (printed on both sides), or null. */
export function sheetsFor(pages: number, d: CollectionData): number | null {
  if (!(pages > 0)) return null;
  const options = orderOptions(d);
  if (!options) return Math.ceil(pages / 2);
  try {
    return pageOrder(pages, options).sheets;
  } catch {
    return null;
  }
}
