// npm run check:book -- [--png DIR --pages 1,3,5 --paper a4] [--chunk-bytes N] FILE.muse|FILE.zip [...]
// Builds each text as the Book Builder does with the default options (a large text in chunks, as the
// build job does; --chunk-bytes sets the chunk size, so a small text goes that way too), then checks the PDF the way a
// print shop's preflight would: no character without a font, every font embedded, every page of the
// expected size, an outline when the text has headings, a tagged PDF whose structure tree matches its content.
// One line per check; exit code 1 on a failure.
// With --png, the pages listed (default 1-4) are also written as DIR/<name>-<paper>-p<N>.png (docs/screenshots).
import fs from 'node:fs';
import path from 'node:path';
import { compileTypstPdf, imageFormat, joinTypstBook, missingGlyphsMessage, parseMuse, readMuseZip, resolveLayout } from '../packages/muse/src/index.ts';
import { defaultCollectionData, type CollectionData } from '../packages/shared/src/index.ts';
import { bookTypstPieces, printedText } from '../server/src/bookbuilder/build.ts';
import { compileChunked, wantsChunks } from '../server/src/bookbuilder/chunked.ts';
import { typstOptions } from '../server/src/bookbuilder/options.ts';
import { pdfFonts, pdfOutline, pdfPagePng, pdfPageSizesMm, pdfTags } from '../server/src/bookbuilder/pdf-checks.ts';

export interface BookCheck {
  name: string;
  ok: boolean;
  detail: string;
}

/** The text of a .muse file (with the images beside it) or of a Muse zip. */
function readSource(file: string): { muse: string; files: Map<string, Uint8Array> } {
  if (file.toLowerCase().endsWith('.zip')) {
    const z = readMuseZip(new Uint8Array(fs.readFileSync(file)));
    return { muse: z.muse, files: z.files };
  }
  const muse = fs.readFileSync(file, 'utf8');
  const files = new Map<string, Uint8Array>();
  const dir = path.dirname(file);
  for (const name of fs.readdirSync(dir)) {
    if (!/\.(png|jpe?g)$/i.test(name)) continue;
    const data = new Uint8Array(fs.readFileSync(path.join(dir, name)));
    if (imageFormat(data)) files.set(name, data);
  }
  return { muse, files };
}

/** Builds the text with the default options and runs the PDF checks. */
export async function checkBook(file: string, data: CollectionData = defaultCollectionData(), chunkBytes?: number): Promise<{ checks: BookCheck[]; pages: number; pdf?: Uint8Array }> {
  const text = readSource(file);
  const checks: BookCheck[] = [];
  const missing = missingGlyphsMessage(printedText([text], data));
  checks.push({ name: 'glyphs', ok: !missing, detail: missing ?? 'every character has a font' });
  const { book, files } = bookTypstPieces([text], data);
  let built: { pdf: Uint8Array; pages: number; chunks: number };
  try {
    built = wantsChunks(book, chunkBytes) ? await compileChunked(book, files, { bytes: chunkBytes }) : { ...compileTypstPdf(joinTypstBook(book), files), chunks: 0 };
  } catch (e) {
    checks.push({ name: 'build', ok: false, detail: e instanceof Error ? e.message : String(e) });
    return { checks, pages: 0 };
  }
  const { pdf, pages } = built;
  checks.push({ name: 'build', ok: pages > 0, detail: `${pages} pages${built.chunks ? ` laid out in ${built.chunks} chunks` : ''}` });

  const fonts = await pdfFonts(pdf);
  const loose = fonts.filter((f) => !f.embedded).map((f) => f.name);
  checks.push({
    name: 'fonts embedded',
    ok: fonts.length > 0 && loose.length === 0,
    detail: loose.length ? `not embedded: ${loose.join(', ')}` : `${fonts.length} fonts, all embedded`,
  });

  const L = resolveLayout(typstOptions(data));
  const sizes = await pdfPageSizesMm(pdf);
  const wrong = sizes.findIndex((s) => Math.abs(s.width - L.widthMm) > 0.5 || Math.abs(s.height - L.heightMm) > 0.5);
  checks.push({
    name: 'page size',
    ok: wrong < 0,
    detail:
      wrong < 0
        ? `${sizes.length} pages of ${L.widthMm}×${L.heightMm} mm`
        : `page ${wrong + 1} is ${sizes[wrong].width.toFixed(1)}×${sizes[wrong].height.toFixed(1)} mm, not ${L.widthMm}×${L.heightMm} mm`,
  });

  const headings = parseMuse(text.muse).body.filter((b) => b.type === 'heading' && b.level <= 4).length;
  const outline = pdfOutline(pdf);
  checks.push({
    name: 'outline',
    ok: headings === 0 || outline.length >= headings,
    detail: headings === 0 ? 'no headings, no outline needed' : `${outline.length} bookmarks for ${headings} headings`,
  });
  const tags = await pdfTags(pdf);
  checks.push({
    name: 'tags',
    ok: tags.marked && !!tags.lang && tags.elements.length > 0 && tags.problems.length === 0,
    detail: tags.problems.length ? tags.problems.slice(0, 3).join('; ') : `${tags.marked ? 'marked' : 'not marked'}, language ${tags.lang ?? 'unset'}, ${tags.elements.length} structure elements`,
  });
  return { checks, pages, pdf };
}

async function main(args: string[]): Promise<number> {
  const opt = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const [, v] = args.splice(i, 2);
    return v;
  };
  const pngDir = opt('--png');
  const pageList = (opt('--pages') ?? '1,2,3,4').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  const paper = opt('--paper') ?? 'a5';
  const chunkBytes = opt('--chunk-bytes');
  const files = args;
  if (!files.length) {
    console.error('usage: npm run check:book -- [--png DIR --pages 1,3,5 --paper a4] [--chunk-bytes N] FILE.muse|FILE.zip [...]');
    return 2;
  }
  const data = { ...defaultCollectionData(), papersize: paper } as CollectionData;
  let failed = 0;
  for (const file of files) {
    const { checks, pdf, pages } = await checkBook(file, data, chunkBytes ? Number(chunkBytes) : undefined);
    for (const c of checks) {
      console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${path.basename(file)}: ${c.name}: ${c.detail}`);
      if (!c.ok) failed++;
    }
    if (pngDir && pdf) {
      fs.mkdirSync(pngDir, { recursive: true });
      for (const n of pageList.filter((p) => p <= pages)) {
        const out = path.join(pngDir, `${path.basename(file).replace(/\.(muse|zip)$/i, '')}-${paper}-p${n}.png`);
        fs.writeFileSync(out, pdfPagePng(pdf, n - 1, 100));
        console.log(`page ${n} -> ${out}`);
      }
    }
  }
  return failed ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
