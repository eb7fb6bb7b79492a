// The catalogue's own words (titles, subtitles, author names, in every search form) for "Did you mean …?":
// a misspelt word is replaced by the closest known word. Only grows between restarts: a word whose last
// entry went away can still be proposed, but a suggestion is only offered when it finds something.
import { foldedWords, searchForms } from '@uc/shared';
import type { IndexDoc } from './doc.ts';

/** Words shorter than this are never corrected (too many neighbours). */
const MIN_LENGTH = 4;

export class Vocabulary {
  /** Entries per word (approximate: an entry indexed twice counts twice). */
  private df = new Map<string, number>();
  private byLength: string[][] = [];

  add(doc: Pick<IndexDoc, 'title' | 'subtitle' | 'creator'>): void {
    const text = [doc.title, doc.subtitle, ...doc.creator.map((c) => c.value)].join(' \n ');
    const words = new Set(searchForms(text).flatMap(foldedWords));
    for (const w of words) {
      if (w.length < MIN_LENGTH - 1 || /\d/.test(w)) continue;
      const n = this.df.get(w);
      if (n === undefined) (this.byLength[w.length] ??= []).push(w);
      this.df.set(w, (n ?? 0) + 1);
    }
  }

  has(word: string): boolean {
    return this.df.has(word);
  }

  /**
   * The known word closest to `word` (optimal string alignment distance: a swap of two neighbouring
   * letters counts once), at most 1 edit for words of 4-5 letters and 2 for longer ones; ties go to
   * the more frequent word. Null when nothing is close enough.
   */
  closest(word: string): string | null {
    const len = [...word].length;
    if (len < MIN_LENGTH) return null;
    const max = len <= 5 ? 1 : 2;
    let best: string | null = null;
    let bestDist = max + 1;
    let bestDf = 0;
    for (let l = Math.max(1, len - max); l <= len + max; l++) {
      for (const cand of this.byLength[l] ?? []) {
        const limit = Math.min(bestDist, max);
        const d = distance(word, cand, limit);
        if (d > limit) continue;
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

/** Optimal string alignment distance, or max + 1 as soon as it must exceed max. */
export function distance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m];
}
