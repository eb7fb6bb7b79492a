// The full-text layers of the search index (docs/architecture.md, "Search: what a viewer may find").
// An entry's row at rowid = entry id holds the text shared by the group (title, authors) and of its
// copies in active public libraries: what anyone may find. An entry with copies in an active private
// library has, per such library, a second row at rowid = library id * LAYER_STRIDE + entry id holding
// the same text plus that library's copies: found only by viewers who may see that library. A viewer's
// match is the public rows' matches and those of the layers of the private libraries they may see.
// No database imports here (the full-text builder thread reads LAYER_STRIDE).

/** Rowids of a library's layer start at its id times this (entry ids stay below it). */
export const LAYER_STRIDE = 2 ** 32;

/** The rowid of a library's layer row of an entry. */
export function layerRowid(libraryId: number, entryId: number): number {
  return libraryId * LAYER_STRIDE + entryId;
}

/** A rowid as SQLite binds it: a layer's (past 2^31) as a BigInt (better-sqlite3 binds a larger number as a REAL, which FTS5 refuses). */
export function sqliteRowid(rowid: number): number | bigint {
  return rowid > 0x7fffffff ? BigInt(rowid) : rowid;
}

/** The entry of a full-text rowid, and the library whose layer it is (0: the public row). */
export function splitRowid(rowid: number): { entryId: number; libraryId: number } {
  const libraryId = Math.floor(rowid / LAYER_STRIDE);
  return { entryId: rowid - libraryId * LAYER_STRIDE, libraryId };
}

type Answer = Uint8Array | string | null;
const bytesOf = (list: Answer): Uint8Array => (list === null ? new Uint8Array(0) : typeof list === 'string' ? Buffer.from(list, 'latin1') : list);

/**
 * The entry ids of a comma-separated rowid list holding layer rows: a public row counts, a layer row
 * only when its library is in `layers` (each entry once, in no particular order).
 */
export function parseLayeredIdList(list: Answer, layers: ReadonlySet<number>): Int32Array {
  const bytes = bytesOf(list);
  if (!bytes.length) return new Int32Array(0);
  const out: number[] = [];
  const seen = new Set<number>();
  let v = 0;
  const flush = () => {
    const { entryId, libraryId } = splitRowid(v);
    if ((libraryId === 0 || layers.has(libraryId)) && !seen.has(entryId)) {
      seen.add(entryId);
      out.push(entryId);
    }
    v = 0;
  };
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 44) flush();
    else v = v * 10 + (c - 48);
  }
  flush();
  return Int32Array.from(out);
}

/**
 * Adds the scores of a `rowid score` list (scores in millionths, see fts.ts) holding layer rows: an
 * entry found by several of its rows (public and layers the viewer may see) scores its best one.
 */
export function addLayeredRankList(list: Answer, scores: Float64Array, layers: ReadonlySet<number>, scale: number): void {
  const bytes = bytesOf(list);
  if (!bytes.length) return;
  const best = new Map<number, number>();
  let id = -1;
  let v = 0;
  let negative = false;
  const flush = () => {
    if (id < 0) id = v;
    else {
      const { entryId, libraryId } = splitRowid(id);
      if (libraryId === 0 || layers.has(libraryId)) {
        const score = (negative ? -v : v) / scale;
        const before = best.get(entryId);
        if (before === undefined || score > before) best.set(entryId, score);
      }
      id = -1;
    }
    v = 0;
    negative = false;
  };
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 32) flush();
    else if (c === 45) negative = true;
    else v = v * 10 + (c - 48);
  }
  flush();
  const n = scores.length;
  for (const [entryId, score] of best) if (entryId < n) scores[entryId] += score;
}
