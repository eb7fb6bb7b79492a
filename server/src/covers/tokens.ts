// The cover's tokens (spec §3 cover token, §5 rules): the sheet's fixed tokens, the template's own
// tokens discovered by name, and the reading of submitted values into checked CoverValues. Every
// refusal names the token it is about ("<token>: <why>").
import ISBN from 'isbn3';
import {
  COVER_DEFAULT_FONT,
  COVER_DIMENSIONS,
  COVER_DIMENSION_NAMES,
  COVER_LANGUAGES,
  COVER_MUSE_BODY_MAX,
  COVER_MUSE_STR_MAX,
  type CoverGeometry,
  type CoverToken,
} from '@uc/shared';
import { museFragmentProblems } from '@uc/muse';
import { HttpError } from '../http/errors.ts';
import type { MessageValues } from '../http/messages.ts';

export type TemplateTokenType = 'int' | 'bool' | 'muse_str' | 'muse_body' | 'file' | 'isbn';
export interface TemplateToken { name: string; type: TemplateTokenType }

/** Largest value of a template's own int token (millimetres on a sheet at most a couple of metres wide). */
const TEMPLATE_INT_MAX = 2000;
const TOKEN_RE = /\bcover\.([a-z][a-z_]*?_(int|bool|muse_str|muse_body|file|isbn))\b/g;
/** Stored upload names: `<token>.<png|jpg>`. */
export const STORED_IMAGE_RE = /^[a-z][a-z0-9_]{0,63}\.(png|jpg)$/;

/** The template's tokens in order of first appearance: `cover.<name>_<type>`. */
export function discoverTokens(template: string): TemplateToken[] {
  const seen = new Map<string, TemplateToken>();
  for (const m of template.matchAll(TOKEN_RE)) {
    if (!seen.has(m[1])) seen.set(m[1], { name: m[1], type: m[2] as TemplateTokenType });
  }
  return [...seen.values()];
}

/** "image_width_in_mm_int" → "Image Width In Mm" (the reference's label rule). */
export function tokenLabel(t: TemplateToken): string {
  const base = t.name.slice(0, t.name.length - t.type.length - 1);
  return base.split('_').filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
}

/** The get_tokens list: dimensions, font, folding margin, language, then the template's tokens. */
export function coverTokens(template: TemplateToken[], fonts: string[]): CoverToken[] {
  const out: CoverToken[] = COVER_DIMENSION_NAMES.map((name) => {
    const d = COVER_DIMENSIONS[name];
    return { name, desc: d.desc, type: 'int', value: d.value, min: d.min, max: d.max };
  });
  const fontValue = fonts.includes(COVER_DEFAULT_FONT) ? COVER_DEFAULT_FONT : (fonts[0] ?? COVER_DEFAULT_FONT);
  out.push({ name: 'font_name', desc: 'Font', type: 'select', value: fontValue, options: fonts.map((f) => ({ value: f, label: f })) });
  out.push({ name: 'foldingmargin', desc: 'Folding margin (hard cover)', type: 'bool', value: false });
  out.push({ name: 'language_code', desc: 'Language', type: 'select', value: 'en', options: COVER_LANGUAGES });
  for (const t of template) {
    const token: CoverToken = { name: t.name, desc: tokenLabel(t), type: t.type, value: t.type === 'int' ? 0 : t.type === 'bool' ? false : '' };
    if (t.type === 'int') Object.assign(token, { min: 0, max: TEMPLATE_INT_MAX });
    out.push(token);
  }
  return out;
}

/** Checked values: the sheet, the font and language, and the template's tokens (null when empty). */
export interface CoverValues {
  geometry: CoverGeometry;
  font: string;
  lang: string;
  /** int → number, bool → boolean, muse_str/muse_body → Muse source, file → stored name, isbn → hyphenated ISBN-13. */
  tokens: Record<string, number | boolean | string | null>;
}

type Raw = string | number | boolean | null | undefined;
const fieldRefusal = (name: string, why: string, values?: MessageValues) => new HttpError(400, why, { field: name, values });

function readInt(name: string, raw: Raw, def: number, min: number, max: number): number {
  if (raw === undefined || raw === null || raw === '') return def;
  const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!/^(0|[1-9][0-9]*)$/.test(s)) throw fieldRefusal(name, 'a whole number of at least 0 is needed');
  const n = Number(s);
  if (n < min) throw fieldRefusal(name, 'at least {{min}}', { min });
  if (n > max) throw fieldRefusal(name, 'at most {{max}}', { max });
  return n;
}

function readBool(name: string, raw: Raw): boolean {
  if (raw === undefined || raw === null || raw === '' || raw === false || raw === 0 || raw === '0' || raw === 'false' || raw === 'off') return false;
  if (raw === true || raw === 1 || raw === '1' || raw === 'true' || raw === 'on') return true;
  throw fieldRefusal(name, 'yes or no is needed');
}

function readMuse(name: string, raw: Raw, max: number): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') throw fieldRefusal(name, 'text is needed');
  if (raw.length > max) throw fieldRefusal(name, 'at most {{max}} characters', { max });
  const text = raw.replace(/\r\n?/g, '\n');
  if (!text.trim()) return null;
  const unpaired = museFragmentProblems(text);
  if (unpaired.length) {
    const tag = unpaired[0];
    if (tag.startsWith('</')) throw fieldRefusal(name, '{{tag}} closes a tag that was never opened', { tag });
    throw fieldRefusal(name, '{{tag}} is never closed', { tag });
  }
  return text;
}

/** The 13 digits of a valid ISBN-10 or ISBN-13 (hyphens and spaces allowed), hyphenated; null when empty. */
export function readIsbn(name: string, raw: Raw): string | null {
  if (raw === undefined || raw === null || (typeof raw === 'string' && !raw.trim())) return null;
  const s = String(raw).replace(/\s+/g, '');
  if (!/^[0-9Xx-]{10,17}$/.test(s) || !/^(\d{9}[\dXx]|\d{13})$/.test(s.replace(/-/g, ''))) {
    throw fieldRefusal(name, 'an ISBN has 10 or 13 digits (hyphens allowed)');
  }
  const parsed = ISBN.parse(s.replace(/-/g, ''));
  if (!parsed?.isValid || !parsed.isbn13h) throw fieldRefusal(name, 'this is not a valid ISBN: check the digits, the check digit does not match');
  return parsed.isbn13h;
}

/**
 * Reads the submitted values against the token list. `hasFile(name)` tells whether a stored upload
 * exists in the session; `fonts` are the families the server can typeset with.
 */
export function readCoverValues(args: Record<string, Raw>, template: TemplateToken[], ctx: { fonts: string[]; hasFile: (name: string) => boolean }): CoverValues {
  const dims = Object.fromEntries(
    COVER_DIMENSION_NAMES.map((n) => [n, readInt(n, args[n], COVER_DIMENSIONS[n].value, COVER_DIMENSIONS[n].min, COVER_DIMENSIONS[n].max)]),
  ) as Record<(typeof COVER_DIMENSION_NAMES)[number], number>;
  const geometry: CoverGeometry = { ...dims, foldingmargin: readBool('foldingmargin', args.foldingmargin) };

  const fontRaw = args.font_name;
  const font = fontRaw === undefined || fontRaw === null || fontRaw === '' ? COVER_DEFAULT_FONT : String(fontRaw);
  if (!ctx.fonts.includes(font)) throw fieldRefusal('font_name', 'the font "{{font}}" is not available on this server', { font: font.slice(0, 64) });
  const langRaw = args.language_code;
  const lang = langRaw === undefined || langRaw === null || langRaw === '' ? 'en' : String(langRaw);
  if (!COVER_LANGUAGES.some((l) => l.value === lang)) throw fieldRefusal('language_code', 'please choose one of the listed languages');

  const tokens: CoverValues['tokens'] = {};
  for (const t of template) {
    const raw = args[t.name];
    switch (t.type) {
      case 'int':
        tokens[t.name] = readInt(t.name, raw, 0, 0, TEMPLATE_INT_MAX);
        break;
      case 'bool':
        tokens[t.name] = readBool(t.name, raw);
        break;
      case 'muse_str':
        tokens[t.name] = readMuse(t.name, raw, COVER_MUSE_STR_MAX);
        break;
      case 'muse_body':
        tokens[t.name] = readMuse(t.name, raw, COVER_MUSE_BODY_MAX);
        break;
      case 'isbn':
        tokens[t.name] = readIsbn(t.name, raw);
        break;
      case 'file': {
        if (raw === undefined || raw === null || raw === '') {
          tokens[t.name] = null;
          break;
        }
        const name = String(raw);
        if (!STORED_IMAGE_RE.test(name) || !ctx.hasFile(name)) throw fieldRefusal(t.name, 'this image is not in the session (it may have expired): upload it again');
        tokens[t.name] = name;
        break;
      }
    }
  }
  return { geometry, font, lang, tokens };
}
