// Units and paper sizes.
//
// Spec §9 lists the paper sizes of the book builder (also used for the crop paper). The crop
// paper of the reference (PDF::Cropmarks) additionally accepts the usual PDF::API2 names and
// `W:H` with units mm, cm, in or pt; both are accepted here, case-insensitively.

export const PT_PER_MM = 72 / 25.4;

/** Round like the reference (printf "%.3f"), mapping |v| < 0.001 to 0. */
export function round3(v: number): number {
  const r = Math.round(v * 1000) / 1000;
  return Math.abs(r) < 0.001 ? 0 : r;
}

export function mmToPt(mm: number): number {
  return round3(mm * PT_PER_MM);
}

const UNIT_MM: Record<string, number> = { mm: 1, cm: 10, in: 25.4, pt: 25.4 / 72 };

/** A measure such as `12mm`, `0.5in`, `1cm`, `8pt` (case-insensitive) in millimetres; a bare number is mm. */
export function measureMm(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(mm|cm|in|pt)?\s*$/i.exec(value);
  if (!m) return null;
  return parseFloat(m[1]) * UNIT_MM[(m[2] ?? 'mm').toLowerCase()];
}

type Size = { widthMm: number; heightMm: number };
const mm = (w: number, h: number): Size => ({ widthMm: w, heightMm: h });
const inch = (w: number, h: number): Size => ({ widthMm: w * 25.4, heightMm: h * 25.4 });

/** Named sizes (spec §9 first, then the other PDF::API2 names the crop paper accepted). */
export const NAMED_PAPER_SIZES: Readonly<Record<string, Size>> = Object.freeze({
  // spec §9
  generic: mm(210, 279.4),
  a3: mm(297, 420),
  a4: mm(210, 297),
  a5: mm(148, 210),
  a6: mm(105, 148),
  b3: mm(353, 500),
  b4: mm(250, 353),
  b5: mm(176, 250),
  b6: mm(125, 176),
  letter: inch(8.5, 11),
  // other common names
  a0: mm(841, 1189),
  a1: mm(594, 841),
  a2: mm(420, 594),
  b0: mm(1000, 1414),
  b1: mm(707, 1000),
  b2: mm(500, 707),
  legal: inch(8.5, 14),
  ledger: inch(17, 11),
  tabloid: inch(11, 17),
  executive: inch(7.25, 10.5),
  'half-letter': inch(5.5, 8.5),
  'quarter-letter': inch(4.25, 5.5),
});

/**
 * The spec §9 paper-size values in the order the book builder offers them (custom = `W:H`).
 * `210mm:11in`, `88mm:115mm`, `5.5in:8.5in` and `4.25in:5.5in` are parsed as `W:H`.
 */
export const SPEC_PAPER_SIZES = [
  '210mm:11in', 'a3', 'a4', 'a5', 'a6', '88mm:115mm', 'b3', 'b4', 'b5', 'b6', 'letter', '5.5in:8.5in', '4.25in:5.5in',
] as const;

/**
 * Paper size in millimetres for a spec paper-size value: a name (`a4`, `letter`, `generic`, …,
 * case-insensitive) or `W:H` with units mm|cm|in|pt (`210mm:11in`, `88mm:115mm`, `400pt:500pt`;
 * a bare number is mm). Returns null for anything else or a non-positive dimension.
 */
export function paperSizeMm(name: string): { widthMm: number; heightMm: number } | null {
  if (typeof name !== 'string') return null;
  const key = name.trim().toLowerCase();
  const named = NAMED_PAPER_SIZES[key];
  if (named) return { ...named };
  const m = /^([^:]+):([^:]+)$/.exec(key);
  if (!m) return null;
  const w = measureMm(m[1]);
  const h = measureMm(m[2]);
  if (w === null || h === null || w <= 0 || h <= 0) return null;
  return { widthMm: w, heightMm: h };
}

/** Paper size in PDF points (rounded to 0.001 pt), or null. */
export function paperSizePt(paper: string | { widthMm: number; heightMm: number }): [number, number] | null {
  const s = typeof paper === 'string' ? paperSizeMm(paper) : paper;
  if (!s || !(s.widthMm > 0) || !(s.heightMm > 0) || !Number.isFinite(s.widthMm) || !Number.isFinite(s.heightMm)) return null;
  return [mmToPt(s.widthMm), mmToPt(s.heightMm)];
}
