/**
 * The first `k` of `ids` by relevance (score, then date, then id, each highest first), sorted, without
 * sorting them all: a bounded heap whose root is the last one kept. A relevance page of a query matching
 * hundreds of thousands of entries needs only its first few dozen ranks.
 *
 * The comparisons are written out over the typed arrays, not passed in as a comparator: a comparator's
 * double results were boxed on every call, about 25 MB of garbage (and its scavenges) for a wildcard
 * matching 345,000 entries at a million.
 */
export function firstByRelevance(ids: ArrayLike<number>, k: number, scores: Float64Array, dateKey: Float64Array): number[] {
  if (k <= 0) return [];
  const n = ids.length;
  const size = Math.min(k, n);
  // heap[0] is the worst of the kept ones.
  const heap = new Int32Array(size);
  let used = 0;
  /** True when a ranks after b. */
  const after = (a: number, b: number): boolean => {
    const sa = scores[a];
    const sb = scores[b];
    if (sa !== sb) return sa < sb;
    const da = dateKey[a];
    const db = dateKey[b];
    if (da !== db) return da < db;
    return a < b;
  };
  // The kept ones' lowest score: most of a large match set scores below it and is passed over on one
  // read of its score (ids come in order, so the reads are too) instead of a comparison with the root.
  let floor = -Infinity;
  for (let r = 0; r < n; r++) {
    const id = ids[r];
    if (scores[id] < floor) continue;
    if (used < size) {
      let i = used++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!after(id, heap[p])) break;
        heap[i] = heap[p];
        i = p;
      }
      heap[i] = id;
    } else if (after(heap[0], id)) {
      // Sift the newcomer down from the root.
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const rr = l + 1;
        const c = rr < size && after(heap[rr], heap[l]) ? rr : l;
        if (!after(heap[c], id)) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = id;
    }
    if (used === size) floor = scores[heap[0]];
  }
  return Array.from(heap).sort((a, b) => (after(a, b) ? 1 : after(b, a) ? -1 : 0));
}
