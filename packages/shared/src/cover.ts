// The cover builder contract (spec §2, §3 cover token, §5, §7 POST /bookcover): the dimension tokens,
// the sheet geometry (one rule for the form's "total sheet size" and the server's page size), the ISBN
// check, and the request and response shapes. The template's own tokens are discovered by the server.
import { z } from 'zod';
import { bookSessionIdSchema } from './bookbuilder.ts';

export const COVER_TOKEN_TYPES = ['int', 'bool', 'muse_str', 'muse_body', 'file', 'isbn', 'select'] as const;
export type CoverTokenType = (typeof COVER_TOKEN_TYPES)[number];

export const coverTokenSchema = z.object({
  name: z.string(),
  desc: z.string(),
  type: z.enum(COVER_TOKEN_TYPES),
  value: z.union([z.string(), z.number(), z.boolean()]).nullable(),
  /** select: the choices. */
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  /** int: the accepted range (an addition to the spec's token). */
  min: z.number().int().optional(),
  max: z.number().int().optional(),
});
export type CoverToken = z.infer<typeof coverTokenSchema>;

/** The sheet's dimension tokens in millimetres: default and accepted range (whole numbers, spec §5). */
export const COVER_DIMENSIONS = {
  coverheight: { desc: 'Cover height (mm)', value: 210, min: 50, max: 600 },
  coverwidth: { desc: 'Cover width (mm)', value: 148, min: 50, max: 600 },
  spinewidth: { desc: 'Spine width (mm)', value: 0, min: 0, max: 150 },
  flapwidth: { desc: 'Flap width (mm)', value: 0, min: 0, max: 300 },
  wrapwidth: { desc: 'Wrap-around width (mm)', value: 0, min: 0, max: 50 },
  bleedwidth: { desc: 'Bleed (mm)', value: 10, min: 0, max: 30 },
  marklength: { desc: 'Crop mark length (mm)', value: 5, min: 0, max: 30 },
} as const;
export type CoverDimensionName = keyof typeof COVER_DIMENSIONS;
export const COVER_DIMENSION_NAMES = Object.keys(COVER_DIMENSIONS) as CoverDimensionName[];

/** The hinge a folding margin adds on each side of the spine (hard covers). */
export const FOLDING_MARGIN_MM = 7;
/** Paper thickness for the computed spine, the same default as the crop marks option. */
export const DEFAULT_PAPER_THICKNESS_MM = 0.1;
export const COVER_DEFAULT_FONT = 'DejaVu Serif';
/** Print resolution below which an image is flagged. */
export const COVER_MIN_DPI = 300;
/** Uploaded images: bytes and pixels. */
export const COVER_IMAGE_MAX_BYTES = 20 * 1024 * 1024;
export const COVER_IMAGE_MAX_PIXELS = 60_000_000;
export const COVER_MUSE_STR_MAX = 1000;
export const COVER_MUSE_BODY_MAX = 20_000;

/** The 32 languages of the cover's hyphenation and quotes, with their own names. */
export const COVER_LANGUAGES: { value: string; label: string }[] = [
  ['ru', 'Русский'], ['uk', 'Українська'], ['sr', 'Српски'], ['hr', 'Hrvatski'], ['mk', 'Македонски'], ['el', 'Ελληνικά'],
  ['fi', 'Suomi'], ['id', 'Bahasa Indonesia'], ['it', 'Italiano'], ['es', 'Español'], ['en', 'English'], ['fr', 'Français'],
  ['nl', 'Nederlands'], ['de', 'Deutsch'], ['sq', 'Shqip'], ['sv', 'Svenska'], ['pl', 'Polski'], ['pt', 'Português'],
  ['da', 'Dansk'], ['cs', 'Čeština'], ['tr', 'Türkçe'], ['bg', 'Български'], ['eo', 'Esperanto'], ['zh', '中文'],
  ['ja', '日本語'], ['tl', 'Tagalog'], ['ceb', 'Cebuano'], ['kmr', 'Kurmancî'], ['ro', 'Română'], ['fa', 'فارسی'],
  ['eu', 'Euskara'], ['hu', 'Magyar'],
].map(([value, label]) => ({ value, label }));

export interface CoverGeometry {
  coverwidth: number;
  coverheight: number;
  spinewidth: number;
  flapwidth: number;
  wrapwidth: number;
  bleedwidth: number;
  marklength: number;
  foldingmargin: boolean;
}

export interface CoverPart { name: 'flap' | 'wrap' | 'back' | 'hinge' | 'spine' | 'front'; x: number; width: number }

/**
 * The sheet laid out from left to right in mm: marks, bleed, [flap, wrap], back, [hinge], spine, [hinge],
 * front, [wrap, flap], bleed, marks. `trim` is the finished cover's box; parts have x from the sheet's left.
 */
export function coverLayout(g: CoverGeometry): { width: number; height: number; trim: { x: number; y: number; width: number; height: number }; parts: CoverPart[] } {
  const hinge = g.foldingmargin ? FOLDING_MARGIN_MM : 0;
  const seq: [CoverPart['name'], number][] = [
    ['flap', g.flapwidth], ['wrap', g.wrapwidth], ['back', g.coverwidth], ['hinge', hinge], ['spine', g.spinewidth],
    ['hinge', hinge], ['front', g.coverwidth], ['wrap', g.wrapwidth], ['flap', g.flapwidth],
  ];
  const edge = g.marklength + g.bleedwidth;
  const parts: CoverPart[] = [];
  let x = edge;
  for (const [name, width] of seq) {
    if (width > 0 || name === 'spine') parts.push({ name, x, width });
    x += width;
  }
  const trimWidth = x - edge;
  return {
    width: trimWidth + 2 * edge,
    height: g.coverheight + 2 * edge,
    trim: { x: edge, y: edge, width: trimWidth, height: g.coverheight },
    parts,
  };
}

/**
 * The narrowest spine that carries text: the default template sets the spine's text at 0.45 × its
 * width (at most 14 pt), so below 6 mm it would be under 7.7 pt with less than 2 mm on either side,
 * too small to read on a shelf. A narrower spine is left blank (the server's cover-spine draws nothing).
 */
export const SPINE_TEXT_MIN_MM = 6;
export const spineHasText = (spineMm: number): boolean => spineMm >= SPINE_TEXT_MIN_MM;

/** Spine from the book's pages: one leaf per two pages times the paper, plus the boards' allowance; whole mm, rounded up. */
export function spineWidthMm(pages: number, paperMm = DEFAULT_PAPER_THICKNESS_MM, allowanceMm = 0): number {
  if (!(pages > 0)) return 0;
  return Math.ceil(Math.ceil(pages / 2) * paperMm + allowanceMm - 1e-9);
}

export const coverSessionIdSchema = bookSessionIdSchema;

/** Token values as the form sends them: strings from inputs, numbers, booleans. */
const tokenValue = z.union([z.string().max(COVER_MUSE_BODY_MAX + 1000), z.number(), z.boolean(), z.null()]);
const coverArgs = z.record(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'Unknown token'), tokenValue)
  .and(z.object({ session_id: coverSessionIdSchema }));

export const bookcoverRequestSchema = z.discriminatedUnion('action', [
  /** A session (the given one when still valid, else a new one) and the tokens with their defaults. */
  z.object({ action: z.literal('get_tokens'), session_id: coverSessionIdSchema.nullish() }),
  z.object({ action: z.literal('build'), args: coverArgs }),
  /** An addition: the cover drawn as SVG from the same values, with the fold lines. */
  z.object({ action: z.literal('preview'), args: coverArgs }),
], { message: 'Unknown action: use get_tokens, build or preview' });
export type BookcoverRequest = z.input<typeof bookcoverRequestSchema>;

export const coverImageInfoSchema = z.object({ token: z.string(), file: z.string(), width_px: z.number().int(), height_px: z.number().int(), bytes: z.number().int() });
export type CoverImageInfo = z.infer<typeof coverImageInfoSchema>;

export const bookcoverResponseSchema = z.object({
  session_id: z.string().optional(),
  tokens: z.array(coverTokenSchema).optional(),
  job_id: z.number().int().optional(),
  status: z.string().optional(),
  /** preview: the SVG image and the sheet size in mm. */
  svg: z.string().optional(),
  sheet: z.object({ width_mm: z.number(), height_mm: z.number() }).optional(),
  /** Advice that does not stop a build (an image under 300 dpi). */
  warnings: z.array(z.string()).optional(),
  /** upload: the stored image and its pixels, so the form can tell its print resolution. */
  image: coverImageInfoSchema.optional(),
});
export type BookcoverResponse = z.infer<typeof bookcoverResponseSchema>;

/** POST /bookcover/upload: `tokens` maps the token to its stored file (spec §7, as the anchor's back end). */
export const bookcoverUploadResponseSchema = z.object({
  session_id: z.string(),
  tokens: z.record(z.string(), z.string()),
  image: coverImageInfoSchema,
});
export type BookcoverUploadResponse = z.infer<typeof bookcoverUploadResponseSchema>;

/** The default layout: panels padded 15 mm; an image gets the text width and at most half the text height. */
export const COVER_PANEL_INSET_MM = 15;
export const COVER_IMAGE_HEIGHT_SHARE = 0.5;

export function coverImageBoxMm(g: Pick<CoverGeometry, 'coverwidth' | 'coverheight'>): { width: number; height: number } {
  return { width: Math.max(1, g.coverwidth - 2 * COVER_PANEL_INSET_MM), height: Math.max(1, (g.coverheight - 2 * COVER_PANEL_INSET_MM) * COVER_IMAGE_HEIGHT_SHARE) };
}

/**
 * The width in mm an image of these pixels is printed at in the default layout: the asked width (0: the
 * text width), never wider than the text, and narrower when half the panel's height limits it.
 */
export function placedImageWidthMm(g: Pick<CoverGeometry, 'coverwidth' | 'coverheight'>, askedMm: number, widthPx: number, heightPx: number): number {
  const box = coverImageBoxMm(g);
  const wanted = askedMm > 0 ? Math.min(askedMm, box.width) : box.width;
  return heightPx > 0 ? Math.min(wanted, box.height * (widthPx / heightPx)) : wanted;
}

/**
 * The ceiling of an upload: past this resolution more pixels print no better. An image is refused when
 * it has more pixels than it could use at this resolution on the largest cover the builder lays out.
 */
export const COVER_IMAGE_MAX_DPI = 600;

/** The largest cover sheet the builder offers: every dimension at its maximum, with the folding margin. */
export const COVER_LARGEST_GEOMETRY: CoverGeometry = {
  ...(Object.fromEntries(COVER_DIMENSION_NAMES.map((n) => [n, COVER_DIMENSIONS[n].max])) as Record<CoverDimensionName, number>),
  foldingmargin: true,
};

/**
 * The most pixels an image of this shape can use: COVER_IMAGE_MAX_DPI where the largest cover places it
 * (the default layout's image box, the same rule as the dpi warnings). A square image: 6,732 × 6,732.
 */
export function coverImageMaxPixels(widthPx: number, heightPx: number): { width: number; height: number } {
  const placedMm = placedImageWidthMm(COVER_LARGEST_GEOMETRY, 0, widthPx, heightPx);
  const width = Math.floor((placedMm / 25.4) * COVER_IMAGE_MAX_DPI);
  return { width, height: Math.floor((width * heightPx) / widthPx) };
}

/** The resolution an image prints at when placed `widthMm` wide. */
export function printDpi(widthPx: number, widthMm: number): number {
  return widthMm > 0 ? widthPx / (widthMm / 25.4) : Infinity;
}
