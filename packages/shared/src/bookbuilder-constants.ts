// Book Builder constants (spec §3, §5, §9; bookbuilder reference §2-§3). No zod here: the web app's
// first-load code (header link, entry page button, store defaults) imports this file directly.

/** Paper sizes of spec §9 (also the crop-mark paper list). `custom` takes a width and height in mm. */
export const PAPER_SIZES = [
  { value: '210mm:11in', label: 'Generic (fits in A4 and Letter)', widthMm: 210, heightMm: 279.4 },
  { value: 'a3', label: 'A3', widthMm: 297, heightMm: 420 },
  { value: 'a4', label: 'A4', widthMm: 210, heightMm: 297 },
  { value: 'a5', label: 'A5', widthMm: 148, heightMm: 210 },
  { value: 'a6', label: 'A6', widthMm: 105, heightMm: 148 },
  { value: '88mm:115mm', label: '6" E-reader', widthMm: 88, heightMm: 115 },
  { value: 'b3', label: 'B3', widthMm: 353, heightMm: 500 },
  { value: 'b4', label: 'B4', widthMm: 250, heightMm: 353 },
  { value: 'b5', label: 'B5', widthMm: 176, heightMm: 250 },
  { value: 'b6', label: 'B6', widthMm: 125, heightMm: 176 },
  { value: 'letter', label: 'Letter paper', widthMm: 215.9, heightMm: 279.4 },
  { value: '5.5in:8.5in', label: 'Half Letter paper', widthMm: 139.7, heightMm: 215.9 },
  { value: '4.25in:5.5in', label: 'Quarter Letter paper', widthMm: 107.95, heightMm: 139.7 },
] as const;
export const CUSTOM_PAPER = 'custom';
export type PaperSizeName = (typeof PAPER_SIZES)[number]['value'];
export const PAPER_SIZE_VALUES = [...PAPER_SIZES.map((p) => p.value), CUSTOM_PAPER] as unknown as [PaperSizeName | 'custom', ...(PaperSizeName | 'custom')[]];

export const CUSTOM_PAPER_MIN_MM = 80;
export const CUSTOM_PAPER_MAX_MM = 500;

/** Imposition schemas of spec §9 ('' = none), with their pages per sheet (recto + verso). */
export const IMPOSITION_SCHEMAS = [
  { value: '2up', pagesPerSheet: 4 },
  { value: 'duplex2up', pagesPerSheet: 4 },
  { value: '2down', pagesPerSheet: 4 },
  { value: '2side', pagesPerSheet: 4 },
  { value: '4up', pagesPerSheet: 8 },
  { value: '2x4x2', pagesPerSheet: 8 },
  { value: '1x4x2cutfoldbind', pagesPerSheet: 8 },
  { value: '2x4x1', pagesPerSheet: 8 },
  { value: 'ea4x4', pagesPerSheet: 8 },
  { value: '1x8x2', pagesPerSheet: 16 },
  { value: '1x1', pagesPerSheet: 1 },
] as const;
export type ImpositionSchema = (typeof IMPOSITION_SCHEMAS)[number]['value'];
export const IMPOSITION_SCHEMA_VALUES = ['', ...IMPOSITION_SCHEMAS.map((s) => s.value)] as ['' | ImpositionSchema, ...('' | ImpositionSchema)[]];

/** Schemas that take the 2-up signature, and the one that takes the 4-up signature (spec §5). */
export const SIGNATURE_2UP_SCHEMAS: readonly string[] = ['2up', 'duplex2up', '2down'];
export const SIGNATURE_4UP_SCHEMAS: readonly string[] = ['4up'];
/** Schemas that can move the last page to the end of the padded signature (fill_signature). */
export const FILL_SIGNATURE_SCHEMAS: readonly string[] = ['2up', 'duplex2up', '2down', '4up'];

const range = (from: number, to: number, step: number) => Array.from({ length: (to - from) / step + 1 }, (_, i) => String(from + i * step));
/** '0' = the whole book in one signature; '40-80' = optimized signatures of 40 to 80 pages. */
export const SIGNATURES_2UP = ['0', '40-80', ...range(4, 80, 4)];
export const SIGNATURES_4UP = ['0', '40-80', ...range(8, 80, 8)];

export const DIVISION_FACTORS = [9, 10, 11, 12, 13, 14, 15] as const;
export const FONT_SIZES = [9, 10, 11, 12, 13, 14] as const;
export const OPENINGS = ['any', 'right', 'left'] as const;
/**
 * Whether parts and chapters start a new page (our addition): 'auto' by the text's length (books yes,
 * articles and short texts no: muse's chapterNewpage()), or always / never. The API's default is
 * 'always' (the reference's book class); the web app starts with 'auto'.
 */
export const CHAPTER_NEWPAGE = ['auto', 'always', 'never'] as const;

/** Running-head styles (bookbuilder reference §2.4) with their English descriptions. */
export const HEADINGS = [
  { name: '0', desc: 'None' },
  { name: 'part_chapter', desc: 'Part and chapter. If one side document: part.' },
  { name: 'title_subtitle', desc: 'Title and subtitle. If one side document: title.' },
  { name: 'author_title', desc: 'Author and title. If one side document: title.' },
  { name: 'chapter_section', desc: 'Chapter and section. If one side document: chapter.' },
  { name: 'section_subsection', desc: 'Section and subsection. If one side document: section.' },
  { name: 'title_chapter', desc: 'Title and chapter. If one side document: chapter.' },
  { name: 'title_section', desc: 'Title and section. If one side document: section.' },
] as const;
export type HeadingsName = (typeof HEADINGS)[number]['name'];
export const HEADINGS_VALUES = HEADINGS.map((h) => h.name) as [HeadingsName, ...HeadingsName[]];

/** The boolean options of the Advanced tab, in display order. */
export const COLLECTION_FLAGS = [
  'notoc',
  'nofinalpage',
  'nocoverpage',
  'body_only',
  'impressum',
  'sansfontsections',
  'nobold',
  'start_with_empty_page',
  'ignore_cover',
  'continuefootnotes',
  'centerchapter',
  'centersection',
] as const;
export type CollectionFlag = (typeof COLLECTION_FLAGS)[number];

export const VIRTUAL_HEADER_FIELDS = ['title', 'subtitle', 'author', 'date', 'notes', 'source'] as const;
export type VirtualHeaderField = (typeof VIRTUAL_HEADER_FIELDS)[number];

/** Defaults of collection_data (spec §3). Optional fields without a default are absent. */
export const COLLECTION_DEFAULTS = {
  papersize: 'a5',
  mainfont: 'DejaVu Serif',
  sansfont: 'DejaVu Sans',
  monofont: 'DejaVu Sans Mono',
  fontsize: 12,
  imposition_schema: '',
  signature_2up: '0',
  signature_4up: '0',
  fill_signature: true,
  cropmarks: false,
  crop_papersize: 'a4',
  crop_paper_thickness: 0.1,
  creep: 0,
  division_factor: 12,
  binding_correction: 0,
  opening: 'any',
  chapter_newpage: 'always',
  twoside: false,
  headings: '0',
  linespacing: 1,
  parindent: 15,
  tex_tolerance: 200,
  tex_emergencystretch: 30,
  notoc: false,
  nofinalpage: false,
  nocoverpage: false,
  body_only: false,
  impressum: false,
  sansfontsections: false,
  nobold: false,
  start_with_empty_page: false,
  ignore_cover: false,
  continuefootnotes: false,
  centerchapter: false,
  centersection: false,
  title: '',
  subtitle: '',
  author: '',
  date: '',
  notes: '',
  source: '',
} as const;

/** Limits of a session (issue 4): bytes of copied sources and number of texts. */
export const BOOKBUILDER_MAX_SESSION_BYTES = 64 * 1024 * 1024;
export const BOOKBUILDER_MAX_TEXTS = 200;
/** Job polling interval of spec §9. */
export const JOB_POLL_INTERVAL_MS = 1000;

/** Job statuses (spec §4) and the extra answer for an unknown job. */
export const JOB_STATUSES = ['inactive', 'active', 'finished', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOB_NOT_FOUND = 'not found';

/** Page size in mm of a paper name, or null for custom/unknown. */
export function paperMm(name: string): { widthMm: number; heightMm: number } | null {
  const p = PAPER_SIZES.find((s) => s.value === name);
  return p ? { widthMm: p.widthMm, heightMm: p.heightMm } : null;
}

/** The signature value that applies to a schema (spec §5), or null when the schema takes none. */
export function signatureFor(schema: string, data: { signature_2up: string; signature_4up: string }): string | null {
  if (SIGNATURE_2UP_SCHEMAS.includes(schema)) return data.signature_2up;
  if (SIGNATURE_4UP_SCHEMAS.includes(schema)) return data.signature_4up;
  return null;
}
