// Builds the index snapshot of entries from the catalogue tables and writes search_docs + entry_fts
// (FTS5 rows of folded text on SQLite; on PostgreSQL the rows' texts as stored, which each app node's
// text mirror folds into FTS5 rows of its own: search/text-mirror.ts).
// Called by ingestion and curation with the ids of the entries they touched.
import anyAscii from 'any-ascii';
import { FILTER_NAMES, type FilterName } from '@uc/shared';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/index.ts';
import type { SqlConnection } from '../db/connection.ts';
import { idList, jsonbRows } from '../db/dialect.ts';
import type { IndexDoc } from './doc.ts';
import { AuthorResolver } from '../agents/resolve.ts';
import { partLibrariesSql } from '../catalogue/holdings.ts';
import { pumpWrites } from '../db/postgres.ts';
import { PG_DOC_UPDATE, type PgFtsStage } from './pg-fts-stage.ts';
import { BULK_FTS_CONFIG, FTS5_DEFAULT_CONFIG, FtsFingerprints, fingerprintOf, ftsRow, storedFtsText, type FtsRow, type FtsText, type StoredFtsText } from './fts-text.ts';
import type { FtsBuilder } from './fts-builder.ts';
import { EntryImage, type DsRow, type EntryRow } from './entry-image.ts';
import { layerRowid, sqliteRowid } from './layers.ts';

const TEXT_FORMATS = new Set(['muse', 'txt', 'epub', 'html', 'zip', 'tex']);
const RAW_FORMATS = new Set(['pdf', 'djvu']);

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });
const languageNameCache = new Map<string, string>();
export function languageName(code: string): string {
  let name = languageNameCache.get(code);
  if (name === undefined) {
    try {
      name = languageNames.of(code) ?? code;
    } catch {
      name = code;
    }
    languageNameCache.set(code, name);
  }
  return name;
}

/** Transliterated, lower-cased title key for the A-Z sorts (leading punctuation ignored). */
export function titleSortKey(title: string, subtitle: string | null): string {
  return anyAscii(`${title} ${subtitle ?? ''}`).toLowerCase().replace(/^[^a-z0-9]+/, '').trim();
}

/** Download facet value of one data source's formats. */
export function downloadType(formats: string[]): 'text' | 'raw' | 'none' {
  if (formats.some((f) => TEXT_FORMATS.has(f))) return 'text';
  if (formats.some((f) => RAW_FORMATS.has(f))) return 'raw';
  return 'none';
}

/**
 * What the index stores for an entry, as a number bumped when that changes (2: the Latin forms of
 * Cyrillic and Greek titles and authors; 3: copies of private libraries in layers of their own,
 * search/layers.ts; 4: the stems of titles, descriptions and full texts in each entry's languages,
 * search/analysis.ts). A database indexed in an older format is rebuilt once.
 */
export const INDEX_FORMAT = 4;
const LAYER_LIBRARIES_SETTING = 'index_layer_libraries';
const INDEX_FORMAT_SETTING = 'index_format';
const CATALOGUE_ID_SETTING = 'catalogue_id';

/**
 * The database's random catalogue id (settings), which search snapshots and text mirrors are made for;
 * `create`: made when missing (the writer's side: Indexer.ensureFormat at every start, the snapshot writer).
 */
export function catalogueId(conn: SqlConnection, create = false): string | null {
  const read = () => (conn.prepare('SELECT value FROM settings WHERE name = ?').pluck().get(CATALOGUE_ID_SETTING) as string | undefined) ?? null;
  const known = read();
  if (known !== null || !create) return known;
  conn.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(CATALOGUE_ID_SETTING, randomUUID());
  return read();
}

export class Indexer {
  private q;
  private authors: AuthorResolver;
  /** entry_fts holds the rows' texts (PostgreSQL), not FTS5. */
  private pg: boolean;
  /** PostgreSQL, during a bulk reindex with `pgFts`: the full-text rows go there (written at the load's end). */
  private stage: PgFtsStage | null = null;
  /**
   * With `stage`: the last seq this reindex call gave (its batches' search_docs rows are sent without
   * waiting, and the import holds the write lock, so the next batch counts on instead of asking).
   */
  private seqAhead: number | null = null;

  constructor(private db: Db) {
    const s = db.sqlite;
    const IDS = idList(s.dialect);
    this.pg = s.dialect === 'postgres';
    this.authors = new AuthorResolver(db);
    this.q = {
      // In id order, so seqs follow the same order on both back ends (SQLite's plan gives it anyway; PostgreSQL's does not).
      entries: s.prepare(`SELECT id, title, subtitle, canonical_entry_id, original_entry_id, datestamp FROM entries WHERE id IN ${IDS} ORDER BY id`),
      variants: s.prepare(`SELECT id, canonical_entry_id FROM entries WHERE canonical_entry_id IN ${IDS}`),
      dataSources: s.prepare(`SELECT d.id, d.entry_id, s.library_id, d.title, d.subtitle, d.authors, d.year_edition,
          d.year_first_edition, d.description, d.publisher, d.isbn, d.material_description, d.downloads, d.full_text, d.datestamp
        FROM data_sources d JOIN sites s ON s.id = d.site_id WHERE d.entry_id IN ${IDS} ORDER BY d.id`),
      partLibraries: s.prepare(partLibrariesSql(s.dialect)),
      languages: s.prepare(`SELECT entry_id, language_code FROM entry_languages WHERE entry_id IN ${IDS} ORDER BY entry_id, position`),
      // `+` keeps the planner on the original_entry_id index: canonical_entry_id IS NULL matches almost every
      // row, and scanning them for every batch made a 1,000,000-entry import quadratic.
      translated: s.prepare(`SELECT DISTINCT original_entry_id AS id FROM entries WHERE original_entry_id IN ${IDS} AND +canonical_entry_id IS NULL`),
      parents: s.prepare(`SELECT l.aggregated_entry_id AS child, coalesce(p.canonical_entry_id, p.id) AS parent
        FROM aggregation_links l JOIN entries p ON p.id = l.aggregation_entry_id WHERE l.aggregated_entry_id IN ${IDS}`),
      hasParts: s.prepare(`SELECT DISTINCT aggregation_entry_id AS id FROM aggregation_links WHERE aggregation_entry_id IN ${IDS}`),
      recordlessParents: s.prepare(`SELECT DISTINCT l.aggregation_entry_id FROM aggregation_links l WHERE l.aggregated_entry_id IN ${IDS}
        AND NOT EXISTS (SELECT 1 FROM data_sources d WHERE d.entry_id = l.aggregation_entry_id)`).pluck(),
      maxSeq: s.prepare('SELECT coalesce(max(seq), 0) FROM search_docs').pluck(),
      // The entries that have a full-text row: exactly those with a doc (both are written together).
      indexed: s.prepare(`SELECT entry_id FROM search_docs WHERE entry_id IN ${IDS} AND doc IS NOT NULL`).pluck(),
      // Their layer rows (the libraries of search_docs.layers).
      layered: s.prepare(`SELECT entry_id, layers FROM search_docs WHERE entry_id IN ${IDS} AND layers IS NOT NULL`).raw(),
      // Libraries by what the index makes of their copies: active public ones in every entry's own row,
      // active private ones in layers (inactive ones: nowhere, nobody may see them).
      libraryStates: s.prepare('SELECT id, public, active FROM libraries').raw(),
      entriesOfLibrary: s.prepare(`SELECT DISTINCT coalesce(e.canonical_entry_id, e.id) FROM data_sources d JOIN sites s ON s.id = d.site_id
        JOIN entries e ON e.id = d.entry_id WHERE s.library_id = ?`).pluck(),
      putDoc: s.prepare(`INSERT INTO search_docs (entry_id, seq, doc, libraries, layers) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT(entry_id) DO UPDATE SET seq = excluded.seq, doc = excluded.doc, libraries = excluded.libraries, layers = excluded.layers`),
      putDocs: this.pg ? s.prepare(PG_PUT_DOCS) : null,
      ftsDelete: this.pg ? null : s.prepare('DELETE FROM entry_fts WHERE rowid = ?'),
      ftsInsert: this.pg ? null : s.prepare('INSERT INTO entry_fts (rowid, title, authors, body, fulltext) VALUES (?, ?, ?, ?, ?)'),
      // PostgreSQL: rows by the hundred in one statement (a round trip each costs more than the row).
      ftsDeleteMany: this.pg ? s.prepare(`DELETE FROM entry_fts WHERE rowid IN ${IDS}`) : null,
      ftsInsertMany: this.pg ? s.prepare(`INSERT INTO entry_fts (rowid, title, authors, body, fulltext, languages)
        SELECT (r->>0)::bigint, r->>1, r->>2, r->>3, r->>4, r->>5 FROM jsonb_array_elements(?::jsonb) r`) : null,
    };
  }

  /**
   * Rebuilds every entry's index rows when the database was indexed in an older format (before the
   * search can find what the new format adds); an empty catalogue only records the format. Answers the
   * number of entries rebuilt.
   */
  ensureFormat(log?: (message: string) => void): number {
    const s = this.db.sqlite;
    catalogueId(s, true);
    const stored = Number(s.prepare('SELECT value FROM settings WHERE name = ?').pluck().get(INDEX_FORMAT_SETTING) ?? 1);
    if (stored >= INDEX_FORMAT) {
      // A library's flags written by another process (an import) while this one was not running.
      const moved = this.syncLibraryVisibility();
      if (moved) log?.(`Search index: ${moved} entries reindexed for libraries made public or private.`);
      return 0;
    }
    const ids = s.prepare('SELECT id FROM entries WHERE canonical_entry_id IS NULL ORDER BY id').pluck().all() as number[];
    if (ids.length) log?.(`Rebuilding the search index for ${ids.length} entries (index format ${stored} to ${INDEX_FORMAT})...`);
    const t0 = Date.now();
    const states = this.libraryStates();
    this.reindex(ids);
    this.putSetting(INDEX_FORMAT_SETTING, String(INDEX_FORMAT));
    this.putSetting(LAYER_LIBRARIES_SETTING, JSON.stringify(Object.fromEntries(states)));
    if (ids.length) log?.(`Search index rebuilt in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
    return ids.length;
  }

  /**
   * Reindexes the entries of every library whose copies the index holds otherwise than its flags now
   * say (made private or public, deactivated or activated since): a copy of a library made private
   * leaves the text and facets anyone may search. Called after a library is written (LibraryService's
   * change listeners) and at the start. Answers the number of entries reindexed.
   */
  syncLibraryVisibility(): number {
    const now = this.libraryStates();
    const stored = this.storedLibraryStates();
    const changed = [...now].filter(([id, state]) => stored.has(id) && stored.get(id) !== state).map(([id]) => id);
    const ids = new Set<number>();
    for (const id of changed) for (const e of this.q.entriesOfLibrary.all(id) as number[]) ids.add(e);
    if (ids.size) this.reindex([...ids].sort((a, b) => a - b));
    if (changed.length || [...now.keys()].some((id) => !stored.has(id)) || stored.size !== now.size) {
      this.putSetting(LAYER_LIBRARIES_SETTING, JSON.stringify(Object.fromEntries(now)));
    }
    return ids.size;
  }

  /** Where the index puts each library's copies: 'public' (every entry's own row), 'layer' (its own layer rows) or 'none' (inactive). */
  private libraryStates(): Map<number, LibraryState> {
    const out = new Map<number, LibraryState>();
    for (const [id, pub, active] of this.q.libraryStates.all() as [number, number, number][]) {
      out.set(Number(id), !Number(active) ? 'none' : Number(pub) ? 'public' : 'layer');
    }
    return out;
  }

  private storedLibraryStates(): Map<number, LibraryState> {
    const raw = this.db.sqlite.prepare('SELECT value FROM settings WHERE name = ?').pluck().get(LAYER_LIBRARIES_SETTING) as string | undefined;
    return new Map(Object.entries(raw ? (JSON.parse(raw) as Record<string, LibraryState>) : {}).map(([k, v]) => [Number(k), v]));
  }

  /** Libraries the stored states do not know yet are recorded as this reindex indexes their copies. */
  private recordNewLibraries(states: Map<number, LibraryState>): void {
    const stored = this.storedLibraryStates();
    const added = [...states].filter(([id]) => !stored.has(id));
    if (!added.length) return;
    for (const [id, state] of added) stored.set(id, state);
    this.putSetting(LAYER_LIBRARIES_SETTING, JSON.stringify(Object.fromEntries(stored)));
  }

  private putSetting(name: string, value: string): void {
    this.db.sqlite.prepare(`INSERT INTO settings (name, value) VALUES (?, ?)
      ON CONFLICT (name) DO UPDATE SET value = excluded.value`).run(name, value);
  }

  /**
   * Rebuilds the index rows of these entries (and of the canonical entries they were merged into).
   * `inTransaction`: the caller holds the write transaction (a bulk import): no savepoint per batch.
   */
  reindex(entryIds: Iterable<number>, opts?: BulkReindexOptions): number {
    const ids = new Set(entryIds);
    // A curated aggregation (no record of its own) is visible through its parts: it follows their changes.
    // (An entry a bulk load made since its last reindex, in its image, is part of nothing yet.)
    const given = opts?.image ? [...ids].filter((id) => !opts.image!.has(id)) : [...ids];
    for (let i = 0; i < given.length; i += 500) {
      for (const p of this.q.recordlessParents.all(JSON.stringify(given.slice(i, i + 500))) as number[]) ids.add(p);
    }
    const all = [...ids];
    let written = 0;
    const states = this.libraryStates();
    if (opts?.inTransaction) {
      this.recordNewLibraries(states);
      if (!this.db.sqlite.inTransaction) throw new Error('inTransaction: no transaction is open');
      // Full-text rows of the whole call go in together: every trigger statement (search_docs) makes FTS5
      // flush what it holds, so rows written per batch of 500 made many small segments to merge later.
      const fts = new FtsRows();
      this.stage = (this.pg && opts.pgFts) || null;
      this.seqAhead = null;
      try {
        for (let i = 0; i < all.length; i += 500) {
          written += this.reindexBatch(all.slice(i, i + 500), states, fts, opts.ftsWritten, opts.ftsBuilder ?? undefined, opts.image ?? undefined);
          if (fts.rows.length >= BULK_FTS_ROWS) this.writeFts(fts);
        }
        this.writeFts(fts);
      } finally {
        this.stage = null;
        this.seqAhead = null;
      }
      return written;
    }
    const run = this.db.sqlite.transaction((batch: number[]) => {
      const fts = new FtsRows();
      written += this.reindexBatch(batch, states, fts);
      this.writeFts(fts);
    });
    // IMMEDIATE: take the write lock before reading max(seq), so two writing processes never reuse a seq.
    for (let i = 0; i < all.length; i += 500) run.immediate(all.slice(i, i + 500));
    this.recordNewLibraries(states);
    return written;
  }

  /**
   * An image of the entries a bulk load makes (entry-image.ts), for `reindex` with `image`; null where
   * it would not hold: agents merged or split (an entry's authors are then not the agents as named).
   * (On PostgreSQL the store fills it as it writes a batch, under the real ids.)
   */
  entryImage(): EntryImage | null {
    const s = this.db.sqlite;
    if (s.prepare('SELECT EXISTS (SELECT 1 FROM agents WHERE canonical_agent_id IS NOT NULL) OR EXISTS (SELECT 1 FROM agent_children)').pluck().get()) return null;
    const libraryOf = s.prepare('SELECT library_id FROM sites WHERE id = ?').pluck();
    const libraries = new Map<number, number>();
    return new EntryImage((siteId) => {
      let id = libraries.get(siteId);
      if (id === undefined) libraries.set(siteId, (id = libraryOf.get(siteId) as number));
      return id;
    });
  }

  /**
   * FTS5's settings for a bulk load in the caller's transaction (BULK_FTS_CONFIG). Returns what puts
   * them back (before the commit).
   */
  bulkSettings(): () => void {
    // PostgreSQL's GIN index has its own pending list (fastupdate), flushed by autovacuum: nothing to set.
    if (this.pg) return () => {};
    const s = this.db.sqlite;
    const stored = (k: string) => s.prepare('SELECT v FROM entry_fts_config WHERE k = ?').pluck().get(k) as number | undefined;
    const keys = Object.keys(BULK_FTS_CONFIG) as (keyof typeof BULK_FTS_CONFIG)[];
    const before = Object.fromEntries(keys.map((k) => [k, stored(k) ?? FTS5_DEFAULT_CONFIG[k]])) as Record<(typeof keys)[number], number>;
    // FTS5 takes integers only: a bound JavaScript number is a REAL.
    const set = (k: keyof typeof before, n: number) => s.exec(`INSERT INTO entry_fts (entry_fts, rank) VALUES ('${k}', ${Math.trunc(n)})`);
    for (const k of keys) set(k, BULK_FTS_CONFIG[k]);
    return () => {
      for (const k of Object.keys(before) as (keyof typeof before)[]) set(k, before[k]);
    };
  }

  private writeFts(fts: FtsRows): void {
    if (this.stage) this.stage.put(fts.rows as StoredFtsText[]);
    else if (this.q.ftsInsertMany) {
      for (let i = 0; i < fts.rows.length; i += PG_FTS_ROWS) this.q.ftsInsertMany.run(JSON.stringify(fts.rows.slice(i, i + PG_FTS_ROWS)));
    } else for (const [rowid, ...columns] of fts.rows as FtsRow[]) this.q.ftsInsert!.run(sqliteRowid(rowid), ...columns);
    fts.rows = [];
    fts.ids.clear();
  }

  /** Writes the search_docs rows of these entries and drops their old full-text rows; their new ones go to `fts`. */
  private reindexBatch(ids: number[], states: Map<number, LibraryState>, fts: FtsRows, ftsWritten?: FtsFingerprints, builder?: FtsBuilder, image?: EntryImage): number {
    const q = this.q;
    // Entries of the bulk load's image come from it; the rest (and everything without one) from the tables.
    const imaged = image ? ids.filter((id) => image.has(id)) : [];
    const fromTables = (list: number[]) => (imaged.length ? list.filter((id) => !image!.has(id)) : list);
    const read = <T>(statement: { all(json: string): unknown[] }, list: number[]): T[] => (list.length ? (statement.all(JSON.stringify(list)) as T[]) : []);
    const entries = byId([...read<EntryRow>(q.entries, fromTables(ids)), ...imaged.map((id) => image!.entry(id))]);
    // A merged entry's data sources show under its canonical entry: reindex that one too.
    const extra = entries.filter((e) => e.canonical_entry_id).map((e) => e.canonical_entry_id!);
    const targets = [...new Set([...entries.filter((e) => !e.canonical_entry_id).map((e) => e.id)])];
    const extraRows = extra.length ? (q.entries.all(JSON.stringify(extra.filter((x) => !targets.includes(x)))) as EntryRow[]) : [];
    const canon = [...entries.filter((e) => !e.canonical_entry_id), ...extraRows.filter((e) => !e.canonical_entry_id)];
    const canonIds = canon.map((e) => e.id);
    const tableCanon = fromTables(canonIds);

    const memberOf = new Map<number, number>(canonIds.map((id) => [id, id]));
    for (const v of read<{ id: number; canonical_entry_id: number }>(q.variants, tableCanon)) memberOf.set(v.id, v.canonical_entry_id);
    const tableMembers = fromTables([...memberOf.keys()]);

    const dsBy = groupBy(read<DsRow>(q.dataSources, tableMembers), (d) => memberOf.get(d.entry_id)!);
    const authorsBy = this.authors.resolve(tableCanon);
    const langsBy = groupBy(read<{ entry_id: number; language_code: string }>(q.languages, tableCanon), (l) => l.entry_id);
    for (const id of imaged) {
      const ds = image!.dataSources(id);
      if (ds.length) dsBy.set(id, ds);
      const authors = image!.authors(id);
      if (authors) authorsBy.set(id, authors);
      const languages = image!.languages(id);
      if (languages.length) langsBy.set(id, languages.map((code) => ({ entry_id: id, language_code: code })));
    }
    // (An imaged entry has no links: none of these.)
    const translated = new Set(read<{ id: number }>(q.translated, tableCanon).map((r) => r.id));
    const parentsBy = groupBy(read<{ child: number; parent: number }>(q.parents, tableMembers), (p) => memberOf.get(p.child)!);
    const hasParts = new Set(read<{ id: number }>(q.hasParts, tableMembers).map((r) => memberOf.get(r.id)!));
    const partLibs = groupBy(read<{ entry_id: number; library_id: number }>(q.partLibraries, tableCanon.filter((id) => !dsBy.has(id) && hasParts.has(id))), (r) => r.entry_id);

    let seq = this.seqAhead ?? (q.maxSeq.get() as number);
    // Only rows that exist are deleted: a delete in FTS5 (contentless, with deletes) costs even for a
    // rowid it never held, and one that exists costs milliseconds in an index of large segments.
    // (With a builder, the builder's thread holds every row of the load: it replaces them itself.)
    // An entry made since the load's last reindex (in its image) has no index row yet.
    const touched = fromTables([...new Set([...canonIds, ...ids])]);
    const hadRow = builder || !touched.length ? new Set<number>() : new Set(q.indexed.all(JSON.stringify(touched)) as number[]);
    // The layer rows each entry has now (a builder drops them in its own thread, as it replaces rows).
    const hadLayers = new Map(read<[number, string]>(q.layered, touched).map(([id, layers]) => [Number(id), JSON.parse(layers) as number[]]));
    const dropLayers = (id: number, keep: Set<number>) => {
      for (const lib of hadLayers.get(id) ?? []) {
        if (keep.has(lib)) continue;
        const rowid = layerRowid(lib, id);
        if (builder) builder.drop(rowid);
        else ftsGone.push(rowid);
        ftsWritten?.set(rowid, 0);
      }
    };
    const docs: [number, number, string | null, string | null, string | null][] = [];
    const putDoc = q.putDocs
      ? (id: number, seq: number, doc: string | null, libraries: string | null, layers: string | null = null) => { docs.push([id, seq, doc, libraries, layers]); }
      : (id: number, seq: number, doc: string | null, libraries: string | null, layers: string | null = null) => { q.putDoc.run(id, seq, doc, libraries, layers); };
    const missing = new Set(ids);
    // Full-text rows are written after every search_docs row of the batch (writeFts): a statement that
    // fires triggers (the OAI-PMH record state) opens a savepoint, which makes FTS5 flush its pending
    // terms; interleaved, that flush would happen once per entry instead of once per batch.
    const ftsRows: FtsRows['rows'] = [];
    const ftsGone: number[] = [];
    // A bulk load's writes given before move on meanwhile (PostgreSQL: PgConnection.pump).
    let pumped = 0;
    for (const e of canon) {
      if (this.stage && ++pumped % 100 === 0) pumpWrites(this.db.sqlite);
      missing.delete(e.id);
      const ds = dsBy.get(e.id) ?? [];
      const viaParts = partLibs.get(e.id) ?? [];
      if (ds.length === 0 && viaParts.length === 0) {
        if (hadRow.has(e.id)) ftsGone.push(e.id);
        dropLayers(e.id, NO_LAYERS);
        ftsWritten?.set(e.id, 0);
        builder?.drop(e.id);
        putDoc(e.id, ++seq, null, null);
        continue;
      }
      const resolved = authorsBy.get(e.id);
      const creator = resolved?.shown ?? [];
      const language = (langsBy.get(e.id) ?? []).map((l) => ({ id: l.language_code, value: languageName(l.language_code) }));
      const translate: IndexDoc['translate'] = [];
      if (e.original_entry_id) translate.push('translation');
      if (translated.has(e.id)) translate.push('translated');
      // Years and download kinds count the copies anyone may see (active public libraries); those of a
      // private library's copies are in data_sources, for the viewers who may see it (memory-index.ts).
      const years = new Set<number>();
      const downloadTypes = new Set<string>();
      const libraries = new Set<number>(viaParts.map((p) => p.library_id));
      const publicDs: DsRow[] = [];
      const layerDs = new Map<number, DsRow[]>();
      const kinds = new Map<number, IndexDoc['data_sources'][number]['download']>();
      let datestamp = e.datestamp;
      for (const d of ds) {
        const kind = downloadType(JSON.parse(d.downloads) as string[]);
        kinds.set(d.id, kind);
        libraries.add(d.library_id);
        if (d.datestamp > datestamp) datestamp = d.datestamp;
        const state = states.get(d.library_id) ?? 'none';
        if (state === 'layer') {
          const list = layerDs.get(d.library_id);
          if (list) list.push(d);
          else layerDs.set(d.library_id, [d]);
        }
        if (state !== 'public') continue;
        publicDs.push(d);
        if (d.year_edition) years.add(d.year_edition);
        if (d.year_first_edition) years.add(d.year_first_edition);
        downloadTypes.add(kind);
      }
      if (downloadTypes.size > 1) downloadTypes.delete('none');
      const layers = [...layerDs.keys()].sort((a, b) => a - b);
      const parents = [...new Set((parentsBy.get(e.id) ?? []).map((p) => p.parent))].filter((p) => p !== e.id);
      const aggregate = parents.map(String);
      if (hasParts.has(e.id)) aggregate.push('aggregation');
      if (parents.length === 0) aggregate.push('no_aggregations');
      const date = [...years].sort((a, b) => a - b);
      const values: Record<FilterName, string[]> = {
        language: language.map((l) => l.id),
        creator: creator.map((c) => String(c.id)),
        library: [...libraries].map(String),
        date: date.map(String),
        download: [...downloadTypes],
        aggregate,
        translate: translate.length ? [...translate] : ['unknown'],
      };
      for (const f of FILTER_NAMES) values[f] ??= [];
      const doc: IndexDoc = {
        entry_id: e.id,
        title: e.title,
        subtitle: e.subtitle ?? '',
        creator,
        language,
        translate,
        date,
        values,
        data_sources: ds.map((d) => ({
          data_source_id: d.id, library_id: d.library_id, year_edition: d.year_edition,
          year_first_edition: d.year_first_edition, download: kinds.get(d.id)!,
        })),
        layers,
        datestamp,
        sort_title: titleSortKey(e.title, e.subtitle),
        agent_keys: resolved?.keys ?? [],
      };
      putDoc(e.id, ++seq, JSON.stringify(doc), JSON.stringify(values.library.map(Number)), layers.length ? JSON.stringify(layers) : null);
      // The entry's own row: the group's title and authors and its public copies; a layer row per
      // private library: the same and that library's copies (search/layers.ts).
      const textOf = (copies: DsRow[]): FtsText => {
        const dsTitles = copies.flatMap((d) => [d.title, d.subtitle ?? '']).filter((t) => t && t !== e.title && t !== e.subtitle);
        const dsAuthors = copies.flatMap((d) => JSON.parse(d.authors) as string[]);
        return [
          [e.title, e.subtitle ?? '', ...new Set(dsTitles)].join(' \n '),
          [...creator.map((c) => c.value), ...new Set(dsAuthors)].join(' \n '),
          copies.flatMap((d) => [d.description, d.publisher, d.isbn, d.material_description]).filter(Boolean).join(' \n '),
          copies.map((d) => d.full_text ?? '').join(' \n '),
          language.map((l) => l.id).join(' '),
        ];
      };
      const rows: [number, FtsText, boolean][] = [[e.id, textOf(publicDs), hadRow.has(e.id)]];
      const had = new Set(hadLayers.get(e.id) ?? []);
      for (const lib of layers) rows.push([layerRowid(lib, e.id), textOf([...publicDs, ...layerDs.get(lib)!]), had.has(lib)]);
      dropLayers(e.id, new Set(layers));
      for (const [rowid, text, exists] of rows) {
        if (builder) {
          builder.put(rowid, text);
          continue;
        }
        // PostgreSQL keeps the text as stored; each app node's text mirror folds it (text-mirror.ts).
        const row = this.pg ? storedFtsText(rowid, text) : ftsRow(rowid, text);
        // In a bulk load an entry indexed earlier in the same transaction is often indexed again for its
        // doc alone (it became an aggregation or an original); the same full-text row is not rewritten.
        const fingerprint = ftsWritten && fingerprintOf(row);
        if (fingerprint !== undefined && ftsWritten!.get(rowid) === fingerprint) continue;
        if (exists) ftsGone.push(rowid);
        ftsRows.push(row);
        if (fingerprint !== undefined) ftsWritten!.set(rowid, fingerprint);
      }
    }
    // Merged-away entries and ids that no longer exist: drop them from the index.
    for (const id of missing) {
      if (hadRow.has(id)) ftsGone.push(id);
      dropLayers(id, NO_LAYERS);
      ftsWritten?.set(id, 0);
      builder?.drop(id);
      putDoc(id, ++seq, null, null);
    }
    if (this.stage) this.seqAhead = seq;
    if (docs.length) {
      // A bulk load's rows are sent without waiting (the server writes them while the next documents are made).
      if (this.stage) this.stage.putDocs(docs);
      else q.putDocs!.run(jsonbRows(docs));
    }
    // A row still waiting in `fts` (an entry of an earlier batch of this call) goes in before it is deleted.
    if (ftsGone.some((id) => fts.ids.has(id))) this.writeFts(fts);
    if (q.ftsDeleteMany) {
      if (ftsGone.length) q.ftsDeleteMany.run(JSON.stringify(ftsGone));
      this.stage?.drop(ftsGone);
    } else for (const id of ftsGone) q.ftsDelete!.run(sqliteRowid(id));
    for (const row of ftsRows) {
      fts.rows.push(row);
      fts.ids.add(row[0]);
    }
    return canon.length;
  }
}

/** PostgreSQL: a batch's search_docs rows in one statement, in seq order (the OAI-PMH triggers still fire per row). */
const PG_PUT_DOCS = `INSERT INTO search_docs (entry_id, seq, doc, libraries, layers)
  SELECT (r->>0)::bigint, (r->>1)::bigint, r->>2, r->>3, r->>4 FROM jsonb_array_elements(?::jsonb) r ORDER BY (r->>1)::bigint
  ON CONFLICT(entry_id) DO UPDATE SET ${PG_DOC_UPDATE}`;

/** Where the index puts a library's copies (see `Indexer.syncLibraryVisibility`). */
type LibraryState = 'public' | 'layer' | 'none';
const NO_LAYERS = new Set<number>();

/** At most this many full-text rows wait in a bulk reindex (memory). */
const BULK_FTS_ROWS = 20_000;
/** Full-text rows per statement on PostgreSQL. */
const PG_FTS_ROWS = 500;

/**
 * `inTransaction`: the caller holds the write transaction (a bulk import); `ftsWritten`: the same
 * table over the whole transaction, of the full-text rows written in it; `ftsBuilder`: the full-text
 * rows go to it instead (an import into an empty catalogue: fts-builder.ts); `image`: the entries it
 * holds are read from it (entry-image.ts).
 */
export interface BulkReindexOptions {
  inTransaction?: boolean; ftsWritten?: FtsFingerprints; ftsBuilder?: FtsBuilder | null; image?: EntryImage | null;
  /** PostgreSQL: the load's staged full-text rows (pg-fts-stage.ts), written into entry_fts by its finish(). */
  pgFts?: PgFtsStage | null;
}

/** Full-text rows waiting to be written (PostgreSQL: their texts as stored), and their entry ids. */
class FtsRows {
  rows: (FtsRow | StoredFtsText)[] = [];
  ids = new Set<number>();
}

/** Rows in id order (as the tables' statements give them). */
function byId<T extends { id: number }>(rows: T[]): T[] {
  return rows.sort((a, b) => a.id - b.id);
}

function groupBy<T>(rows: T[], key: (r: T) => number): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}
