// A Calibre library folder on the server: every folder holding a metadata.opf is one book, with the
// format files beside it. Hidden folders are skipped and symbolic links are followed only when they
// stay inside the root. A book whose OPF cannot be read is reported (error), never thrown.
import fs from 'node:fs';
import path from 'node:path';
import { parseXml } from './xml.ts';
import type { MappedRecord } from './record.ts';
import { mapOpf } from './mappers/opf.ts';
import { HarvestError, reasonOf, reportMessage, type ReportMessage } from './report.ts';

export interface CalibreFile {
  /** Lower-case extension with its dot: ".pdf", ".epub", ".txt"... */
  ext: string;
  path: string;
}

export interface CalibreBook {
  /** 'calibre:' + the book's uuid, else its first identifier, else its folder relative to the root. */
  identifier: string;
  dir: string;
  /** Modification time of metadata.opf. */
  modified: Date;
  record?: MappedRecord;
  /** One file per format (a .txt is the full-text candidate); cover and metadata excluded. */
  files: CalibreFile[];
  /** Why the book's metadata could not be read (the run reports it). */
  error?: ReportMessage;
}

export interface ScanOptions {
  /** Books whose metadata.opf is older are skipped (incremental harvest). */
  since?: Date | null;
  signal?: AbortSignal;
}

/** Formats a book may come in (Calibre's own names); anything else in the folder is not a download. */
export const CALIBRE_FORMATS = new Set([
  '.pdf', '.epub', '.txt', '.mobi', '.azw', '.azw3', '.kfx', '.djvu', '.docx', '.doc', '.odt', '.rtf', '.fb2', '.fbz', '.htmlz',
  '.lit', '.lrf', '.pdb', '.cbz', '.cbr', '.cb7', '.chm',
]);

/** Largest metadata.opf read (Calibre's are a few kB; a huge one is not metadata). */
const MAX_OPF_BYTES = 4 * 1024 * 1024;

/** Every book under `root`, depth first, in name order. */
export async function* scanCalibreTree(root: string, opts: ScanOptions = {}): AsyncGenerator<CalibreBook> {
  const realRoot = await fs.promises.realpath(root);
  for await (const dir of bookFolders(root, realRoot, opts.signal)) {
    const book = await readBook(root, realRoot, dir, opts.since ?? null);
    if (book) yield book;
  }
}

/**
 * The identifiers of every book present under `root`, whatever its age: what an incremental scan
 * skipped is still there, so the harvest can tell removed books from unchanged ones.
 */
export async function listCalibreIdentifiers(root: string, opts: { signal?: AbortSignal } = {}): Promise<Set<string>> {
  const out = new Set<string>();
  const realRoot = await fs.promises.realpath(root);
  for await (const dir of bookFolders(root, realRoot, opts.signal)) {
    const book = await readBook(root, realRoot, dir, null, false);
    if (book) out.add(book.identifier);
  }
  return out;
}

/** Folders holding a metadata.opf, each once however many links lead to it; a book folder's subfolders are the book's. */
async function* bookFolders(root: string, realRoot: string, signal?: AbortSignal): AsyncGenerator<string> {
  const seen = new Set<string>();
  const stack = [root];
  while (stack.length) {
    signal?.throwIfAborted();
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      const real = await fs.promises.realpath(dir);
      if (seen.has(real)) continue;
      seen.add(real);
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      continue; // vanished or unreadable folder: nothing to list
    }
    if (entries.some((e) => e.name === 'metadata.opf' && (e.isFile() || e.isSymbolicLink()))) {
      yield dir;
      continue;
    }
    const subdirs: string[] = [];
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) subdirs.push(full);
      else if (e.isSymbolicLink()) {
        const target = await insideRoot(full, realRoot);
        if (target && (await fs.promises.stat(target)).isDirectory()) subdirs.push(full);
      }
    }
    // Reversed onto the stack so folders come out in name order.
    subdirs.sort().reverse();
    stack.push(...subdirs);
  }
}

/** The real path of a link when it stays inside the root; null when it leads out (or nowhere). */
async function insideRoot(p: string, realRoot: string): Promise<string | null> {
  try {
    const real = await fs.promises.realpath(p);
    return real === realRoot || real.startsWith(realRoot + path.sep) ? real : null;
  } catch {
    return null;
  }
}

async function readBook(root: string, realRoot: string, dir: string, since: Date | null, withFiles = true): Promise<CalibreBook | null> {
  const opfPath = path.join(dir, 'metadata.opf');
  const fallbackId = path.relative(root, dir).split(path.sep).join('/');
  const book: CalibreBook = { identifier: fallbackId, dir, modified: new Date(0), files: [] };
  try {
    const real = await insideRoot(opfPath, realRoot);
    if (!real) throw new HarvestError('The file leads out of the Calibre folder');
    const stat = await fs.promises.stat(real);
    book.modified = stat.mtime;
    if (since && stat.mtime < since) return null;
    if (stat.size > MAX_OPF_BYTES) throw new HarvestError('The file is larger than {{max}} MB', { max: MAX_OPF_BYTES / 1024 / 1024 });
    const pkg = parseXml(await fs.promises.readFile(real, 'utf8'));
    if (pkg.name !== 'package') throw new HarvestError('The file holds <{{element}}>, not an OPF <package>', { element: pkg.name });
    const opf = mapOpf(pkg);
    if (opf.uuid) book.identifier = `calibre:${opf.uuid}`;
    else if (opf.identifiers[0]) book.identifier = opf.identifiers[0].value;
    book.record = opf.record;
  } catch (e) {
    book.error = reportMessage('{{file}} cannot be read: {{reason}}', { file: `${fallbackId}/metadata.opf`, reason: reasonOf(e) });
  }
  if (withFiles) {
    book.files = await formatFiles(dir, realRoot);
    if (book.record) book.record.downloads = book.files.map((f) => f.ext.slice(1));
  }
  return book;
}

/** The book's format files, one per extension (the first by name), in extension order. */
async function formatFiles(dir: string, realRoot: string): Promise<CalibreFile[]> {
  const byExt = new Map<string, string>();
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith('.')) continue;
    const ext = path.extname(e.name).toLowerCase();
    if (!CALIBRE_FORMATS.has(ext) || byExt.has(ext)) continue;
    const full = path.join(dir, e.name);
    if (e.isSymbolicLink()) {
      const real = await insideRoot(full, realRoot);
      if (!real || !(await fs.promises.stat(real)).isFile()) continue;
    } else if (!e.isFile()) continue;
    byExt.set(ext, full);
  }
  return [...byExt.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([ext, p]) => ({ ext, path: p }));
}
