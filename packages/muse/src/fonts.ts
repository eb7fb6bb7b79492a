// The font families the Typst compiler can use: the font files in its font directories (read from
// their `name`, `post` and `OS/2` tables) plus the fonts embedded in the compiler, each confirmed by
// asking the compiler itself, so a family offered to users always resolves.
import { closeSync, existsSync, openSync, readSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FONT_DIRS, compileTypst, typstToSvg, typstWarnings } from './pdf.ts';
import { typstString } from './typst.ts';

export type FontType = 'serif' | 'sans' | 'mono';

export interface FontFamily {
  name: string;
  type: FontType;
  /** Style names found (Regular, Bold, Italic…); empty for the compiler's embedded fonts. */
  styles: string[];
  embedded: boolean;
}

/** Fonts built into the Typst compiler (present whatever is installed). */
const EMBEDDED: { name: string; type: FontType }[] = [
  { name: 'Libertinus Serif', type: 'serif' },
  { name: 'New Computer Modern', type: 'serif' },
  { name: 'DejaVu Sans Mono', type: 'mono' },
];

const SKIP = /math|emoji|symbol|dingbat|icons?\b/i;

interface FaceInfo {
  family: string;
  style: string;
  mono: boolean;
  sans: boolean;
  /** The font's tables say neither sans nor serif: its outlines decide. */
  sansUnknown?: true;
  /** Dingbats, symbols, pictographs: never a family to set text in. */
  symbol?: true;
}

function u16(b: Buffer, o: number) {
  return b.readUInt16BE(o);
}

function readName(b: Buffer, base: number, tables: Map<string, number>, id: number): string | null {
  const off = tables.get('name');
  if (off === undefined) return null;
  const count = u16(b, off + 2);
  const strings = off + u16(b, off + 4);
  let mac: string | null = null;
  for (let i = 0; i < count; i++) {
    const r = off + 6 + i * 12;
    const [platform, encoding, language, nameId, length, offset] = [u16(b, r), u16(b, r + 2), u16(b, r + 4), u16(b, r + 6), u16(b, r + 8), u16(b, r + 10)];
    if (nameId !== id) continue;
    const start = strings + offset;
    if (platform === 3 && (encoding === 1 || encoding === 10) && (language & 0xff) === 0x09) {
      const chars: number[] = [];
      for (let k = 0; k + 1 < length; k += 2) chars.push(u16(b, start + k));
      return String.fromCharCode(...chars);
    }
    if (platform === 1 && encoding === 0 && mac === null) mac = b.toString('latin1', start, start + length);
  }
  void base;
  return mac;
}

/** Where a cmap format 4 subtable keeps its segments' arrays (end codes, start codes, deltas, range offsets). */
function format4Layout(b: Buffer, sub: number) {
  const segX2 = u16(b, sub + 6);
  const ends = sub + 14;
  const starts = ends + segX2 + 2;
  const deltas = starts + segX2;
  return { segments: segX2 / 2, ends, starts, deltas, offsets: deltas + segX2 };
}

/** The glyph a format 4 Unicode cmap subtable gives a BMP code point (0: none). */
function glyphOf(b: Buffer, cmap: number, cp: number): number {
  const n = u16(b, cmap + 2);
  for (let i = 0; i < n; i++) {
    const platform = u16(b, cmap + 4 + i * 8);
    const encoding = u16(b, cmap + 6 + i * 8);
    if (!(platform === 0 || (platform === 3 && encoding === 1))) continue;
    const sub = cmap + b.readUInt32BE(cmap + 8 + i * 8);
    if (u16(b, sub) !== 4) continue;
    const { segments, ends, starts, deltas, offsets } = format4Layout(b, sub);
    for (let s = 0; s < segments; s++) {
      if (u16(b, ends + s * 2) < cp) continue;
      const start = u16(b, starts + s * 2);
      if (start > cp) return 0;
      const ro = u16(b, offsets + s * 2);
      const delta = u16(b, deltas + s * 2);
      if (ro === 0) return (cp + delta) & 0xffff;
      const g = u16(b, offsets + s * 2 + ro + (cp - start) * 2);
      return g === 0 ? 0 : (g + delta) & 0xffff;
    }
  }
  return 0;
}

const LATIN = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'].map((c) => c.charCodeAt(0));

/**
 * The advance widths of the Latin letters, or null when the font lacks one of them or draws it with
 * an empty glyph (a symbol font's letters, or a font with no Latin). CFF outlines are not read: a
 * CFF font's letters count as drawn.
 */
function latinAdvances(b: Buffer, tables: Map<string, number>): number[] | null {
  const cmap = tables.get('cmap');
  const hhea = tables.get('hhea');
  const hmtx = tables.get('hmtx');
  if (cmap === undefined || hhea === undefined || hmtx === undefined) return null;
  const metrics = u16(b, hhea + 34);
  const head = tables.get('head');
  const loca = tables.get('loca');
  const longLoca = head !== undefined && b.readInt16BE(head + 50) === 1;
  const out: number[] = [];
  for (const cp of LATIN) {
    const g = glyphOf(b, cmap, cp);
    if (g === 0) return null;
    if (loca !== undefined && tables.has('glyf')) {
      const at = (k: number) => (longLoca ? b.readUInt32BE(loca + 4 * k) : 2 * u16(b, loca + 2 * k));
      if (at(g + 1) <= at(g)) return null;
    }
    out.push(u16(b, hmtx + 4 * Math.min(g, metrics - 1)));
  }
  return out;
}

/**
 * Sans or serif from OS/2 (sFamilyClass, then PANOSE for Latin text); null when the font says neither
 * (URW's fonts leave both empty): then the glyphs decide (see `sansByOutline`).
 */
function sansByTables(b: Buffer, os2: number | undefined): boolean | null {
  if (os2 === undefined) return null;
  const familyClass = b[os2 + 30];
  if (familyClass === 8) return true;
  if ((familyClass >= 1 && familyClass <= 5) || familyClass === 7) return false;
  // PANOSE: family kind 2 (Latin text) with serif style 11-13 (sans) or 14 (flared); 2-10 have serifs
  if (b[os2 + 32] === 2 && b[os2 + 33] >= 2) return b[os2 + 33] >= 11 && b[os2 + 33] <= 14;
  return null;
}

/**
 * A symbol or pictorial font (URW Dingbats, Standard Symbols): OS/2 family class 12 (symbolic), PANOSE
 * family kind 5 (pictorial), the symbol code page, or only a symbol cmap (3,0).
 */
function isSymbolFont(b: Buffer, tables: Map<string, number>): boolean {
  const os2 = tables.get('OS/2');
  if (os2 !== undefined) {
    if (b[os2 + 30] === 12 || b[os2 + 32] === 5) return true;
    if (u16(b, os2) >= 1 && os2 + 82 <= b.length && (b.readUInt32BE(os2 + 78) & 0x80000000) !== 0) return true;
  }
  const cmap = tables.get('cmap');
  if (cmap === undefined) return true;
  for (let i = 0; i < u16(b, cmap + 2); i++) {
    const platform = u16(b, cmap + 4 + i * 8);
    const encoding = u16(b, cmap + 6 + i * 8);
    if (platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10))) return false;
  }
  return true;
}

function readFace(b: Buffer, base: number): FaceInfo | null {
  const numTables = u16(b, base + 4);
  const tables = new Map<string, number>();
  for (let i = 0; i < numTables; i++) {
    const r = base + 12 + i * 16;
    tables.set(b.toString('latin1', r, r + 4), b.readUInt32BE(r + 8));
  }
  const family = readName(b, base, tables, 16) ?? readName(b, base, tables, 1);
  if (!family) return null;
  const style = readName(b, base, tables, 17) ?? readName(b, base, tables, 2) ?? 'Regular';
  const post = tables.get('post');
  const symbol = isSymbolFont(b, tables);
  const advances = symbol ? null : latinAdvances(b, tables);
  // post.isFixedPitch, or (fonts that leave it unset, such as Linux Libertine Mono) one advance width
  // for every Latin letter; a CJK font's ideographs sharing one width do not make it mono
  const mono = !symbol && ((post !== undefined && b.readUInt32BE(post + 12) !== 0) || (advances !== null && advances.every((w) => w === advances[0])));
  const sans = sansByTables(b, tables.get('OS/2'));
  return { family: family.trim(), style: style.trim(), mono, sans: sans ?? false, ...(sans === null ? { sansUnknown: true } : {}), ...(symbol ? { symbol: true } : {}) };
}

/** The faces of one font file (several for a .ttc collection); unreadable files give none. */
export function readFontFile(file: string): FaceInfo[] {
  try {
    return fileFaces(readFileSync(file));
  } catch {
    return [];
  }
}

function fileFaces(b: Buffer): FaceInfo[] {
  if (b.toString('latin1', 0, 4) === 'ttcf') {
    const n = b.readUInt32BE(8);
    const faces: FaceInfo[] = [];
    for (let i = 0; i < n && i < 64; i++) {
      const f = readFace(b, b.readUInt32BE(12 + i * 4));
      if (f) faces.push(f);
    }
    return faces;
  }
  const f = readFace(b, 0);
  return f ? [f] : [];
}

function fontFiles(dir: string, out: string[] = [], depth = 0): string[] {
  if (depth > 4 || !existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) fontFiles(p, out, depth + 1);
    else if (/\.(ttf|otf|ttc|otc)$/i.test(name)) out.push(p);
  }
  return out;
}

/** Does the compiler know this family (no "unknown font family" warning)? */
export function typstHasFont(family: string): boolean {
  const warnings = typstWarnings(`#set text(font: ${typstString(family)}, fallback: false)\nAa`);
  return !warnings.some((w) => /unknown font family/i.test(w));
}

/**
 * For a font whose tables say neither sans nor serif: the compiler draws its capital I, a plain bar
 * (four sides: at most 9 path commands) in a sans, a bar with serifs (14 or more) in a serif.
 */
export function sansByOutline(family: string): boolean {
  const svg = typstToSvg(`#set page(width: auto, height: auto)\n#set text(font: ${typstString(family)}, fallback: false)\nI`);
  const paths = [...svg.matchAll(/<path[^>]* d="([^"]+)"/g)].map((m) => (m[1].match(/[a-z]/gi) ?? []).length);
  // the first path is the page's background, the last the glyph
  return paths.length >= 2 && paths[paths.length - 1] <= 9;
}

let cache: FontFamily[] | null = null;

/** Every family the compiler can set text in, sorted by name (computed once per process). */
export function availableFonts(options: { refresh?: boolean } = {}): FontFamily[] {
  if (cache && !options.refresh) return cache;
  const byName = new Map<string, FontFamily>();
  const undecided = new Set<string>();
  const seen = new Set<string>();
  for (const dir of FONT_DIRS) {
    for (const file of fontFiles(dir)) {
      if (seen.has(file)) continue;
      seen.add(file);
      for (const face of readFontFile(file)) {
        if (face.symbol || SKIP.test(face.family)) continue;
        const type = face.mono ? 'mono' : face.sansUnknown ? (undecided.add(face.family), 'serif') : face.sans ? 'sans' : 'serif';
        const cur = byName.get(face.family) ?? { name: face.family, type, styles: [], embedded: false };
        if (!cur.styles.includes(face.style)) cur.styles.push(face.style);
        byName.set(face.family, cur);
      }
    }
  }
  for (const e of EMBEDDED) if (!byName.has(e.name)) byName.set(e.name, { ...e, styles: [], embedded: true });
  cache = [...byName.values()].filter((f) => /^[A-Za-z0-9 ]{1,64}$/.test(f.name) && typstHasFont(f.name)).sort((a, b) => a.name.localeCompare(b.name));
  for (const f of cache) if (f.type !== 'mono' && undecided.has(f.name) && sansByOutline(f.name)) f.type = 'sans';
  return cache;
}

/**
 * The specimen's sentences per interface language: a pangram of that language (every letter of its
 * alphabet), a second one set in italics, and the words "Italic" and "Bold". Others get English.
 */
export const SPECIMEN_TEXTS: Record<string, { pangram: string; italic: string; italicLabel: string; boldLabel: string }> = {
  en: { pangram: 'The quick brown fox jumps over the lazy dog.', italic: 'Sphinx of black quartz, judge my vow.', italicLabel: 'Italic', boldLabel: 'Bold' },
  de: { pangram: 'Victor jagt zwölf Boxkämpfer quer über den großen Sylter Deich.', italic: 'Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich.', italicLabel: 'Kursiv', boldLabel: 'Fett' },
  el: { pangram: 'Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.', italic: 'Γαζέες καὶ μυρτιὲς δὲν θὰ βρῶ πιὰ στὸ χρυσαφὶ ξέφωτο.', italicLabel: 'Πλάγια', boldLabel: 'Έντονα' },
  fr: { pangram: 'Portez ce vieux whisky au juge blond qui fume.', italic: 'Voix ambiguë d’un cœur qui au zéphyr préfère les jattes de kiwis.', italicLabel: 'Italique', boldLabel: 'Gras' },
  hr: { pangram: 'Gojazni đačić s biciklom drži hmelj i finu vatu u džepu nošnje.', italic: 'Gojazni đačić s biciklom drži hmelj i finu vatu u džepu nošnje.', italicLabel: 'Kurziv', boldLabel: 'Podebljano' },
  it: { pangram: 'Quel vituperabile xenofobo zelante assaggia il whisky ed esclama: alleluja!', italic: 'Pranzo d’acqua fa volti sghembi.', italicLabel: 'Corsivo', boldLabel: 'Grassetto' },
};

/** Text for Typst markup: its markup characters escaped. */
const typstText = (s: string) => s.replace(/[\\#*_`$<>@\[\]]/g, (c) => `\\${c}`);

/** A one-page specimen of a family in Typst (name, a pangram of the interface language `lang`, styles). */
export function fontSpecimenTypst(family: string, lang = 'en'): string {
  const f = typstString(family);
  const text = SPECIMEN_TEXTS[lang] ?? SPECIMEN_TEXTS.en;
  return [
    `#set page(width: 150mm, height: auto, margin: 6mm)`,
    `#set text(font: (${f}, "DejaVu Serif"), size: 12pt, lang: ${typstString(SPECIMEN_TEXTS[lang] ? lang : 'en')})`,
    `#text(size: 20pt)[${family.replace(/[^A-Za-z0-9 ]/g, '')}]`,
    '',
    `${typstText(text.pangram)} 0123456789`,
    '',
    `#emph[${typstText(text.italicLabel)}: ${typstText(text.italic)}] #strong[${typstText(text.boldLabel)}: àéîõü ßçñ ΑΒΓ Жж]`,
  ].join('\n');
}

/** PDF bytes of the specimen. */
export function fontSpecimenPdf(family: string, lang = 'en'): Uint8Array {
  return compileTypst(fontSpecimenTypst(family, lang));
}

// ---- Which characters no font covers (Typst would print empty boxes and say nothing) ----

type Ranges = [number, number][];

/** The code points a cmap table maps to a glyph, from its Unicode subtables (formats 4 and 12). */
function cmapRanges(b: Buffer): Ranges {
  const cmap = 0;
  const out: Ranges = [];
  const n = u16(b, cmap + 2);
  const subs: number[] = [];
  for (let i = 0; i < n; i++) {
    const platform = u16(b, cmap + 4 + i * 8);
    const encoding = u16(b, cmap + 6 + i * 8);
    if (platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10))) subs.push(cmap + b.readUInt32BE(cmap + 8 + i * 8));
  }
  // a full (format 12) table makes the BMP one redundant
  const full = subs.filter((o) => u16(b, o) === 12);
  for (const sub of new Set(full.length ? full : subs)) {
    const format = u16(b, sub);
    if (format === 12) {
      const groups = b.readUInt32BE(sub + 12);
      for (let g = 0; g < groups; g++) {
        const o = sub + 16 + g * 12;
        const start = b.readUInt32BE(o);
        const end = b.readUInt32BE(o + 4);
        const glyph = b.readUInt32BE(o + 8);
        out.push([glyph === 0 ? start + 1 : start, end]);
      }
    } else if (format === 4) {
      const { segments, ends, starts, deltas, offsets } = format4Layout(b, sub);
      for (let s = 0; s < segments; s++) {
        const end = u16(b, ends + s * 2);
        const start = u16(b, starts + s * 2);
        const ro = u16(b, offsets + s * 2);
        if (start === 0xffff) continue;
        if (ro === 0) {
          out.push([start, end]);
          continue;
        }
        for (let c = start; c <= end; c++) {
          const at = offsets + s * 2 + ro + (c - start) * 2;
          if (at + 2 <= b.length && u16(b, at) !== 0) out.push([c, c]);
        }
      }
    }
  }
  return out;
}

/** Each face's family (null when unnamed) and cmap table, read without loading the whole file; a cmap shared by faces is one Buffer. */
function fileFaceCmaps(file: string): { family: string | null; cmap: Buffer }[] {
  const fd = openSync(file, 'r');
  try {
    const read = (offset: number, length: number) => {
      const buf = Buffer.alloc(length);
      readSync(fd, buf, 0, length, offset);
      return buf;
    };
    const head = read(0, 12);
    const bases = head.toString('latin1', 0, 4) === 'ttcf' ? (() => {
      const n = Math.min(64, head.readUInt32BE(8));
      const dir = read(12, n * 4);
      return Array.from({ length: n }, (_, i) => dir.readUInt32BE(i * 4));
    })() : [0];
    const cmaps = new Map<number, Buffer>();
    const out: { family: string | null; cmap: Buffer }[] = [];
    for (const base of bases) {
      const numTables = read(base + 4, 2).readUInt16BE(0);
      const dir = read(base + 12, numTables * 16);
      let cmap: Buffer | undefined;
      let family: string | null = null;
      for (let i = 0; i < numTables; i++) {
        const tag = dir.toString('latin1', i * 16, i * 16 + 4);
        const offset = dir.readUInt32BE(i * 16 + 8);
        const length = dir.readUInt32BE(i * 16 + 12);
        if (tag === 'cmap') {
          cmap = cmaps.get(offset) ?? read(offset, length);
          cmaps.set(offset, cmap);
        } else if (tag === 'name') {
          const name = read(offset, length);
          const tables = new Map([['name', 0]]);
          family = (readName(name, 0, tables, 16) ?? readName(name, 0, tables, 1))?.trim() ?? null;
        }
      }
      if (cmap) out.push({ family, cmap });
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

function mergeRanges(rs: Ranges): Ranges {
  rs.sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const r of rs) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

let coverage: Ranges | null = null;
let bundledCoverage: Ranges | null = null;

/** Every code point some font in the compiler's font directories covers (computed once per process). */
function fontCoverage(): Ranges {
  return (coverage ??= dirsCoverage(FONT_DIRS));
}

/**
 * What the bundled DejaVu fonts cover (FONT_DIRS[0], a part of fontCoverage): asked first, since it
 * takes milliseconds where reading every installed font takes a build thread about a second.
 */
function bundledFontCoverage(): Ranges {
  return (bundledCoverage ??= dirsCoverage(FONT_DIRS.slice(0, 1)));
}

function dirsCoverage(dirs: string[]): Ranges {
  const all: Ranges = [];
  for (const dir of dirs) {
    for (const file of fontFiles(dir)) {
      try {
        for (const cmap of new Set(fileFaceCmaps(file).map((f) => f.cmap))) for (const r of cmapRanges(cmap)) all.push(r);
      } catch {
        // an unreadable font covers nothing
      }
    }
  }
  return mergeRanges(all);
}

function covered(cp: number, rs: Ranges): boolean {
  let lo = 0;
  let hi = rs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < rs[mid][0]) hi = mid - 1;
    else if (cp > rs[mid][1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Characters that print nothing by design: spaces, joiners, marks of direction, variation selectors. */
const INVISIBLE = /[\p{White_Space}\p{Cc}\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u;

const SCRIPT_FONTS: [RegExp, string][] = [
  [/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\u3000-\u303f\uff00-\uffef]/u, 'Noto Sans CJK (Debian package fonts-noto-cjk)'],
  [/\p{Extended_Pictographic}/u, 'Noto Color Emoji (Debian package fonts-noto-color-emoji)'],
];
const NOTO_SCRIPTS = ['Devanagari', 'Bengali', 'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan', 'Myanmar', 'Khmer', 'Ethiopic', 'Cherokee', 'Mongolian', 'Syriac', 'Thaana', 'Tifinagh', 'Javanese', 'Balinese'];

/** A font family (and where to get it) that covers the character. */
export function fontFor(ch: string): string {
  for (const [re, font] of SCRIPT_FONTS) if (re.test(ch)) return font;
  for (const s of NOTO_SCRIPTS) if (new RegExp(`\\p{Script=${s}}`, 'u').test(ch)) return `Noto Sans ${s} (Debian package fonts-noto-core)`;
  return 'a Noto font covering it (Debian packages fonts-noto-core, fonts-noto-extra)';
}

export interface MissingGlyphs {
  /** The characters no installed font covers, once each, in order of appearance. */
  chars: string;
  /** The first place one appears, a few characters either side. */
  sample: string;
  /** A family that covers them. */
  font: string;
}

/**
 * The characters of `text` no font available to the compiler covers, grouped by the font that
 * would cover them (at most a few groups): Typst prints these as empty boxes without a warning.
 */
export function missingGlyphs(text: string): MissingGlyphs[] {
  if (!/[^\x00-\x7f]/.test(text)) return [];
  const bundled = bundledFontCoverage();
  const seen = new Set<number>();
  const groups = new Map<string, MissingGlyphs>();
  for (const m of text.matchAll(/[^\x00-\x7f]/gu)) {
    const ch = m[0];
    const cp = ch.codePointAt(0)!;
    if (seen.has(cp)) continue;
    seen.add(cp);
    if (INVISIBLE.test(ch) || covered(cp, bundled) || covered(cp, fontCoverage())) continue;
    const font = fontFor(ch);
    const g = groups.get(font);
    if (g) {
      if ([...g.chars].length < 12) g.chars += ch;
    } else {
      const at = m.index;
      // a few characters either side, on the same line
      const lineStart = text.lastIndexOf('\n', at) + 1;
      const lineEnd = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at);
      const sample = text
        .slice(Math.max(lineStart, at - 12), Math.min(lineEnd, at + 14))
        .replace(/^[\udc00-\udfff]|[\ud800-\udbff]$/g, '')
        .replace(/\s+/g, ' ')
        .trim();
      groups.set(font, { chars: ch, sample, font });
    }
  }
  return [...groups.values()];
}

/** One sentence for a build's answer, or null when every character has a font. */
export function missingGlyphsMessage(text: string): string | null {
  const groups = missingGlyphs(text);
  if (!groups.length) return null;
  return (
    'No installed font has some characters of this text, which would print as empty boxes: ' +
    groups.map((g) => `"${g.chars}" (as in "${g.sample}"): install ${g.font}`).join('; ')
  );
}


// ---- Which families have the letters of a text (the Book Builder offers those) ----

/** Letters of a script (not the punctuation, digits and symbols scripts share, nor combining marks). */
const SCRIPT_LETTER = /(?![\p{Script=Common}\p{Script=Inherited}])\p{L}/u;

/** The distinct letters of a text (added to `into`): what a family must have to set it in one font. */
export function textLetters(text: string, into = new Set<string>()): Set<string> {
  for (const ch of new Set(text)) if (!into.has(ch) && (ch > '\x7f' ? SCRIPT_LETTER.test(ch) : /[A-Za-z]/.test(ch))) into.add(ch);
  return into;
}

let families: Map<string, Ranges> | null = null;

/**
 * What `availableFonts()` and `lettersMissing()` read from the font files (a few seconds with many
 * fonts installed), as plain data: a server computes it in another thread and hands it over.
 */
export interface FontIndex {
  families: FontFamily[];
  coverage: [string, [number, number][]][];
}

export function fontIndex(): FontIndex {
  return { families: availableFonts(), coverage: [...familyCoverage()] };
}

/** Takes a FontIndex made by `fontIndex()` (in another thread) instead of reading the files here. */
export function useFontIndex(index: FontIndex): void {
  cache = index.families;
  families = new Map(index.coverage);
}

/** The code points each family's font files cover (all its faces together), read once per process. */
function familyCoverage(): Map<string, Ranges> {
  if (families) return families;
  const byFamily = new Map<string, Ranges>();
  const seen = new Set<string>();
  for (const dir of FONT_DIRS) {
    for (const file of fontFiles(dir)) {
      if (seen.has(file)) continue;
      seen.add(file);
      try {
        // faces of a collection often share one cmap: its ranges are read once
        const ranges = new Map<Buffer, Ranges>();
        for (const face of fileFaceCmaps(file)) {
          if (!face.family) continue;
          if (!ranges.has(face.cmap)) ranges.set(face.cmap, cmapRanges(face.cmap));
          const rs = byFamily.get(face.family) ?? [];
          for (const r of ranges.get(face.cmap)!) rs.push([r[0], r[1]]);
          byFamily.set(face.family, rs);
        }
      } catch {
        // an unreadable file covers nothing
      }
    }
  }
  families = new Map([...byFamily].map(([name, rs]) => [name, mergeRanges(rs)]));
  return families;
}

/** A code point no font has (the last private-use one of plane 16): it shows which glyph is .notdef. */
const NO_GLYPH = '\u{10fffd}';

/**
 * The letters a family built into the compiler (no font file to read) lacks, asked of the compiler: set
 * without fallback, one letter per line, a letter it lacks is drawn with the same glyph as NO_GLYPH.
 */
function compilerMissing(family: string, letters: string[]): string[] {
  const src = `#set page(width: auto, height: auto)\n#set text(font: ${typstString(family)}, fallback: false)\n${[NO_GLYPH, ...letters].join(' \\\n')}`;
  const glyphs = [...typstToSvg(src).matchAll(/<use[^>]*href="#([^"]+)"/g)].map((m) => m[1]);
  // a letter drawn with several glyphs would shift the order: then nothing can be told
  if (glyphs.length !== letters.length + 1) return [];
  return letters.filter((_, i) => glyphs[i + 1] === glyphs[0]);
}

/** Answers of the compiler for its built-in families, by family and letters (a CJK text's 2,500 letters take it 0.1-2 s). */
const compilerAnswers = new Map<string, string[]>();

/** The letters (of `textLetters`) the family has no glyph for, in the given order; [] for an unknown family. */
export function lettersMissing(family: string, letters: Iterable<string>): string[] {
  const list = [...letters];
  if (!list.length) return [];
  const rs = familyCoverage().get(family);
  if (rs) return list.filter((ch) => !covered(ch.codePointAt(0)!, rs));
  const f = availableFonts().find((x) => x.name === family);
  if (!f?.embedded) return [];
  const key = `${family}\0${list.join('')}`;
  let missing = compilerAnswers.get(key);
  if (!missing) {
    missing = compilerMissing(family, list);
    // the last few sessions' answers only
    if (compilerAnswers.size >= 64) compilerAnswers.delete(compilerAnswers.keys().next().value!);
    compilerAnswers.set(key, missing);
  }
  return missing;
}
