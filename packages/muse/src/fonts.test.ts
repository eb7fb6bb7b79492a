// The font list is what the compiler can really use; DejaVu (fonts-dejavu-core) is always there.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { availableFonts, fontFor, fontSpecimenPdf, lettersMissing, missingGlyphs, readFontFile, textLetters, typstHasFont, typstToSvg, fontSpecimenTypst } from './index.ts';
import { SPECIMEN_TEXTS } from './fonts.ts';

const dejavu = '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf';

describe('fonts', () => {
  it.skipIf(!existsSync(dejavu))('reads family, style and kind from font files', () => {
    expect(readFontFile(dejavu)).toEqual([{ family: 'DejaVu Serif', style: 'Book', mono: false, sans: false }]);
    expect(readFontFile('/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf')[0]).toMatchObject({ family: 'DejaVu Sans Mono', mono: true });
    expect(readFontFile('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf')[0]).toMatchObject({ family: 'DejaVu Sans', sans: true, mono: false });
    expect(readFontFile('/nonexistent.ttf')).toEqual([]);
  });

  const libertineMono = '/usr/share/fonts/opentype/linux-libertine/LinLibertine_M.otf';
  it.skipIf(!existsSync(libertineMono))('knows a monospaced font that does not say so in its post table (Linux Libertine Mono)', () => {
    expect(readFontFile(libertineMono)[0]).toMatchObject({ family: 'Linux Libertine Mono O', mono: true });
    expect(readFontFile(libertineMono.replace('_M', '_R'))[0]).toMatchObject({ family: 'Linux Libertine O', mono: false });
    expect(availableFonts().filter((f) => f.type === 'mono').map((f) => f.name)).toEqual(expect.arrayContaining(['DejaVu Sans Mono', 'Linux Libertine Mono O']));
  });

  // fonts-urw-base35 and fonts-droid-fallback (ImageMagick and Ghostscript bring them) have a dingbat font
  // whose cmap maps Latin letters to pictures, fonts whose tables leave sans/serif unsaid, and a CJK font
  // whose ideographs share one width
  const urw = '/usr/share/fonts/opentype/urw-base35';
  const droid = '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf';
  if (!existsSync(`${urw}/D050000L.otf`)) console.warn('fonts.test.ts: fonts-urw-base35 is not installed: the symbol and sans-by-outline checks are skipped');
  if (!existsSync(droid)) console.warn('fonts.test.ts: fonts-droid-fallback is not installed: the CJK-font-is-not-mono check is skipped');
  it.skipIf(!existsSync(`${urw}/D050000L.otf`))('never offers a symbol font, and tells sans from serif by the letters when the tables are silent', () => {
    expect(readFontFile(`${urw}/D050000L.otf`)[0]).toMatchObject({ symbol: true, mono: false });
    expect(readFontFile(`${urw}/StandardSymbolsPS.otf`)[0]).toMatchObject({ symbol: true });
    expect(readFontFile(`${urw}/C059-Roman.otf`)[0].symbol).toBeUndefined();
    const fonts = availableFonts();
    const type = (n: string) => fonts.find((f) => f.name === n)?.type;
    expect(type('D050000L')).toBeUndefined();
    expect(type('Standard Symbols PS')).toBeUndefined();
    expect(type('URW Gothic')).toBe('sans');
    expect(type('Nimbus Sans')).toBe('sans');
    expect(type('C059')).toBe('serif');
    expect(type('URW Bookman')).toBe('serif');
    expect(type('Nimbus Mono PS')).toBe('mono');
  });
  it.skipIf(!existsSync(droid))('does not call a CJK font mono because its ideographs share one width (Droid Sans Fallback)', () => {
    expect(readFontFile(droid)[0]).toMatchObject({ family: 'Droid Sans Fallback', mono: false, sans: true });
  });

  it('lists only families the compiler resolves, with the defaults and the embedded fonts', () => {
    const fonts = availableFonts();
    const names = fonts.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['DejaVu Sans Mono', 'Libertinus Serif']));
    if (existsSync(dejavu)) expect(names).toEqual(expect.arrayContaining(['DejaVu Serif', 'DejaVu Sans']));
    expect(fonts.find((f) => f.name === 'DejaVu Sans Mono')?.type).toBe('mono');
    expect(names.some((n) => /math/i.test(n))).toBe(false);
    for (const n of names) expect(typstHasFont(n)).toBe(true);
    expect(typstHasFont('No Such Family')).toBe(false);
  });

  it('renders specimens as PDF and SVG', () => {
    const pdf = fontSpecimenPdf('DejaVu Sans Mono');
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');
    expect(typstToSvg(fontSpecimenTypst('DejaVu Sans Mono'))).toMatch(/^<svg[^>]+viewBox/);
  });

  it('writes the specimen in the interface language: a pangram of its alphabet, in roman and italics', () => {
    const alphabets: Record<string, string> = {
      en: 'abcdefghijklmnopqrstuvwxyz',
      de: 'abcdefghijklmnopqrstuvwxyzäöüß',
      el: 'αβγδεζηθικλμνξοπρστυφχψω',
      fr: 'abcdefghijklmnopqrstuvwxyz',
      hr: 'abcčćdđefghijklmnoprsštuvzž',
      it: 'abcdefghilmnopqrstuvz',
    };
    // Accents folded (Greek tonos, French é…), except the letters the alphabet itself counts.
    const letters = (s: string, alphabet: string) =>
      new Set([...s.toLowerCase()].map((c) => (alphabet.includes(c) ? c : c.normalize('NFD')[0])).map((c) => (c === 'ς' ? 'σ' : c)));
    for (const [lang, alphabet] of Object.entries(alphabets)) {
      const text = SPECIMEN_TEXTS[lang];
      const missing = [...alphabet].filter((c) => !letters(text.pangram, alphabet).has(c));
      expect(missing, `letters of ${lang} absent from its pangram "${text.pangram}"`).toEqual([]);
      const src = fontSpecimenTypst('DejaVu Serif', lang);
      expect(src).toContain(text.pangram);
      expect(src).toContain(`#emph[${text.italicLabel}: ${text.italic}]`);
    }
    expect(fontSpecimenTypst('DejaVu Serif', 'el')).not.toContain('quick brown fox');
    expect(fontSpecimenTypst('DejaVu Serif', 'xx')).toContain('quick brown fox');
    expect(typstToSvg(fontSpecimenTypst('DejaVu Serif', 'el'))).toMatch(/^<svg[^>]+viewBox/);
  });

  it('finds no missing glyph in text the bundled DejaVu covers, nor in invisible characters', () => {
    expect(missingGlyphs('Zoë, Ελλάδα, Жизнь, naïve — “quoted” …\u00ad\u200b\u200d\ufe0f\u00a0')).toEqual([]);
  });

  it('names a family for the scripts a book may lack', () => {
    expect(fontFor('漢')).toMatch(/^Noto Sans CJK .*fonts-noto-cjk/);
    expect(fontFor('😀')).toMatch(/^Noto Color Emoji/);
    expect(fontFor('क')).toMatch(/^Noto Sans Devanagari/);
  });

  it('tells the letters of a text a family lacks, from its files or (built-in families) from the compiler', () => {
    // letters of scripts only: punctuation, digits and symbols are any font's fallback business
    expect([...textLetters('Zoë — «1, 2» ж 日本。→ ß')].sort()).toEqual(['Z', 'o', 'ß', 'ë', 'ж', '日', '本'].sort());
    const letters = textLetters('Łódź, Ἀθῆναι, Москва, 東京');
    expect(lettersMissing('DejaVu Serif', letters)).toEqual(['東', '京']);
    // Libertinus is built into the compiler: no file to read, the compiler draws its .notdef for what it lacks
    expect(lettersMissing('Libertinus Serif', letters)).toEqual(['東', '京']);
    expect(lettersMissing('Libertinus Serif', textLetters('abc'))).toEqual([]);
    expect(lettersMissing('No Such Family', letters)).toEqual([]);
  });
});
