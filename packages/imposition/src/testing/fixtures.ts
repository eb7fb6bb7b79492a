// Reads the imposition oracles in place (../shared/fixtures/imposition from the repo root).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ImposeOptions, ImpositionSchema } from '../index.ts';

// repo root is four levels up from packages/imposition/src/testing
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const fixtureDir = process.env.IMPOSITION_FIXTURES ?? join(repoRoot, '../shared/fixtures/imposition');

export function fixturesPresent(file: string): boolean {
  const ok = existsSync(join(fixtureDir, file));
  if (!ok) console.log(`imposition fixtures skipped: ${file} not found at ${fixtureDir}`);
  return ok;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function loadFixture(file: string): any {
  return JSON.parse(readFileSync(join(fixtureDir, file), 'utf8'));
}

export interface Placement {
  slot: number;
  page: number | null;
  crop_page?: number;
  x: number;
  y: number;
  rotate: number;
}

export interface OrderingCase {
  id: string;
  provenance: string;
  schema: string;
  input_pages: number;
  input_page_size: [number, number];
  signature: number | string;
  cover: boolean;
  pages_per_sheet?: number;
  computed_signature?: number;
  padded_pages?: number;
  output_pages: number;
  output_page_size: [number, number];
  grid: { rows: number; cols: number; cell: [number, number] };
  expected: (number | null)[][];
  rotations: number[][];
  placements: Placement[][];
  crop?: { paper: string; paper_size: [number, number]; paper_thickness: string; cropmark_offset: string; cropmark_length: string; font_size: string };
  crop_pages?: (number | null)[][];
  crop_pass?: {
    signature: number;
    twoside: boolean;
    margins: { top: boolean; bottom: boolean; inner: boolean; outer: boolean };
    paper_thickness_pt: number;
    cropmark_offset_pt: number;
    cropmark_length_pt: number;
    sequence: (number | null)[];
    page_offsets: [number, number][];
    creep_pt: number[] | null;
  };
}

/** The options that reproduce a fixture case (the reference always fills the last signature). */
export function optionsFor(c: OrderingCase): ImposeOptions {
  return {
    schema: c.schema as ImpositionSchema,
    signature: c.signature as ImposeOptions['signature'],
    coverLast: c.cover,
    fillSignature: true, // the reference always fills the last signature
    cropmarks: !!c.crop,
    ...(c.pages_per_sheet ? { pagesPerSheet: c.pages_per_sheet } : {}),
  };
}

