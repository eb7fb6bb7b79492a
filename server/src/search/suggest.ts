// Suggest as you type: titles and authors whose words start with what was typed, in any search form
// (folded, and in Latin letters for Cyrillic and Greek). A sorted array of keys, one per word start of
// each title and author name, found by binary search; rebuilt after the index changes.
import { foldedWords, searchForms } from '@uc/shared';
import type { IndexDoc } from './doc.ts';

/** Word starts indexed per title or name (later words are rarely typed first). */
const MAX_STARTS = 6;
/** Keys read per request at most (a short prefix can match very many). */
const MAX_SCAN = 4000;

export interface SuggestCandidate { type: 'title' | 'author'; id: number; value: string; whole: boolean }

export class SuggestIndex {
  private titles = new Map<number, { title: string; author: string | null }>();
  private authors = new Map<number, string>();
  private keys: string[] = [];
  /** Per key: the id, negative for authors (-id - 1). */
  private refs = new Int32Array(0);
  /** Per key: 1 when it starts at the first word. */
  private starts = new Uint8Array(0);
  private dirty = true;

  put(doc: Pick<IndexDoc, 'entry_id' | 'title' | 'creator'>): void {
    this.titles.set(doc.entry_id, { title: doc.title, author: doc.creator[0]?.value ?? null });
    for (const c of doc.creator) this.authors.set(c.id, c.value);
    this.dirty = true;
  }

  remove(entryId: number): void {
    if (this.titles.delete(entryId)) this.dirty = true;
  }

  titleOf(entryId: number) {
    return this.titles.get(entryId);
  }

  private build(): void {
    const rows: [string, number, number][] = [];
    const add = (text: string, ref: number) => {
      for (const form of searchForms(text)) {
        const words = foldedWords(form);
        for (let i = 0; i < Math.min(words.length, MAX_STARTS); i++) rows.push([words.slice(i).join(' '), ref, i === 0 ? 1 : 0]);
      }
    };
    for (const [id, t] of this.titles) add(t.title, id);
    for (const [id, name] of this.authors) add(name, -id - 1);
    rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.keys = rows.map((r) => r[0]);
    this.refs = Int32Array.from(rows, (r) => r[1]);
    this.starts = Uint8Array.from(rows, (r) => r[2]);
    this.dirty = false;
  }

  /** Titles and authors having a word that starts with `typed` (each once), in key order. */
  candidates(typed: string): SuggestCandidate[] {
    if (this.dirty) this.build();
    const byRef = new Map<number, SuggestCandidate>();
    for (const form of searchForms(typed)) {
      const prefix = foldedWords(form).join(' ');
      if (prefix.length < 2) continue;
      const keys = this.keys;
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (keys[mid] < prefix) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo, n = 0; i < keys.length && n < MAX_SCAN && keys[i].startsWith(prefix); i++, n++) {
        const ref = this.refs[i];
        const whole = this.starts[i] === 1;
        const known = byRef.get(ref);
        if (known) {
          known.whole ||= whole;
          continue;
        }
        byRef.set(ref, ref < 0
          ? { type: 'author', id: -ref - 1, value: this.authors.get(-ref - 1)!, whole }
          : { type: 'title', id: ref, value: this.titles.get(ref)!.title, whole });
      }
    }
    return [...byRef.values()];
  }
}
