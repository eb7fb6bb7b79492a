// The search's pass over every entry id, kept apart from the service: small monomorphic functions over
// typed arrays are what V8 compiles best (inside the service's long method the same loop ran ~10x slower).
import type { FacetColumn } from './memory-index.ts';

export interface ActiveFilter {
  column: FacetColumn;
  /** 1 at each dictionary code the filter accepts. */
  codes: Uint8Array;
  /** The facet the filter belongs to (-1: none). */
  facetIndex: number;
}

export interface ScanInput {
  capacity: number;
  present: Uint8Array;
  /** The query's match set (null: every entry). */
  candidates: Uint8Array | null;
  /** The viewer's own exclusions (null: none). */
  hidden: ((id: number) => boolean) | null;
  library: FacetColumn;
  /** 1 at each library code the viewer may see. */
  libVisible: Uint8Array;
  active: ActiveFilter[];
  facets: number;
  /** Where to write the results (at least `capacity` long; reused between searches to spare the GC). */
  out?: Int32Array;
}

export interface ScanResult {
  /** Visible entries passing every filter, in id order. */
  results: Int32Array;
  /** Per facet: visible entries failing only that facet's filter (they count for that facet alone). */
  partial: Int32Array[];
}

/** Visible entries of the match set, split into those passing every active filter and those failing one. */
export function scanEntries(input: ScanInput): ScanResult {
  const { capacity, present, candidates, hidden, library, libVisible, active } = input;
  const out = input.out && input.out.length >= capacity ? input.out : new Int32Array(capacity);
  const partial: number[][] = Array.from({ length: input.facets }, () => []);
  const lStart = library.start;
  const lLen = library.len;
  const lPool = library.pool;
  let n = 0;
  for (let id = 0; id < capacity; id++) {
    if (present[id] === 0 || (candidates !== null && candidates[id] === 0)) continue;
    if (hidden !== null && hidden(id)) continue;
    // Visible when at least one holding library is visible to the viewer.
    let visible = false;
    for (let i = lStart[id], e = i + lLen[id]; i < e; i++) {
      if (libVisible[lPool[i]] === 1) {
        visible = true;
        break;
      }
    }
    if (!visible) continue;
    if (active.length === 0) {
      out[n++] = id;
      continue;
    }
    let failed = 0;
    let failedIndex = -1;
    for (let j = 0; j < active.length; j++) {
      const { column, codes } = active[j];
      let ok = false;
      for (let i = column.start[id], e = i + column.len[id]; i < e; i++) {
        if (codes[column.pool[i]] === 1) {
          ok = true;
          break;
        }
      }
      if (!ok) {
        failedIndex = j;
        if (++failed > 1) break;
      }
    }
    if (failed === 0) out[n++] = id;
    else if (failed === 1 && active[failedIndex].facetIndex >= 0) partial[active[failedIndex].facetIndex].push(id);
  }
  return { results: out.subarray(0, n), partial: partial.map((list) => Int32Array.from(list)) };
}

/** Adds one facet's counts over the given entries (`only`: count only the codes marked 1, the visible libraries). */
export function countFacet(column: FacetColumn, ids: Int32Array, counts: Int32Array, only: Uint8Array | null): void {
  if (only === null) countAll(column.start, column.len, column.pool, ids, counts);
  else countOnly(column.start, column.len, column.pool, ids, counts, only);
}

function countAll(start: Int32Array, len: Uint16Array, pool: Int32Array, ids: Int32Array, counts: Int32Array): void {
  for (let r = 0; r < ids.length; r++) {
    const id = ids[r];
    for (let i = start[id], e = i + len[id]; i < e; i++) counts[pool[i]]++;
  }
}

function countOnly(start: Int32Array, len: Uint16Array, pool: Int32Array, ids: Int32Array, counts: Int32Array, only: Uint8Array): void {
  for (let r = 0; r < ids.length; r++) {
    const id = ids[r];
    for (let i = start[id], e = i + len[id]; i < e; i++) if (only[pool[i]] === 1) counts[pool[i]]++;
  }
}
