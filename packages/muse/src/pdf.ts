// PDF output through the Typst compiler (typst-ts node bindings). One compiler is reused
// across calls. DejaVu comes bundled (the dejavu-fonts-ttf package), so the default fonts work on any
// machine; fonts installed on the system (Debian's font packages) are offered too.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { NodeCompiler } from '@myriaddreamin/typst-ts-node-compiler';
import type { MuseDocument } from './types.ts';
import { museToTypst, FILES_DIR, type TypstOptions } from './typst.ts';

const WORKSPACE = '/muse-virtual-workspace';
const BUNDLED_FONTS = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
export const FONT_DIRS = [BUNDLED_FONTS, '/usr/share/fonts/truetype', '/usr/share/fonts/opentype', '/usr/local/share/fonts'];

let compiler: NodeCompiler | null = null;
let mapped: string[] = [];

function getCompiler(): NodeCompiler {
  if (!compiler) {
    const { workspace, fontPaths } = compilerSetup();
    compiler = NodeCompiler.create({ workspace, fontArgs: [{ fontPaths }] });
  }
  return compiler;
}

export class TypstCompileError extends Error {
  constructor(
    message: string,
    readonly diagnostics: unknown[],
  ) {
    super(message);
  }

  /** The first diagnostics, for a job's error message. */
  summary(): string {
    return (this.diagnostics as { message?: string }[]).map((d) => d?.message).filter(Boolean).slice(0, 2).join('; ');
  }
}

/** Compile Typst source (with the given attachments) to PDF bytes. */
export function compileTypst(source: string, files?: Map<string, Uint8Array>): Uint8Array {
  return compileTypstPdf(source, files).pdf;
}

/**
 * How a compiler is set up for a document: its workspace, font directories, and the attachments by the
 * path they are mounted at (under FILES_DIR). A chunk's child process (server/src/bookbuilder/chunk-child.mjs)
 * sets up its own compiler from this.
 */
export function compilerSetup(files?: Map<string, Uint8Array>): { compilerModule: string; workspace: string; fontPaths: string[]; shadows: [string, Uint8Array][] } {
  return {
    // the compiler package as this package resolves it (the child need not find it from where it lives)
    compilerModule: createRequire(import.meta.url).resolve('@myriaddreamin/typst-ts-node-compiler'),
    workspace: WORKSPACE,
    fontPaths: FONT_DIRS.filter((d) => existsSync(d)),
    shadows: [...(files ?? [])].map(([name, data]) => [`${WORKSPACE}${FILES_DIR}/${name}`, data]),
  };
}

/** Compiles with the attachments mounted under FILES_DIR; throws TypstCompileError with the diagnostics. */
function compileDoc(source: string, files?: Map<string, Uint8Array>) {
  const c = getCompiler();
  for (const p of mapped) c.unmapShadow(p);
  mapped = [];
  for (const [p, data] of compilerSetup(files).shadows) {
    c.mapShadow(p, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    mapped.push(p);
  }
  const res = c.compile({ mainFileContent: source });
  const doc = res.result;
  if (!doc || res.hasError()) {
    const diag = (res.takeDiagnostics() ?? res.takeError())?.shortDiagnostics ?? [];
    throw new TypstCompileError('Typst compilation failed', diag);
  }
  return { c, doc };
}

/** Like compileTypst, also telling the page count. */
export function compileTypstPdf(source: string, files?: Map<string, Uint8Array>): { pdf: Uint8Array; pages: number } {
  const { c, doc } = compileDoc(source, files);
  const pdf = c.pdf(doc);
  const pages = doc.numOfPages;
  c.evictCache(30);
  return { pdf: new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength), pages };
}

/**
 * Drops every memoized result of the compiler. After a book build: the caches kept for the next 30
 * compilations (cheap repeats of a cover preview) hold about 0.5 MB per page of a book, which a build of
 * other texts hardly reuses; a thread serving 800-page books grew 380 MB a build with them kept, 200 without.
 * The next book is laid out faster too (300 pages: 0.83 s instead of 1.05 s): fewer cached entries to check.
 */
export function evictTypstCaches(): void {
  compiler?.evictCache(0);
}

/** The warning messages of compiling Typst source (no attachments); errors count as warnings too. */
export function typstWarnings(source: string): string[] {
  const c = getCompiler();
  const res = c.compile({ mainFileContent: source });
  const msgs = [res.takeWarnings(), res.hasError() ? (res.takeDiagnostics() ?? res.takeError()) : null]
    .flatMap((e) => (e?.shortDiagnostics ?? []) as { message?: string }[])
    .map((d) => String(d.message ?? d));
  return msgs;
}

/** Typst source (with attachments) to one SVG image of all its pages. */
export function typstToSvg(source: string, files?: Map<string, Uint8Array>): string {
  const { c, doc } = compileDoc(source, files);
  const svg = c.plainSvg(doc);
  c.evictCache(30);
  return svg;
}

/** Check that Typst source compiles; returns the error diagnostics (empty when fine). */
export function checkTypst(source: string, files?: Map<string, Uint8Array>): unknown[] {
  try {
    compileTypst(source, files);
    return [];
  } catch (e) {
    if (e instanceof TypstCompileError) return e.diagnostics.length ? e.diagnostics : [e.message];
    throw e;
  }
}

export async function museToPdf(input: string | MuseDocument, options: TypstOptions = {}): Promise<Uint8Array> {
  return compileTypst(museToTypst(input, options), options.files);
}
