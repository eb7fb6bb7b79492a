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
  COLLECTION_FLAGS,
  IMPOSITION_SCHEMA_VALUES,
  JOB_NOT_FOUND,
  JOB_STATUSES,
  OPENINGS,
  CHAPTER_NEWPAGE,
  PAPER_SIZES,
  PAPER_SIZE_VALUES,
  SIGNATURE_2UP_SCHEMAS,
  SIGNATURE_4UP_SCHEMAS,
  SIGNATURES_2UP,
  SIGNATURES_4UP,
  VIRTUAL_HEADER_FIELDS,
  paperMm,
  signatureFor,
  type CollectionFlag,
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
  // Beyond the reference: creep compensation without crop marks (paper thickness in mm, 0 = off).
  creep: number(
    mm(0, 0.3, 'Paper thickness in mm').refine((v) => isStep(v, 0.01), 'Paper thickness in mm: steps of 0.01'),
    D.creep,
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
  chapter_newpage: choice([...CHAPTER_NEWPAGE] as [string, ...string[]], D.chapter_newpage, 'New page for each chapter: auto, always or never'),
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

// ---------- The build payload (spec §7 "Build payload derived from collection_data") ----------
// What a client sends as `collection_data` with action build: lengths carry their unit ("5mm",
// "30pt", "148mm:210mm"), booleans are 1 or absent, one `signature` for the chosen schema, and the
// crop options are present only when crop marks are wanted. buildPayloadSchema parses it into the
// internal CollectionData (where every bound and cross-field rule lives); toBuildPayload derives it.

/** Millimetres (or points) per unit, for the lengths of the payload. */
const MM_PER: Record<string, number> = { mm: 1, cm: 10, in: 25.4, pt: 25.4 / 72 };
const LENGTH_RE = /^\s*(-?(?:\d+(?:\.\d*)?|\.\d+))\s*(mm|cm|in|pt)?\s*$/i;
/** Keeps float noise of unit conversions out of the step checks (0.1mm stays 0.1). */
const tidy = (n: number) => Math.round(n * 1e6) / 1e6;

/** A length in `unit`: a number (already in that unit), "12", or "12mm"/"1in"/"30pt". NaN when unreadable. */
export function parseLength(v: unknown, unit: 'mm' | 'pt'): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? v : NaN;
  if (typeof v !== 'string') return NaN;
  const m = LENGTH_RE.exec(v);
  if (!m) return NaN;
  const n = Number(m[1]);
  const from = (m[2] ?? unit).toLowerCase();
  return from === unit ? n : tidy((n * MM_PER[from]) / MM_PER[unit]);
}

const PAPER_PAIR_RE = /^\s*([^:]+):([^:]+)\s*$/;
/** Paper names the spec's client also uses. */
const PAPER_ALIASES: Record<string, string> = { generic: '210mm:11in' };

type PaperSpec = { name: string } | { widthMm: number; heightMm: number };
/** A paper size: a name of spec §9 or "<w>:<h>" with units; null when unreadable, undefined when absent. */
export function parsePaper(v: unknown): PaperSpec | null | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') return null;
  const name = PAPER_ALIASES[v.trim().toLowerCase()] ?? v.trim();
  const known = PAPER_SIZES.find((p) => p.value === name || p.value === name.toLowerCase());
  if (known) return { name: known.value };
  const m = PAPER_PAIR_RE.exec(name);
  if (!m) return null;
  const [w, h] = [parseLength(m[1], 'mm'), parseLength(m[2], 'mm')];
  if (w === undefined || h === undefined || Number.isNaN(w) || Number.isNaN(h)) return null;
  return { widthMm: w, heightMm: h };
}

const lengthIn = (unit: 'mm' | 'pt', what: string) =>
  z.preprocess((v) => parseLength(v, unit), z.number({ message: `${what}: a length such as "12${unit}" is required` }).optional());
const paper = (what: string) =>
  z.preprocess(
    (v) => (v === '' ? v : parsePaper(v)),
    z.union([
      z.literal('', { message: '' }),
      z.object({ name: z.string() }),
      z.object({ widthMm: z.number(), heightMm: z.number() }),
    ], { message: `${what}: a paper name or a size such as "148mm:210mm" is required` }).optional(),
  );
/** 1 or absent (also true/'1'; 0, '0', false and '' are off). */
const wireFlag = z.preprocess(toBool, z.boolean({ message: 'send 1 or leave it out' }).optional());

/** Payload fields whose name differs from the collection_data field they fill. */
const PAYLOAD_FIELD_OF: Partial<Record<keyof CollectionData, string>> = {
  papersize_width: 'papersize',
  papersize_height: 'papersize',
  crop_papersize_width: 'crop_papersize',
  crop_papersize_height: 'crop_papersize',
  cropmarks: 'crop_papersize',
  binding_correction: 'bcor',
  division_factor: 'division',
  signature_2up: 'signature',
  signature_4up: 'signature',
};
/** The build payload field a collection_data field is sent as (for error messages). */
export const payloadField = (key: string): string => PAYLOAD_FIELD_OF[key as keyof CollectionData] ?? key;

/** Fields passed on to the collection_data schema, which checks them. */
const anything = z.unknown().optional();

const payloadObject = z.object({
  papersize: paper('Paper size'),
  bcor: lengthIn('mm', 'Binding correction'),
  division: anything,
  areaset_width: lengthIn('mm', 'Text block width'),
  areaset_height: lengthIn('mm', 'Text block height'),
  geometry_top_margin: lengthIn('mm', 'Top margin'),
  geometry_outer_margin: lengthIn('mm', 'Outer margin'),
  tex_emergencystretch: lengthIn('pt', 'Emergency stretch'),
  linespacing: anything,
  signature: anything,
  crop_papersize: paper('Crop-mark paper size'),
  crop_paper_thickness: lengthIn('mm', 'Paper thickness'),
  creep: lengthIn('mm', 'Creep'),
  ...Object.fromEntries([...COLLECTION_FLAGS, 'twoside', 'fill_signature'].map((k) => [k, wireFlag])) as Record<CollectionFlag | 'twoside' | 'fill_signature', typeof wireFlag>,
  // Sent as they are in collection_data; checked by its schema.
  mainfont: anything,
  sansfont: anything,
  monofont: anything,
  fontsize: anything,
  imposition_schema: anything,
  opening: anything,
  chapter_newpage: anything,
  headings: anything,
  parindent: anything,
  tex_tolerance: anything,
  title: anything,
  subtitle: anything,
  author: anything,
  date: anything,
  notes: anything,
  source: anything,
});
type PayloadObject = z.output<typeof payloadObject>;

/** The payload's fields → collection_data input (before its own defaults and rules). */
function payloadToCollection(p: PayloadObject): Record<string, unknown> {
  const d: Record<string, unknown> = {};
  for (const k of ['mainfont', 'sansfont', 'monofont', 'fontsize', 'imposition_schema', 'opening', 'chapter_newpage', 'headings', 'parindent', 'tex_tolerance', ...VIRTUAL_HEADER_FIELDS] as const) {
    if (p[k] !== undefined) d[k] = p[k];
  }
  if (p.papersize === '') d.papersize = CUSTOM_PAPER; // custom without its size: "Please set"
  else if (p.papersize && 'name' in p.papersize) d.papersize = p.papersize.name;
  else if (p.papersize) Object.assign(d, { papersize: CUSTOM_PAPER, papersize_width: p.papersize.widthMm, papersize_height: p.papersize.heightMm });
  d.binding_correction = p.bcor ?? 0;
  // The custom text block (areaset) is what makes the layout custom; division then is a fallback (9).
  if (p.areaset_width !== undefined || p.areaset_height !== undefined) {
    // The margins go in pairs; a lone 0 is the spec client's blank field ("leave blank for default").
    let [top, outer] = [p.geometry_top_margin, p.geometry_outer_margin];
    if (top === 0 && outer === undefined) top = undefined;
    if (outer === 0 && top === undefined) outer = undefined;
    Object.assign(d, { division_factor: 0, areaset_width: p.areaset_width, areaset_height: p.areaset_height, geometry_top_margin: top, geometry_outer_margin: outer });
  } else if (p.division !== undefined) {
    d.division_factor = p.division;
  }
  if (p.tex_emergencystretch !== undefined) d.tex_emergencystretch = p.tex_emergencystretch;
  if (p.creep !== undefined) d.creep = p.creep;
  // Absent linespacing is single spacing.
  d.linespacing = p.linespacing ?? 1;
  for (const k of [...COLLECTION_FLAGS, 'twoside', 'fill_signature'] as const) d[k] = p[k] ?? false;
  const schema = typeof p.imposition_schema === 'string' ? p.imposition_schema : '';
  if (p.signature !== undefined && p.signature !== null) {
    if (SIGNATURE_2UP_SCHEMAS.includes(schema)) d.signature_2up = p.signature;
    if (SIGNATURE_4UP_SCHEMAS.includes(schema)) d.signature_4up = p.signature;
  }
  // Crop marks are wanted when their options are sent (the payload has no cropmarks key).
  if (p.crop_papersize !== undefined || p.crop_paper_thickness !== undefined) {
    d.cropmarks = true;
    if (p.crop_papersize === '') d.crop_papersize = CUSTOM_PAPER;
    else if (p.crop_papersize && 'name' in p.crop_papersize) d.crop_papersize = p.crop_papersize.name;
    else if (p.crop_papersize) Object.assign(d, { crop_papersize: CUSTOM_PAPER, crop_papersize_width: p.crop_papersize.widthMm, crop_papersize_height: p.crop_papersize.heightMm });
    if (p.crop_paper_thickness !== undefined) d.crop_paper_thickness = p.crop_paper_thickness;
  }
  return d;
}

/** Paper sizes of the payload: custom without both sides asks for them. */
const PAPER_UNSET = `${PLEASE_SET} the width and height of the custom paper size ("<w>mm:<h>mm")`;

/**
 * The build payload → collection_data, with every default, bound and rule; issues name the payload
 * fields. With `texts` it also requires the virtual header title for several texts.
 */
export function makeBuildPayloadSchema(context: { texts?: number } = {}) {
  const rules = makeCollectionDataSchema(context);
  return payloadObject.transform((p, ctx): CollectionData => {
    const r = rules.safeParse(payloadToCollection(p));
    if (r.success) return r.data;
    const seen = new Set<string>();
    for (const issue of r.error.issues) {
      const field = payloadField(String(issue.path[0] ?? ''));
      if (seen.has(field)) continue;
      seen.add(field);
      const unset = issue.message === PLEASE_SET && (field === 'papersize' || field === 'crop_papersize');
      ctx.addIssue({ code: 'custom', path: [field], message: unset ? PAPER_UNSET : issue.message });
    }
    return z.NEVER;
  });
}
export const buildPayloadSchema = makeBuildPayloadSchema();
/** The build payload as sent: lengths with units, flags as 1, absent fields left out. */
export type BuildPayload = Record<string, string | number>;

const mmText = (n: number) => `${n}mm`;

/** The build payload of spec §7 for a collection_data (what the spec's client sends). */
export function toBuildPayload(d: CollectionData): BuildPayload {
  const o: BuildPayload = {
    papersize: d.papersize === CUSTOM_PAPER
      ? d.papersize_width !== undefined && d.papersize_height !== undefined ? `${mmText(d.papersize_width)}:${mmText(d.papersize_height)}` : ''
      : d.papersize,
    mainfont: d.mainfont,
    sansfont: d.sansfont,
    monofont: d.monofont,
    fontsize: d.fontsize,
    imposition_schema: d.imposition_schema,
    bcor: mmText(d.binding_correction),
    division: d.division_factor === 0 ? 9 : d.division_factor,
    opening: d.opening,
    headings: d.headings,
    parindent: d.parindent,
    tex_tolerance: d.tex_tolerance,
    tex_emergencystretch: `${d.tex_emergencystretch}pt`,
  };
  if (d.division_factor === 0) {
    for (const k of ['areaset_width', 'areaset_height', 'geometry_top_margin', 'geometry_outer_margin'] as const) {
      if (d[k] !== undefined) o[k] = mmText(d[k]);
    }
  }
  for (const k of [...COLLECTION_FLAGS, 'twoside'] as const) if (d[k]) o[k] = 1;
  if (d.linespacing > 1) o.linespacing = d.linespacing;
  // our addition, sent only when not the default (so the payload stays the spec client's)
  if (d.chapter_newpage !== D.chapter_newpage) o.chapter_newpage = d.chapter_newpage;
  const signature = signatureFor(d.imposition_schema, d);
  if (signature !== null) {
    o.signature = signature;
    if (d.fill_signature) o.fill_signature = 1;
  }
  if (d.cropmarks) {
    o.crop_papersize = d.crop_papersize === CUSTOM_PAPER
      ? d.crop_papersize_width !== undefined && d.crop_papersize_height !== undefined ? `${mmText(d.crop_papersize_width)}:${mmText(d.crop_papersize_height)}` : ''
      : d.crop_papersize;
    o.crop_paper_thickness = mmText(d.crop_paper_thickness);
  }
  if (!d.cropmarks && d.creep > 0 && signature !== null) o.creep = mmText(d.creep);
  for (const k of VIRTUAL_HEADER_FIELDS) if (d[k] !== '') o[k] = d[k];
  return o;
}

// ---------- POST /collector/api/bookbuilder ----------
export const bookSessionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'Invalid session id');
const sessionId = bookSessionIdSchema.nullish();
const rowId = z.coerce.number().int().positive().max(2 ** 31);

/** What a build produces (our addition): the spec's PDF, or an EPUB 3 (paper, imposition and crop marks mean nothing there). */
export const BOOK_FORMATS = ['pdf', 'epub'] as const;
export const bookFormatSchema = z.enum(BOOK_FORMATS, { message: 'use pdf or epub' });
export type BookFormat = z.infer<typeof bookFormatSchema>;

/**
 * A partial selection of a text (the reference's `name:0,3`): section numbers separated by commas, 0 being
 * what precedes the first heading of levels 1–4 and n the n-th such heading with what follows it.
 */
export const bookPartialSchema = z.string().max(2000)
  .regex(/^\s*\d{1,5}(\s*,\s*\d{1,5})*\s*$/, 'section numbers separated by commas, e.g. 0,3')
  .transform((s) => [...new Set(s.split(',').map(Number))].sort((a, b) => a - b));

export const bookbuilderRequestSchema = z.discriminatedUnion('action', [
  /** partial (our addition): only these sections of the text, e.g. "0,3" (see bookPartialSchema). */
  z.object({ action: z.literal('add'), session_id: sessionId, add: rowId, partial: bookPartialSchema.optional() }),
  z.object({ action: z.literal('list'), session_id: sessionId }),
  /** Our addition: a session text's sections (numbers and headings), for choosing a partial selection. */
  z.object({ action: z.literal('get_sections'), session_id: sessionId, text_id: rowId }),
  /** Our addition: changes a session text's partial selection; null (or every section) is the whole text. */
  z.object({ action: z.literal('set_partial'), session_id: sessionId, text_id: rowId, partial: bookPartialSchema.nullable() }),
  z.object({ action: z.literal('remove'), session_id: sessionId, remove_id: rowId }),
  /** Places move_id just before to_id; to_id null moves it to the end. */
  z.object({ action: z.literal('reorder'), session_id: sessionId, move_id: rowId, to_id: rowId.nullable() }),
  z.object({ action: z.literal('get_fonts'), session_id: sessionId }),
  z.object({ action: z.literal('get_headings'), session_id: sessionId }),
  /** collection_data here is the build payload of spec §7 (units, 1/absent flags), not the form's collection_data. */
  /** format (our addition): what to build; absent is the spec's PDF. */
  z.object({ action: z.literal('build'), session_id: sessionId, collection_data: buildPayloadSchema, format: bookFormatSchema.optional() }),
  z.object({ action: z.literal('check_job'), session_id: sessionId, check_job_id: rowId }),
], { message: 'Unknown action: use add, list, get_sections, set_partial, remove, reorder, get_fonts, get_headings, build or check_job' });
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
    /** Our addition: the selected sections when only part of the text is wanted (absent: all of it). */
    partial: z.array(z.number().int()).optional(),
  }),
});
export type BookText = z.infer<typeof bookTextSchema>;

export const bookFontSchema = z.object({
  name: z.string(),
  desc: z.string(),
  type: z.enum(['serif', 'sans', 'mono']),
  /** A one-page PDF specimen and PNG and SVG images of it (spec §3; SVG is our addition), rendered by the server. */
  preview_pdf: z.string(),
  preview_png: z.string(),
  preview_svg: z.string(),
  /** Our additions, for the session's texts: shipped with the app (DejaVu, always offered); has every letter of the texts; the first letters it lacks; offered (bundled or has them all). */
  bundled: z.boolean(),
  covers_texts: z.boolean(),
  missing: z.string(),
  offered: z.boolean(),
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
  /** get_sections (our addition): the text's sections, 0 being what precedes the first heading (title ''). */
  sections: z.array(z.object({ number: z.number().int(), title: z.string() })).optional(),
  /** check_job: the failure reason of a failed job. */
  error: z.string().nullable().optional(),
  /** check_job: jobs ahead of this one while it is queued. */
  queue_position: z.number().int().nullable().optional(),
  /** check_job of a running build (our addition): its step of how many (a large book advances per chunk), when this server runs it. */
  progress: z.object({ step: z.number().int(), steps: z.number().int() }).nullable().optional(),
  /** check_job of a finished build: the PDF's pages (sheet sides when imposed). */
  pages: z.number().int().nullable().optional(),
  /** check_job of a finished build: the book's pages before imposition, and the printed sheets when imposed. */
  book_pages: z.number().int().nullable().optional(),
  sheets: z.number().int().nullable().optional(),
  /** check_job of a finished build (our addition): what it produced, pdf or epub. */
  format: bookFormatSchema.nullable().optional(),
  /** Limits, so the UI can say how full the session is. */
  limits: z.object({ max_texts: z.number().int(), max_bytes: z.number().int(), used_bytes: z.number().int() }).optional(),
});
export type BookbuilderResponse = z.infer<typeof bookbuilderResponseSchema>;

