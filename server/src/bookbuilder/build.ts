// One book build: the session's copied Muse sources (+ images from their zips) → Typst → PDF →
// imposition (when a schema is chosen) → the output file. Pure file-in/file-out, so it runs in a
// worker thread (build-thread.ts) and keeps the server's event loop free.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  collectionToEpub, collectionToTypstBook, compileTypstPdf, DEFAULT_COLLECTION_TITLE, evictTypstCaches, joinTypstBook, missingGlyphsMessage, museToEpub, museToTypstBook, parseMuse,
  readMuseZip, selectSections, TypstCompileError, type MuseDocument, type TypstBook,
} from '@uc/muse';
import type { BookFormat, CollectionData } from '@uc/shared';
import { impose } from '@uc/imposition';
import { imposeOptions, typstOptions } from './options.ts';
import { ChunkCompileError, compileChunked, wantsChunks } from './chunked.ts';
import { imagesWithinBudget } from '../images/image-header.ts';

export interface BuildText {
  musePath: string;
  zipPath: string | null;
  /** Only these sections of the text (a partial selection); absent: all of it. */
  sections?: number[];
  /** An EPUB's title page of the text: the library that holds it and the text's address. */
  credits?: string;
  sourceUrl?: string;
}

export interface BuildInput {
  texts: BuildText[];
  data: CollectionData;
  /** pdf (default) or epub: an EPUB ignores paper, imposition and crop marks. */
  format?: BookFormat;
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
  /** What was built (absent: pdf). */
  format?: BookFormat;
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

function readText(t: BuildText): { muse: string | MuseDocument; files: Map<string, Uint8Array> } {
  const source = fs.readFileSync(t.musePath, 'utf8');
  const muse = t.sections ? selectSections(parseMuse(source), t.sections) : source;
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
export function bookTypst(texts: { muse: string | MuseDocument; files: Map<string, Uint8Array> }[], data: CollectionData): { source: string; files: Map<string, Uint8Array> } {
  const { book, files } = bookTypstPieces(texts, data);
  return { source: joinTypstBook(book), files };
}

/** bookTypst in the pieces a chunked build lays out apart. */
export function bookTypstPieces(texts: { muse: string | MuseDocument; files: Map<string, Uint8Array> }[], data: CollectionData): { book: TypstBook; files: Map<string, Uint8Array> } {
  const opts = typstOptions(data);
  if (texts.length === 1) return { book: museToTypstBook(texts[0].muse, { ...opts, files: texts[0].files }), files: texts[0].files };
  return collectionToTypstBook(texts, opts);
}

/** Everything a book prints from its sources: the texts (without Muse comment lines) and the collection's header fields. */
export function printedText(texts: { muse: string | MuseDocument }[], data: CollectionData): string {
  const header = [data.title, data.subtitle, data.author, data.date, data.notes, data.source].filter(Boolean).join('\n');
  // a partial selection: its header and blocks as text (every letter it may print)
  const text = (m: string | MuseDocument) => (typeof m === 'string' ? m.replace(/^;(?: .*)?$/gm, '') : JSON.stringify([m.header, m.body, [...m.footnotes.values()], [...m.secondaryFootnotes.values()]]));
  return [header, ...texts.map((t) => text(t.muse))].join('\n');
}

/**
 * The book as an EPUB 3: a single text as itself, several as a collection with the virtual header's title
 * page and metadata and each text with its own title page and credits. Paper, imposition and crop marks
 * have no meaning in a reflowable book and are ignored.
 */
export function buildEpub(input: BuildInput): BuildResult {
  const t0 = performance.now();
  const texts = input.texts.map((t) => ({ ...readText(t), credits: t.credits, sourceUrl: t.sourceUrl }));
  const d = input.data;
  const epub = texts.length === 1
    ? museToEpub(texts[0].muse, { files: texts[0].files, credits: texts[0].credits, sourceUrl: texts[0].sourceUrl })
    : collectionToEpub(texts, { title: d.title || DEFAULT_COLLECTION_TITLE, subtitle: d.subtitle || undefined, author: d.author || undefined, date: d.date || undefined, notes: d.notes || undefined, source: d.source || undefined });
  writeAtomically(input.outPath, epub);
  const seconds = (performance.now() - t0) / 1000;
  return { format: 'epub', pages: 0, bookPages: 0, sheets: null, bytes: epub.length, typstSeconds: seconds, imposeSeconds: 0, chunks: 0, childMaxRssKb: 0, childCpuSeconds: 0 };
}

function writeAtomically(outPath: string, bytes: Uint8Array): void {
  fs.mkdirSync(path.dirname(outPath), { recursive: true });
  const tmp = `${outPath}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, outPath);
}

export async function buildBook(input: BuildInput, hooks: { onProgress?: (p: BuildProgress) => void; signal?: AbortSignal } = {}): Promise<BuildResult> {
  if (input.texts.length === 0) throw new Error('The session has no texts to build');
  if (input.format === 'epub') return buildEpub(input);
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
  writeAtomically(input.outPath, pdf);
  return {
    format: 'pdf',
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
