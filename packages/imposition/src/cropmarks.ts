// Crop-mark pass geometry (reference bookbuilder.md §3.5, PDF::Cropmarks 0.11): where each
// logical page sits on the larger crop paper, the paper-thickness (creep) compensation and the
// mark lines. Pure: the drawing is done by impose.ts.

import type { Margins } from './schemas.ts';
import { ImpositionError, roundUp } from './signature.ts';
import { mmToPt, round3 } from './paper.ts';

/** Defaults passed by the reference imposer: marks 12 mm long, 1 mm away from the page, 0.1 mm paper. */
export const CROP_DEFAULTS = Object.freeze({
  markLengthPt: mmToPt(12),
  markOffsetPt: mmToPt(1),
  thicknessMm: 0.1,
  lineWidthPt: 0.5,
  targetRadiusPt: 3,
  targetCrossPt: 6,
  fontSizePt: 8,
});

export interface CropLayoutOptions {
  /** logical page size [w, h] in pt */
  pageSize: [number, number];
  /** crop paper size [w, h] in pt */
  paperSize: [number, number];
  /** sides that keep their margin; a side switched off puts the page flush against it (default all on) */
  margins?: Partial<Margins>;
  /** inner = left on odd pages, right on even pages (default true) */
  twoside?: boolean;
  /** sizes of the signatures of the crop-marked sequence; creep applies only with some and twoside */
  signatures?: number[];
  /** paper thickness in pt (creep per sheet) */
  thicknessPt?: number;
  markOffsetPt?: number;
  markLengthPt?: number;
}

export type MarkName =
  | 'bottom-left-horizontal' | 'bottom-left-vertical' | 'bottom-middle'
  | 'bottom-right-horizontal' | 'bottom-right-vertical' | 'right-middle'
  | 'top-right-horizontal' | 'top-right-vertical' | 'top-middle'
  | 'top-left-vertical' | 'top-left-horizontal' | 'left-middle';

/** A mark line from the end near the page to the free end (where the registration target goes). */
export interface Mark {
  mark: MarkName;
  from: [number, number];
  to: [number, number];
}

export interface CropPageLayout {
  /** 1-based page of the crop-marked sequence */
  page: number;
  /** lower-left corner of the logical page on the crop paper, creep included */
  x: number;
  y: number;
  /** creep offset in pt (added to x on odd pages, subtracted on even pages) */
  creep: number;
  /** 1-based signature number and position in it (0 when there are no signatures) */
  signature: number;
  positionInSignature: number;
  marks: Mark[];
}

/**
 * PDF::Cropmarks' own signature option: 0 = no padding, 1 = everything in one signature padded
 * to a multiple of 4, otherwise a multiple of 4 (the sequence is padded to a multiple of it).
 */
export function cropModuleSignatures(pages: number, signature: number): number[] {
  if (!Number.isInteger(signature) || signature < 0) throw new ImpositionError(`crop signature must be a whole number ≥ 0, got ${signature}`);
  if (signature === 0) return [];
  if (signature === 1) return [roundUp(Math.max(pages, 1), 4)];
  if (signature % 4 !== 0) throw new ImpositionError(`crop signature ${signature} is neither 1 nor a multiple of 4`);
  return new Array(roundUp(Math.max(pages, 1), signature) / signature).fill(signature);
}

/**
 * Creep in units of the paper thickness for every page of the given signatures: the sheet k
 * counted from the outside of a signature of S pages gets S/4 − 1 − k (the reference's running
 * offset, which also handles sizes that are not a multiple of 4).
 */
export function creepUnits(signatures: number[]): number[] {
  const out: number[] = [];
  for (const size of signatures) {
    const half = size / 2;
    let units = size / 4;
    for (let q = 1; q <= size; q++) {
      if (q === 1) units = size / 4;
      if (q % 2 === 1) {
        if (q > half + 1) units += 1;
        else if (q < half) units -= 1;
      }
      out.push(units);
    }
  }
  return out;
}

/** Where each of `pages` crop-marked pages puts the logical page, its creep and its marks. */
export function cropLayout(pages: number, options: CropLayoutOptions): CropPageLayout[] {
  const [W, H] = options.pageSize;
  const [Wp, Hp] = options.paperSize;
  const m: Margins = { top: true, bottom: true, inner: true, outer: true, ...options.margins };
  const twoside = options.twoside ?? true;
  const signatures = options.signatures ?? [];
  const t = options.thicknessPt ?? mmToPt(CROP_DEFAULTS.thicknessMm);
  const off = options.markOffsetPt ?? CROP_DEFAULTS.markOffsetPt;
  const len = options.markLengthPt ?? CROP_DEFAULTS.markLengthPt;
  const creepActive = signatures.length > 0 && twoside;
  const units = creepActive ? creepUnits(signatures) : [];
  const ox = round3((Wp - W) / 2);
  const oy0 = round3((Hp - H) / 2);

  // vertical placement is the same on every page
  let oy = oy0;
  let topFlush = false;
  let bottomFlush = false;
  if (!m.top && m.bottom) {
    oy = round3(oy0 * 2);
    topFlush = true;
  } else if (!m.bottom && m.top) {
    oy = 0;
    bottomFlush = true;
  }

  const sigNo: number[] = [];
  const posInSig: number[] = [];
  signatures.forEach((size, i) => {
    for (let q = 1; q <= size; q++) {
      sigNo.push(i + 1);
      posInSig.push(q);
    }
  });
  const out: CropPageLayout[] = [];
  for (let page = 1; page <= pages; page++) {
    const odd = page % 2 === 1;
    // which physical side is the inner one on this page
    const innerLeft = !twoside || odd;
    let leftFlush = false;
    let rightFlush = false;
    if (!m.inner && m.outer) {
      if (innerLeft) leftFlush = true;
      else rightFlush = true;
    } else if (!m.outer && m.inner) {
      if (innerLeft) rightFlush = true;
      else leftFlush = true;
    }
    let x = leftFlush ? 0 : rightFlush ? round3(ox * 2) : ox;
    const creep = creepActive ? round3((units[page - 1] ?? 0) * t) : 0;
    if (creep) x = round3(odd ? x + creep : x - creep);

    const L = x, B = oy, R = round3(x + W), T = round3(oy + H);
    const cx = round3(x + W / 2), cy = round3(oy + H / 2);
    const marks: Mark[] = [
      { mark: 'bottom-left-horizontal', from: [round3(L - off), B], to: [round3(L - off - len), B] },
      { mark: 'bottom-left-vertical', from: [L, round3(B - off)], to: [L, round3(B - off - len)] },
      { mark: 'bottom-middle', from: [cx, round3(B - off)], to: [cx, round3(B - off - len / 2)] },
      { mark: 'bottom-right-horizontal', from: [round3(R + off), B], to: [round3(R + off + len), B] },
      { mark: 'bottom-right-vertical', from: [R, round3(B - off)], to: [R, round3(B - off - len)] },
      { mark: 'right-middle', from: [round3(R + off), cy], to: [round3(R + off + len / 2), cy] },
      { mark: 'top-right-horizontal', from: [round3(R + off), T], to: [round3(R + off + len), T] },
      { mark: 'top-right-vertical', from: [R, round3(T + off)], to: [R, round3(T + off + len)] },
      { mark: 'top-middle', from: [cx, round3(T + off)], to: [cx, round3(T + off + len / 2)] },
      { mark: 'top-left-vertical', from: [L, round3(T + off)], to: [L, round3(T + off + len)] },
      { mark: 'top-left-horizontal', from: [round3(L - off), T], to: [round3(L - off - len), T] },
      { mark: 'left-middle', from: [round3(L - off), cy], to: [round3(L - off - len / 2), cy] },
    ];
    const omit = new Set<MarkName>();
    if (topFlush) omit.add('top-middle');
    if (bottomFlush) omit.add('bottom-middle');
    if (leftFlush) omit.add('left-middle');
    if (rightFlush) omit.add('right-middle');
    out.push({
      page,
      x,
      y: oy,
      creep,
      signature: creepActive ? (sigNo[page - 1] ?? 0) : 0,
      positionInSignature: creepActive ? (posInSig[page - 1] ?? 0) : 0,
      marks: marks.filter((mk) => !omit.has(mk.mark)),
    });
  }
  return out;
}
