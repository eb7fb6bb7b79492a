/**
 * The first `k` of `ids` in the order `before` gives (negative: a goes first), sorted, without sorting
 * them all: a bounded heap whose root is the last one kept. A relevance page of a query matching
 * hundreds of thousands of entries needs only its first few dozen ranks.
 */
export function firstInOrder(ids: ArrayLike<number>, k: number, before: (a: number, b: number) => number): number[] {
  if (k <= 0) return [];
  if (ids.length <= k) return Array.from(ids).sort(before);
  // heap[0] is the worst of the kept ones: a max-heap under `before`.
  const heap: number[] = [];
  const worse = (i: number, j: number) => before(heap[i], heap[j]) > 0;
  const down = (i: number) => {
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < n && worse(l, top)) top = l;
      if (r < n && worse(r, top)) top = r;
      if (top === i) return;
      [heap[i], heap[top]] = [heap[top], heap[i]];
      i = top;
    }
  };
  for (let n = 0; n < ids.length; n++) {
    const id = ids[n];
    if (heap.length < k) {
      heap.push(id);
      for (let i = heap.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!worse(i, p)) break;
        [heap[i], heap[p]] = [heap[p], heap[i]];
        i = p;
      }
    } else if (before(id, heap[0]) < 0) {
      heap[0] = id;
      down(0);
    }
  }
  return heap.sort(before);
}
