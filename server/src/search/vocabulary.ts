// The catalogue's own words (titles, subtitles, author names, in every search form) for "Did you mean …?":
// a misspelt word is replaced by the closest known word. Only grows between restarts: a word whose last
// entry went away can still be proposed, but a suggestion is only offered when it finds something.
// Texts are folded into words lazily, on the first lookup after they were added (start-up stays fast).
// A word is known to a viewer who may see an entry holding it (issue 27, item 7): a word found only on
// entries that only private libraries hold is neither proposed to nor recognised for anyone else, so
// "Did you mean" cannot name (nor a query probe) what those libraries hold.
import { foldedWords, searchForms } from '@uc/shared';
import type { IndexDoc } from './doc.ts';
import type { SnapshotPart } from './snapshot-part.ts';

/** Words shorter than this are never corrected (too many neighbours). */
const MIN_LENGTH = 4;
const MAX_WORD = 64;

/** Which letters a word has, as 32 bits (a-z, others hashed): each edit changes at most two bits. */
function letterMask(w: string): number {
  let m = 0;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    m |= 1 << (c >= 97 && c <= 122 ? c - 97 : 26 + (c % 6));
  }
  return m;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Who may see the entry a text comes from: null, anyone (a copy in an active public library); else the
 * active private libraries holding it (none: an entry nobody may see, e.g. of inactive libraries only).
 */
export type WordScope = readonly number[] | null;

export class Vocabulary {
  /** Entries per word (approximate: an entry indexed twice counts twice). */
  private df = new Map<string, number>();
  /**
   * Words not (yet) seen on an entry anyone may see, with the private libraries of the entries they were
   * seen on. Few words (a map; a public word is never looked up in it beyond one `get`).
   */
  private privateOnly = new Map<string, Set<number>>();
  private byLength: { words: string[]; masks: number[] }[] = [];
  private pending: { text: string; scope: WordScope }[] = [];

  add(doc: Pick<IndexDoc, 'title' | 'subtitle' | 'creator'>, scope: WordScope = null): void {
    this.pending.push({ text: [doc.title, doc.subtitle, ...doc.creator.map((c) => c.value)].join(' \n '), scope });
  }

  /**
   * The search snapshot's share (search/snapshot.ts): every word in its length bucket's order (ties in
   * `closest` go the same way after a restore), its count, and the private-only words' libraries.
   * Pending texts are folded first.
   */
  snapshot(): SnapshotPart {
    this.flush();
    const words: string[] = [];
    const letters: number[] = [];
    for (const bucket of this.byLength) {
      if (!bucket) continue;
      for (let k = 0; k < bucket.words.length; k++) {
        words.push(bucket.words[k]);
        letters.push(bucket.masks[k]);
      }
    }
    const counts = new Int32Array(words.length);
    for (let k = 0; k < words.length; k++) counts[k] = this.df.get(words[k]) ?? 0;
    return {
      meta: { words: words.join('\n'), privateOnly: [...this.privateOnly].map(([w, libs]) => [w, [...libs]]) },
      arrays: { counts, masks: Int32Array.from(letters) },
    };
  }

  /** Replaces everything with a snapshot's share. */
  restore(part: SnapshotPart): void {
    const meta = part.meta as { words: string; privateOnly: [string, number[]][] };
    const counts = part.arrays.counts as Int32Array;
    const masks = part.arrays.masks as Int32Array | undefined;
    const words = meta.words ? meta.words.split('\n') : [];
    this.df = new Map();
    this.byLength = [];
    this.pending = [];
    for (let k = 0; k < words.length; k++) {
      const w = words[k];
      this.df.set(w, counts[k]);
      const bucket = (this.byLength[w.length] ??= { words: [], masks: [] });
      bucket.words.push(w);
      bucket.masks.push(masks ? masks[k] : letterMask(w));
    }
    this.privateOnly = new Map(meta.privateOnly.map(([w, libs]) => [w, new Set(libs)]));
  }

  /** No text is waiting to be folded into words (a snapshot then holds the event loop briefly). */
  get folded(): boolean {
    return this.pending.length === 0;
  }

  /** The word is on an entry a viewer who may see these private libraries may see. */
  private known(word: string, layers: ReadonlySet<number>): boolean {
    const libs = this.privateOnly.get(word);
    if (libs === undefined) return this.df.has(word);
    if (layers.size) for (const l of libs) if (layers.has(l)) return true;
    return false;
  }

  private flush(): void {
    this.step(Infinity);
  }

  /** Folds pending texts into words for about `ms` (between requests); true when none is left. */
  step(ms: number): boolean {
    const until = performance.now() + ms;
    let k = 0;
    for (; k < this.pending.length; k++) {
      if ((k & 63) === 63 && performance.now() > until) break;
      const { text, scope } = this.pending[k];
      const words = new Set(searchForms(text).flatMap(foldedWords));
      for (const w of words) {
        if (w.length < MIN_LENGTH - 1 || w.length > MAX_WORD || /\d/.test(w)) continue;
        const n = this.df.get(w);
        if (n === undefined) {
          const bucket = (this.byLength[w.length] ??= { words: [], masks: [] });
          bucket.words.push(w);
          bucket.masks.push(letterMask(w));
          if (scope !== null) this.privateOnly.set(w, new Set(scope));
        } else if (scope === null) this.privateOnly.delete(w);
        else {
          const libs = this.privateOnly.get(w);
          if (libs) for (const l of scope) libs.add(l);
        }
        this.df.set(w, (n ?? 0) + 1);
      }
    }
    this.pending = k === this.pending.length ? [] : this.pending.slice(k);
    return this.pending.length === 0;
  }

  /** `layers`: the private libraries the viewer may see (none: anonymous visitors and most users). */
  has(word: string, layers: ReadonlySet<number> = NO_LAYERS): boolean {
    this.flush();
    return this.known(word, layers);
  }

  /**
   * The known word closest to `word` (optimal string alignment distance: a swap of two neighbouring
   * letters counts once), at most 1 edit for words of 4-5 letters and 2 for longer ones; ties go to
   * the more frequent word. Null when nothing is close enough. Only words the viewer may see (`has`).
   */
  closest(word: string, layers: ReadonlySet<number> = NO_LAYERS): string | null {
    this.flush();
    const hidden = this.privateOnly.size > 0;
    const len = word.length;
    if (len < MIN_LENGTH || len > MAX_WORD) return null;
    const max = len <= 5 ? 1 : 2;
    const mask = letterMask(word);
    let best: string | null = null;
    let bestDist = max + 1;
    let bestDf = 0;
    for (let l = Math.max(1, len - max); l <= len + max; l++) {
      const bucket = this.byLength[l];
      if (!bucket) continue;
      const { words, masks } = bucket;
      for (let k = 0; k < words.length; k++) {
        const limit = Math.min(bestDist, max);
        if (popcount(masks[k] ^ mask) > 2 * limit) continue;
        const cand = words[k];
        const d = distance(word, cand, limit);
        if (d > limit) continue;
        if (hidden && !this.known(cand, layers)) continue;
        const df = this.df.get(cand)!;
        if (d < bestDist || df > bestDf) {
          best = cand;
          bestDist = d;
          bestDf = df;
        }
      }
    }
    return best;
  }
}

const NO_LAYERS: ReadonlySet<number> = new Set();

const rows = [new Int32Array(MAX_WORD + 3), new Int32Array(MAX_WORD + 3), new Int32Array(MAX_WORD + 3)];

/** Optimal string alignment distance, or max + 1 as soon as it must exceed max. */
export function distance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  if (m > MAX_WORD + 1) return max + 1;
  let [prev2, prev, cur] = rows;
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const cb = b.charCodeAt(j - 1);
      let v = prev[j - 1] + (ca === cb ? 0 : 1);
      if (prev[j] + 1 < v) v = prev[j] + 1;
      if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb && prev2[j - 2] + 1 < v) v = prev2[j - 2] + 1;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m];
}
