// The order step of a search (sort_by): the ids of one page of the matches, by relevance, date or title.
import type { SortBy } from '@uc/shared';
import type { MemoryIndex } from './memory-index.ts';
import { firstByRelevance } from './top.ts';

/** Relevance pages ending within this many ranks are selected (a bounded heap); deeper ones sort every match. */
const TOP_SELECT_LIMIT = 2000;

/** A function giving the ids of one page (offset, size) of `results` in the requested order. */
export function orderMatches(index: MemoryIndex, results: Int32Array, sortBy: SortBy, scores: Float64Array | null): (offset: number, size: number) => number[] {
  const dk = index.dateKey;
  if (sortBy === 'relevance' && scores) {
    // Answers -1/0/1, never a difference of doubles: a double result is a heap allocation per call,
    // which at hundreds of thousands of matches made more garbage (and scavenges) than the rest.
    const before = (a: number, b: number) => {
      const sa = scores[a];
      const sb = scores[b];
      if (sa !== sb) return sa > sb ? -1 : 1;
      const da = dk[a];
      const db = dk[b];
      if (da !== db) return da > db ? -1 : 1;
      return b - a;
    };
    // Pages near the start (nearly every request) select their ranks instead of sorting every match.
    return (offset: number, size: number) => {
      if (offset + size > TOP_SELECT_LIMIT) return Array.from(results.sort(before).subarray(offset, offset + size));
      return firstByRelevance(results, offset + size, scores, dk).slice(offset);
    };
  }
  const byTitle = sortBy === 'title_asc' || sortBy === 'title_desc';
  const reverse = sortBy === 'title_desc';
  // Small sets: sort them. Large sets: walk the global order and keep members.
  if (results.length < 5000) {
    if (byTitle) results.sort(index.titleComparator());
    else results.sort((a, b) => dk[b] - dk[a] || b - a);
    if (reverse) results.reverse();
    return (offset: number, size: number) => Array.from(results.subarray(offset, offset + size));
  }
  const member = new Uint8Array(index.capacity);
  for (let i = 0; i < results.length; i++) member[results[i]] = 1;
  const global = byTitle ? index.titleOrder() : index.dateOrder();
  return (offset: number, size: number) => {
    const out: number[] = [];
    let seen = 0;
    const n = global.length;
    for (let i = 0; i < n && out.length < size; i++) {
      const id = global[reverse ? n - 1 - i : i];
      if (!member[id]) continue;
      if (seen++ >= offset) out.push(id);
    }
    return out;
  };
}
