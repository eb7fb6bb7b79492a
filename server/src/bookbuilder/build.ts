// One book build: the session's copied Muse sources (+ images from their zips) → Typst → PDF →
// imposition (when a schema is chosen) → the output file. Pure file-in/file-out, so it runs in a
// worker thread (build-thread.ts) and keeps the server's event loop free.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { collectionToTypst, compileTypstPdf, evictTypstCaches, missingGlyphsMessage, museToTypst, readMuseZip, TypstCompileError } from '@uc/muse';
import type { CollectionData } from '@uc/shared';
import { impose } from '@uc/imposition';
import { imposeOptions, typstOptions } from './options.ts';

export interface BuildText {
  musePath: string;
  zipPath: string | null;
}

export interface BuildInput {
  texts: BuildText[];
  data: CollectionData;
  /** Where the PDF goes (written to a temporary name first, then renamed). */
  outPath: string;
}

export interface BuildResult {
  /** Pages of the written PDF (sheet sides when imposed). */
  pages: number;
  /** Pages of the book before imposition. */
  bookPages: number;
  sheets: number | null;
  bytes: number;
  typstSeconds: number;
  imposeSeconds: number;
}

function readText(t: BuildText): { muse: string; files: Map<string, Uint8Array> } {
  const muse = fs.readFileSync(t.musePath, 'utf8');
  let files = new Map<string, Uint8Array>();
  if (t.zipPath && fs.existsSync(t.zipPath)) {
    try {
      files = readMuseZip(new Uint8Array(fs.readFileSync(t.zipPath))).files;
    } catch {
      // A broken zip only loses the images (placeholders are printed).
    }
  }
  return { muse, files };
}

/** Typst source and files: a single text compiles as itself, several as a collection (reference §2.6). */
export function bookTypst(texts: { muse: string; files: Map<string, Uint8Array> }[], data: CollectionData): { source: string; files: Map<string, Uint8Array> } {
  const opts = typstOptions(data);
  if (texts.length === 1) return { source: museToTypst(texts[0].muse, { ...opts, files: texts[0].files }), files: texts[0].files };
  return collectionToTypst(texts, opts);
}

/** Everything a book prints from its sources: the texts (without Muse comment lines) and the collection's header fields. */
export function printedText(texts: { muse: string }[], data: CollectionData): string {
  const header = [data.title, data.subtitle, data.author, data.date, data.notes, data.source].filter(Boolean).join('\n');
  return [header, ...texts.map((t) => t.muse.replace(/^;(?: .*)?$/gm, ''))].join('\n');
}

export async function buildBook(input: BuildInput): Promise<BuildResult> {
  if (input.texts.length === 0) throw new Error('The session has no texts to build');
  const t0 = performance.now();
  const texts = input.texts.map(readText);
  // Typst prints characters no font has as empty boxes, silently: refuse, naming a font that has them.
  const missing = missingGlyphsMessage(printedText(texts, input.data));
  if (missing) throw new Error(missing);
  const { source, files } = bookTypst(texts, input.data);
  let compiled: { pdf: Uint8Array; pages: number };
  try {
    compiled = compileTypstPdf(source, files);
  } catch (e) {
    if (e instanceof TypstCompileError) {
      const first = e.summary();
      throw new Error(`Typesetting failed${first ? `: ${first}` : ''}`);
    }
    throw e;
  } finally {
    // the layout of this book is of little use to the next one, and costs about 0.5 MB a page
    evictTypstCaches();
  }
  const t1 = performance.now();
  let pdf = compiled.pdf;
  let sheets: number | null = null;
  let pages = compiled.pages;
  const imp = imposeOptions(input.data);
  if (imp) {
    const r = await impose(pdf, { ...imp, cropTitle: input.data.title || undefined });
    pdf = r.pdf;
    sheets = r.sheets;
    pages = r.outputPages;
  }
  const t2 = performance.now();
  fs.mkdirSync(path.dirname(input.outPath), { recursive: true });
  const tmp = `${input.outPath}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, pdf);
  fs.renameSync(tmp, input.outPath);
  return {
    pages,
    bookPages: compiled.pages,
    sheets,
    bytes: pdf.length,
    typstSeconds: (t1 - t0) / 1000,
    imposeSeconds: (t2 - t1) / 1000,
  };
}
