// The Typst sources of a book laid out in chunks (a large book: Typst holds every page of a document
// until it is written, about 0.5 MB a page). A chunk is a run of the book's segments (parts, chapters,
// texts: each starts a new page, see TypstBook) compiled as its own document that continues the
// previous one:
// - stand-in pages first, one or two so that the last is the previous chunk's last page with the same
//   number and side (Typst mirrors margins and breaks to recto/verso by the physical page): the
//   chunk's opening break then leaves the blank page the whole book would. They carry the footnote
//   counters and the last contents entry of each level (running heads read them), and are dropped;
// - placeholder pages last, dropped too: a probe reporting the chunk's state and where its headings
//   and anchors are, and an anchor for each label the chunk links to but another chunk holds (link
//   targets of the contents, cross-references), placed at x = i × TARGET_STEP so the merged PDF can
//   tell which label a link pointed to and send it to the real place.
// The front (title page, impressum, contents) is a document of its own, laid out again once the
// contents' page numbers are known.
import { typstString, type TypstBook } from './typst.ts';

/** Horizontal distance between two placeholder anchors on a placeholder page, in pt. */
export const TARGET_STEP = 0.05;
/** Placeholder anchors per placeholder page (the narrowest page, 80 mm, is 226 pt wide). */
export const TARGETS_PER_PAGE = 4000;

export interface ChunkState {
  /** The number of the last page before the chunk (0: the chunk opens the book). */
  lastPage: number;
  footnote: number;
  secondary: number;
  /** The last contents entry of each level 1–4 seen so far, in the order they came. */
  heads: string[];
}

export const START_STATE: ChunkState = { lastPage: 0, footnote: 0, secondary: 0, heads: [] };

/** A label the chunk refers to that another piece defines; `page` when known sets "??" (counter(page).at). */
export interface ForeignTarget {
  name: string;
  page?: number;
}

/** What the probe of a compiled piece reports (see probeTypst). */
export interface ChunkProbe {
  /** Physical page (1-based) where the placeholders start: the pages before it, after the stand-ins, are the chunk's. */
  end: number;
  footnote: number;
  secondary: number;
  /** Each contents entry of the chunk: physical page, x, y (pt from the top left) and page number. */
  toc: [number, number, number, number][];
  /** Each exported anchor: name, physical page, x, y, page number. */
  anchors: [string, number, number, number, number][];
}

/** How many stand-in pages a chunk starting after `lastPage` needs: the last has the same side as that page. */
export function standIns(lastPage: number): number {
  return lastPage === 0 ? 0 : lastPage % 2 === 1 ? 1 : 2;
}

function standInPages(s: ChunkState): string {
  const d = standIns(s.lastPage);
  if (d === 0) return '';
  const out = [`#counter(page).update(${s.lastPage - d + 1})`];
  if (d === 2) out.push('#page(header: none, footer: none)[]');
  // something on the page, so the opening break starts a new one as after real text
  out.push('#box(width: 1pt, height: 2em)');
  out.push(`#counter(footnote).update(${s.footnote})#counter("muse-secondary").update(${s.secondary})`);
  for (const h of s.heads) out.push(`#metadata(${h})<muse-toc>`);
  return out.join('\n') + '\n';
}

/** The probe and the placeholder anchors, on pages of their own after the chunk's last page. */
function placeholderPages(standInCount: number, foreign: ForeignTarget[], exported: string[]): string {
  const anchors = exported.map((n) => `{ let l = locate(label(${typstString(n)})); let p = l.position(); (${typstString(n)}, l.page(), p.x.pt(), p.y.pt(), counter(page).at(l).first()) }`);
  const probe =
    `#context [#metadata((end: here().page(), footnote: counter(footnote).final().first(), secondary: counter("muse-secondary").final().first(), ` +
    `toc: query(<muse-toc>).filter(m => m.location().page() > ${standInCount}).map(m => { let l = m.location(); let p = l.position(); (l.page(), p.x.pt(), p.y.pt(), counter(page).at(l).first()) }), ` +
    `anchors: (${anchors.join(', ')}${anchors.length ? ',' : ''})))<muse-probe>]`;
  const pages: string[] = [];
  for (let first = 0; first === 0 || first < foreign.length; first += TARGETS_PER_PAGE) {
    const items = foreign.slice(first, first + TARGETS_PER_PAGE).map((t, j) => {
      const at = `#place(top + left, dx: ${(j * TARGET_STEP).toFixed(2)}pt)[#metadata(none)${typstLabel(t.name)}]`;
      return t.page === undefined ? at : `#counter(page).update(${t.page})${at}`;
    });
    pages.push(`#page(margin: 0pt, header: none, footer: none)[${first === 0 ? probe : ''}${items.join('')}]`);
  }
  return '\n' + pages.join('\n') + '\n';
}

/** A label as Typst markup (`<name>` when the name allows, else through label()). */
function typstLabel(name: string): string {
  return /^[\p{L}\p{N}_][\p{L}\p{N}_\-:.]*$/u.test(name) ? `<${name}>` : `#[#metadata(none)#label(${typstString(name)})]`;
}

/** The placeholder anchor of the i-th entry of the contents in the front piece. */
export function entryLabel(i: number): string {
  return `muse-entry-${i}`;
}

/**
 * The front alone (title page, impressum, contents) with the contents given: each entry with its page
 * number, linking to a placeholder the merge sends to the heading; `anchors`: the body's labels the
 * front links to (a header field's link).
 */
export function frontTypst(book: TypstBook, entries: { entry: string; page: number }[], anchors: ForeignTarget[] = []): string {
  const list = entries.map((e, i) => `(${e.entry}, ${e.page}, <${entryLabel(i)}>)`);
  const toc = `#let museToc() = museTocList((${list.join(', ')}${list.length ? ',' : ''}))\n`;
  // the contents' targets, then the anchors the header's links point to
  const foreign = [...entries.map((_, i) => ({ name: entryLabel(i) })), ...anchors];
  return book.head + toc + book.front + placeholderPages(0, foreign, []);
}

/** A chunk: segments [from, to) of the book (with the tail when it is the last), continuing from `state`. */
export function chunkTypst(book: TypstBook, from: number, to: number, state: ChunkState, foreign: ForeignTarget[], exported: string[]): string {
  const body = book.segments.slice(from, to).map((s) => s.source).join('');
  const tail = to === book.segments.length ? book.tail : '';
  return book.head + standInPages(state) + body + tail + placeholderPages(standIns(state.lastPage), foreign, exported);
}

/** The state after a chunk, from its probe. */
export function nextState(book: TypstBook, from: number, to: number, state: ChunkState, probe: ChunkProbe): ChunkState {
  const d = standIns(state.lastPage);
  const heads = [...state.heads];
  for (const s of book.segments.slice(from, to)) {
    for (const e of s.toc) {
      const level = e.match(/^\(level: (\d)/)?.[1];
      const at = heads.findIndex((h) => h.startsWith(`(level: ${level},`));
      if (at >= 0) heads.splice(at, 1);
      heads.push(e);
    }
  }
  return { lastPage: state.lastPage + (probe.end - 1 - d), footnote: probe.footnote, secondary: probe.secondary, heads };
}

/** Labels a piece of source defines (`<amuse-…>` anchors) and refers to (`label("amuse-…")`). */
export function labelsOf(source: string): { defined: Set<string>; used: Set<string>; pageRefs: Set<string> } {
  const unescape = (s: string) => s.replace(/\\(.)/g, '$1');
  const defined = new Set([...source.matchAll(/(?<!\\)<(amuse-[^>\s]+)>/g)].map((m) => m[1]));
  const used = new Set([...source.matchAll(/label\("(amuse-(?:[^"\\]|\\.)*)"\)/g)].map((m) => unescape(m[1])));
  const pageRefs = new Set([...source.matchAll(/counter\(page\)\.at\(label\("(amuse-(?:[^"\\]|\\.)*)"\)\)/g)].map((m) => unescape(m[1])));
  return { defined, used, pageRefs };
}
