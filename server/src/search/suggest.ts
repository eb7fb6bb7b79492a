// Suggest as you type: titles and authors whose words start with what was typed, in any search form
// (folded, and in Latin letters for Cyrillic and Greek). One key per word start of each title and
// author name, in buckets by their first two characters; a bucket is sorted when first asked for and
// searched by binary search. A changed or removed entry's old keys are skipped by version, and
// everything is rebuilt once they are many.
import { foldedWords, searchForms } from '@uc/shared';
import type { IndexDoc } from './doc.ts';
import type { SnapshotPart } from './snapshot-part.ts';

/** Word starts indexed per title or name (later words are rarely typed first). */
const MAX_STARTS = 6;
/** Keys read per request at most (a short prefix can match very many). */
const MAX_SCAN = 4000;

export interface SuggestCandidate { type: 'title' | 'author'; id: number; value: string; whole: boolean }

/** Keys starting with the same two characters; `refs`: an entry id, or -id - 1 for an author; `meta`: version * 2 + (1 when the key starts at the first word). */
interface Bucket { keys: string[]; refs: number[]; meta: number[]; sorted: boolean }

export class SuggestIndex {
  private titles = new Map<number, { title: string; author: string | null }>();
  private authors = new Map<number, string>();
  private version = new Map<number, number>();
  private buckets = new Map<string, Bucket>();
  private keyCount = 0;
  /** Keys written for versions that are no longer current (approximate). */
  private stale = 0;
  /** Refs whose keys are still to be written. */
  private pending = new Set<number>();
  /** Heads of the buckets written to since they were last sorted (an idle `step` looks at these only). */
  private unsorted = new Set<string>();

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

  /**
   * What the snapshot keeps (search/snapshot.ts): the titles and authors; the keys are written again
   * after a restore, in `step`'s slices, as after a start from the documents.
   */
  snapshot(): SnapshotPart {
    return {
      meta: {
        titles: [...this.titles].map(([id, t]) => [id, t.title, t.author]),
        authors: [...this.authors],
      },
      arrays: {},
    };
  }

  /** Replaces everything with a snapshot's titles and authors (keys pending, as after a start). */
  restore(part: SnapshotPart): void {
    const meta = part.meta as { titles: [number, string, string | null][]; authors: [number, string][] };
    this.titles = new Map(meta.titles.map(([id, title, author]) => [id, { title, author }]));
    this.authors = new Map(meta.authors);
    this.version = new Map();
    this.startOver();
  }

  titleOf(entryId: number) {
    return this.titles.get(entryId);
  }

  private bump(ref: number) {
    const v = (this.version.get(ref) ?? 0) + 1;
    this.version.set(ref, v);
    if (v > 1 && !this.pending.has(ref)) this.stale += 4;
    this.pending.add(ref);
  }

  private write(ref: number) {
    const text = ref < 0 ? this.authors.get(-ref - 1) : this.titles.get(ref)?.title;
    if (text === undefined) return;
    const ver = this.version.get(ref) ?? 0;
    for (const form of searchForms(text)) {
      const words = foldedWords(form);
      const joined = words.join(' ');
      for (let i = 0, at = 0; i < Math.min(words.length, MAX_STARTS); at += words[i].length + 1, i++) {
        const key = joined.slice(at);
        if (key.length < 2) continue;
        const head = key.slice(0, 2);
        let b = this.buckets.get(head);
        if (!b) this.buckets.set(head, (b = { keys: [], refs: [], meta: [], sorted: true }));
        b.keys.push(key);
        b.refs.push(ref);
        b.meta.push(ver * 2 + (i === 0 ? 1 : 0));
        b.sorted = false;
        this.unsorted.add(head);
        this.keyCount++;
      }
    }
  }

  private refresh(): void {
    if (this.pending.size === 0) return;
    if (this.tooStale()) this.startOver();
    for (const ref of this.pending) this.write(ref);
    this.pending.clear();
  }

  private tooStale(): boolean {
    return this.stale > Math.max(20000, this.keyCount / 2);
  }

  /** Drops every key and makes every title and author pending (written by `step`'s slices or the next request). */
  private startOver(): void {
    this.buckets.clear();
    this.unsorted.clear();
    this.keyCount = 0;
    this.stale = 0;
    this.pending.clear();
    for (const id of this.titles.keys()) this.pending.add(id);
    for (const id of this.authors.keys()) this.pending.add(-id - 1);
  }

  /**
   * Does up to `ms` of the work the next request would do (writing pending keys, then sorting buckets);
   * true when nothing is left. A server calls it between requests after start, so the first keystroke
   * does not wait for a million titles.
   */
  step(ms: number): boolean {
    const until = performance.now() + ms;
    if (this.tooStale()) this.startOver(); // rebuilt in slices too, not in one go
    let n = 0;
    for (const ref of this.pending) {
      this.write(ref);
      this.pending.delete(ref);
      if (++n % 256 === 0 && performance.now() > until) return false;
    }
    for (const head of this.unsorted) {
      this.sortedBucket(head);
      if (performance.now() > until) return false;
    }
    return true;
  }

  private sortedBucket(head: string): Bucket | undefined {
    this.unsorted.delete(head);
    const b = this.buckets.get(head);
    if (!b || b.sorted) return b;
    const { keys, refs, meta } = b;
    const order = Array.from(keys.keys()).sort((x, y) => (keys[x] < keys[y] ? -1 : keys[x] > keys[y] ? 1 : x - y));
    b.keys = order.map((i) => keys[i]);
    b.refs = order.map((i) => refs[i]);
    b.meta = order.map((i) => meta[i]);
    b.sorted = true;
    return b;
  }

  /** Titles and authors having a word that starts with `typed` (each once). */
  candidates(typed: string): SuggestCandidate[] {
    this.refresh();
    const byRef = new Map<number, SuggestCandidate>();
    for (const form of searchForms(typed)) {
      const prefix = foldedWords(form).join(' ');
      if (prefix.length < 2) continue;
      const b = this.sortedBucket(prefix.slice(0, 2));
      if (b) this.scan(b, prefix, byRef);
    }
    return [...byRef.values()];
  }

  private scan({ keys, refs, meta }: Bucket, prefix: string, byRef: Map<number, SuggestCandidate>) {
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo, n = 0; i < keys.length && n < MAX_SCAN && keys[i].startsWith(prefix); i++, n++) {
      const ref = refs[i];
      if (meta[i] >> 1 !== (this.version.get(ref) ?? 0)) continue; // written before a change
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
        const t = this.titles.get(ref);
        if (t) byRef.set(ref, { type: 'title', id: ref, value: t.title, whole });
      }
    }
  }
}
