// The normalisation every format mapper shares (spec §5.6): years from dates, the URI choice, ISBD
// punctuation trimmed, titles and names cleaned, values de-duplicated and joined. Pure functions over
// plain field values (never over markup).
import { normaliseAuthorName } from '../../ingest/grouping.ts';

/** Whether a value has control characters, whitespace other than single inner spaces, or edges to trim. */
function needsCleaning(v: string): boolean {
  const last = v.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x21 || (c >= 0x7f && c <= 0xa0) || c === 0x2028 || c === 0x2029 || c === 0x3000 || c === 0xfeff || (c >= 0x2000 && c <= 0x200a) || c === 0x1680 || c === 0x202f || c === 0x205f) {
      if (c !== 0x20 || i === 0 || i === last || v.charCodeAt(i + 1) === 0x20) return true;
    }
  }
  return false;
}

/** Whitespace collapsed and trimmed; control characters (MARC non-sorting marks among them) removed. */
export function clean(value: string | null | undefined): string {
  if (!value) return '';
  // Most values are already clean: one test instead of three replacements (harvests map thousands per second).
  if (!needsCleaning(value)) return value;
  // Non-sorting marks (NSB/NSE, as in "\u0088L'\u0089anarchie") go without a trace; other controls are spaces.
  return value.replace(/[\u0088\u0089\u0098\u009c]/g, '').replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Single-letter initials and common cataloguing abbreviations keep their final period. */
const ABBREVIATIONS = new Set([
  'ed', 'eds', 'edn', 'jr', 'sr', 'st', 'inc', 'co', 'ltd', 'corp', 'etc', 'cm', 'mm', 'p', 'pp', 'vol', 'vols', 'nos',
  'bd', 'hrsg', 'ca', 'ill', 'illus', 'dr', 'mr', 'mrs', 'prof', 'rev', 'cf', 'trad', 'transl', 'comp', 'ff', 'fig',
  'figs', 'approx', 'ser', 'éd', 'rééd', 'réimpr', 'impr', 'aufl', 'augm', 'corr', 'enl', 'fasc', 'suppl', 'nouv', 'rist',
  'tav', 'num', 'pag', 'col',
]);

/**
 * Removes the ISBD punctuation a cataloguer writes at the end of a subfield (" /", " :", " ;", " ,",
 * " =", a trailing comma) and a final period, unless the period closes an initial ("Peter A."), an
 * abbreviation ("ed.", "24 cm.") or a dotted form ("s.n.", "U.S.A.").
 */
export function trimIsbd(value: string | null | undefined): string {
  let v = clean(value);
  for (;;) {
    const before = v;
    v = v.replace(/\s+[/:;,=]$/, '').replace(/,$/, '').trim();
    if (v.endsWith('.') && !v.endsWith('...') && !keepsPeriod(v)) v = v.slice(0, -1).trim();
    if (v === before) return v;
  }
}

function keepsPeriod(v: string): boolean {
  const last = /(\S+)\.$/u.exec(v)?.[1] ?? '';
  const word = last.replace(/^[([{"'«“]+/u, '');
  if (/^\p{L}$/u.test(word)) return true;
  if (word.includes('.')) return true;
  return ABBREVIATIONS.has(word.toLowerCase());
}

/** Trimmed, non-empty, de-duplicated (ignoring case and spacing) values, in their first order. */
export function dedupe(values: Iterable<string | null | undefined>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of values) {
    const v = clean(raw);
    if (!v) continue;
    const key = v.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v);
  }
  return out;
}

/** De-duplicated values joined with newlines; null when there are none. */
export function joinLines(values: Iterable<string | null | undefined>): string | null {
  const v = dedupe(values);
  return v.length ? v.join('\n') : null;
}

/** "[s.n.]", "s.l.", "[sans nom]": a cataloguer saying the value is unknown, not a value. */
export function isPlaceholder(value: string | null | undefined): boolean {
  return /^\[?\s*(s\.\s?n\.?|s\.\s?l\.?|sans nom|sine nomine|n\.\s?d\.?|unknown|o\.\s?o\.?|o\.\s?v\.?)\s*\]?$/i.test(clean(value));
}

/** De-duplicated values joined with "; " (publishers, ISBNs); null when there are none. */
export function joinList(values: Iterable<string | null | undefined>): string | null {
  const v = dedupe(values);
  return v.length ? v.join('; ') : null;
}

/** Parts joined with a space, each part trimmed of ISBD punctuation first; '' when none. */
export function joinParts(parts: Iterable<string | null | undefined>, separator = ' '): string {
  return [...parts].map(trimIsbd).filter(Boolean).join(separator);
}

// ---------- years ----------

/** Every year from 1000 to 2999 written as four digits (not inside a longer number, e.g. an ISBN). */
export function yearsIn(value: string | null | undefined): number[] {
  if (!value) return [];
  return [...value.matchAll(/(?<!\d)([12]\d{3})(?!\d)/g)].map((m) => Number(m[1]));
}

/**
 * Years of a record from its date values: one distinct year is the edition's; several give the latest as
 * the edition and the earliest as the first edition.
 */
export function yearsOf(values: Iterable<string | null | undefined>): { year_edition: number | null; year_first_edition: number | null } {
  const years = new Set<number>();
  for (const v of values) for (const y of yearsIn(v)) years.add(y);
  if (years.size === 0) return { year_edition: null, year_first_edition: null };
  const sorted = [...years].sort((a, b) => a - b);
  if (sorted.length === 1) return { year_edition: sorted[0], year_first_edition: null };
  return { year_edition: sorted[sorted.length - 1], year_first_edition: sorted[0] };
}

// ---------- titles and names ----------

/** Cataloguers' brackets around a supplied title and non-sorting markers ("<<The>> title") go. */
export function cleanTitle(value: string | null | undefined): string {
  let v = clean(value).replace(/<<|>>/g, '');
  v = trimIsbd(v);
  if (/^\[[^\]]*\]$/.test(v)) v = v.slice(1, -1).trim();
  return trimIsbd(v);
}

/** Title parts that hold at least one letter or digit, joined: the main title with its part number/name. */
export function titleOf(parts: Iterable<string | null | undefined>, separator = '. '): string {
  return [...parts].map(cleanTitle).filter((p) => /[\p{L}\p{N}]/u.test(p)).join(separator);
}

/** An author name as stored: trimmed of ISBD punctuation, leading commas and extra spaces. */
export function authorName(value: string | null | undefined): string {
  return normaliseAuthorName(trimIsbd(value));
}

/** Author names, cleaned, de-duplicated, in order. */
export function authorList(values: Iterable<string | null | undefined>): string[] {
  return dedupe([...values].map(authorName));
}

/** A whole number written as "3", "3.0", "vol. 3", "no. 3", "#3"; null for "1.5", "3a", "2-3". */
export function wholeNumber(value: string | null | undefined): number | null {
  const v = trimIsbd(value);
  const m = /^(?:(?:v|vol|no|n|nr|num|t|tome|bd|band|part|pt)\.?\s*|#\s*)?(\d{1,9})(?:\.0+)?$/i.exec(v);
  return m ? Number(m[1]) : null;
}

// ---------- ISBN ----------

/** The ISBN-10 or ISBN-13 in a value ("978-88-1234-567-8 (pbk.)", "urn:isbn:0913167104"), compacted. */
export function isbnOf(value: string | null | undefined, opts: { checked?: boolean } = {}): string | null {
  if (!value) return null;
  const m = /(?<![\dX])((?:97[89][- ]?)?\d(?:[- ]?\d){8}[- ]?[\dX])(?![\dX])/i.exec(value);
  if (!m) return null;
  const isbn = m[1].replace(/[- ]/g, '').toUpperCase();
  if (isbn.length !== 10 && isbn.length !== 13) return null;
  if (opts.checked && !isbnChecksumOk(isbn)) return null;
  return isbn;
}

export function isbnChecksumOk(isbn: string): boolean {
  if (isbn.length === 10) {
    let sum = 0;
    for (let i = 0; i < 10; i++) sum += (isbn[i] === 'X' ? 10 : Number(isbn[i])) * (10 - i);
    return !isbn.slice(0, 9).includes('X') && sum % 11 === 0;
  }
  if (!/^\d{13}$/.test(isbn)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += Number(isbn[i]) * (i % 2 ? 3 : 1);
  return sum % 10 === 0;
}

// ---------- URIs ----------

export interface UriInfo {
  uri: string;
  label?: string | null;
  contentType?: string | null;
}

export interface ChosenUri {
  uri: string;
  uri_label: string | null;
  content_type: string | null;
}

/** The value as an http(s) URL, or null (mailto:, ftp:, relative and malformed values are not links). */
export function httpUrl(value: string | null | undefined): URL | null {
  const v = clean(value);
  if (!/^https?:\/\//i.test(v)) return null;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

const sameHost = (u: URL, host: string) => {
  const h = host.toLowerCase();
  return u.host.toLowerCase() === h || u.hostname.toLowerCase() === h;
};

/**
 * The URI choice: among http(s) candidates, the first on the record's own host when given, else the first.
 * The chosen one brings its label and content type; null when no candidate is http(s).
 */
export function chooseUri(candidates: UriInfo[], host?: string | null): { chosen: ChosenUri | null; others: ChosenUri[] } {
  const valid: ChosenUri[] = [];
  const hosts: URL[] = [];
  for (const c of candidates) {
    const u = httpUrl(c.uri);
    if (!u || valid.some((v) => v.uri === clean(c.uri))) continue;
    valid.push({ uri: clean(c.uri), uri_label: clean(c.label) || null, content_type: clean(c.contentType) || null });
    hosts.push(u);
  }
  if (!valid.length) return { chosen: null, others: [] };
  let index = host ? hosts.findIndex((u) => sameHost(u, host)) : 0;
  if (index < 0) index = 0;
  return { chosen: valid[index], others: valid.filter((_, i) => i !== index) };
}

/** A MIME type as a content type ("application/pdf"); null for anything else ("PDF", "300 p."). */
export function mimeType(value: string | null | undefined): string | null {
  const v = clean(value).toLowerCase();
  return /^[a-z]+\/[a-z0-9][a-z0-9.+-]*(?:\s*;.*)?$/.test(v) ? v : null;
}

// ---------- amusewiki texts ----------

/**
 * amusewiki links a text as its page `https://host/library/<slug>` and its formats `<page>.<ext>`
 * (".muse", ".zip", ".pdf", ".epub", ".a4.pdf"...). When the page is among the candidates, it is the
 * record's URI and the other links of the same text are its download formats.
 */
export function amusewikiText(candidates: UriInfo[], host?: string | null): { page: UriInfo; downloads: string[] } | null {
  const texts = new Map<string, { page?: UriInfo; exts: string[] }>();
  for (const c of candidates) {
    const link = amusewikiTextUrl(c.uri);
    if (!link) continue;
    const { base, ext } = link;
    const t = texts.get(base) ?? { exts: [] };
    if (ext) {
      if (ext.length <= 16 && !t.exts.includes(ext)) t.exts.push(ext);
    } else {
      t.page ??= { ...c, uri: base };
    }
    texts.set(base, t);
  }
  const pages = [...texts.values()].filter((t) => t.page);
  if (!pages.length) return null;
  const own = host ? pages.find((t) => sameHost(new URL(t.page!.uri), host)) : undefined;
  const t = own ?? pages[0];
  return { page: t.page!, downloads: t.exts };
}

/** An amusewiki text link: the text's page (`base`) and the format it names (`ext`, null for the page itself). Aggregation pages are not texts. */
export function amusewikiTextUrl(uri: string | null | undefined): { base: string; ext: string | null } | null {
  const u = httpUrl(uri);
  if (!u || u.search) return null;
  const m = /^\/library\/([^/.]+)(?:\.([a-z0-9][a-z0-9.]*))?\/?$/i.exec(u.pathname);
  return m ? { base: `${u.protocol}//${u.host}/library/${m[1]}`, ext: m[2]?.toLowerCase() ?? null } : null;
}

/** A relation that is a name (a series, a journal), not a link or a coded identifier. */
export function looksLikeName(value: string | null | undefined): boolean {
  const v = clean(value);
  if (!/\p{L}/u.test(v)) return false;
  return !/^[a-z][a-z0-9+.-]*:\S/i.test(v) && !/^(www\.|doi\b|issn\b|isbn\b)/i.test(v);
}

// ---------- publication statements ----------

/** One publication statement rebuilt in ISBD order: "Place ; Place : Publisher, Date". */
export function publicationLine(places: string[], publishers: string[], dates: string[]): string {
  const p = places.map(trimIsbd).filter(Boolean).join(' ; ');
  const b = publishers.map(trimIsbd).filter(Boolean).join(' : ');
  const d = dates.map(trimIsbd).filter(Boolean).join(', ');
  let line = p;
  if (b) line = line ? `${line} : ${b}` : b;
  if (d) line = line ? `${line}, ${d}` : d;
  return line;
}

/**
 * The statements joined with newlines; more than four (a serial's history) become the span of their
 * years ("1990-2004") when they have any.
 */
export function placeDateOfPublication(lines: Iterable<string | null | undefined>): string | null {
  const v = dedupe(lines);
  if (v.length > 4) {
    const years = v.flatMap((l) => yearsIn(l));
    if (years.length) {
      const min = Math.min(...years);
      const max = Math.max(...years);
      return min === max ? String(min) : `${min}-${max}`;
    }
  }
  return v.length ? v.join('\n') : null;
}

/** Key under which two spellings of a series or journal name are the same ("Series ;" = "series"). */
export const nameKey = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** Aggregations with a name, de-duplicated by name and issue; a later duplicate may fill a missing order. */
export function mergeAggregations<T extends { name: string; issue?: string | null; order?: number | null }>(list: T[]): T[] {
  const out: T[] = [];
  const byKey = new Map<string, T>();
  for (const a of list) {
    if (!a.name || !/[\p{L}\p{N}]/u.test(a.name)) continue;
    const key = `${nameKey(a.name)}\u0001${nameKey(a.issue ?? '')}`;
    const prev = byKey.get(key);
    if (prev) {
      if (prev.order == null && a.order != null) prev.order = a.order;
      continue;
    }
    byKey.set(key, a);
    out.push(a);
  }
  return out;
}
