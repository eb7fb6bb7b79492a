// Suggest as you type: titles and authors whose words start with what was typed, in any search form
// (folded, and in Latin letters for Cyrillic and Greek). Sorted keys, one per word start of each title
// and author name, found by binary search. Changes go to a small sorted delta (rows of a changed or
// removed entry are skipped by version) until it grows large enough to rebuild everything.
import { foldedWords, searchForms } from '@uc/shared';
import type { IndexDoc } from './doc.ts';

/** Word starts indexed per title or name (later words are rarely typed first). */
const MAX_STARTS = 6;
/** Keys read per request and per array at most (a short prefix can match very many). */
const MAX_SCAN = 4000;

export interface SuggestCandidate { type: 'title' | 'author'; id: number; value: string; whole: boolean }

/** Key rows sorted by key; `ref` is an entry id, or -id - 1 for an author; `ver` its version when written. */
interface Rows { keys: string[]; refs: Int32Array; starts: Uint8Array; vers: Int32Array }
type Row = [key: string, ref: number, start: number, ver: number];

const EMPTY: Rows = { keys: [], refs: new Int32Array(0), starts: new Uint8Array(0), vers: new Int32Array(0) };

function toRows(rows: Row[]): Rows {
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    keys: rows.map((r) => r[0]),
    refs: Int32Array.from(rows, (r) => r[1]),
    starts: Uint8Array.from(rows, (r) => r[2]),
    vers: Int32Array.from(rows, (r) => r[3]),
  };
}

export class SuggestIndex {
  private titles = new Map<number, { title: string; author: string | null }>();
  private authors = new Map<number, string>();
  private version = new Map<number, number>();
  private main: Rows = EMPTY;
  private delta: Row[] = [];
  private deltaRows: Rows = EMPTY;
  /** Refs whose rows are still to be written. */
  private pending = new Set<number>();

  put(doc: Pick<IndexDoc, 'entry_id' | 'title' | 'creator'>): void {
    this.titles.set(doc.entry_id, { title: doc.title, author: doc.creator[0]?.value ?? null });
    this.bump(doc.entry_id);
    for (const c of doc.creator) {
      if (this.authors.get(c.id) === c.value) continue;
      this.authors.set(c.id, c.value);
      this.bump(-c.id - 1);
    }
  }

  remove(entryId: number): void {
    if (this.titles.delete(entryId)) this.bump(entryId);
  }

  titleOf(entryId: number) {
    return this.titles.get(entryId);
  }

  private bump(ref: number) {
    this.version.set(ref, (this.version.get(ref) ?? 0) + 1);
    this.pending.add(ref);
  }

  private rowsOf(ref: number, out: Row[]) {
    const text = ref < 0 ? this.authors.get(-ref - 1) : this.titles.get(ref)?.title;
    if (text === undefined) return;
    const ver = this.version.get(ref) ?? 0;
    for (const form of searchForms(text)) {
      const words = foldedWords(form);
      for (let i = 0; i < Math.min(words.length, MAX_STARTS); i++) out.push([words.slice(i).join(' '), ref, i === 0 ? 1 : 0, ver]);
    }
  }

  private refresh(): void {
    if (this.pending.size === 0) return;
    if (this.delta.length + this.pending.size * 4 > Math.max(20000, this.main.keys.length / 4)) {
      const rows: Row[] = [];
      for (const id of this.titles.keys()) this.rowsOf(id, rows);
      for (const id of this.authors.keys()) this.rowsOf(-id - 1, rows);
      this.main = toRows(rows);
      this.delta = [];
      this.deltaRows = EMPTY;
    } else {
      for (const ref of this.pending) this.rowsOf(ref, this.delta);
      this.deltaRows = toRows(this.delta);
    }
    this.pending.clear();
  }

  /** Titles and authors having a word that starts with `typed` (each once). */
  candidates(typed: string): SuggestCandidate[] {
    this.refresh();
    const byRef = new Map<number, SuggestCandidate>();
    for (const form of searchForms(typed)) {
      const prefix = foldedWords(form).join(' ');
      if (prefix.length < 2) continue;
      for (const rows of [this.main, this.deltaRows]) this.scan(rows, prefix, byRef);
    }
    return [...byRef.values()];
  }

  private scan({ keys, refs, starts, vers }: Rows, prefix: string, byRef: Map<number, SuggestCandidate>) {
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo, n = 0; i < keys.length && n < MAX_SCAN && keys[i].startsWith(prefix); i++, n++) {
      const ref = refs[i];
      if (vers[i] !== (this.version.get(ref) ?? 0)) continue; // written before a change
      const whole = starts[i] === 1;
      const known = byRef.get(ref);
      if (known) {
        known.whole ||= whole;
        continue;
      }
      if (ref < 0) {
        const name = this.authors.get(-ref - 1);
        if (name !== undefined) byRef.set(ref, { type: 'author', id: -ref - 1, value: name, whole });
      } else {
        const t = this.titles.get(ref);
        if (t) byRef.set(ref, { type: 'title', id: ref, value: t.title, whole });
      }
    }
  }
}
