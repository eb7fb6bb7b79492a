// A large book laid out in chunks, each in a short-lived child process, then merged (issue 15: a
// 3,800-page book took 2.6 GB laid out at once; Typst keeps every page of a document until it is
// written, about 0.5–0.65 MB a page, and the allocator does not give that memory back while the
// process lives). Sources of the pieces: packages/muse/src/chunks.ts; merge: merge-pdf.ts.
//
// Order: the front (title page, contents) with guessed page numbers, to learn how many pages it
// takes; the chunks one after another, each continuing the previous one's page number, side,
// footnote counters and running heads; chunks whose "??" page references point forward laid out again
// once those pages are known; the front again with the real page numbers (and everything again in
// the rare case its length changed); the merge.
import { fork } from 'node:child_process';
import {
  START_STATE,
  compilerSetup,
  chunkTypst,
  entryLabel,
  frontTypst,
  labelsOf,
  nextState,
  standIns,
  type ChunkProbe,
  type ChunkState,
  type ForeignTarget,
  type TypstBook,
} from '@uc/muse';
import { mergeChunkPdfs, type MergePiece, type TargetPlace } from './merge-pdf.ts';

/** Typst source per chunk: about 550 A5 pages of ordinary text (1.8 KB a page), some 350 MB of layout. */
export const DEFAULT_CHUNK_BYTES = 1_000_000;

/** The chunk size in use (BOOK_CHUNK_BYTES overrides the default). */
export function chunkBytes(): number {
  const v = Number(process.env.BOOK_CHUNK_BYTES);
  return Number.isFinite(v) && v > 0 ? v : DEFAULT_CHUNK_BYTES;
}

/**
 * Whether a book is laid out in chunks: its body is over one and a half chunks (about 800 pages; a
 * book up to that size takes under ~600 MB in one pass and keeps the one-pass path and its exact
 * output) and it can be cut where it starts new pages.
 */
export function wantsChunks(book: TypstBook, bytes = chunkBytes()): boolean {
  if (!book.splittable || book.segments.length < 2) return false;
  return book.segments.reduce((n, s) => n + s.source.length, 0) > bytes * 1.5;
}

export interface ChunkedResult {
  pdf: Uint8Array;
  pages: number;
  /** Chunks laid out (front passes not counted). */
  chunks: number;
  /** The largest peak RSS of a child process, in KB. */
  childMaxRssKb: number;
  /** CPU time of all the child processes, in seconds. */
  childCpuSeconds: number;
}

export interface ChunkedOptions {
  bytes?: number;
  signal?: AbortSignal;
  /** Called as the build advances: before each chunk, and before the merge. */
  onProgress?: (p: { step: number; steps: number; label: string }) => void;
}

export class ChunkCompileError extends Error {
  constructor(
    message: string,
    readonly diagnostics: string,
  ) {
    super(message);
  }
}

/** What chunk-child.mjs answers. */
type ChunkReply =
  | { ok: true; pdf: Uint8Array; pages: number; probe: unknown; maxRssKb: number; cpuSeconds: number }
  | { ok: false; error: string; diagnostics: string; maxRssKb: number; cpuSeconds: number };

/** Compiles one source in a child process of its own. */
function compileInChild(source: string, files: Map<string, Uint8Array>, signal?: AbortSignal): Promise<Extract<ChunkReply, { ok: true }>> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./chunk-child.mjs', import.meta.url), [], { serialization: 'advanced', execArgv: [], signal, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let reply: ChunkReply | null = null;
    child.once('message', (m: ChunkReply) => (reply = m));
    child.once('error', (e) => reject(e));
    child.once('exit', (code) => {
      if (!reply) return reject(new Error(`The typesetting process stopped (exit ${code})`));
      if (reply.ok) resolve(reply);
      else reject(new ChunkCompileError(reply.error, reply.diagnostics));
    });
    child.send({ source, setup: compilerSetup(files) });
  });
}

/** Segments grouped into chunks of at most `bytes` of source (a longer segment is a chunk alone). */
export function planChunks(book: TypstBook, bytes: number): [number, number][] {
  const out: [number, number][] = [];
  let from = 0;
  let size = 0;
  book.segments.forEach((s, i) => {
    if (i > from && size + s.source.length > bytes) {
      out.push([from, i]);
      from = i;
      size = 0;
    }
    size += s.source.length;
  });
  out.push([from, book.segments.length]);
  return out;
}

interface Laid {
  pdf: Uint8Array;
  probe: ChunkProbe;
  state: ChunkState;
  foreign: ForeignTarget[];
}

export async function compileChunked(book: TypstBook, files: Map<string, Uint8Array>, opts: ChunkedOptions = {}): Promise<ChunkedResult> {
  const plan = planChunks(book, opts.bytes ?? chunkBytes());
  const steps = plan.length + 2;
  let childMaxRssKb = 0;
  let childCpuSeconds = 0;
  const run = async (source: string) => {
    opts.signal?.throwIfAborted();
    const r = await compileInChild(source, files, opts.signal);
    childMaxRssKb = Math.max(childMaxRssKb, r.maxRssKb);
    childCpuSeconds += r.cpuSeconds;
    return { pdf: r.pdf, probe: r.probe as ChunkProbe };
  };

  // labels: which chunk defines each, which ones others use
  // (the last chunk holds the final page, whose header fields may link into the body too)
  const labels = plan.map(([a, b]) => labelsOf(book.segments.slice(a, b).map((s) => s.source).join('') + (b === book.segments.length ? book.tail : '')));
  const home = new Map<string, number>();
  labels.forEach((l, i) => l.defined.forEach((n) => home.has(n) || home.set(n, i)));
  const foreignOf = (i: number) => [...labels[i].used].filter((n) => !labels[i].defined.has(n) && home.has(n));
  const exported = plan.map(() => new Set<string>());
  plan.forEach((_, i) => foreignOf(i).forEach((n) => exported[home.get(n)!].add(n)));
  const frontLinks = [...labelsOf(book.front).used].filter((n) => home.has(n));
  frontLinks.forEach((n) => exported[home.get(n)!].add(n));

  const entries = book.segments.flatMap((s) => s.toc);
  const hasFront = book.front.length > 0;
  let places = new Map<string, TargetPlace & { number: number }>();
  const frontOf = (pages: number[]) =>
    frontTypst(
      book,
      entries.map((entry, i) => ({ entry, page: pages[i] })),
      frontLinks.map((name) => ({ name, page: places.get(name)?.number ?? 0 })),
    );

  // the front with guessed page numbers (as wide as the book's last ones will be), for its length
  const guess = String(Math.max(10, Math.round(book.segments.reduce((n, s) => n + s.source.length, 0) / 1800)));
  let front = hasFront ? await run(frontOf(entries.map(() => Number(guess)))) : null;
  for (let attempt = 0; ; attempt++) {
    const frontPages = front ? front.probe.end - 1 : 0;
    const laid: Laid[] = [];
    places = new Map();
    let state: ChunkState = { ...START_STATE, lastPage: frontPages };
    for (let i = 0; i < plan.length; i++) {
      const [a, b] = plan[i];
      opts.onProgress?.({ step: i + 1, steps, label: `Typesetting part ${i + 1} of ${plan.length} (from page ${state.lastPage + 1})` });
      const foreign = foreignOf(i).map((name) => ({ name, page: places.get(name)?.number }));
      const r = await run(chunkTypst(book, a, b, state, foreign, [...exported[i]]));
      for (const [name, page, x, y, number] of r.probe.anchors) places.set(name, { piece: i, page, x, y, number });
      laid.push({ ...r, state, foreign });
      state = nextState(book, a, b, state, r.probe);
    }
    // "??" pointing to a later chunk: now its page is known
    for (let i = 0; i < plan.length; i++) {
      const l = laid[i];
      if (!l.foreign.some((t) => t.page === undefined && labels[i].pageRefs.has(t.name))) continue;
      const foreign = l.foreign.map((t) => ({ name: t.name, page: places.get(t.name)?.number }));
      const r = await run(chunkTypst(book, plan[i][0], plan[i][1], l.state, foreign, [...exported[i]]));
      if (r.probe.end !== l.probe.end) throw new Error('A page reference changed the length of a chunk');
      laid[i] = { ...r, state: l.state, foreign };
    }
    // the contents' page numbers and link targets, from where the chunks laid out the headings
    const targets = new Map<string, TargetPlace>();
    for (const [name, p] of places) targets.set(name, p);
    const numbers: number[] = [];
    laid.forEach((l, piece) =>
      l.probe.toc.forEach(([page, x, y, number]) => {
        targets.set(entryLabel(numbers.length), { piece: piece + (hasFront ? 1 : 0), page, x, y });
        numbers.push(number);
      }),
    );
    // shift the chunks' places by the front piece
    if (hasFront) for (const [name, p] of places) targets.set(name, { ...p, piece: p.piece + 1 });
    if (numbers.length !== entries.length) throw new Error(`The chunks laid out ${numbers.length} headings of ${entries.length}`);
    if (hasFront) {
      opts.onProgress?.({ step: plan.length + 1, steps, label: 'Typesetting the contents' });
      const again = await run(frontOf(numbers));
      if (again.probe.end !== front!.probe.end && attempt === 0) {
        // the contents took another number of pages: every page number moves
        front = again;
        continue;
      }
      front = again;
    }
    opts.onProgress?.({ step: steps, steps, label: 'Joining the parts' });
    const pieces: MergePiece[] = [];
    if (front) pieces.push({ pdf: front.pdf, first: 0, end: front.probe.end - 1, foreign: [...entries.map((_, i) => entryLabel(i)), ...frontLinks], levels: [] });
    laid.forEach((l, i) => {
      const [a, b] = plan[i];
      const levels = book.segments.slice(a, b).flatMap((s) => s.toc.map((e) => Number(e.match(/^\(level: (\d)/)?.[1] ?? 1)));
      pieces.push({ pdf: l.pdf, first: standIns(l.state.lastPage), end: l.probe.end - 1, foreign: l.foreign.map((t) => t.name), levels });
    });
    const pdf = await mergeChunkPdfs(pieces, targets);
    return { pdf, pages: state.lastPage, chunks: plan.length, childMaxRssKb, childCpuSeconds };
  }
}
