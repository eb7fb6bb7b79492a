// The pure page-order computation: which source page goes to which slot of which sheet side.

import { SCHEMAS, isImpositionSchema, IMPOSITION_SCHEMAS, type ImpositionSchema, type Margins, type Rotation, type SchemaInfo } from './schemas.ts';
import { paperSizePt } from './paper.ts';
import { ImpositionError, planSignatures, parseSignature, roundUp, type SignatureOption, type SignaturePlan } from './signature.ts';

export interface ImposeOptions {
  schema: ImpositionSchema;
  /**
   * pages per signature: a number (multiple of 4 for 2up-like, 8 for 4up), 0 = whole book in one
   * signature, 'optimized' = 40..80 per the reference algorithm (also a `MIN-MAX` string or range)
   */
  signature?: SignatureOption;
  /** fill the last signature with blank pages instead of shortening it (default false) */
  fillSignature?: boolean;
  /** keep the last page (cover back) as the last page, blanks before it (default false) */
  coverLast?: boolean;
  cropmarks?: boolean;
  /**
   * paper the imposed sheet is placed on when crop marks are wanted: a spec paper-size name (a4,
   * letter, 210mm:11in, 88mm:115mm, ...) or explicit mm. Default a4.
   */
  cropPaper?: string | { widthMm: number; heightMm: number };
  /** 0..1 mm (spec UI: 0..0.3, default 0.1): shifts pages outward per sheet depth (creep compensation) */
  cropPaperThicknessMm?: number;
  /**
   * Without crop marks, beyond the reference: paper thickness in mm (0..1) for creep (shingling)
   * compensation of saddle-stitched signatures (2up, duplex2up, 2down, 4up); 0 or absent = none.
   */
  creepMm?: number;
  /** 1x1 only: pages per sheet used to round the page count (reference `pages_per_sheet`), default 1 */
  pagesPerSheet?: number;
}

export interface SheetSide {
  /** slots in reading order of the side as displayed: top row first, left to right; 1-based source page or null (blank) */
  slots: (number | null)[];
  /** counter-clockwise rotation of the page drawn in each slot */
  rotations: Rotation[];
  /** with crop marks: the crop-marked page (1-based, see cropPass.sequence) in each slot; null = empty slot */
  cropPages?: (number | null)[];
}

export interface CropPassOrder {
  /** source page (1-based) on each crop-marked page; null = blank page that still gets marks */
  sequence: (number | null)[];
  /** sizes of the crop-pass signatures (creep is computed per signature); empty = no creep */
  signatures: number[];
  margins: Margins;
  twoside: boolean;
}

export interface PageOrder {
  schema: ImpositionSchema;
  grid: { rows: number; cols: number };
  /** the cell is H×W (pages on their side), 2down only */
  sideways: boolean;
  pagesPerSheet: number;
  /** pages per signature (booklet schemas and 1x1), the block size for block schemas, 0 for 2side */
  signature: number;
  /** page count of every signature/block in order */
  signatures: number[];
  /** number of logical pages after padding (slots on all sides) */
  paddedPages: number;
  /** blank slots (pages added by padding) */
  blanks: number;
  /** output pages in order: side 2k is the front of sheet k+1, side 2k+1 its back */
  sides: SheetSide[];
  /** physical sheets when printed on both sides */
  sheets: number;
  /** options that were given but do not apply to this schema */
  ignored: string[];
  cropPass?: CropPassOrder;
}

/** The logical page sequence of length `padded` for `pages` pages: blanks at the end, or before the last page with cover. */
export function logicalSequence(pages: number, padded: number, cover: boolean): (number | null)[] {
  const seq: (number | null)[] = new Array(padded).fill(null);
  for (let i = 0; i < pages; i++) seq[i] = i + 1;
  if (cover && padded > pages && pages > 0) {
    seq[pages - 1] = null;
    seq[padded - 1] = pages;
  }
  return seq;
}

/** Booklet order of one signature: the 0-based logical index on each output position (reference §3.3). */
function bookletPositions(size: number): number[] {
  const out: number[] = [];
  for (let c = 0; c < size; c++) {
    const m = c % 4;
    out.push(m === 0 || m === 3 ? size - 1 - Math.floor(c / 2) : Math.floor(c / 2));
  }
  return out;
}

interface Arrangement {
  sides: { slots: (number | null)[]; rotations: Rotation[] }[];
  padded: number;
  plan: SignaturePlan | null;
}

function validatePages(pages: number): void {
  if (!Number.isInteger(pages) || pages < 1) throw new ImpositionError(`cannot impose ${pages} pages: need at least one page`);
}

/** Imposes `pages` pages (already crop-padded when crop marks are on) with the schema's rules. */
function arrange(info: SchemaInfo, schema: ImpositionSchema, pages: number, plan: SignaturePlan | null, cover: boolean): Arrangement {
  if (info.kind === 'booklet') {
    const p = plan!;
    const seq = logicalSequence(pages, p.padded, cover);
    const pairs: [number | null, number | null][] = [];
    let base = 0;
    for (const size of p.sizes) {
      const pos = bookletPositions(size);
      for (let c = 0; c < size; c += 2) pairs.push([seq[base + pos[c]], seq[base + pos[c + 1]]]);
      base += size;
    }
    let sides: Arrangement['sides'];
    if (schema === '4up') {
      const half = pairs.length / 2;
      sides = [];
      for (let i = 0; i < half; i++) sides.push({ slots: [...pairs[i], ...pairs[half + i]], rotations: [0, 0, 0, 0] });
    } else if (schema === 'duplex2up') {
      sides = pairs.map(([l, r], i) => (i % 2 === 0 ? { slots: [r, l], rotations: [180, 180] } : { slots: [l, r], rotations: [0, 0] }));
    } else if (schema === '2down') {
      sides = pairs.map(([l, r]) => ({ slots: [l, r], rotations: [90, 90] }));
    } else {
      sides = pairs.map(([l, r]) => ({ slots: [l, r], rotations: [0, 0] }));
    }
    return { sides, padded: p.padded, plan: p };
  }
  if (info.kind === 'block') {
    const block = info.block!;
    let seq: (number | null)[];
    if (cover && info.cover && pages % 4 !== 0) seq = logicalSequence(pages, roundUp(pages, 4), true);
    else seq = logicalSequence(pages, pages, false);
    const padded = roundUp(seq.length, block);
    while (seq.length < padded) seq.push(null);
    const sides: Arrangement['sides'] = [];
    for (let b = 0; b < padded; b += block) {
      for (const tpl of info.blockSides!) {
        sides.push({ slots: tpl.map((p) => seq[b + p - 1]), rotations: [...info.slotRotations!] });
      }
    }
    return { sides, padded, plan: { signature: block, sizes: new Array(padded / block).fill(block), padded } };
  }
  if (info.kind === 'pairs') {
    const sides: Arrangement['sides'] = [];
    for (let i = 0; i < pages; i += 2) sides.push({ slots: [i + 1, i + 2 <= pages ? i + 2 : null], rotations: [0, 0] });
    return { sides, padded: roundUp(pages, 2), plan: null };
  }
  // single (1x1)
  const p = plan!;
  const seq = logicalSequence(pages, p.padded, cover);
  return { sides: seq.map((s) => ({ slots: [s], rotations: [0] })), padded: p.padded, plan: p };
}

function schemaInfo(schema: unknown): SchemaInfo {
  if (!isImpositionSchema(schema)) {
    throw new ImpositionError(`unknown imposition schema "${String(schema)}"; use one of ${IMPOSITION_SCHEMAS.join(', ')}`);
  }
  return SCHEMAS[schema];
}

function ppsFor(info: SchemaInfo, options: ImposeOptions): number {
  if (info.kind !== 'single' || options.pagesPerSheet === undefined) return info.pagesPerSheet;
  const p = options.pagesPerSheet;
  if (!Number.isInteger(p) || p < 1 || p > 64) throw new ImpositionError(`pagesPerSheet must be a whole number from 1 to 64, got ${p}`);
  return p;
}

function signatureGiven(option: unknown): boolean {
  const parsed = parseSignature(option);
  return typeof parsed !== 'number' || parsed !== 0;
}

/**
 * Checks options without a document: the schema, the signature (form, multiple of the pages per
 * sheet, range bounds), pagesPerSheet, and with crop marks the paper and the thickness. Throws an
 * ImpositionError with a message meant for the user. (A range without a maximum can still fail
 * later for a very short book.)
 */
export function validateImposeOptions(options: ImposeOptions): void {
  if (!options || typeof options !== 'object') throw new ImpositionError('imposition options are missing');
  const info = schemaInfo(options.schema);
  const pps = ppsFor(info, options);
  const parsed = parseSignature(options.signature ?? 0);
  if (info.kind === 'booklet' || info.kind === 'single') {
    if (typeof parsed === 'number') planSignatures(1, pps, parsed, true);
    else if (parsed.max) planSignatures(parsed.max + 1, pps, parsed, true);
  }
  if (options.cropmarks) {
    const paper = options.cropPaper ?? 'a4';
    if (!paperSizePt(paper)) {
      throw new ImpositionError(`unknown crop paper size ${JSON.stringify(paper)}: use a paper name (a4, letter, b5, …) or W:H such as 210mm:11in`);
    }
    const t = options.cropPaperThicknessMm ?? 0.1;
    if (typeof t !== 'number' || !Number.isFinite(t) || t < 0 || t > 1) {
      throw new ImpositionError(`crop paper thickness must be between 0 and 1 mm, got ${String(t)}`);
    }
  }
  const c = options.creepMm;
  if (c !== undefined && (typeof c !== 'number' || !Number.isFinite(c) || c < 0 || c > 1)) {
    throw new ImpositionError(`creep paper thickness must be between 0 and 1 mm, got ${String(c)}`);
  }
}

/**
 * Crop-mark pass sequence with the rules of PDF::Cropmarks: the pages padded to the given
 * signature sizes (none = no padding) and, with cover, the last page moved to the very end.
 */
export function cropPassSequence(pages: number, signatures: number[], cover: boolean): (number | null)[] {
  const padded = signatures.length ? signatures.reduce((a, b) => a + b, 0) : pages;
  return logicalSequence(pages, Math.max(padded, pages), cover);
}

/**
 * Which source page lands in which slot of which sheet side (blank = null), and the signatures.
 * With `cropmarks`, also the crop-mark pass (the sequence of crop-marked pages, some of them
 * blank pages with marks only) as in the reference (§3.5).
 */
export function pageOrder(pages: number, options: ImposeOptions): PageOrder {
  validatePages(pages);
  const info = schemaInfo(options.schema);
  const schema = options.schema;
  const pps = ppsFor(info, options);
  const fill = options.fillSignature ?? false;
  const cover = (options.coverLast ?? false) && info.cover;
  const ignored: string[] = [];
  if (!info.signature && signatureGiven(options.signature)) ignored.push('signature');
  if (!info.cover && options.coverLast) ignored.push('coverLast');

  const planFor = (n: number): SignaturePlan | null =>
    info.kind === 'booklet' || info.kind === 'single' ? planSignatures(n, pps, options.signature ?? 0, fill) : null;

  const plan = planFor(pages);
  let cropPass: CropPassOrder | undefined;
  let arrangement: Arrangement;

  if (options.cropmarks) {
    let cropSigs: number[];
    const cs = info.crop.signature;
    if (cs === 'schema') cropSigs = plan!.sizes;
    else if (cs === '1x1') cropSigs = pps > 1 && signatureGiven(options.signature) ? plan!.sizes : [];
    else cropSigs = new Array(roundUp(pages, cs) / cs).fill(cs);
    const sequence = cropPassSequence(pages, cropSigs, cover);
    cropPass = { sequence, signatures: cropSigs, margins: { ...info.crop.margins }, twoside: info.crop.twoside };
    const n2 = sequence.length;
    const plan2 = plan && n2 === plan.padded ? plan : planFor(n2);
    arrangement = arrange(info, schema, n2, plan2, cover);
  } else {
    arrangement = arrange(info, schema, pages, plan, cover);
  }

  const sides: SheetSide[] = arrangement.sides.map((s) => {
    if (!cropPass) return { slots: s.slots, rotations: s.rotations };
    const seq = cropPass.sequence;
    return {
      slots: s.slots.map((c) => (c === null ? null : seq[c - 1])),
      rotations: s.rotations,
      cropPages: s.slots,
    };
  });
  const signature = info.kind === 'pairs' ? 0 : (arrangement.plan?.signature ?? 0);
  return {
    schema,
    grid: { rows: info.rows, cols: info.cols },
    sideways: info.sideways,
    pagesPerSheet: pps,
    signature,
    signatures: arrangement.plan?.sizes ?? [],
    paddedPages: arrangement.padded,
    blanks: sides.reduce((a, s) => a + s.slots.filter((p) => p === null).length, 0),
    sides,
    sheets: Math.ceil(sides.length / 2),
    ignored,
    ...(cropPass ? { cropPass } : {}),
  };
}
