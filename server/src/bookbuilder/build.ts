// One book build: the session's copied Muse sources (+ images from their zips) → Typst → PDF →
// imposition (when a schema is chosen) → the output file. Pure file-in/file-out, so it runs in a
// worker thread (build-thread.ts) and keeps the server's event loop free.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { collectionToTypstBook, compileTypstPdf, evictTypstCaches, joinTypstBook, missingGlyphsMessage, museToTypstBook, readMuseZip, TypstCompileError, type TypstBook } from '@uc/muse';
import type { CollectionData } from '@uc/shared';
import { impose } from '@uc/imposition';
import { imposeOptions, typstOptions } from './options.ts';
import { ChunkCompileError, compileChunked, wantsChunks } from './chunked.ts';
import { imagesWithinBudget } from '../images/image-header.ts';

export interface BuildText {
  musePath: string;
  zipPath: string | null;
}

export interface BuildInput {
  texts: BuildText[];
  data: CollectionData;
  /** Where the PDF goes (written to a temporary name first, then renamed). */
  outPath: string;
  /** Typst source per chunk of a large book (default: chunkBytes()); tests set it low. */
  chunkBytes?: number;
}

/** How far a build is: a large book advances per chunk (chunked.ts). */
export interface BuildProgress {
  step: number;
  steps: number;
  /** What it is doing, for logs and the benchmark (readers see the step only). */
  label: string;
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
  /** Chunks a large book was laid out in (0: one pass). */
  chunks: number;
  /** The largest peak RSS of a chunk's process, in KB (0: one pass). */
  childMaxRssKb: number;
  /** CPU seconds of the chunks' processes (0: one pass). */
  childCpuSeconds: number;
}

function readText(t: BuildText): { muse: string; files: Map<string, Uint8Array> } {
  const muse = fs.readFileSync(t.musePath, 'utf8');
  let files = new Map<string, Uint8Array>();
  if (t.zipPath && fs.existsSync(t.zipPath)) {
    try {
      // a harvested image is decoded by Typst: one over the decode budget is left out, not decoded
      files = imagesWithinBudget(readMuseZip(new Uint8Array(fs.readFileSync(t.zipPath))).files);
    } catch {
      // A broken zip only loses the images (placeholders are printed).
    }
  }
  return { muse, files };
}

/** Typst source and files: a single text compiles as itself, several as a collection (reference §2.6). */
export function bookTypst(texts: { muse: string; files: Map<string, Uint8Array> }[], data: CollectionData): { source: string; files: Map<string, Uint8Array> } {
  const { book, files } = bookTypstPieces(texts, data);
  return { source: joinTypstBook(book), files };
}

/** bookTypst in the pieces a chunked build lays out apart. */
export function bookTypstPieces(texts: { muse: string; files: Map<string, Uint8Array> }[], data: CollectionData): { book: TypstBook; files: Map<string, Uint8Array> } {
  const opts = typstOptions(data);
  if (texts.length === 1) return { book: museToTypstBook(texts[0].muse, { ...opts, files: texts[0].files }), files: texts[0].files };
  return collectionToTypstBook(texts, opts);
}

/** Everything a book prints from its sources: the texts (without Muse comment lines) and the collection's header fields. */
export function printedText(texts: { muse: string }[], data: CollectionData): string {
  const header = [data.title, data.subtitle, data.author, data.date, data.notes, data.source].filter(Boolean).join('\n');
  return [header, ...texts.map((t) => t.muse.replace(/^;(?: .*)?$/gm, ''))].join('\n');
}

export async function buildBook(input: BuildInput, hooks: { onProgress?: (p: BuildProgress) => void; signal?: AbortSignal } = {}): Promise<BuildResult> {
  if (input.texts.length === 0) throw new Error('The session has no texts to build');
  const t0 = performance.now();
  const texts = input.texts.map(readText);
  // Typst prints characters no font has as empty boxes, silently: refuse, naming a font that has them.
  const missing = missingGlyphsMessage(printedText(texts, input.data));
  if (missing) throw new Error(missing);
  const { book, files } = bookTypstPieces(texts, input.data);
  let compiled: { pdf: Uint8Array; pages: number; chunks: number; childMaxRssKb: number; childCpuSeconds: number };
  try {
    if (wantsChunks(book, input.chunkBytes)) {
      // a large book: laid out in chunks, each in a process of its own (memory, see chunked.ts)
      compiled = await compileChunked(book, files, { bytes: input.chunkBytes, onProgress: hooks.onProgress, signal: hooks.signal });
    } else {
      hooks.onProgress?.({ step: 1, steps: 1, label: 'Typesetting' });
      compiled = { ...compileTypstPdf(joinTypstBook(book), files), chunks: 0, childMaxRssKb: 0, childCpuSeconds: 0 };
    }
  } catch (e) {
    if (e instanceof TypstCompileError || e instanceof ChunkCompileError) {
      const first = e instanceof TypstCompileError ? e.summary() : e.diagnostics;
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
    chunks: compiled.chunks,
    childMaxRssKb: compiled.childMaxRssKb,
    childCpuSeconds: compiled.childCpuSeconds,
  };
}
