// In-memory columns of the search index: facet values per entry (for exact facet counts over any match
// set), visibility by library, and the global sort orders. Kept in step with search_docs via `seq`.
import { FILTER_NAMES, type FilterName } from '@uc/shared';
import type { IndexDoc } from './doc.ts';
import { TextPool } from './text-pool.ts';
import type { SnapshotPart } from './snapshot-part.ts';

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

  /** Its arrays up to `capacity` entries (the pool up to what is used), for the search snapshot. */
  snapshotArrays(prefix: string, capacity: number, arrays: Record<string, ArrayBufferView>): { used: number; garbage: number } {
    const n = Math.min(capacity, this.start.length);
    arrays[`${prefix}.start`] = this.start.subarray(0, n);
    arrays[`${prefix}.len`] = this.len.subarray(0, n);
    arrays[`${prefix}.pool`] = this.pool.subarray(0, this.used);
    return { used: this.used, garbage: this.garbage };
  }

  restoreArrays(prefix: string, arrays: Record<string, ArrayBufferView>, meta: { used: number; garbage: number }): void {
    this.start = arrays[`${prefix}.start`] as Int32Array<ArrayBuffer>;
    this.len = arrays[`${prefix}.len`] as Uint16Array<ArrayBuffer>;
    this.pool = arrays[`${prefix}.pool`] as Int32Array<ArrayBuffer>;
    this.used = meta.used;
    this.garbage = meta.garbage;
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
  /**
   * Title sort keys (`sort_title`, ASCII) by entry id in one buffer, not a string per entry; the
   * order they give is kept as `byTitle` and a rank per entry (see `titleOrder`).
   */
  titleKeys = new TextPool();
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
  /**
   * Relations between the indexed entries (canonical ids): each translation's original, each part's
   * aggregations, and the reverse. The `translate` and `aggregate` values of `columns` count only the
   * related entries anyone may see (a copy in an active public library); `viewColumns` counts those a
   * viewer may see. A flag set from a hidden entry ("translated" from a private-only translation, an
   * aggregation of hidden parts) would tell what a private library holds.
   */
  private readonly originalOf = new Map<number, number>();
  private readonly translationsOf = new Map<number, Set<number>>();
  private readonly parentsOf = new Map<number, number[]>();
  private readonly partsOf = new Map<number, Set<number>>();
  /** The active public libraries the relation values of `columns` were counted with (see `setPublicLibraries`). */
  private publicLibraries: ReadonlySet<number> = new Set();
  /** `viewColumns` answers per set of libraries, until the index changes. */
  private views = new Map<string, Record<FilterName, FacetColumn>>();
  private byDate: Int32Array | null = null;
  private byTitle: Int32Array | null = null;
  /** Position of each entry in `byTitle` (meaningful for the entries it holds). */
  private titleRank = new Int32Array(0);
  /** Entries put or removed since `byTitle` was computed: merged into it by the next `titleOrder`. */
  private titleChanged = new Set<number>();
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

  /**
   * `original`: the canonical id of the entry this one translates (null: none). Relation values of
   * this entry and of its related entries (before and after) are counted again.
   */
  put(doc: IndexDoc, original: number | null = null) {
    const id = doc.entry_id;
    this.ensure(id);
    if (!this.present[id]) this.count++;
    this.present[id] = 1;
    this.capacity = Math.max(this.capacity, id + 1);
    this.dateKey[id] = Date.parse(doc.datestamp) || 0;
    this.titleKeys.set(id, doc.sort_title);
    this.titleChange(id);
    const terms = termsOf(doc);
    for (const f of FILTER_NAMES) {
      if (f === 'translate' || f === 'aggregate') continue; // counted from the relations (countRelations)
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
    const parents = doc.values.aggregate.filter((v) => /^\d+$/.test(v)).map(Number);
    const touched = this.unlink(id);
    this.link(id, original, parents);
    for (const t of [...this.relatives(id), id]) touched.add(t);
    for (const t of touched) this.countRelations(t);
    this.views.clear();
    this.byDate = null;
  }

  remove(id: number) {
    if (id >= this.present.length || !this.present[id]) return;
    this.present[id] = 0;
    this.count--;
    for (const f of FILTER_NAMES) this.columns[f].clear(id);
    this.agentKeys.clear(id);
    this.layered.delete(id);
    // Its translations and parts keep naming it (their documents do) but no longer count it.
    const touched = this.unlink(id);
    for (const t of this.relatives(id)) touched.add(t);
    for (const t of touched) this.countRelations(t);
    this.titleKeys.delete(id);
    this.titleChange(id);
    this.views.clear();
    this.byDate = null;
  }

  /** Notes a changed title key; once many changed, the next `titleOrder` sorts everything again. */
  private titleChange(id: number) {
    if (!this.byTitle) return;
    this.titleChanged.add(id);
    if (this.titleChanged.size > this.count / 8 + 1000) {
      this.byTitle = null;
      this.titleChanged.clear();
    }
  }

  /**
   * The libraries whose copies anyone may see (active and public); when they changed, every related
   * entry's values are counted again (the documents do not change with a library's flags).
   */
  setPublicLibraries(libraries: ReadonlySet<number>): void {
    const before = this.publicLibraries;
    if (before.size === libraries.size && [...libraries].every((l) => before.has(l))) return;
    this.publicLibraries = new Set(libraries);
    for (const id of this.related()) this.countRelations(id);
    this.views.clear();
  }

  /** Drops an entry's own links (its original, its parents); answers the entries they named. */
  private unlink(id: number): Set<number> {
    const touched = new Set<number>();
    const original = this.originalOf.get(id);
    if (original !== undefined) {
      touched.add(original);
      this.originalOf.delete(id);
      const set = this.translationsOf.get(original);
      set?.delete(id);
      if (set?.size === 0) this.translationsOf.delete(original);
    }
    for (const p of this.parentsOf.get(id) ?? []) {
      touched.add(p);
      const set = this.partsOf.get(p);
      set?.delete(id);
      if (set?.size === 0) this.partsOf.delete(p);
    }
    this.parentsOf.delete(id);
    return touched;
  }

  private link(id: number, original: number | null, parents: number[]): void {
    if (original !== null && original !== id) {
      this.originalOf.set(id, original);
      let set = this.translationsOf.get(original);
      if (!set) this.translationsOf.set(original, (set = new Set()));
      set.add(id);
    }
    const own = parents.filter((p) => p !== id);
    if (own.length) this.parentsOf.set(id, own);
    for (const p of own) {
      let set = this.partsOf.get(p);
      if (!set) this.partsOf.set(p, (set = new Set()));
      set.add(id);
    }
  }

  /** The entries related to this one both ways (its original and translations, parents and parts). */
  private relatives(id: number): number[] {
    const original = this.originalOf.get(id);
    return [
      ...(original !== undefined ? [original] : []), ...(this.translationsOf.get(id) ?? []),
      ...(this.parentsOf.get(id) ?? []), ...(this.partsOf.get(id) ?? []),
    ];
  }

  /** Every entry with a relation (the only ones whose relation values depend on who looks). */
  private related(): Set<number> {
    return new Set([...this.originalOf.keys(), ...this.translationsOf.keys(), ...this.parentsOf.keys(), ...this.partsOf.keys()]);
  }

  /** An entry is indexed and has a copy in one of these libraries (a curated aggregation: through its parts). */
  private seenThrough(libraries: ReadonlySet<number>): (id: number) => boolean {
    const { start, len, pool } = this.columns.library;
    const ids = this.dicts.library.ids;
    return (id) => {
      if (!(id < this.present.length && this.present[id])) return false;
      for (let i = start[id], e = i + len[id]; i < e; i++) if (libraries.has(Number(ids[pool[i]]))) return true;
      return false;
    };
  }

  /**
   * An entry's `translate` and `aggregate` values counting only the related entries `seen` passes:
   * 'translation' (its original is seen), 'translated' (a translation is), 'unknown' (neither); the
   * seen aggregations it is part of, 'aggregation' (a part is seen), 'no_aggregations' (no aggregation is).
   */
  relationValues(id: number, seen: (id: number) => boolean): { translate: string[]; aggregate: string[] } {
    const translate: string[] = [];
    const original = this.originalOf.get(id);
    if (original !== undefined && seen(original)) translate.push('translation');
    if ([...(this.translationsOf.get(id) ?? [])].some(seen)) translate.push('translated');
    if (!translate.length) translate.push('unknown');
    const aggregate = (this.parentsOf.get(id) ?? []).filter(seen).map(String);
    if ([...(this.partsOf.get(id) ?? [])].some(seen)) aggregate.push('aggregation');
    if (!aggregate.length) aggregate.push('no_aggregations');
    return { translate, aggregate };
  }

  /** Sets an indexed entry's relation values in `columns`, as anyone may see them. */
  private countRelations(id: number): void {
    if (!(id < this.present.length && this.present[id])) return;
    const values = this.relationValues(id, this.seenThrough(this.publicLibraries));
    for (const f of ['translate', 'aggregate'] as const) {
      const dict = this.dicts[f];
      this.columns[f].set(id, values[f].map((v) => dict.intern(v, '')));
    }
  }

  /**
   * The columns as a viewer who may see these private libraries counts and filters them: the date and
   * download values of those libraries' copies added to their entries, and the relation values
   * counting the related entries those libraries hold. The columns themselves when that changes
   * nothing (anonymous visitors, most users).
   */
  viewColumns(libraries: ReadonlySet<number>): Record<FilterName, FacetColumn> {
    if (libraries.size === 0) return this.columns;
    const key = [...libraries].sort((a, b) => a - b).join(',');
    const known = this.views.get(key);
    if (known) return known;
    const view = this.relationView(libraries, this.copyView(libraries));
    if (this.views.size >= 8) this.views.delete(this.views.keys().next().value!);
    this.views.set(key, view);
    return view;
  }

  /** `columns` with the relation values of the entries whose related entries these libraries make seen. */
  private relationView(libraries: ReadonlySet<number>, columns: Record<FilterName, FacetColumn>): Record<FilterName, FacetColumn> {
    const seen = this.seenThrough(new Set([...this.publicLibraries, ...libraries]));
    const changed = { translate: new Map<number, number[]>(), aggregate: new Map<number, number[]>() };
    const codesOf = (col: FacetColumn, id: number) => Array.from(col.pool.subarray(col.start[id], col.start[id] + col.len[id]));
    for (const id of this.related()) {
      if (!this.present[id]) continue;
      const values = this.relationValues(id, seen);
      for (const f of ['translate', 'aggregate'] as const) {
        const codes = values[f].map((v) => this.dicts[f].intern(v, ''));
        const base = codesOf(columns[f], id);
        if (codes.length !== base.length || codes.some((c, i) => c !== base[i])) changed[f].set(id, codes);
      }
    }
    if (!changed.translate.size && !changed.aggregate.size) return columns;
    return {
      ...columns,
      translate: changed.translate.size ? overlay(columns.translate, changed.translate) : columns.translate,
      aggregate: changed.aggregate.size ? overlay(columns.aggregate, changed.aggregate) : columns.aggregate,
    };
  }

  /** `columns` with the date and download values of these libraries' copies added. */
  private copyView(libraries: ReadonlySet<number>): Record<FilterName, FacetColumn> {
    if (this.layered.size === 0) return this.columns;
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
    return date.size ? { ...this.columns, date: overlay(this.columns.date, date), download: overlay(this.columns.download, download) } : this.columns;
  }

  /**
   * The search snapshot's share (search/snapshot.ts): presence, dates, facet columns with their pools,
   * dictionaries, agent keys, title keys, private copies and the relations, as they are now.
   */
  snapshot(): SnapshotPart {
    const arrays: Record<string, ArrayBufferView> = {
      present: this.present.subarray(0, this.capacity),
      dateKey: this.dateKey.subarray(0, this.capacity),
    };
    const columns: Record<string, { used: number; garbage: number }> = {};
    for (const f of FILTER_NAMES) columns[f] = this.columns[f].snapshotArrays(`column.${f}`, this.capacity, arrays);
    const agentKeys = this.agentKeys.snapshotArrays('agentKeys', this.capacity, arrays);
    return {
      meta: {
        seq: this.seq, capacity: this.capacity, count: this.count, columns, agentKeys,
        dicts: Object.fromEntries(FILTER_NAMES.map((f) => [f, { ids: this.dicts[f].ids, terms: this.dicts[f].terms }])),
        titles: this.snapshotTitles(arrays),
        layered: [...this.layered],
        originalOf: [...this.originalOf],
        parentsOf: [...this.parentsOf],
        publicLibraries: [...this.publicLibraries],
      },
      arrays,
    };
  }

  /** Replaces everything with a snapshot's share (an empty index before; nothing is merged). */
  restore(part: SnapshotPart): void {
    type Column = { used: number; garbage: number };
    const meta = part.meta as {
      seq: number; capacity: number; count: number; columns: Record<FilterName, Column>; agentKeys: Column;
      dicts: Record<FilterName, { ids: string[]; terms: string[] }>; titles: unknown;
      layered: [number, { library: number; date: number[]; download: string[] }[]][];
      originalOf: [number, number][]; parentsOf: [number, number[]][]; publicLibraries: number[];
    };
    const { arrays } = part;
    this.seq = meta.seq;
    this.capacity = meta.capacity;
    this.count = meta.count;
    this.present = arrays.present as Uint8Array<ArrayBuffer>;
    this.dateKey = arrays.dateKey as Float64Array<ArrayBuffer>;
    for (const f of FILTER_NAMES) {
      this.columns[f].restoreArrays(`column.${f}`, arrays, meta.columns[f]);
      const dict = this.dicts[f];
      dict.ids.length = dict.terms.length = 0;
      dict.codeOf.clear();
      const { ids, terms } = meta.dicts[f];
      for (let c = 0; c < ids.length; c++) {
        dict.codeOf.set(ids[c], c);
        dict.ids.push(ids[c]);
        dict.terms.push(terms[c]);
      }
    }
    this.agentKeys.restoreArrays('agentKeys', arrays, meta.agentKeys);
    this.restoreTitles(meta.titles, arrays);
    this.layered.clear();
    for (const [id, list] of meta.layered) this.layered.set(id, list);
    this.originalOf.clear();
    this.translationsOf.clear();
    this.parentsOf.clear();
    this.partsOf.clear();
    for (const [id, original] of meta.originalOf) this.link(id, original, []);
    for (const [id, parents] of meta.parentsOf) this.link(id, null, parents);
    this.publicLibraries = new Set(meta.publicLibraries);
    this.views.clear();
    this.byDate = null;
  }

  // --- The title keys in the snapshot: this spot alone knows how they are kept (a TextPool, and the
  // title order when it is current, so that a restored node need not sort a million keys again).
  private snapshotTitles(arrays: Record<string, ArrayBufferView>): unknown {
    const { meta, arrays: pool } = this.titleKeys.parts();
    arrays['titleKeys.start'] = pool.start;
    arrays['titleKeys.len'] = pool.len;
    arrays['titleKeys.text'] = pool.text;
    const ordered = this.byTitle !== null && this.titleChanged.size === 0;
    if (ordered) arrays['titleKeys.order'] = this.byTitle!;
    return { pool: meta, ordered };
  }

  private restoreTitles(meta: unknown, arrays: Record<string, ArrayBufferView>): void {
    const m = meta as { pool: Parameters<typeof TextPool.from>[0]; ordered: boolean };
    this.titleKeys = TextPool.from(m.pool, {
      start: arrays['titleKeys.start'] as Uint32Array, len: arrays['titleKeys.len'] as Int32Array, text: arrays['titleKeys.text'] as Uint8Array,
    });
    this.titleChanged.clear();
    this.byTitle = m.ordered ? (arrays['titleKeys.order'] as Int32Array) : null;
    if (this.byTitle) this.rankTitles();
  }
  // --- end of the title keys' snapshot.

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

  /**
   * Entry ids by transliterated title A-Z (ties: lower id first). Sorted once; entries changed since
   * are taken out, sorted among themselves and merged back in (a harvest's batch costs one pass, not a
   * sort of the catalogue). The rank of each entry is set at the same time.
   */
  titleOrder(): Int32Array {
    const keys = this.titleKeys;
    const before = (a: number, b: number) => keys.compare(a, b) || a - b;
    if (!this.byTitle) {
      this.byTitle = this.presentIds().sort(before);
      this.titleChanged.clear();
      this.rankTitles();
    } else if (this.titleChanged.size) {
      const changed = Int32Array.from([...this.titleChanged].filter((id) => id < this.present.length && this.present[id])).sort(before);
      const old = this.byTitle;
      const out = new Int32Array(this.count);
      let n = 0;
      let j = 0;
      for (let i = 0; i < old.length; i++) {
        const id = old[i];
        if (this.titleChanged.has(id) || !this.present[id]) continue;
        while (j < changed.length && before(changed[j], id) < 0) out[n++] = changed[j++];
        out[n++] = id;
      }
      while (j < changed.length) out[n++] = changed[j++];
      this.byTitle = out;
      this.titleChanged.clear();
      this.rankTitles();
    }
    return this.byTitle;
  }

  private rankTitles() {
    const order = this.byTitle!;
    if (this.titleRank.length < this.capacity) this.titleRank = new Int32Array(this.present.length);
    for (let i = 0; i < order.length; i++) this.titleRank[order[i]] = i;
  }

  /**
   * A comparator of entry ids by title (as `titleOrder`): by rank when no title changed since the order
   * was computed, else by the keys themselves (a small set is sorted without merging the whole order).
   */
  titleComparator(): (a: number, b: number) => number {
    if (this.byTitle && this.titleChanged.size === 0) {
      const rank = this.titleRank;
      return (a, b) => rank[a] - rank[b];
    }
    const keys = this.titleKeys;
    return (a, b) => keys.compare(a, b) || a - b;
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
