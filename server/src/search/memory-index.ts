// In-memory columns of the search index: facet values per entry (for exact facet counts over any match
// set), visibility by library, and the global sort orders. Kept in step with search_docs via `seq`.
import { FILTER_NAMES, type FilterName } from '@uc/shared';
import type { IndexDoc } from './doc.ts';

/** Interns facet value ids (strings) as small integers; remembers a display term per value. */
export class Dictionary {
  readonly codeOf = new Map<string, number>();
  readonly ids: string[] = [];
  readonly terms: string[] = [];
  intern(id: string, term: string): number {
    let code = this.codeOf.get(id);
    if (code === undefined) {
      code = this.ids.length;
      this.codeOf.set(id, code);
      this.ids.push(id);
      this.terms.push(term);
    } else if (term) {
      this.terms[code] = term;
    }
    return code;
  }
  get size() {
    return this.ids.length;
  }
}

/** Variable-length integer lists per entry id in one pooled array (compacted when half is garbage). */
export class FacetColumn {
  start = new Int32Array(0);
  len = new Uint16Array(0);
  pool = new Int32Array(1024);
  used = 0;
  garbage = 0;

  ensure(capacity: number) {
    if (capacity <= this.start.length) return;
    const cap = Math.max(capacity, this.start.length * 2, 1024);
    const s = new Int32Array(cap);
    s.set(this.start);
    const l = new Uint16Array(cap);
    l.set(this.len);
    this.start = s;
    this.len = l;
  }

  set(id: number, codes: number[]) {
    this.ensure(id + 1);
    this.garbage += this.len[id];
    if (this.used + codes.length > this.pool.length) this.grow(codes.length);
    this.start[id] = this.used;
    this.len[id] = codes.length;
    for (let i = 0; i < codes.length; i++) this.pool[this.used++] = codes[i];
  }

  clear(id: number) {
    if (id < this.len.length) {
      this.garbage += this.len[id];
      this.len[id] = 0;
    }
  }

  private grow(extra: number) {
    const live = this.used - this.garbage;
    if (this.garbage > live) {
      // Compact in place into a new pool of the same or larger size.
      const pool = new Int32Array(Math.max(this.pool.length, (live + extra) * 2));
      let p = 0;
      for (let id = 0; id < this.len.length; id++) {
        const n = this.len[id];
        if (!n) continue;
        pool.set(this.pool.subarray(this.start[id], this.start[id] + n), p);
        this.start[id] = p;
        p += n;
      }
      this.pool = pool;
      this.used = p;
      this.garbage = 0;
    } else {
      const pool = new Int32Array(Math.max(this.pool.length * 2, this.used + extra));
      pool.set(this.pool.subarray(0, this.used));
      this.pool = pool;
    }
  }
}

export class MemoryIndex {
  seq = 0;
  /** Highest entry id + 1 seen. */
  capacity = 0;
  present = new Uint8Array(0);
  dateKey = new Float64Array(0);
  titleKey: string[] = [];
  readonly columns = {} as Record<FilterName, FacetColumn>;
  readonly dicts = {} as Record<FilterName, Dictionary>;
  /** Agent ids per entry that an author exclusion may name (plain ids, no dictionary). */
  readonly agentKeys = new FacetColumn();
  /**
   * Entries with copies in private libraries: per library, the years (date codes) and download kinds of
   * its copies. The columns hold what anyone may see; `viewColumns` adds these for a viewer who may
   * see the library. Few entries: a map (the anonymous path never reads it).
   */
  readonly layered = new Map<number, { library: number; date: number[]; download: string[] }[]>();
  /** `viewColumns` answers per set of libraries, until the index changes. */
  private views = new Map<string, Record<FilterName, FacetColumn>>();
  private byDate: Int32Array | null = null;
  private byTitle: Int32Array | null = null;
  count = 0;

  constructor() {
    for (const f of FILTER_NAMES) {
      this.columns[f] = new FacetColumn();
      this.dicts[f] = new Dictionary();
    }
  }

  private ensure(id: number) {
    if (id < this.present.length) return;
    const cap = Math.max(id + 1, this.present.length * 2, 1024);
    const p = new Uint8Array(cap);
    p.set(this.present);
    this.present = p;
    const d = new Float64Array(cap);
    d.set(this.dateKey);
    this.dateKey = d;
    for (const f of FILTER_NAMES) this.columns[f].ensure(cap);
    this.agentKeys.ensure(cap);
  }

  put(doc: IndexDoc) {
    const id = doc.entry_id;
    this.ensure(id);
    if (!this.present[id]) this.count++;
    this.present[id] = 1;
    this.capacity = Math.max(this.capacity, id + 1);
    this.dateKey[id] = Date.parse(doc.datestamp) || 0;
    this.titleKey[id] = doc.sort_title;
    const terms = termsOf(doc);
    for (const f of FILTER_NAMES) {
      const dict = this.dicts[f];
      this.columns[f].set(id, doc.values[f].map((v) => dict.intern(v, terms[f]?.get(v) ?? '')));
    }
    this.agentKeys.set(id, doc.agent_keys ?? doc.creator.map((c) => c.id));
    this.layered.delete(id);
    if (doc.layers?.length) {
      const dateDict = this.dicts.date;
      this.layered.set(id, doc.layers.map((library) => {
        const copies = doc.data_sources.filter((d) => d.library_id === library);
        const years = new Set(copies.flatMap((d) => [d.year_edition, d.year_first_edition]).filter((y): y is number => !!y));
        return {
          library,
          date: [...years].map((y) => dateDict.intern(String(y), '')),
          download: [...new Set(copies.map((d) => d.download ?? 'none'))],
        };
      }));
    }
    this.views.clear();
    this.byDate = this.byTitle = null;
  }

  remove(id: number) {
    if (id >= this.present.length || !this.present[id]) return;
    this.present[id] = 0;
    this.count--;
    for (const f of FILTER_NAMES) this.columns[f].clear(id);
    this.agentKeys.clear(id);
    this.layered.delete(id);
    this.views.clear();
    this.byDate = this.byTitle = null;
  }

  /**
   * The columns as a viewer who may see these private libraries counts and filters them: the date and
   * download values of those libraries' copies added to their entries. The columns themselves when
   * that changes nothing (anonymous visitors, most users).
   */
  viewColumns(libraries: ReadonlySet<number>): Record<FilterName, FacetColumn> {
    if (libraries.size === 0 || this.layered.size === 0) return this.columns;
    const key = [...libraries].sort((a, b) => a - b).join(',');
    const known = this.views.get(key);
    if (known) return known;
    const date = new Map<number, number[]>();
    const download = new Map<number, number[]>();
    const dl = this.dicts.download;
    const codesOf = (col: FacetColumn, id: number) => Array.from(col.pool.subarray(col.start[id], col.start[id] + col.len[id]));
    for (const [id, list] of this.layered) {
      const mine = list.filter((l) => libraries.has(l.library));
      if (!mine.length || !this.present[id]) continue;
      const years = new Set(codesOf(this.columns.date, id));
      const kinds = new Set(codesOf(this.columns.download, id).map((c) => dl.ids[c]));
      for (const l of mine) {
        for (const c of l.date) years.add(c);
        for (const k of l.download) kinds.add(k);
      }
      if (kinds.size > 1) kinds.delete('none');
      date.set(id, [...years]);
      download.set(id, [...kinds].map((k) => dl.intern(k, '')));
    }
    const view = date.size ? { ...this.columns, date: overlay(this.columns.date, date), download: overlay(this.columns.download, download) } : this.columns;
    if (this.views.size >= 8) this.views.delete(this.views.keys().next().value!);
    this.views.set(key, view);
    return view;
  }

  /** Entry ids, newest acquisition first (ties: higher id first). */
  dateOrder(): Int32Array {
    if (!this.byDate) {
      const ids = this.presentIds();
      const k = this.dateKey;
      ids.sort((a, b) => k[b] - k[a] || b - a);
      this.byDate = ids;
    }
    return this.byDate;
  }

  /** Entry ids by transliterated title A-Z (ties: lower id first). */
  titleOrder(): Int32Array {
    if (!this.byTitle) {
      const ids = this.presentIds();
      const k = this.titleKey;
      ids.sort((a, b) => (k[a] < k[b] ? -1 : k[a] > k[b] ? 1 : a - b));
      this.byTitle = ids;
    }
    return this.byTitle;
  }

  private presentIds(): Int32Array {
    const ids = new Int32Array(this.count);
    let n = 0;
    for (let id = 0; id < this.capacity; id++) if (this.present[id]) ids[n++] = id;
    return ids;
  }

  /** Sets bits[id] = 1 for entries having `value` in column `name`. */
  markValue(name: FilterName, value: string, bits: Uint8Array, col: FacetColumn = this.columns[name]) {
    const code = this.dicts[name].codeOf.get(value);
    if (code === undefined) return;
    const { start, len, pool } = col;
    for (let id = 0; id < this.capacity; id++) {
      const n = len[id];
      if (!n) continue;
      const s = start[id];
      for (let i = 0; i < n; i++) {
        if (pool[s + i] === code) {
          bits[id] = 1;
          break;
        }
      }
    }
  }
}

/** A copy of a column with other values for some entries (the column itself is left as it is). */
function overlay(base: FacetColumn, values: Map<number, number[]>): FacetColumn {
  const out = new FacetColumn();
  out.start = base.start.slice();
  out.len = base.len.slice();
  let extra = 0;
  for (const v of values.values()) extra += v.length;
  out.pool = new Int32Array(base.used + extra);
  out.pool.set(base.pool.subarray(0, base.used));
  out.used = base.used;
  for (const [id, codes] of values) {
    out.start[id] = out.used;
    out.len[id] = codes.length;
    for (const c of codes) out.pool[out.used++] = c;
  }
  return out;
}

function termsOf(doc: IndexDoc): Partial<Record<FilterName, Map<string, string>>> {
  return {
    creator: new Map(doc.creator.map((c) => [String(c.id), c.value])),
    language: new Map(doc.language.map((l) => [l.id, l.value])),
  };
}
