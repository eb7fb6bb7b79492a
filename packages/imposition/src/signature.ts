// Signatures: how many pages go into one folded gathering (reference bookbuilder.md §3.2).

export class ImpositionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImpositionError';
  }
}

/** A signature range; a missing (or 0) min means pages-per-sheet, a missing max means the page count. */
export interface SignatureRange {
  min?: number;
  max?: number;
}

/** 0 = whole book; a number = fixed size; 'optimized' = the 40-80 range; a range. */
export type SignatureOption = number | 'optimized' | `${number}-${number}` | `${number}-` | `-${number}` | SignatureRange;

/** The range the reference UI calls "optimized" (40 to 80 pages per signature). */
export const OPTIMIZED_RANGE: Readonly<Required<SignatureRange>> = Object.freeze({ min: 40, max: 80 });

/** n rounded up to a multiple of m. */
export function roundUp(n: number, m: number): number {
  return Math.ceil(n / m) * m;
}

function isWholeNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

/**
 * Normalises a signature option: a number, 'optimized', a `MIN-MAX` string (either side may be
 * empty) or a range object. Numeric strings ("16", "0") are accepted too (CLI, form values).
 */
export function parseSignature(value: unknown): number | Required<SignatureRange> | SignatureRange {
  if (value === undefined || value === null || value === '') return 0;
  if (typeof value === 'number') {
    if (!isWholeNumber(value)) throw new ImpositionError(`signature must be a whole number of pages ≥ 0, got ${value}`);
    return value;
  }
  if (typeof value === 'string') {
    const s = value.trim().toLowerCase();
    if (s === 'optimized' || s === 'optimised') return { ...OPTIMIZED_RANGE };
    if (/^\d+$/.test(s)) return parseInt(s, 10);
    const m = /^(\d*)\s*-\s*(\d*)$/.exec(s);
    if (m && (m[1] !== '' || m[2] !== '')) {
      const r: SignatureRange = {};
      if (m[1] !== '') r.min = parseInt(m[1], 10);
      if (m[2] !== '') r.max = parseInt(m[2], 10);
      return r;
    }
    throw new ImpositionError(`invalid signature "${value}": use 0 (whole book), a number of pages, "optimized" or MIN-MAX`);
  }
  if (typeof value === 'object') {
    const r = value as SignatureRange;
    for (const k of ['min', 'max'] as const) {
      if (r[k] !== undefined && !isWholeNumber(r[k])) throw new ImpositionError(`signature range ${k} must be a whole number ≥ 0`);
    }
    return { min: r.min, max: r.max };
  }
  throw new ImpositionError(`invalid signature ${String(value)}`);
}

/**
 * The reference `_optimize_signature`: the signature size (a multiple of pps) and the padded page
 * count for a range, so that signatures are as large as possible within max, never below min,
 * with as few blank pages as that allows.
 */
export function optimizeSignature(pages: number, pps: number, range: SignatureRange): { signature: number; padded: number } {
  const minRaw = range.min ? range.min : pps;
  const maxRaw = range.max ? range.max : pages;
  const min = roundUp(minRaw, pps);
  const max = roundUp(maxRaw, pps);
  if (!(max > min)) {
    throw new ImpositionError(`signature range ${range.min ?? ''}-${range.max ?? ''}: the maximum (${max}) must be larger than the minimum (${min}) once rounded to ${pps} pages`);
  }
  let total = roundUp(Math.max(pages, 1), pps);
  if (total <= min) return { signature: total, padded: total };
  const largestDivisor = (r: number): number => {
    for (let s = max; s >= pps; s -= pps) if (r % s === 0) return s;
    return pps;
  };
  let sig = largestDivisor(total);
  if (total > max) {
    while (sig < min) {
      total += pps;
      sig = largestDivisor(total);
    }
  }
  return { signature: sig, padded: total };
}

export interface SignaturePlan {
  /** pages per signature (the last one may be shorter when not filled) */
  signature: number;
  /** page count of each signature, in order */
  sizes: number[];
  /** total pages after padding = sum of sizes */
  padded: number;
}

/**
 * The signature actually used for `pages` pages with `pps` pages per sheet (reference §3.1-3.2).
 * `fill` keeps every signature full (the reference: T = round(N, S)); without it the last
 * signature is shortened to the pages it needs, rounded up to pps.
 */
export function planSignatures(pages: number, pps: number, option: unknown, fill: boolean): SignaturePlan {
  const n = Math.max(pages, 1);
  const parsed = parseSignature(option);
  let signature: number;
  let padded: number;
  if (typeof parsed === 'number') {
    if (parsed === 0) {
      signature = roundUp(n, pps);
    } else {
      if (parsed % pps !== 0) {
        throw new ImpositionError(`signature ${parsed} is not a multiple of ${pps} (pages per sheet of this schema)`);
      }
      signature = parsed;
    }
    padded = roundUp(n, signature);
  } else {
    ({ signature, padded } = optimizeSignature(n, pps, parsed));
  }
  const sizes: number[] = [];
  const count = padded / signature;
  for (let i = 0; i < count; i++) sizes.push(signature);
  if (!fill && count > 0) {
    const rest = n - (count - 1) * signature;
    sizes[count - 1] = roundUp(rest, pps);
    padded = sizes.reduce((a, b) => a + b, 0);
  }
  return { signature, sizes, padded };
}
