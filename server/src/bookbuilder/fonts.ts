// The fonts offered by the Book Builder: every family the Typst compiler resolves (DejaVu from
// fonts-dejavu-core, whatever else is installed, the compiler's embedded fonts), with a PDF and an SVG
// specimen rendered by the server on first request and cached under DATA_DIR/cache/fonts/.
import fs from 'node:fs';
import path from 'node:path';
import { availableFonts, fontSpecimenPdf, fontSpecimenTypst, typstToSvg, type FontFamily } from '@uc/muse';
import type { BookFont } from '@uc/shared';

const API = '/collector/api';

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
        preview_svg: `${API}/bookbuilder/fonts/${slug}.svg`,
      };
    });
  }

  /** The cached specimen of a listed family ('pdf' or 'svg'), rendered on first use; null for unknown names. */
  preview(slug: string, ext: 'pdf' | 'svg'): string | null {
    const family = this.all().find((f) => fontSlug(f.name) === slug);
    if (!family) return null;
    const file = path.join(this.cacheDir, `${fontSlug(family.name)}.${ext}`);
    if (!fs.existsSync(file)) {
      fs.mkdirSync(this.cacheDir, { recursive: true });
      const bytes = ext === 'pdf' ? fontSpecimenPdf(family.name) : typstToSvg(fontSpecimenTypst(family.name));
      const tmp = `${file}.tmp-${process.pid}`;
      fs.writeFileSync(tmp, bytes);
      fs.renameSync(tmp, file);
    }
    return file;
  }
}
