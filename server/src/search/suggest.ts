// Suggest as you type: titles and authors whose words start with what was typed, in any search form
// (folded, and in Latin letters for Cyrillic and Greek). One key per word start of each title and
// author name, in buckets by their first two characters; a bucket is sorted when first asked for and
// searched by binary search. A changed or removed entry's old keys are skipped by version, and
// everything is rebuilt once they are many.
//
// Layout (issue 28, memory per entry): no string per key. Each title's or name's folded words are
// written once into one byte buffer (`text`, each ending with a 0 byte); a key is the offset of a word
// start in it and runs to that 0. A bucket is three typed arrays (offset, ref, version). The bytes
// encode each UTF-16 code unit the way UTF-8 encodes a code point, so comparing bytes orders keys
// exactly as comparing the strings did. Titles and names for the answers are kept in TextPools.
import { foldedWords, searchForms } from '@uc/shared';
import type { IndexDoc } from './doc.ts';
import type { SnapshotPart } from './snapshot-part.ts';
import { TextPool } from './text-pool.ts';
import { afterLeadingElision } from './analysis.ts';

/** Word starts indexed per title or name (later words are rarely typed first). */
const MAX_STARTS = 6;
/** Keys read per request at most (a short prefix can match very many). */
const MAX_SCAN = 4000;
/** Refs written between looks at the clock in `step`. */
const STEP_BATCH = 256;

export interface SuggestCandidate { type: 'title' | 'author'; id: number; value: string; whole: boolean }

/**
 * Keys starting with the same two characters: `off` into `text`; `ref`: an entry id, or -id - 1 for an
 * author; `meta`: version * 2 + (1 when the key starts at the first word). The first `sorted` keys are
 * in key order (ties: order of writing); later ones were appended since.
 */
interface Bucket { off: Uint32Array; ref: Int32Array; meta: Int32Array; n: number; sorted: number }

/** Writes `s` at `at` (one to three bytes per UTF-16 code unit, order-preserving); answers the end. */
function encode(s: string, out: Uint8Array, at: number): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) out[at++] = c;
    else if (c < 0x800) {
      out[at++] = 0xc0 | (c >> 6);
      out[at++] = 0x80 | (c & 63);
    } else {
      out[at++] = 0xe0 | (c >> 12);
      out[at++] = 0x80 | ((c >> 6) & 63);
      out[at++] = 0x80 | (c & 63);
    }
  }
  return at;
}

function grown<T extends Uint32Array | Int32Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a.subarray(0, Math.min(a.length, size)));
  return b;
}

export class SuggestIndex {
  private titles = new TextPool();
  /** Per entry id: its first author's id (-1: none), whose name is the detail of a title's suggestion. */
  private firstAuthor: Int32Array = new Int32Array(0);
  private authors = new TextPool();
  /** Versions per entry id and per author id (0: never put). */
  private entryVersion = new Int32Array(0);
  private authorVersion = new Int32Array(0);
  private text = new Uint8Array(0);
  private textUsed = 0;
  private buckets = new Map<string, Bucket>();
  private keyCount = 0;
  /** Keys written for versions that are no longer current (approximate). */
  private stale = 0;
  /** Refs changed since they were written, whose keys are still to be written. */
  private pending = new Set<number>();
  /**
   * A full build in progress (after a start or a rebuild): the next entry id, then the next author id,
   * whose keys are to be written; refs beyond it need no pending mark. Null when none is.
   */
  private build: { entry: number; author: number } | null = null;
  /** Heads of the buckets written to since they were last sorted (an idle `step` looks at these only). */
  private unsorted = new Set<string>();

  put(doc: Pick<IndexDoc, 'entry_id' | 'title' | 'creator'>): void {
    const id = doc.entry_id;
    this.titles.set(id, doc.title);
    if (id >= this.firstAuthor.length) this.firstAuthor = grown(this.firstAuthor, Math.max(id + 1, this.firstAuthor.length * 2, 1024));
    this.firstAuthor[id] = doc.creator[0]?.id ?? -1;
    this.bump(id);
    for (const c of doc.creator) {
      if (this.authors.get(c.id) === c.value) continue;
      this.authors.set(c.id, c.value);
      this.bump(-c.id - 1);
    }
  }

  remove(entryId: number): void {
    if (this.titles.delete(entryId)) this.bump(entryId);
  }

  /**
   * What the snapshot keeps (search/snapshot.ts): the titles and authors; the keys are written again
   * after a restore, in `step`'s slices, as after a start from the documents.
   */
  snapshot(): SnapshotPart {
    const t = this.titles.parts();
    const a = this.authors.parts();
    return {
      meta: { titles: t.meta, authors: a.meta },
      arrays: {
        title_start: t.arrays.start, title_len: t.arrays.len, title_text: t.arrays.text,
        author_start: a.arrays.start, author_len: a.arrays.len, author_text: a.arrays.text,
        first_author: this.firstAuthor,
      },
    };
  }

  /** Replaces everything with a snapshot's titles and authors (keys pending, as after a start). */
  restore(part: SnapshotPart): void {
    const meta = part.meta as { titles: Parameters<typeof TextPool.from>[0]; authors: Parameters<typeof TextPool.from>[0] };
    const arr = part.arrays as Record<string, Uint32Array & Int32Array & Uint8Array>;
    this.titles = TextPool.from(meta.titles, { start: arr.title_start, len: arr.title_len, text: arr.title_text });
    this.authors = TextPool.from(meta.authors, { start: arr.author_start, len: arr.author_len, text: arr.author_text });
    this.firstAuthor = arr.first_author;
    this.entryVersion = new Int32Array(0);
    this.authorVersion = new Int32Array(0);
    this.startOver();
  }

  titleOf(entryId: number): { title: string; author: string | null } | undefined {
    const title = this.titles.get(entryId);
    if (title === undefined) return undefined;
    const a = this.firstAuthor[entryId];
    return { title, author: a >= 0 ? this.authors.get(a) ?? null : null };
  }

  private versionOf(ref: number): number {
    if (ref >= 0) return ref < this.entryVersion.length ? this.entryVersion[ref] : 0;
    const a = -ref - 1;
    return a < this.authorVersion.length ? this.authorVersion[a] : 0;
  }

  private bump(ref: number) {
    let v: number;
    if (ref >= 0) {
      if (ref >= this.entryVersion.length) this.entryVersion = grown(this.entryVersion, Math.max(ref + 1, this.entryVersion.length * 2, 1024));
      v = ++this.entryVersion[ref];
    } else {
      const a = -ref - 1;
      if (a >= this.authorVersion.length) this.authorVersion = grown(this.authorVersion, Math.max(a + 1, this.authorVersion.length * 2, 1024));
      v = ++this.authorVersion[a];
    }
    if (this.ahead(ref)) return; // the build writes it with its current version
    if (v > 1 && !this.pending.has(ref)) this.stale += 4;
    this.pending.add(ref);
  }

  /** The running build has not reached this ref yet. */
  private ahead(ref: number): boolean {
    const b = this.build;
    if (!b) return false;
    if (ref >= 0) return ref >= b.entry;
    return b.entry !== Infinity || -ref - 1 >= b.author; // authors come after every entry
  }

  private write(ref: number) {
    const text = ref < 0 ? this.authors.get(-ref - 1) : this.titles.get(ref);
    if (text === undefined) return;
    const ver = this.versionOf(ref);
    for (const form of searchForms(text)) {
      const words = foldedWords(form);
      if (!words.length) continue;
      let chars = -1;
      for (const w of words) chars += w.length + 1;
      if (this.textUsed + chars * 3 + 1 > this.text.length) {
        const t = new Uint8Array(Math.max(Math.ceil(this.text.length * 1.25), this.textUsed + chars * 3 + 1, 1 << 16));
        t.set(this.text.subarray(0, this.textUsed));
        this.text = t;
      }
      // The joined words, and a key at each of the first word starts that leaves two characters or more.
      let at = this.textUsed;
      let left = chars;
      for (let i = 0; i < words.length; i++) {
        if (i < MAX_STARTS && left >= 2) {
          const head = words[i].length >= 2 ? words[i].slice(0, 2) : `${words[i]} `; // a one-letter word has a next one
          this.add(head, at, ref, ver * 2 + (i === 0 ? 1 : 0));
        }
        at = encode(words[i], this.text, at);
        left -= words[i].length + 1;
        if (i < words.length - 1) this.text[at++] = 32;
      }
      this.text[at++] = 0;
      this.textUsed = at;
    }
  }

  private add(head: string, off: number, ref: number, meta: number) {
    let b = this.buckets.get(head);
    if (!b) this.buckets.set(head, (b = { off: new Uint32Array(8), ref: new Int32Array(8), meta: new Int32Array(8), n: 0, sorted: 0 }));
    if (b.n === b.off.length) {
      const cap = b.n * 2;
      b.off = grown(b.off, cap);
      b.ref = grown(b.ref, cap);
      b.meta = grown(b.meta, cap);
    }
    b.off[b.n] = off;
    b.ref[b.n] = ref;
    b.meta[b.n] = meta;
    b.n++;
    this.unsorted.add(head);
    this.keyCount++;
  }

  /** Writes up to `limit` refs of the running build and then of `pending`; answers how many were written. */
  private writeSome(limit: number): number {
    let n = 0;
    const b = this.build;
    if (b) {
      for (const cap = this.titles.capacity; b.entry < cap && n < limit; b.entry++) if (this.titles.has(b.entry)) { this.write(b.entry); n++; }
      if (b.entry >= this.titles.capacity) b.entry = Infinity;
      for (const cap = this.authors.capacity; b.entry === Infinity && b.author < cap && n < limit; b.author++) if (this.authors.has(b.author)) { this.write(-b.author - 1); n++; }
      if (b.entry === Infinity && b.author >= this.authors.capacity) this.build = null;
    }
    for (const ref of this.pending) {
      if (n >= limit) break;
      this.write(ref);
      this.pending.delete(ref);
      n++;
    }
    return n;
  }

  private refresh(): void {
    if (this.tooStale()) this.startOver();
    while (this.writeSome(Infinity) > 0);
  }

  private tooStale(): boolean {
    return this.stale > Math.max(20000, this.keyCount / 2);
  }

  /** Drops every key and starts a build of every title and author (written by `step`'s slices or the next request). */
  private startOver(): void {
    this.buckets.clear();
    this.unsorted.clear();
    this.text = new Uint8Array(0);
    this.textUsed = 0;
    this.keyCount = 0;
    this.stale = 0;
    this.pending.clear();
    this.build = { entry: 0, author: 0 };
  }

  /**
   * Does up to `ms` of the work the next request would do (writing pending keys, then sorting buckets);
   * true when nothing is left. A server calls it between requests after start, so the first keystroke
   * does not wait for a million titles.
   */
  step(ms: number): boolean {
    const until = performance.now() + ms;
    if (this.tooStale()) this.startOver(); // rebuilt in slices too, not in one go
    while (this.writeSome(STEP_BATCH) > 0) if (performance.now() > until) return false;
    for (const head of this.unsorted) {
      this.sortedBucket(head);
      if (performance.now() > until) return false;
    }
    return true;
  }

  /** Compares the keys at two offsets of `text` (negative: a first). */
  private compare(a: number, b: number): number {
    const t = this.text;
    for (;;) {
      const x = t[a++];
      const y = t[b++];
      if (x !== y) return x - y;
      if (x === 0) return 0;
    }
  }

  /** The bucket with its appended keys sorted and merged in (a stable merge: ties keep the order of writing). */
  private sortedBucket(head: string): Bucket | undefined {
    this.unsorted.delete(head);
    const b = this.buckets.get(head);
    if (!b || b.sorted === b.n) return b;
    const { off, ref, meta, n, sorted } = b;
    const tail = new Uint32Array(n - sorted);
    for (let i = 0; i < tail.length; i++) tail[i] = sorted + i;
    tail.sort((x, y) => this.compare(off[x], off[y]) || x - y);
    const o = new Uint32Array(n);
    const r = new Int32Array(n);
    const m = new Int32Array(n);
    let i = 0;
    let j = 0;
    for (let k = 0; k < n; k++) {
      const src = j >= tail.length || (i < sorted && this.compare(off[i], off[tail[j]]) <= 0) ? i++ : tail[j++];
      o[k] = off[src];
      r[k] = ref[src];
      m[k] = meta[src];
    }
    b.off = o;
    b.ref = r;
    b.meta = m;
    b.sorted = n;
    return b;
  }

  /** Titles and authors having a word that starts with `typed` (each once). */
  candidates(typed: string): SuggestCandidate[] {
    this.refresh();
    const byRef = new Map<number, SuggestCandidate>();
    for (const form of searchForms(typed)) {
      const words = foldedWords(form);
      // As a query does (search/analysis.ts): "l'éco" is also "éco", where a title has no article.
      const elided = afterLeadingElision(typed, words);
      for (const prefix of elided ? [words.join(' '), elided.join(' ')] : [words.join(' ')]) {
        if (prefix.length < 2) continue;
        const b = this.sortedBucket(prefix.slice(0, 2));
        if (!b) continue;
        const p = new Uint8Array(prefix.length * 3);
        this.scan(b, p.subarray(0, encode(prefix, p, 0)), byRef);
      }
    }
    return [...byRef.values()];
  }

  /** 0 when the key at `off` starts with `p`; else negative when it sorts before `p`, positive after. */
  private against(off: number, p: Uint8Array): number {
    const t = this.text;
    for (let k = 0; k < p.length; k++) {
      const x = t[off + k];
      if (x !== p[k]) return x - p[k];
    }
    return 0;
  }

  private scan({ off, ref: refs, meta, n }: Bucket, prefix: Uint8Array, byRef: Map<number, SuggestCandidate>) {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.against(off[mid], prefix) < 0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo, seen = 0; i < n && seen < MAX_SCAN && this.against(off[i], prefix) === 0; i++, seen++) {
      const ref = refs[i];
      if (meta[i] >> 1 !== this.versionOf(ref)) continue; // written before a change
      const whole = (meta[i] & 1) === 1;
      const known = byRef.get(ref);
      if (known) {
        known.whole ||= whole;
        continue;
      }
      if (ref < 0) {
        const name = this.authors.get(-ref - 1);
        if (name !== undefined) byRef.set(ref, { type: 'author', id: -ref - 1, value: name, whole });
      } else {
        const title = this.titles.get(ref);
        if (title !== undefined) byRef.set(ref, { type: 'title', id: ref, value: title, whole });
      }
    }
  }
}
