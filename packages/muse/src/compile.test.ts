// The Typst output of every corpus file compiles without errors (one compiler, reused).
import { describe, it, expect } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { museToTypst, checkTypst, museToPdf, readMuseZip } from './index.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const corpus = join(repoRoot, '../shared/fixtures/muse');
const zips = join(repoRoot, '../shared/fixtures/amusewiki-texts');

describe.skipIf(!existsSync(corpus))('Typst output compiles', () => {
  it('compiles every corpus file with its images', () => {
    const files = new Map<string, Uint8Array>();
    for (const f of readdirSync(corpus)) if (f.endsWith('.png')) files.set(f, readFileSync(join(corpus, f)));
    const failed: string[] = [];
    for (const f of readdirSync(corpus).filter((x) => x.endsWith('.muse'))) {
      const errs = checkTypst(museToTypst(readFileSync(join(corpus, f), 'utf8'), { files }), files);
      if (errs.length) failed.push(`${f}: ${JSON.stringify(errs).slice(0, 300)}`);
    }
    expect(failed).toEqual([]);
  }, 60000);

  it('compiles with non-default layout options', () => {
    const src = readFileSync(join(corpus, 'headings.muse'), 'utf8');
    for (const headings of ['part_chapter', 'title_subtitle', 'chapter_section', 'section_subsection']) {
      const typ = museToTypst(src, {
        papersize: 'b5',
        twoside: true,
        opening: 'right',
        headings,
        linespacing: 1.5,
        fontsize: 10,
        impressum: true,
        sansfontsections: true,
        centerchapter: true,
        binding_correction: 5,
      });
      expect(checkTypst(typ)).toEqual([]);
    }
  });
});

describe.skipIf(!existsSync(zips))('amusewiki zips', () => {
  it('reads and renders every zip to PDF', async () => {
    for (const f of readdirSync(zips).filter((x) => x.endsWith('.zip'))) {
      const z = readMuseZip(new Uint8Array(readFileSync(join(zips, f))));
      expect(z.muse.length).toBeGreaterThan(100);
      expect(z.baseName).toBe(f.replace(/\.zip$/, ''));
      const pdf = await museToPdf(z.muse, { files: z.files });
      expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');
    }
  }, 60000);
});
