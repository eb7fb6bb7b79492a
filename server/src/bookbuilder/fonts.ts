// The fonts offered by the Book Builder: every family the Typst compiler resolves (DejaVu from
// fonts-dejavu-core, whatever else is installed, the compiler's embedded fonts), with a PDF, an SVG
// and a PNG specimen (spec §3 Font: preview_pdf, preview_png; SVG is our extra) rendered by the server
// on first request and cached under DATA_DIR/cache/fonts/.
import fs from 'node:fs';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { availableFonts, fontSpecimenPdf, fontSpecimenTypst, typstToSvg, type FontFamily } from '@uc/muse';
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

  list(): BookFont[] {
    return this.all().map((f) => {
      const slug = encodeURIComponent(fontSlug(f.name));
      const styles = f.styles.length ? ` (${f.styles.slice(0, 6).join(', ')}${f.styles.length > 6 ? '…' : ''})` : '';
      return {
        name: f.name,
        desc: `${f.name}${styles}`,
        type: f.type,
        preview_pdf: `${API}/bookbuilder/fonts/${slug}.pdf`,
        preview_png: `${API}/bookbuilder/fonts/${slug}.png`,
        preview_svg: `${API}/bookbuilder/fonts/${slug}.svg`,
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
