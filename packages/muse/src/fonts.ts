// The font families the Typst compiler can use: the font files in its font directories (read from
// their `name`, `post` and `OS/2` tables) plus the fonts embedded in the compiler, each confirmed by
// asking the compiler itself, so a family offered to users always resolves.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FONT_DIRS, compileTypst, typstWarnings } from './pdf.ts';
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

interface FaceInfo { family: string; style: string; mono: boolean; sans: boolean }

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
  const mono = post !== undefined && b.readUInt32BE(post + 12) !== 0;
  const os2 = tables.get('OS/2');
  // PANOSE: family kind 2 (Latin text) with serif style 11-13 (sans) or 14 (flared).
  const panoseSans = os2 !== undefined && b[os2 + 32] === 2 && b[os2 + 33] >= 11 && b[os2 + 33] <= 14;
  return { family: family.trim(), style: style.trim(), mono, sans: panoseSans || /\bsans\b/i.test(family) };
}

/** The faces of one font file (several for a .ttc collection); unreadable files give none. */
export function readFontFile(file: string): FaceInfo[] {
  try {
    const b = readFileSync(file);
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
  } catch {
    return [];
  }
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

let cache: FontFamily[] | null = null;

/** Every family the compiler can set text in, sorted by name (computed once per process). */
export function availableFonts(options: { refresh?: boolean } = {}): FontFamily[] {
  if (cache && !options.refresh) return cache;
  const byName = new Map<string, FontFamily>();
  const seen = new Set<string>();
  for (const dir of FONT_DIRS) {
    for (const file of fontFiles(dir)) {
      if (seen.has(file)) continue;
      seen.add(file);
      for (const face of readFontFile(file)) {
        if (SKIP.test(face.family)) continue;
        const cur = byName.get(face.family) ?? { name: face.family, type: face.mono ? 'mono' : face.sans ? 'sans' : 'serif', styles: [], embedded: false };
        if (!cur.styles.includes(face.style)) cur.styles.push(face.style);
        byName.set(face.family, cur);
      }
    }
  }
  for (const e of EMBEDDED) if (!byName.has(e.name)) byName.set(e.name, { ...e, styles: [], embedded: true });
  cache = [...byName.values()].filter((f) => /^[A-Za-z0-9 ]{1,64}$/.test(f.name) && typstHasFont(f.name)).sort((a, b) => a.name.localeCompare(b.name));
  return cache;
}

/** A one-page specimen of a family in Typst (name, alphabet, styles, a sample paragraph). */
export function fontSpecimenTypst(family: string): string {
  const f = typstString(family);
  return [
    `#set page(width: 150mm, height: auto, margin: 6mm)`,
    `#set text(font: (${f}, "DejaVu Serif"), size: 12pt)`,
    `#text(size: 20pt)[${family.replace(/[^A-Za-z0-9 ]/g, '')}]`,
    '',
    'The quick brown fox jumps over the lazy dog. 0123456789',
    '',
    '#emph[Italic: Sphinx of black quartz, judge my vow.] #strong[Bold: àéîõü ßçñ ΑΒΓ Жж]',
  ].join('\n');
}

/** PDF bytes of the specimen. */
export function fontSpecimenPdf(family: string): Uint8Array {
  return compileTypst(fontSpecimenTypst(family));
}
