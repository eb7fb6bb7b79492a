// The fonts offered by the Book Builder: every family the Typst compiler resolves (the bundled DejaVu,
// whatever else is installed, the compiler's embedded fonts), each marked with whether it has the
// letters of the session's texts, with a PDF, an SVG and a PNG specimen (spec §3 Font: preview_pdf,
// preview_png; SVG is our extra) rendered by the server on first request and cached under DATA_DIR/cache/fonts/.
import fs from 'node:fs';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { availableFonts, fontSpecimenPdf, fontSpecimenTypst, lettersMissing, typstToSvg, type FontFamily } from '@uc/muse';
import type { BookFont } from '@uc/shared';

const API = '/collector/api';

export const PREVIEW_KINDS = ['pdf', 'png', 'svg'] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];

/** Width of the PNG specimen in pixels (the 150 mm page at about 200 dpi). */
const PNG_WIDTH = 1200;

/** A PNG of Typst's SVG: its glyphs are outlines, so no font lookup happens here; white behind the page. */
export function svgToPng(svg: string, width = PNG_WIDTH): Buffer {
  return new Resvg(svg, { fitTo: { mode: 'width', value: width }, background: 'white', font: { loadSystemFonts: false } }).render().asPng();
}

/** The bundled families (the defaults), offered whatever the texts: the compiler falls back for letters they lack. */
export const isBundledFont = (name: string) => name.startsWith('DejaVu ');

/** How many of the letters a family lacks are named in the list. */
const MISSING_SHOWN = 12;

export function fontSlug(name: string): string {
  return name.replace(/ /g, '-');
}

export class FontCatalog {
  private families: FontFamily[] | null = null;

  constructor(private cacheDir: string) {}

  private all(): FontFamily[] {
    this.families ??= availableFonts();
    return this.families;
  }

  names(): string[] {
    return this.all().map((f) => f.name);
  }

  /**
   * Every family, marked against `letters` (those of the session's texts; none without a session):
   * `offered` when bundled or when it has every letter, `missing` naming the first letters it lacks.
   */
  list(letters: Set<string> = new Set()): BookFont[] {
    return this.all().map((f) => {
      const slug = encodeURIComponent(fontSlug(f.name));
      const styles = f.styles.length ? ` (${f.styles.slice(0, 6).join(', ')}${f.styles.length > 6 ? '…' : ''})` : '';
      const missing = lettersMissing(f.name, letters);
      return {
        name: f.name,
        desc: `${f.name}${styles}`,
        type: f.type,
        preview_pdf: `${API}/bookbuilder/fonts/${slug}.pdf`,
        preview_png: `${API}/bookbuilder/fonts/${slug}.png`,
        preview_svg: `${API}/bookbuilder/fonts/${slug}.svg`,
        bundled: isBundledFont(f.name),
        covers_texts: missing.length === 0,
        missing: missing.slice(0, MISSING_SHOWN).join(''),
        offered: missing.length === 0 || isBundledFont(f.name),
      };
    });
  }

  /** The cached specimen of a listed family, rendered on first use; null for unknown names. */
  preview(slug: string, ext: PreviewKind): string | null {
    const family = this.all().find((f) => fontSlug(f.name) === slug);
    if (!family) return null;
    const file = path.join(this.cacheDir, `${fontSlug(family.name)}.${ext}`);
    if (!fs.existsSync(file)) {
      const bytes = ext === 'pdf'
        ? fontSpecimenPdf(family.name)
        : ext === 'svg'
          ? typstToSvg(fontSpecimenTypst(family.name))
          : svgToPng(fs.readFileSync(this.preview(slug, 'svg')!, 'utf8'));
      fs.mkdirSync(this.cacheDir, { recursive: true });
      const tmp = `${file}.tmp-${process.pid}`;
      fs.writeFileSync(tmp, bytes);
      fs.renameSync(tmp, file);
    }
    return file;
  }
}
