// The imposition schemas (reference bookbuilder.md §3.4, fixtures orderings.json "schemas").

export type ImpositionSchema =
  | '2up'
  | 'duplex2up'
  | '2down'
  | '2side'
  | '4up'
  | '2x4x2'
  | '1x4x2cutfoldbind'
  | '2x4x1'
  | 'ea4x4'
  | '1x8x2'
  | '1x1';

export const IMPOSITION_SCHEMAS: readonly ImpositionSchema[] = [
  '2up', 'duplex2up', '2down', '2side', '4up', '2x4x2', '1x4x2cutfoldbind', '2x4x1', 'ea4x4', '1x8x2', '1x1',
];

export type Rotation = 0 | 90 | 180;

export interface Margins {
  top: boolean;
  bottom: boolean;
  inner: boolean;
  outer: boolean;
}

export interface SchemaInfo {
  /** pages per sheet (recto + verso): signatures must be a multiple of it */
  pagesPerSheet: number;
  rows: number;
  cols: number;
  /** the cell is H×W instead of W×H (pages lie on their side) */
  sideways: boolean;
  kind: 'booklet' | 'block' | 'pairs' | 'single';
  /** accepts a signature option */
  signature: boolean;
  /** honours coverLast */
  cover: boolean;
  /** fixed block size (pages per block) for 'block' schemas */
  block?: number;
  /** per block: output sides, slots top row first, 1-based page within the block */
  blockSides?: number[][];
  /** rotation of each slot (same for every side) */
  slotRotations?: Rotation[];
  /** crop-mark pass: sides keeping their margin, two-sided placement, crop signature */
  crop: { margins: Margins; twoside: boolean; signature: 'schema' | number | '1x1' };
  description: string;
}

const ALL: Margins = { top: true, bottom: true, inner: true, outer: true };
const NO_INNER: Margins = { top: true, bottom: true, inner: false, outer: true };
const NO_OUTER: Margins = { top: true, bottom: true, inner: true, outer: false };

export const SCHEMAS: Readonly<Record<ImpositionSchema, SchemaInfo>> = {
  '2up': {
    pagesPerSheet: 4, rows: 1, cols: 2, sideways: false, kind: 'booklet', signature: true, cover: true,
    crop: { margins: NO_INNER, twoside: true, signature: 'schema' },
    description: 'two pages side by side in booklet order; print duplex, fold in half, nest the sheets of each signature',
  },
  duplex2up: {
    pagesPerSheet: 4, rows: 1, cols: 2, sideways: false, kind: 'booklet', signature: true, cover: true,
    crop: { margins: NO_INNER, twoside: true, signature: 'schema' },
    description: 'as 2up, every front side turned by 180° for duplex printers that flip on the long edge',
  },
  '2down': {
    pagesPerSheet: 4, rows: 1, cols: 2, sideways: true, kind: 'booklet', signature: true, cover: true,
    crop: { margins: ALL, twoside: false, signature: 'schema' },
    description: 'booklet order with the pages on their side (rotated 90°); bound on the top edge like a notepad',
  },
  '2side': {
    pagesPerSheet: 4, rows: 1, cols: 2, sideways: false, kind: 'pairs', signature: false, cover: false,
    crop: { margins: NO_OUTER, twoside: true, signature: 4 },
    description: 'two consecutive pages side by side (1|2, 3|4, …), no reordering',
  },
  '4up': {
    pagesPerSheet: 8, rows: 2, cols: 2, sideways: false, kind: 'booklet', signature: true, cover: true,
    crop: { margins: NO_INNER, twoside: true, signature: 'schema' },
    description: 'two 2up sheets on one: cut horizontally, put the upper stack on the lower, fold as 2up',
  },
  '2x4x2': {
    pagesPerSheet: 8, rows: 2, cols: 2, sideways: false, kind: 'block', signature: false, cover: false,
    block: 16,
    blockSides: [[9, 8, 16, 1], [7, 10, 2, 15], [11, 6, 14, 3], [5, 12, 4, 13]],
    slotRotations: [180, 180, 0, 0],
    crop: { margins: NO_INNER, twoside: true, signature: 16 },
    description: '16-page blocks on two sheets, top row upside down; fold each sheet twice, nest, trim',
  },
  '1x4x2cutfoldbind': {
    pagesPerSheet: 8, rows: 2, cols: 2, sideways: false, kind: 'block', signature: false, cover: true,
    block: 8,
    blockSides: [[4, 1, 8, 5], [2, 3, 6, 7]],
    slotRotations: [0, 0, 0, 0],
    crop: { margins: NO_INNER, twoside: true, signature: 4 },
    description: '8-page blocks on one sheet, nothing rotated; cut horizontally, fold each half, stack, bind',
  },
  '2x4x1': {
    pagesPerSheet: 8, rows: 2, cols: 2, sideways: false, kind: 'block', signature: false, cover: false,
    block: 8,
    blockSides: [[5, 4, 8, 1], [3, 6, 2, 7]],
    slotRotations: [180, 180, 0, 0],
    crop: { margins: NO_INNER, twoside: true, signature: 8 },
    description: '8-page blocks on one sheet, top row upside down; fold twice, trim the top',
  },
  ea4x4: {
    pagesPerSheet: 8, rows: 2, cols: 2, sideways: false, kind: 'block', signature: false, cover: false,
    block: 16,
    blockSides: [[13, 4, 16, 1], [3, 14, 2, 15], [9, 8, 12, 5], [7, 10, 6, 11]],
    slotRotations: [180, 180, 0, 0],
    crop: { margins: NO_INNER, twoside: true, signature: 16 },
    description: '16-page blocks on two sheets, each folded twice, one inserted into the other (machine binding)',
  },
  '1x8x2': {
    pagesPerSheet: 16, rows: 2, cols: 4, sideways: false, kind: 'block', signature: false, cover: false,
    block: 16,
    blockSides: [[5, 12, 9, 8, 4, 13, 16, 1], [7, 10, 11, 6, 2, 15, 14, 3]],
    slotRotations: [180, 180, 180, 180, 0, 0, 0, 0],
    crop: { margins: NO_INNER, twoside: true, signature: 16 },
    description: '16-page blocks on one sheet (4×2), top row upside down; fold three times, trim top and right',
  },
  '1x1': {
    pagesPerSheet: 1, rows: 1, cols: 1, sideways: false, kind: 'single', signature: true, cover: true,
    crop: { margins: ALL, twoside: false, signature: '1x1' },
    description: 'pages copied one to one (padded to the signature); useful with crop marks',
  },
};

export function isImpositionSchema(v: unknown): v is ImpositionSchema {
  return typeof v === 'string' && (IMPOSITION_SCHEMAS as readonly string[]).includes(v);
}
