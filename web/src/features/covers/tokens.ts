// What the form knows about the template's tokens: labels of the known ones (others show the server's
// desc), the groups, the sheet geometry from the values, the placed image width, and the server's
// "<token>: <message>" errors.
import { COVER_DIMENSIONS, COVER_DIMENSION_NAMES, coverLayout, placedImageWidthMm, type CoverGeometry, type CoverToken } from '@uc/shared';
import type { CoverValue, CoverValues } from './store';

/** Labels (English source strings, translated by the caller) of the default template's tokens. */
export const TOKEN_LABELS: Record<string, string> = {
  coverheight: 'Cover height (mm)',
  coverwidth: 'Cover width (mm)',
  spinewidth: 'Spine width (mm)',
  flapwidth: 'Flap width (mm)',
  wrapwidth: 'Wrap-around width (mm)',
  bleedwidth: 'Bleed (mm)',
  marklength: 'Crop mark length (mm)',
  foldingmargin: 'Folding margin for a hard cover (7 mm on each side of the spine)',
  font_name: 'Font',
  language_code: 'Language of the cover texts',
  author_muse_str: 'Author',
  title_muse_str: 'Title',
  subtitle_muse_str: 'Subtitle',
  front_footer_muse_str: 'Footer of the front cover',
  image_file: 'Front image (PNG or JPEG)',
  image_width_in_mm_int: 'Image width in mm (0: the cover width less 30 mm)',
  back_text_muse_body: 'Text on the back cover',
  isbn_isbn: 'ISBN (printed as a barcode on the back)',
};

export type GroupId = 'sheet' | 'text' | 'image' | 'back' | 'other';
export const GROUP_IDS: GroupId[] = ['sheet', 'text', 'image', 'back', 'other'];
export const GROUP_LEGENDS: Record<GroupId, string> = {
  sheet: 'Sheet dimensions',
  text: 'Text',
  image: 'Image',
  back: 'Back cover',
  other: 'Other settings',
};

const KNOWN_GROUPS: Record<string, GroupId> = {
  ...Object.fromEntries(COVER_DIMENSION_NAMES.map((n) => [n, 'sheet'])),
  foldingmargin: 'sheet',
  font_name: 'text',
  language_code: 'text',
  author_muse_str: 'text',
  title_muse_str: 'text',
  subtitle_muse_str: 'text',
  front_footer_muse_str: 'text',
  image_file: 'image',
  image_width_in_mm_int: 'image',
  back_text_muse_body: 'back',
  isbn_isbn: 'back',
};

/** The group of a token: known names by name, a site template's own tokens by their type and name. */
export function groupOf(token: CoverToken): GroupId {
  const known = KNOWN_GROUPS[token.name];
  if (known) return known;
  if (token.type === 'file' || token.name.startsWith('image')) return 'image';
  if (token.type === 'muse_body' || token.type === 'isbn' || token.name.startsWith('back')) return 'back';
  if (token.type === 'muse_str' || token.type === 'select') return 'text';
  return 'other';
}

/** The tokens of each group, in the server's order. */
export function groupTokens(tokens: CoverToken[]): [GroupId, CoverToken[]][] {
  return GROUP_IDS.map((g) => [g, tokens.filter((t) => groupOf(t) === g)] as [GroupId, CoverToken[]]).filter(([, list]) => list.length > 0);
}

function num(v: CoverValue | undefined, fallback: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : fallback;
}

/** The sheet geometry from the values; an empty or missing dimension counts as its default. */
export function geometryOf(values: CoverValues): CoverGeometry {
  const g = Object.fromEntries(COVER_DIMENSION_NAMES.map((n) => [n, num(values[n], COVER_DIMENSIONS[n].value)])) as Omit<CoverGeometry, 'foldingmargin'>;
  return { ...g, foldingmargin: values.foldingmargin === true };
}

export function sheetSize(values: CoverValues): { width: number; height: number } {
  const { width, height } = coverLayout(geometryOf(values));
  return { width, height };
}

/** The width an image token's picture is printed at (its own `<prefix>_width_in_mm_int`, else the text width; the server's rule). */
export function placedWidthMm(token: string, values: CoverValues, widthPx: number, heightPx: number): number {
  return placedImageWidthMm(geometryOf(values), num(values[`${token.replace(/_file$/, '')}_width_in_mm_int`], 0), widthPx, heightPx);
}

/** "isbn_isbn: The ISBN checksum is wrong" → the field and its message; other errors belong to the form. */
export function splitError(message: string, tokens: CoverToken[]): { field: string | null; message: string } {
  const m = /^([a-z][a-z0-9_]*): ([\s\S]*)$/.exec(message);
  if (m && tokens.some((t) => t.name === m[1])) return { field: m[1], message: m[2] };
  return { field: null, message };
}

/** The values as the server reads them, with the session. */
export function coverArgs(values: CoverValues, tokens: CoverToken[], sessionId: string): Record<string, CoverValue> & { session_id: string } {
  const out: Record<string, CoverValue> = {};
  for (const t of tokens) out[t.name] = values[t.name] ?? null;
  return { ...out, session_id: sessionId };
}
