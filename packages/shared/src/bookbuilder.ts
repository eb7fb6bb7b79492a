// The Book Builder contract (spec §3 collection_data, §5 bounds and rules, §7 calls): ONE zod schema
// for collection_data, used by the server (route validation) and the web app (form errors), plus the
// request and response shapes of POST /collector/api/bookbuilder.
import { z } from 'zod';
import {
  COLLECTION_DEFAULTS as D,
  CUSTOM_PAPER,
  CUSTOM_PAPER_MAX_MM,
  CUSTOM_PAPER_MIN_MM,
  HEADINGS_VALUES,
  IMPOSITION_SCHEMA_VALUES,
  JOB_NOT_FOUND,
  JOB_STATUSES,
  OPENINGS,
  PAPER_SIZE_VALUES,
  SIGNATURES_2UP,
  SIGNATURES_4UP,
  paperMm,
} from './bookbuilder-constants.ts';

export * from './bookbuilder-constants.ts';

// Form inputs arrive as strings; the API also takes numbers and booleans. '' and null mean "not set".
const toNumber = (v: unknown) => {
  if (v === '' || v === null) return undefined;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return v;
};
const toBool = (v: unknown) => {
  if (v === 1 || v === '1' || v === 'true' || v === 'on') return true;
  if (v === 0 || v === '0' || v === 'false' || v === '' || v === null) return false;
  return v;
};
const toText = (v: unknown) => (typeof v === 'number' ? String(v) : v === null ? undefined : v);

const number = (s: z.ZodNumber, def: number) => z.preprocess(toNumber, s.default(def));
const optionalNumber = (s: z.ZodNumber) => z.preprocess(toNumber, s.optional());
const flag = (def: boolean) => z.preprocess(toBool, z.boolean().default(def));
const choice = <T extends [string, ...string[]]>(values: T, def: T[number], message: string) =>
  z.preprocess(toText, z.enum(values, { message }).default(def as never));
const fontName = (def: string) =>
  z.preprocess(toText, z.string().trim().max(64).regex(/^[A-Za-z0-9 ]*$/, 'A font name has letters, digits and spaces only').default(def));
const headerText = (max: number) => z.preprocess(toText, z.string().trim().max(max, `At most ${max} characters`).default(''));

/** True when v is a whole multiple of step (within float noise). */
export function isStep(v: number, step: number): boolean {
  const q = v / step;
  return Math.abs(q - Math.round(q)) < 1e-6;
}

const mm = (min: number, max: number, what: string) =>
  z.number({ message: `${what}: a number is required` }).min(min, `${what}: at least ${min}`).max(max, `${what}: at most ${max}`);

const fields = {
  papersize: z.preprocess((v) => (v === '' ? CUSTOM_PAPER : toText(v)), z.enum(PAPER_SIZE_VALUES, { message: 'Please choose a paper size' }).default(D.papersize)),
  papersize_width: optionalNumber(mm(CUSTOM_PAPER_MIN_MM, CUSTOM_PAPER_MAX_MM, 'Paper width in mm')),
  papersize_height: optionalNumber(mm(CUSTOM_PAPER_MIN_MM, CUSTOM_PAPER_MAX_MM, 'Paper height in mm')),
  mainfont: fontName(D.mainfont).refine((v) => v !== '', 'Please choose a main font'),
  sansfont: fontName(D.sansfont),
  monofont: fontName(D.monofont).refine((v) => v !== '', 'Please choose a mono font'),
  fontsize: number(z.number().int('Font size: a whole number of points').min(9, 'Font size: 9 to 14 pt').max(14, 'Font size: 9 to 14 pt'), D.fontsize),

  imposition_schema: choice(IMPOSITION_SCHEMA_VALUES, D.imposition_schema, 'Unknown imposition schema'),
  signature_2up: choice(SIGNATURES_2UP as [string, ...string[]], D.signature_2up, 'Please select the signature size (0, 40-80, or 4 to 80 in steps of 4)'),
  signature_4up: choice(SIGNATURES_4UP as [string, ...string[]], D.signature_4up, 'Please select the signature size (0, 40-80, or 8 to 80 in steps of 8)'),
  fill_signature: flag(D.fill_signature),
  cropmarks: flag(D.cropmarks),
  crop_papersize: z.preprocess((v) => (v === '' ? CUSTOM_PAPER : toText(v)), z.enum(PAPER_SIZE_VALUES, { message: 'Please choose the crop-mark paper size' }).default(D.crop_papersize)),
  crop_papersize_width: optionalNumber(mm(CUSTOM_PAPER_MIN_MM, CUSTOM_PAPER_MAX_MM, 'Crop paper width in mm')),
  crop_papersize_height: optionalNumber(mm(CUSTOM_PAPER_MIN_MM, CUSTOM_PAPER_MAX_MM, 'Crop paper height in mm')),
  crop_paper_thickness: number(
    mm(0, 0.3, 'Paper thickness in mm').refine((v) => isStep(v, 0.01), 'Paper thickness in mm: steps of 0.01'),
    D.crop_paper_thickness,
  ),

  division_factor: number(
    z.number().int().refine((v) => v === 0 || (v >= 9 && v <= 15), 'Margin factor: 9 to 15, or 0 for custom dimensions'),
    D.division_factor,
  ),
  areaset_width: optionalNumber(mm(30, CUSTOM_PAPER_MAX_MM, 'Text block width in mm')),
  areaset_height: optionalNumber(mm(30, CUSTOM_PAPER_MAX_MM, 'Text block height in mm')),
  geometry_top_margin: optionalNumber(mm(0, CUSTOM_PAPER_MAX_MM, 'Top margin in mm')),
  geometry_outer_margin: optionalNumber(mm(0, CUSTOM_PAPER_MAX_MM, 'Outer margin in mm')),
  binding_correction: number(mm(0, 50, 'Binding correction in mm'), D.binding_correction),
  opening: choice([...OPENINGS] as [string, ...string[]], D.opening, 'Chapter opening: any, right or left'),
  twoside: flag(D.twoside),
  headings: z.preprocess((v) => (v === 0 ? '0' : toText(v)), z.enum(HEADINGS_VALUES, { message: 'Unknown running heading style' }).default(D.headings)),
  linespacing: number(
    mm(1, 2, 'Line spacing').refine((v) => isStep(v, 0.1), 'Line spacing: steps of 0.1'),
    D.linespacing,
  ),
  parindent: number(mm(-100, 100, 'Paragraph indentation in pt'), D.parindent),
  tex_tolerance: number(z.number().int('Tolerance: a whole number').min(0, 'Tolerance: 0 to 10000').max(10000, 'Tolerance: 0 to 10000'), D.tex_tolerance),
  tex_emergencystretch: number(mm(0, 10000, 'Emergency stretch in pt'), D.tex_emergencystretch),

  notoc: flag(D.notoc),
  nofinalpage: flag(D.nofinalpage),
  nocoverpage: flag(D.nocoverpage),
  body_only: flag(D.body_only),
  impressum: flag(D.impressum),
  sansfontsections: flag(D.sansfontsections),
  nobold: flag(D.nobold),
  start_with_empty_page: flag(D.start_with_empty_page),
  ignore_cover: flag(D.ignore_cover),
  continuefootnotes: flag(D.continuefootnotes),
  centerchapter: flag(D.centerchapter),
  centersection: flag(D.centersection),

  title: headerText(500),
  subtitle: headerText(500),
  author: headerText(500),
  date: headerText(200),
  notes: headerText(5000),
  source: headerText(5000),
};

export const PLEASE_SET = 'Please set';

/** The page size in mm that collection_data asks for, or null when a custom size is incomplete. */
export function pageSizeMm(d: { papersize: string; papersize_width?: number; papersize_height?: number }): { widthMm: number; heightMm: number } | null {
  if (d.papersize === CUSTOM_PAPER) {
    return d.papersize_width !== undefined && d.papersize_height !== undefined ? { widthMm: d.papersize_width, heightMm: d.papersize_height } : null;
  }
  return paperMm(d.papersize);
}

/** The crop-mark paper in mm, or null when a custom size is incomplete. */
export function cropPaperMm(d: { crop_papersize: string; crop_papersize_width?: number; crop_papersize_height?: number }): { widthMm: number; heightMm: number } | null {
  if (d.crop_papersize === CUSTOM_PAPER) {
    return d.crop_papersize_width !== undefined && d.crop_papersize_height !== undefined
      ? { widthMm: d.crop_papersize_width, heightMm: d.crop_papersize_height }
      : null;
  }
  return paperMm(d.crop_papersize);
}

const baseObject = z.object(fields);
export type CollectionData = z.output<typeof baseObject>;
/** What a client may send: every field optional, numbers and flags also as strings. */
export type CollectionDataInput = Partial<{ [K in keyof CollectionData]: CollectionData[K] | string | number | boolean | null }>;

/**
 * collection_data with every default, bound and cross-field rule. With `texts` (the number of texts
 * in the session) it also requires the virtual header title when more than one text is listed.
 */
export function makeCollectionDataSchema(context: { texts?: number } = {}) {
  return baseObject.superRefine((d, ctx) => {
    const need = (path: keyof CollectionData, message = PLEASE_SET) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (d.papersize === CUSTOM_PAPER) {
      if (d.papersize_width === undefined) need('papersize_width');
      if (d.papersize_height === undefined) need('papersize_height');
    }
    if (d.division_factor === 0) {
      if (d.areaset_width === undefined) need('areaset_width');
      if (d.areaset_height === undefined) need('areaset_height');
      // A top margin needs an outer margin and vice versa.
      if (d.geometry_top_margin !== undefined && d.geometry_outer_margin === undefined) need('geometry_outer_margin');
      if (d.geometry_outer_margin !== undefined && d.geometry_top_margin === undefined) need('geometry_top_margin');
      const page = pageSizeMm(d);
      if (page && d.areaset_width !== undefined && d.areaset_width + d.binding_correction + (d.geometry_outer_margin ?? 0) >= page.widthMm) {
        need('areaset_width', 'The text block (with binding correction and outer margin) must be narrower than the page');
      }
      if (page && d.areaset_height !== undefined && d.areaset_height + (d.geometry_top_margin ?? 0) >= page.heightMm) {
        need('areaset_height', 'The text block (with the top margin) must be shorter than the page');
      }
    }
    const page = pageSizeMm(d);
    if (page && d.binding_correction >= page.widthMm / 2) need('binding_correction', 'The binding correction must be less than half the page width');
    if (d.sansfontsections && d.sansfont === '') need('sansfont', 'Please choose a sans font (sans fonts for section titles are on)');
    if (d.imposition_schema !== '' && d.cropmarks) {
      if (d.crop_papersize === CUSTOM_PAPER) {
        if (d.crop_papersize_width === undefined) need('crop_papersize_width');
        if (d.crop_papersize_height === undefined) need('crop_papersize_height');
      }
      const crop = cropPaperMm(d);
      if (page && crop && (crop.widthMm + 0.01 < page.widthMm || crop.heightMm + 0.01 < page.heightMm)) {
        need('crop_papersize', 'The crop-mark paper must be at least as large as the page');
      }
    }
    if (context.texts !== undefined && context.texts > 1 && d.title === '') {
      need('title', 'A collection of several texts needs a title');
    }
  });
}

export const collectionDataSchema = makeCollectionDataSchema();

/** A complete collection_data with the defaults of spec §3 (a fresh copy). */
export function defaultCollectionData(): CollectionData {
  return collectionDataSchema.parse({});
}

/** Field-keyed problems ('Please set' and bound messages) for forms; empty when valid. */
export function collectionProblems(data: unknown, texts?: number): Partial<Record<keyof CollectionData, string>> {
  const r = makeCollectionDataSchema({ texts }).safeParse(data);
  const out: Partial<Record<keyof CollectionData, string>> = {};
  if (r.success) return out;
  for (const issue of r.error.issues) {
    const key = issue.path[0] as keyof CollectionData | undefined;
    if (key && !out[key]) out[key] = issue.message;
  }
  return out;
}

// ---------- POST /collector/api/bookbuilder ----------
export const bookSessionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'Invalid session id');
const sessionId = bookSessionIdSchema.nullish();
const rowId = z.coerce.number().int().positive().max(2 ** 31);

export const bookbuilderRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('add'), session_id: sessionId, add: rowId }),
  z.object({ action: z.literal('list'), session_id: sessionId }),
  z.object({ action: z.literal('remove'), session_id: sessionId, remove_id: rowId }),
  /** Places move_id just before to_id; to_id null moves it to the end. */
  z.object({ action: z.literal('reorder'), session_id: sessionId, move_id: rowId, to_id: rowId.nullable() }),
  z.object({ action: z.literal('get_fonts'), session_id: sessionId }),
  z.object({ action: z.literal('get_headings'), session_id: sessionId }),
  z.object({ action: z.literal('build'), session_id: sessionId, collection_data: collectionDataSchema }),
  z.object({ action: z.literal('check_job'), session_id: sessionId, check_job_id: rowId }),
], { message: 'Unknown action: use add, list, remove, reorder, get_fonts, get_headings, build or check_job' });
export type BookbuilderRequest = z.input<typeof bookbuilderRequestSchema>;

export const bookTextSchema = z.object({
  id: z.number().int(),
  /** The session the text belongs to. */
  sid: z.string(),
  attributes: z.object({
    entry_id: z.number().int().nullable(),
    data_source_id: z.number().int(),
    title: z.string(),
    authors: z.array(z.string()),
    /** Bytes of the copied sources. */
    size: z.number().int(),
  }),
});
export type BookText = z.infer<typeof bookTextSchema>;

export const bookFontSchema = z.object({
  name: z.string(),
  desc: z.string(),
  type: z.enum(['serif', 'sans', 'mono']),
  /** A one-page PDF specimen and an SVG image of it, rendered by the server. */
  preview_pdf: z.string(),
  preview_svg: z.string(),
});
export type BookFont = z.infer<typeof bookFontSchema>;

export const bookHeadingSchema = z.object({ name: z.string(), desc: z.string() });
export type BookHeading = z.infer<typeof bookHeadingSchema>;

export const bookJobStatusSchema = z.enum([...JOB_STATUSES, JOB_NOT_FOUND]);
export type BookJobStatus = z.infer<typeof bookJobStatusSchema>;

/** One response shape for every action; each action fills its own fields. */
export const bookbuilderResponseSchema = z.object({
  session_id: z.string().nullable().optional(),
  texts: z.array(bookTextSchema).optional(),
  /** 'OK' for list changes; the job status for check_job. */
  status: z.string().optional(),
  job_id: z.number().int().nullable().optional(),
  fonts: z.array(bookFontSchema).optional(),
  headings: z.array(bookHeadingSchema).optional(),
  /** check_job: the failure reason of a failed job. */
  error: z.string().nullable().optional(),
  /** check_job: jobs ahead of this one while it is queued. */
  queue_position: z.number().int().nullable().optional(),
  /** check_job of a finished build: the PDF's pages (sheet sides when imposed). */
  pages: z.number().int().nullable().optional(),
  /** check_job of a finished build: the book's pages before imposition, and the printed sheets when imposed. */
  book_pages: z.number().int().nullable().optional(),
  sheets: z.number().int().nullable().optional(),
  /** Limits, so the UI can say how full the session is. */
  limits: z.object({ max_texts: z.number().int(), max_bytes: z.number().int(), used_bytes: z.number().int() }).optional(),
});
export type BookbuilderResponse = z.infer<typeof bookbuilderResponseSchema>;

