// The one ingestion path: records from any source (JSONL import, demo, later CSV and harvests) become
// data sources, grouped into entries by the grouping rule, and the touched entries are reindexed.
import type { Db } from '../db/index.ts';
import type { Indexer } from '../search/indexer.ts';
import type { FileStore } from '../catalogue/files.ts';
import { foldText } from '@uc/shared';
import { clip, groupingKey, storedWork, TITLE_MAX } from './grouping.ts';
import { asPgText, jsonbRows } from '../db/dialect.ts';
import { pumpWrites, type PgConnection } from '../db/postgres.ts';
import type { EntryImage } from '../search/entry-image.ts';

export interface IngestRecord {
  siteId: number;
  identifier: string;
  title: string;
  subtitle?: string | null;
  authors: string[];
  languages: string[];
  year_edition?: number | null;
  year_first_edition?: number | null;
  description?: string | null;
  publisher?: string | null;
  isbn?: string | null;
  shelf_location_code?: string | null;
  material_description?: string | null;
  edition_statement?: string | null;
  place_date_of_publication_distribution?: string | null;
  uri?: string | null;
  uri_label?: string | null;
  content_type?: string | null;
  downloads?: string[];
  full_text?: string | null;
  /** Acquisition date (ISO); defaults to now for new records. */
  datestamp?: string | null;
  /** recordGroupingKey of this record, when the caller made it already (the import's reader thread). */
  groupingKey?: string;
}

/** What storing a record did: a new data source, a changed one, or nothing (same as stored). */
export type StoreOutcome = 'new' | 'updated' | 'unchanged';

/** PostgreSQL: an import gathers the planner's statistics once it has written this many new rows (and then at each doubling). */
const ANALYZE_AFTER_ROWS = 4000;

/**
 * `inTransaction`: the caller holds the write transaction and rolls all of it back on failure (a bulk
 * import), so no savepoint is opened per call: each one copies every page it touches into the
 * sub-journal again, which made a 1,000,000-record import spend most of its time copying pages.
 */
export interface BulkOptions {
  inTransaction?: boolean;
  /** What is written of new entries is also kept here, for their indexing (search/entry-image.ts). */
  image?: EntryImage | null;
  /** PostgreSQL, a load into an empty catalogue that has locked its tables: what it stored (`StoredKeys`). */
  stored?: StoredKeys | null;
}

/**
 * What a bulk load into an empty catalogue has stored, as hashes of the data sources' keys (site and
 * identifier) and of the entries' grouping keys: with the tables empty at the start and locked by the
 * load (PgSuspendedKeys), a key whose hash is not here is in no table, so a batch asks PostgreSQL only
 * about the others (most batches: none). Each of those reads was a round trip that also waited for the
 * server to store the batch before. A hash met by chance only costs the read. 32-bit hashes in sets of
 * numbers: about 30 MB at 1,000,000 entries, where the keys themselves would take several times that.
 */
export class StoredKeys {
  readonly dataSources = new Set<number>();
  /**
   * The entries under each grouping key's hash (every key an entry was made or changed to), asked by id:
   * the index on `entries.grouping_key` is dropped for the load and built again at its end (`finish`),
   * its random insertions having been most of a 1,000,000-entry load's time in COPY entries.
   */
  private groups = new Map<number, number | number[]>();
  private groupingIndexes: { name: string; def: string }[] = [];
  /** `agents` held no row at the start: a name not among the agent ids found or made since is in no row. */
  agentsEmpty = false;
  /**
   * New ids taken ahead from each table's sequence (PgBatch.take), so a batch rarely waits for a
   * statement's answer; those left at the end are given back (IngestService.releaseIds).
   */
  readonly ids = new Map<string, number[]>();

  /**
   * In a PostgreSQL load's transaction, into an empty catalogue whose tables it has locked
   * (`PgSuspendedKeys`, said again here): the keys to keep, or null where the tables hold rows.
   */
  static open(conn: PgConnection): StoredKeys | null {
    const any = (table: string) => conn.prepare(`SELECT EXISTS (SELECT 1 FROM ${table})`).pluck().get() === 1;
    // (Data sources left without an entry would be in no set.)
    if (any('entries') || any('data_sources')) return null;
    conn.exec('LOCK TABLE entries, data_sources, agents IN EXCLUSIVE MODE');
    const stored = new StoredKeys();
    stored.agentsEmpty = !any('agents');
    stored.groupingIndexes = conn.prepare(`SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[0]
      WHERE x.indrelid = 'entries'::regclass AND NOT x.indisunique AND x.indnatts = 1 AND a.attname = 'grouping_key'`).all() as { name: string; def: string }[];
    for (const i of stored.groupingIndexes) conn.exec(`DROP INDEX "${i.name.replaceAll('"', '""')}"`);
    return stored;
  }

  /** Before the commit: the grouping-key index built again (one sorted build). */
  finish(conn: PgConnection): void {
    for (const i of this.groupingIndexes) conn.exec(i.def);
    this.groupingIndexes = [];
  }

  /** An entry was made or changed with this grouping key (one id kept as a number: most keys have one). */
  addGroup(key: string, entryId: number): void {
    const h = StoredKeys.hash(key);
    const ids = this.groups.get(h);
    if (ids === undefined) this.groups.set(h, entryId);
    else if (typeof ids === 'number') {
      if (ids !== entryId) this.groups.set(h, [ids, entryId]);
    } else if (!ids.includes(entryId)) ids.push(entryId);
  }

  /** The entries made or changed with a key of this one's hash. */
  entriesOf(key: string): number[] {
    const ids = this.groups.get(StoredKeys.hash(key));
    return ids === undefined ? [] : typeof ids === 'number' ? [ids] : ids;
  }

  /** FNV-1a over the UTF-16 code units. */
  static hash(key: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    return h | 0;
  }
}

export interface LinkRequest {
  kind: 'aggregation' | 'translation';
  /** aggregation: the anthology/issue; translation: the original. */
  parentEntryId: number;
  childEntryId: number;
  position?: number | null;
}

const DS_FIELDS = [
  'title', 'subtitle', 'authors', 'languages', 'year_edition', 'year_first_edition', 'description', 'publisher', 'isbn',
  'shelf_location_code', 'material_description', 'edition_statement', 'place_date_of_publication_distribution', 'uri',
  'uri_label', 'content_type', 'downloads', 'full_text', 'datestamp',
] as const;

/** DS_FIELDS but the two a record may leave to the stored row (dsUnchanged compares those apart). */
const COMPARED_IN_SQL = DS_FIELDS.filter((f) => f !== 'full_text' && f !== 'datestamp');

/** A data source as stored, with the entry holding it (`dsByKey`). */
type HeldDataSource = Record<string, unknown> & {
  id: number; entry_id: number | null; datestamp: string; owner_id: number | null; owner_canonical: number | null;
};
type DataSourceRow = ReturnType<IngestService['dataSourceRow']>;
type EntryFound = { id: number; canonical_entry_id: number | null };

/**
 * A record stored again unchanged changes nothing (no datestamp bump, no reindex): re-uploading the
 * same spreadsheet or re-running an import does not make old records "new".
 */
function sameAsHeld(existing: HeldDataSource | undefined, row: DataSourceRow): existing is HeldDataSource & { owner_id: number } {
  return !!existing && existing.entry_id !== null && existing.owner_id !== null && DS_FIELDS.every((f) => (existing[f] ?? null) === row[f]);
}

/**
 * What storeOne reads and writes through: the statements themselves (SQLite, a microsecond each), or a
 * batch that reads ahead and writes set-wise (PostgreSQL: `PgBatch`, every statement a round trip).
 */
interface StoreTarget {
  dataSource(siteId: number, identifier: string): HeldDataSource | undefined;
  /**
   * SQLite: the id of the data source under this key, and (`unchangedOwner`) the entry showing it when
   * it holds exactly this row, compared inside SQLite: reading every stored column into JavaScript to
   * compare them was most of an unchanged re-import (about 6 µs a record, and garbage).
   */
  heldId?(siteId: number, identifier: string): number | undefined;
  unchangedOwner?(id: number, row: DataSourceRow, givesFullText: boolean, givesDatestamp: boolean): number | undefined;
  entryByKey(key: string): EntryFound | undefined;
  insertEntry(title: string, subtitle: string | null, key: string, datestamp: string): number;
  /** The entry's own record changed: its wording, and the later acquisition date. */
  updateEntry(v: { title: string; subtitle: string | null; key: string; datestamp: string; id: number }): void;
  /** Another record joined the entry: the later acquisition date. */
  bumpEntry(v: { datestamp: string; id: number }): void;
  addAuthorsAndLanguages(entryId: number, authors: string[], languages: string[]): void;
  insertDs(row: DataSourceRow & { site_id: number; identifier: string; entry_id: number }): number;
  updateDs(row: DataSourceRow & { site_id: number; identifier: string; entry_id: number; id: number }): void;
}

export class IngestService {
  private q;
  /** storeOne's reads and writes on SQLite: the statements, row by row. */
  private direct: StoreTarget;
  private pgq: PgStatements | null = null;
  /** New data sources written since the statistics were last gathered, and the table's rows then (-1: not read yet). */
  private pgGrowth = { added: 0, rows: -1 };
  private agentIds = new Map<string, number>();
  private languages = new Set<string>();

  constructor(private db: Db, private indexer: Indexer, private files: FileStore) {
    const s = db.sqlite;
    const sqlite = s.dialect === 'sqlite';
    this.q = {
      // With the entry holding it (one statement per record: most of a re-import is unchanged records).
      dsByKey: s.prepare(`SELECT d.*, e.id AS owner_id, e.canonical_entry_id AS owner_canonical
        FROM data_sources d LEFT JOIN entries e ON e.id = d.entry_id WHERE d.site_id = ? AND d.identifier = ?`),
      // SQLite only (PostgreSQL reads a batch ahead: PgBatch).
      dsId: sqlite ? s.prepare('SELECT id FROM data_sources WHERE site_id = ? AND identifier = ?').pluck() : null,
      // The owner (as sameAsHeld answers it) when every column equals the record's; a record that gives no
      // full text or datestamp keeps the stored one, so those are compared only when given.
      dsUnchanged: sqlite ? s.prepare(`SELECT coalesce(e.canonical_entry_id, e.id) FROM data_sources d JOIN entries e ON e.id = d.entry_id
        WHERE d.id = ? AND ${COMPARED_IN_SQL.map((f) => `d.${f} IS ?`).join(' AND ')}
        AND (? = 0 OR d.full_text IS ?) AND d.datestamp IS coalesce(?, d.datestamp)`).pluck() : null,
      entryByKey: s.prepare('SELECT id, canonical_entry_id FROM entries WHERE grouping_key = ? ORDER BY id LIMIT 1'),
      insertEntry: s.prepare('INSERT INTO entries (title, subtitle, grouping_key, datestamp) VALUES (?, ?, ?, ?)'),
      // The later acquisition date of the entry's and the record's (SQLite's scalar max() is not PostgreSQL's).
      updateEntry: s.prepare(`UPDATE entries SET title = @title, subtitle = @subtitle, grouping_key = @key,
        datestamp = CASE WHEN datestamp >= @datestamp THEN datestamp ELSE @datestamp END,
        last_modified = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = @id`),
      bumpEntry: s.prepare(`UPDATE entries SET datestamp = CASE WHEN datestamp >= @datestamp THEN datestamp ELSE @datestamp END,
        last_modified = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = @id`),
      agentByName: s.prepare('SELECT id FROM agents WHERE name = ?').pluck(),
      insertAgent: s.prepare('INSERT INTO agents (name, normalized_name) VALUES (?, ?)'),
      insertLanguage: s.prepare('INSERT INTO languages (code) VALUES (?) ON CONFLICT DO NOTHING'),
      addAgent: s.prepare('INSERT INTO entry_agents (entry_id, agent_id, position) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
      addLanguage: s.prepare('INSERT INTO entry_languages (entry_id, language_code, position) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
      // Positional: 22 named parameters cost about 2 µs a row more to bind (direct.insertDs lists them in this order).
      insertDs: s.prepare(`INSERT INTO data_sources (site_id, identifier, entry_id, ${DS_FIELDS.join(', ')})
        VALUES (${Array(DS_FIELDS.length + 3).fill('?').join(', ')})`),
      updateDs: s.prepare(`UPDATE data_sources SET entry_id = @entry_id, title = @title, subtitle = @subtitle, authors = @authors,
          languages = @languages, year_edition = @year_edition, year_first_edition = @year_first_edition,
          description = @description, publisher = @publisher, isbn = @isbn, shelf_location_code = @shelf_location_code,
          material_description = @material_description, edition_statement = @edition_statement,
          place_date_of_publication_distribution = @place_date_of_publication_distribution, uri = @uri,
          uri_label = @uri_label, content_type = @content_type, downloads = @downloads, full_text = @full_text,
          datestamp = @datestamp, last_modified = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = @id`),
      entryLinksOf: s.prepare(`SELECT aggregation_entry_id AS a, aggregated_entry_id AS b FROM aggregation_links
          WHERE aggregation_entry_id = ? OR aggregated_entry_id = ?`),
      originalOf: s.prepare('SELECT original_entry_id FROM entries WHERE id = ?').pluck(),
      setOriginal: s.prepare('UPDATE entries SET original_entry_id = ? WHERE id = ? AND id <> ? AND original_entry_id IS DISTINCT FROM ?'),
      addAggregation: s.prepare(`INSERT INTO aggregation_links (aggregation_entry_id, aggregated_entry_id, position) VALUES (?, ?, ?)
          ON CONFLICT (aggregation_entry_id, aggregated_entry_id) DO UPDATE SET position = excluded.position
          WHERE aggregation_links.position IS DISTINCT FROM excluded.position`),
    };
    const q = this.q;
    this.direct = {
      dataSource: (siteId, identifier) => q.dsByKey.get(siteId, identifier) as HeldDataSource | undefined,
      heldId: (siteId, identifier) => q.dsId!.get(siteId, identifier) as number | undefined,
      unchangedOwner: (id, row, givesFullText, givesDatestamp) =>
        q.dsUnchanged!.get(id, ...COMPARED_IN_SQL.map((f) => row[f]), givesFullText ? 1 : 0, row.full_text, givesDatestamp ? row.datestamp : null) as number | undefined,
      entryByKey: (key) => q.entryByKey.get(key) as EntryFound | undefined,
      insertEntry: (title, subtitle, key, datestamp) => Number(q.insertEntry.run(title, subtitle, key, datestamp).lastInsertRowid),
      updateEntry: (v) => { q.updateEntry.run(v); },
      bumpEntry: (v) => { q.bumpEntry.run(v); },
      addAuthorsAndLanguages: (entryId, authors, languages) => this.addAuthorsAndLanguages(entryId, authors, languages),
      insertDs: (d) => Number(q.insertDs.run(d.site_id, d.identifier, d.entry_id, d.title, d.subtitle, d.authors, d.languages,
        d.year_edition, d.year_first_edition, d.description, d.publisher, d.isbn, d.shelf_location_code, d.material_description,
        d.edition_statement, d.place_date_of_publication_distribution, d.uri, d.uri_label, d.content_type, d.downloads,
        d.full_text, d.datestamp).lastInsertRowid),
      updateDs: (row) => { q.updateDs.run(row); },
    };
  }

  /**
   * Stores records (in one transaction) and returns the entry id of each, in order, plus every entry
   * whose index row must be rebuilt. Does not reindex: call `reindex` (or use `ingestAndIndex`).
   */
  store(records: IngestRecord[], opts?: BulkOptions): { entryIds: number[]; touched: Set<number>; dataSourceIds: number[]; outcomes: StoreOutcome[] } {
    const touched = new Set<number>();
    const entryIds: number[] = [];
    const dataSourceIds: number[] = [];
    const outcomes: StoreOutcome[] = [];
    const now = new Date().toISOString();
    this.atomically(opts, () => {
      // Cached agent ids and languages hold for one transaction: an agent may be deleted between two
      // (a curator undoing it). A bulk load holding its transaction forgets them once, at its start.
      if (!opts?.inTransaction) this.forgetCaches();
      if (this.db.sqlite.dialect === 'postgres') return this.storeBatch(records, now, { entryIds, touched, dataSourceIds, outcomes }, opts);
      const target = opts?.image ? this.imaged(opts.image) : this.direct;
      for (const r of records) {
        const { entryId, dataSourceId, outcome } = this.storeOne(r, target, now, touched);
        entryIds.push(entryId);
        dataSourceIds.push(dataSourceId);
        outcomes.push(outcome);
      }
    });
    return { entryIds, touched, dataSourceIds, outcomes };
  }

  /**
   * PostgreSQL: the same decisions record by record (storeOne), but read ahead (the batch's data
   * sources, then the entries of their grouping keys: one statement each) and written set-wise at the
   * end, new rows with ids taken in order, so a batch is about a dozen round trips instead of thousands.
   */
  private storeBatch(records: IngestRecord[], now: string, out: { entryIds: number[]; touched: Set<number>; dataSourceIds: number[]; outcomes: StoreOutcome[] }, opts?: BulkOptions): void {
    this.pgq ??= pgStatements(this.db, this.q.entryByKey);
    const newBefore = out.outcomes.filter((o) => o === 'new').length;
    const batch = new PgBatch(this.pgq, this.agentIds, this.languages, opts?.stored ?? null);
    batch.readDataSources(records);
    // The grouping keys of the records that are new or changed (an unchanged one needs none).
    const keys = new Set<string>();
    for (const r of records) {
      const p = this.normalised(r);
      const existing = batch.dataSource(r.siteId, r.identifier);
      if (!sameAsHeld(existing, this.recordRow(r, p, existing, now))) keys.add(r.groupingKey ?? groupingKey(p.title, p.authors, p.languages));
    }
    batch.readEntries(keys);
    const touched = new Set<number>();
    let pumped = 0;
    for (const r of records) {
      // The writes of the batches before (sent without waiting) move on meanwhile.
      if (++pumped % 200 === 0) pumpWrites(this.db.sqlite);
      const { entryId, dataSourceId, outcome } = this.storeOne(r, batch, now, touched);
      out.entryIds.push(entryId);
      out.dataSourceIds.push(dataSourceId);
      out.outcomes.push(outcome);
    }
    const { entryId, dataSourceId } = batch.write(opts?.image ?? null);
    this.analyzeWhenGrown(out.outcomes.filter((o) => o === 'new').length - newBefore);
    for (let i = 0; i < out.entryIds.length; i++) {
      out.entryIds[i] = entryId(out.entryIds[i]!);
      out.dataSourceIds[i] = dataSourceId(out.dataSourceIds[i]!);
    }
    for (const id of touched) out.touched.add(entryId(id));
  }

  /**
   * PostgreSQL plans a lookup from the tables' statistics, which autovacuum gathers only after a commit:
   * inside an import's one transaction the tables it fills look as small as they were, and a batch's
   * lookup by grouping key or by site and identifier became a sequential scan of the whole growing
   * table (measured: a hash join over all of `entries`, 59 ms a batch at 400,000 rows, against an index
   * scan after ANALYZE). So the import gathers them itself (ANALYZE sees its own transaction's rows)
   * whenever its new rows have made the tables four times as large as the last time: about five times
   * in 1,000,000. (Between two, the planner scales the row counts by the tables' sizes on disk, so the
   * plans follow the growth; doubling ran it twice as often for the same plans.)
   */
  private analyzeWhenGrown(added: number): void {
    const st = this.pgGrowth;
    if (st.rows < 0) {
      st.rows = Math.max(0, Number(this.db.sqlite.prepare("SELECT reltuples FROM pg_class WHERE oid = 'data_sources'::regclass").pluck().get() ?? 0));
    }
    st.added += added;
    if (st.added < Math.max(ANALYZE_AFTER_ROWS, 3 * st.rows)) return;
    // The columns the import's lookups and the indexer's reads go by: the wide text columns (titles,
    // descriptions, full texts, documents) were most of its cost (555 ms against 184 ms at 50,000 entries).
    this.db.sqlite.exec(`ANALYZE entries (id, grouping_key, canonical_entry_id, original_entry_id), data_sources (id, site_id, identifier, entry_id),
      agents (id, name, canonical_agent_id), entry_agents (entry_id, agent_id), entry_languages (entry_id), search_docs (entry_id, seq)`);
    st.rows += st.added;
    st.added = 0;
  }

  private atomically(opts: BulkOptions | undefined, fn: () => void): void {
    if (!opts?.inTransaction) return this.db.sqlite.transaction(fn)();
    if (!this.db.sqlite.inTransaction) throw new Error('inTransaction: no transaction is open');
    fn();
  }

  /**
   * Removes data sources (a record deleted at its source, or dropped by a full harvest or a sheet that
   * replaces everything) with their files; returns the entries to reindex (an entry nothing else holds
   * drops out of the catalogue there).
   */
  removeDataSources(ids: number[]): Set<number> {
    const touched = new Set<number>();
    const entryOf = this.db.sqlite.prepare('SELECT entry_id FROM data_sources WHERE id = ?').pluck();
    const del = this.db.sqlite.prepare('DELETE FROM data_sources WHERE id = ?');
    this.db.sqlite.transaction(() => {
      for (const id of ids) {
        const entryId = entryOf.get(id) as number | null | undefined;
        if (entryId === undefined) continue;
        if (entryId !== null) touched.add(entryId);
        del.run(id);
      }
    })();
    for (const id of ids) this.files.removeAll(id);
    return touched;
  }

  /** The record's title, subtitle, authors and languages as stored. */
  private normalised(r: IngestRecord) {
    return {
      ...storedWork(r),
      subtitle: clip(r.subtitle?.trim() || null, TITLE_MAX),
    };
  }

  /** The data source row the record makes, given what is stored under its site and identifier. */
  private recordRow(r: IngestRecord, p: ReturnType<IngestService['normalised']>, existing: HeldDataSource | undefined, now: string): DataSourceRow {
    // The datestamp is the acquisition date: a record already held keeps it unless the source gives one.
    const datestamp = r.datestamp || existing?.datestamp || now;
    const row = this.dataSourceRow(r, p.title, p.subtitle, p.authors, p.languages, datestamp);
    // A record that says nothing of its full text (a harvested record: the text comes with its files) keeps the stored one.
    if (r.full_text === undefined && existing) row.full_text = (existing.full_text as string | null) ?? null;
    return row;
  }

  private storeOne(r: IngestRecord, t: StoreTarget, now: string, touched: Set<number>): { entryId: number; dataSourceId: number; outcome: StoreOutcome } {
    const p = this.normalised(r);
    const { title, subtitle, authors, languages } = p;
    let existing: HeldDataSource | undefined;
    let row: DataSourceRow;
    if (t.heldId && t.unchangedOwner) {
      const heldId = t.heldId(r.siteId, r.identifier);
      // With nothing held, the record's row is this (recordRow without an existing one).
      row = this.dataSourceRow(r, title, p.subtitle, authors, languages, r.datestamp || now);
      if (heldId !== undefined) {
        const owner = t.unchangedOwner(heldId, row, r.full_text !== undefined, !!r.datestamp);
        if (owner !== undefined) return { entryId: owner, dataSourceId: heldId, outcome: 'unchanged' };
        existing = t.dataSource(r.siteId, r.identifier);
        row = this.recordRow(r, p, existing, now);
      }
    } else {
      existing = t.dataSource(r.siteId, r.identifier);
      row = this.recordRow(r, p, existing, now);
    }
    if (sameAsHeld(existing, row)) return { entryId: existing.owner_canonical ?? existing.owner_id!, dataSourceId: existing.id, outcome: 'unchanged' };
    const datestamp = row.datestamp;
    // The grouping key is only needed for a new or changed record (most of a re-import is unchanged).
    const key = r.groupingKey ?? groupingKey(title, authors, languages);
    let entryId: number;
    const found = t.entryByKey(key);
    if (found) {
      entryId = found.canonical_entry_id ?? found.id;
      // A new holding keeps the entry's wording (records differ only in case or accents); a re-import
      // of a record already in the entry may correct it.
      if (!found.canonical_entry_id) {
        if (existing?.entry_id === found.id) t.updateEntry({ title, subtitle, key, datestamp, id: found.id });
        else t.bumpEntry({ datestamp, id: found.id });
      } else touched.add(found.id);
    } else {
      entryId = t.insertEntry(title, subtitle, key, datestamp);
    }
    if (!found) t.addAuthorsAndLanguages(entryId, authors, languages);
    touched.add(entryId);
    if (existing?.entry_id && existing.entry_id !== entryId) touched.add(existing.entry_id);

    const entryRow = { ...row, site_id: r.siteId, identifier: r.identifier, entry_id: found && found.canonical_entry_id ? found.id : entryId };
    let dataSourceId: number;
    if (existing) {
      t.updateDs({ ...entryRow, id: existing.id });
      dataSourceId = existing.id;
    } else {
      dataSourceId = t.insertDs(entryRow);
    }
    return { entryId, dataSourceId, outcome: existing ? 'updated' : 'new' };
  }

  /** The stored columns of a data source (those compared to decide whether a record changed). */
  private dataSourceRow(r: IngestRecord, title: string, subtitle: string | null, authors: string[], languages: string[], datestamp: string) {
    return {
      title,
      subtitle,
      authors: JSON.stringify(authors),
      languages: JSON.stringify(languages),
      year_edition: r.year_edition ?? null,
      year_first_edition: r.year_first_edition ?? null,
      description: clip(r.description),
      publisher: clip(r.publisher, 1000),
      isbn: clip(r.isbn, 1000),
      shelf_location_code: clip(r.shelf_location_code, 1000),
      material_description: clip(r.material_description, 2000),
      edition_statement: clip(r.edition_statement, 2000),
      place_date_of_publication_distribution: clip(r.place_date_of_publication_distribution, 2000),
      uri: clip(r.uri, 2048),
      uri_label: clip(r.uri_label, 2048),
      content_type: clip(r.content_type, 128),
      downloads: JSON.stringify([...new Set(r.downloads ?? [])]),
      full_text: r.full_text ?? null,
      datestamp,
    };
  }

  /**
   * SQLite's store target that also keeps in `image` what it writes of the entries it makes: what the
   * Indexer would read back of them.
   */
  private imaged(image: EntryImage): StoreTarget {
    const t = this.direct;
    return {
      ...t,
      insertEntry: (title, subtitle, key, datestamp) => {
        const id = t.insertEntry(title, subtitle, key, datestamp);
        image.made(id, title, subtitle, datestamp);
        return id;
      },
      updateEntry: (v) => {
        t.updateEntry(v);
        image.changed(v.id, v.datestamp, { title: v.title, subtitle: v.subtitle });
      },
      bumpEntry: (v) => {
        t.bumpEntry(v);
        image.changed(v.id, v.datestamp);
      },
      addAuthorsAndLanguages: (entryId, authors, languages) => {
        const ids = this.addAuthorsAndLanguages(entryId, authors, languages);
        image.people(entryId, authors.map((name, i) => ({ id: ids[i]!, value: name })), languages);
      },
      insertDs: (d) => {
        const id = t.insertDs(d);
        image.stored({ ...d, id });
        return id;
      },
      updateDs: (d) => {
        t.updateDs(d);
        image.stored(d);
      },
    };
  }

  /** The authors and languages of a new entry (ids are never reused: it has none yet); answers the authors' agent ids. */
  private addAuthorsAndLanguages(entryId: number, authors: string[], languages: string[]): number[] {
    const q = this.q;
    const ids = authors.map((name) => this.agentId(name));
    ids.forEach((agentId, i) => q.addAgent.run(entryId, agentId, i));
    languages.forEach((code, i) => {
      if (!this.languages.has(code)) {
        q.insertLanguage.run(code);
        this.languages.add(code);
      }
      q.addLanguage.run(entryId, code, i);
    });
    return ids;
  }

  /** Forgets the cached agent ids and languages: a rolled-back transaction may have written them, another deleted them. */
  forgetCaches(): void {
    this.agentIds.clear();
    this.languages.clear();
  }

  /** Agents are matched by their exact name (curators merge variants later). */
  private agentId(name: string): number {
    let id = this.agentIds.get(name);
    if (id === undefined) {
      id = (this.q.agentByName.get(name) as number | undefined) ??
        Number(this.q.insertAgent.run(name, foldText(name)).lastInsertRowid);
      this.agentIds.set(name, id);
    }
    return id;
  }

  /** Sets the full text of a data source (from its files, after the record was stored); returns its entry to reindex. */
  setFullText(dataSourceId: number, text: string | null): number | null {
    const row = this.db.sqlite.prepare('UPDATE data_sources SET full_text = ? WHERE id = ? AND full_text IS DISTINCT FROM ? RETURNING entry_id').get(text, dataSourceId, text) as { entry_id: number | null } | undefined;
    return row?.entry_id ?? null;
  }

  /**
   * Records "is part of" and "is a translation of" links; returns the entries to reindex: those of the
   * links that changed (a link stored again as it was changes nothing, like an unchanged record).
   */
  link(links: LinkRequest[], opts?: BulkOptions): Set<number> {
    const touched = new Set<number>();
    this.atomically(opts, () => {
      if (this.db.sqlite.dialect === 'postgres' && links.length > 1 && this.linkSetWise(links, touched)) return;
      for (const l of links) {
        if (l.parentEntryId === l.childEntryId) continue;
        const changed = l.kind === 'aggregation'
          ? this.q.addAggregation.run(l.parentEntryId, l.childEntryId, l.position ?? null).changes
          : this.q.setOriginal.run(l.parentEntryId, l.childEntryId, l.parentEntryId, l.parentEntryId).changes;
        if (!changed) continue;
        touched.add(l.parentEntryId);
        touched.add(l.childEntryId);
      }
    });
    return touched;
  }

  /**
   * PostgreSQL: `link` in two statements, one per kind (an import's links were a round trip each, about
   * 80,000 at 1,000,000 entries), with the same outcome as one at a time: the rows changed come back
   * (RETURNING), the rest were stored as they are. Only where the order cannot matter, no link given
   * twice (an entry that is a translation twice, a part given twice); answers false otherwise.
   */
  private linkSetWise(links: LinkRequest[], touched: Set<number>): boolean {
    const aggregations: [number, number, number | null][] = [];
    const translations: [number, number][] = [];
    const seen = new Set<string>();
    for (const l of links) {
      if (l.parentEntryId === l.childEntryId) continue;
      const key = l.kind === 'aggregation' ? `a ${l.parentEntryId} ${l.childEntryId}` : `t ${l.childEntryId}`;
      if (seen.has(key)) return false;
      seen.add(key);
      if (l.kind === 'aggregation') aggregations.push([l.parentEntryId, l.childEntryId, l.position ?? null]);
      else translations.push([l.parentEntryId, l.childEntryId]);
    }
    this.pgq ??= pgStatements(this.db, this.q.entryByKey);
    const changed = [
      ...(aggregations.length ? (this.pgq.linkAggregations.all(jsonbRows(aggregations)) as [number, number][]) : []),
      ...(translations.length ? (this.pgq.linkTranslations.all(jsonbRows(translations)) as [number, number][]) : []),
    ];
    for (const [parent, child] of changed) {
      touched.add(parent);
      touched.add(child);
    }
    return true;
  }

  /**
   * The ids a load took ahead and did not use go back to their sequences (before its commit), so the
   * next rows are numbered on from its last, as SQLite numbers them; not when another session has taken
   * an id since (it keeps its gap then).
   */
  releaseIds(stored: StoredKeys): void {
    this.pgq ??= pgStatements(this.db, this.q.entryByKey);
    for (const [table, pool] of stored.ids) {
      if (!pool.length) continue;
      const seq = this.pgq.sequences[table as (typeof ID_TABLES)[number]];
      this.db.sqlite.prepare(`SELECT setval(?::regclass, ?) FROM ${seq} WHERE last_value = ?`).run(seq, pool[0]! - 1, pool[pool.length - 1]!);
    }
    stored.ids.clear();
  }

  reindex(entryIds: Iterable<number>, opts?: BulkOptions): number {
    return this.indexer.reindex(entryIds, opts);
  }
}

/** The set-wise statements of PgBatch (rows as one jsonb array: `jsonbRows`). */
function pgStatements(db: Db, entryByKey: ReturnType<Db['sqlite']['prepare']>) {
  const s = db.sqlite;
  const ROWS = 'jsonb_array_elements(?::jsonb) r';
  const dsText = ['title', 'subtitle', 'authors', 'languages', 'description', 'publisher', 'isbn', 'shelf_location_code',
    'material_description', 'edition_statement', 'place_date_of_publication_distribution', 'uri', 'uri_label', 'content_type',
    'downloads', 'full_text', 'datestamp'];
  const dsColumns = ['entry_id', ...dsText, 'year_edition', 'year_first_edition'];
  const sequences = Object.fromEntries(ID_TABLES.map((table) => [table, s.prepare('SELECT pg_get_serial_sequence(?, ?)').pluck().get(table, 'id') as string])) as Record<(typeof ID_TABLES)[number], string>;
  // The later of the acquisition dates in `dates` (what the row-wise CASE WHEN datestamp >= ? gives, in any order).
  const latest = (dates: string) => `(SELECT max(v) FROM jsonb_array_elements_text(${dates}) v)`;
  return {
    entryByKey,
    dataSources: s.prepare(`SELECT d.*, e.id AS owner_id, e.canonical_entry_id AS owner_canonical
      FROM (SELECT DISTINCT (r->>0)::bigint AS site_id, r->>1 AS identifier FROM ${ROWS}) k
      JOIN data_sources d ON d.site_id = k.site_id AND d.identifier = k.identifier
      LEFT JOIN entries e ON e.id = d.entry_id`),
    // The first entry of each grouping key, as entryByKey answers it.
    entries: s.prepare(`SELECT DISTINCT ON (grouping_key) grouping_key, id, canonical_entry_id FROM entries
      WHERE grouping_key IN (SELECT jsonb_array_elements_text(?::jsonb)) ORDER BY grouping_key, id`),
    // The same by id (StoredKeys), in id order.
    entriesById: s.prepare(`SELECT grouping_key, id, canonical_entry_id FROM entries
      WHERE id IN (SELECT (r #>> '{}')::bigint FROM ${ROWS}) ORDER BY id`),
    // New ids of the three tables (id columns `generated by default as identity`), as many as asked of each,
    // in one statement. The sequences by name: pg_get_serial_sequence() per id made each id cost 4 µs, not 0.5.
    nextIds: s.prepare(`SELECT ${ID_TABLES.map((table, i) => `(SELECT string_agg(nextval('${sequences[table].replaceAll("'", "''")}'::regclass)::text, ',')
      FROM generate_series(1, ?${i + 1}::int)) AS ${table}`).join(', ')}`).raw(),
    sequences,
    // New rows go by COPY (PgConnection.copyRows): one statement, no JSON to parse on either side.
    copy: s as unknown as PgConnection,
    updateEntries: s.prepare(`UPDATE entries e SET
        title = CASE WHEN x.w THEN x.r->>'title' ELSE e.title END,
        subtitle = CASE WHEN x.w THEN x.r->>'subtitle' ELSE e.subtitle END,
        grouping_key = CASE WHEN x.w THEN x.r->>'key' ELSE e.grouping_key END,
        datestamp = CASE WHEN e.datestamp >= x.d THEN e.datestamp ELSE x.d END,
        last_modified = strftime('%Y-%m-%dT%H:%M:%fZ','now')
      FROM (SELECT r, (r->>'w') = '1' AS w, ${latest(`r->'dates'`)} AS d FROM ${ROWS}) x
      WHERE e.id = (x.r->>'id')::bigint`),
    // IngestService.link's two statements, as addAggregation and setOriginal do it row by row.
    linkAggregations: s.prepare(`INSERT INTO aggregation_links (aggregation_entry_id, aggregated_entry_id, position)
        SELECT (r->>0)::bigint, (r->>1)::bigint, (r->>2)::bigint FROM ${ROWS}
        ON CONFLICT (aggregation_entry_id, aggregated_entry_id) DO UPDATE SET position = excluded.position
        WHERE aggregation_links.position IS DISTINCT FROM excluded.position
        RETURNING aggregation_entry_id, aggregated_entry_id`).raw(),
    linkTranslations: s.prepare(`UPDATE entries e SET original_entry_id = x.parent
        FROM (SELECT (r->>0)::bigint AS parent, (r->>1)::bigint AS child FROM ${ROWS}) x
        WHERE e.id = x.child AND e.id <> x.parent AND e.original_entry_id IS DISTINCT FROM x.parent
        RETURNING x.parent, x.child`).raw(),
    agentsByName: s.prepare('SELECT id, name FROM agents WHERE name IN (SELECT jsonb_array_elements_text(?::jsonb))'),
    insertLanguages: s.prepare('INSERT INTO languages (code) SELECT jsonb_array_elements_text(?::jsonb) ON CONFLICT DO NOTHING'),
    dsColumns,
    updateDs: s.prepare(`UPDATE data_sources d SET ${dsColumns.map((c) => `${c} = r.${c}`).join(', ')},
        last_modified = strftime('%Y-%m-%dT%H:%M:%fZ','now')
      FROM json_populate_recordset(NULL::data_sources, ?::json) r WHERE d.id = r.id`),
  };
}
type PgStatements = ReturnType<typeof pgStatements>;
/** The tables PgBatch takes new ids of, in nextIds' order. */
const ID_TABLES = ['entries', 'agents', 'data_sources'] as const;
/** New ids taken ahead at a time (StoredKeys.ids), in ID_TABLES' order: about five batches' worth. */
const ID_RESERVE = [10_000, 2_000, 14_000];

type StoredDataSource = DataSourceRow & { site_id: number; identifier: string; entry_id: number };

/** The rows whose key (`keyOf`) no earlier row had. */
function firstOfEach<T>(rows: T[], keyOf: (r: T) => unknown): T[] {
  const seen = new Set<unknown>();
  return rows.filter((r) => {
    const key = keyOf(r);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * PostgreSQL's StoreTarget for one batch: what is stored is read ahead (readDataSources, readEntries),
 * storeOne's writes are kept, new rows under stand-in ids (-1, -2, ...), and `write()` makes them
 * set-wise, the new ids taken from the identity sequences in the order the records made them (as SQLite
 * numbers them). Later records of the batch see what earlier ones stored (a second record of one work
 * joins the entry the first one made; a record given twice updates its first copy).
 */
class PgBatch implements StoreTarget {
  private held = new Map<string, HeldDataSource>();
  private byKey = new Map<string, EntryFound | null>();
  /** canonical_entry_id of the entries found or made (a data source's owner, for `held`). */
  private canonicalOf = new Map<number, number | null>();
  private newEntries: { title: string; subtitle: string | null; key: string; dates: string[] }[] = [];
  private entryUpdates = new Map<number, { id: number; w: 0 | 1; title?: string; subtitle?: string | null; key?: string; dates: string[] }>();
  private newDs: StoredDataSource[] = [];
  private dsUpdates = new Map<number, StoredDataSource & { id: number }>();
  private people: { entryId: number; authors: string[]; languages: string[] }[] = [];

  constructor(private q: PgStatements, private agentIds: Map<string, number>, private languages: Set<string>, private stored: StoredKeys | null) {}

  /** Data sources are found by site and identifier as PostgreSQL compares the bound identifier. */
  private static dsKey(siteId: number, identifier: string): string {
    return `${siteId} ${asPgText(identifier)}`;
  }

  readDataSources(records: IngestRecord[]): void {
    const stored = this.stored?.dataSources;
    const asked = stored ? records.filter((r) => stored.has(StoredKeys.hash(PgBatch.dsKey(r.siteId, r.identifier)))) : records;
    if (!asked.length) return;
    const rows = this.q.dataSources.all(jsonbRows(asked.map((r) => [r.siteId, r.identifier]))) as (HeldDataSource & { site_id: number; identifier: string })[];
    for (const row of rows) this.held.set(PgBatch.dsKey(row.site_id, row.identifier), row);
  }

  readEntries(keys: Set<string>): void {
    for (const k of keys) this.byKey.set(k, null);
    if (this.stored) return this.readStoredEntries(keys);
    if (!keys.size) return;
    for (const row of this.q.entries.all(JSON.stringify([...keys])) as (EntryFound & { grouping_key: string })[]) {
      this.byKey.set(row.grouping_key, { id: row.id, canonical_entry_id: row.canonical_entry_id });
      this.canonicalOf.set(row.id, row.canonical_entry_id);
    }
  }

  /** With StoredKeys: the entries the load stored under these keys' hashes, read by id; the first (lowest id) of each key, as `entries` answers it. */
  private readStoredEntries(keys: Set<string>): void {
    const ids = [...keys].flatMap((k) => this.stored!.entriesOf(k));
    if (!ids.length) return;
    for (const row of this.q.entriesById.all(jsonbRows(ids)) as (EntryFound & { grouping_key: string })[]) {
      if (!keys.has(row.grouping_key) || this.byKey.get(row.grouping_key)) continue;
      this.byKey.set(row.grouping_key, { id: row.id, canonical_entry_id: row.canonical_entry_id });
      this.canonicalOf.set(row.id, row.canonical_entry_id);
    }
  }

  dataSource(siteId: number, identifier: string): HeldDataSource | undefined {
    return this.held.get(PgBatch.dsKey(siteId, identifier));
  }

  entryByKey(key: string): EntryFound | undefined {
    let found = this.byKey.get(key);
    if (found === undefined) {
      // Not read ahead (a record given twice in the batch, changed the second time): ask.
      if (this.stored) {
        this.readEntries(new Set([key]));
        found = this.byKey.get(key) ?? null;
      } else found = (this.q.entryByKey.get(key) as EntryFound | undefined) ?? null;
      this.byKey.set(key, found);
      if (found) this.canonicalOf.set(found.id, found.canonical_entry_id);
    }
    return found ?? undefined;
  }

  insertEntry(title: string, subtitle: string | null, key: string, datestamp: string): number {
    const id = -this.newEntries.push({ title, subtitle, key, dates: [datestamp] });
    this.byKey.set(key, { id, canonical_entry_id: null });
    this.canonicalOf.set(id, null);
    return id;
  }

  updateEntry(v: { title: string; subtitle: string | null; key: string; datestamp: string; id: number }): void {
    const e = v.id < 0 ? this.newEntries[-v.id - 1]! : this.entryUpdate(v.id);
    Object.assign(e, { title: v.title, subtitle: v.subtitle, key: v.key }, v.id < 0 ? {} : { w: 1 });
    e.dates.push(v.datestamp);
  }

  bumpEntry(v: { datestamp: string; id: number }): void {
    (v.id < 0 ? this.newEntries[-v.id - 1]! : this.entryUpdate(v.id)).dates.push(v.datestamp);
  }

  private entryUpdate(id: number) {
    let u = this.entryUpdates.get(id);
    if (!u) this.entryUpdates.set(id, (u = { id, w: 0, dates: [] }));
    return u;
  }

  addAuthorsAndLanguages(entryId: number, authors: string[], languages: string[]): void {
    this.people.push({ entryId, authors, languages });
  }

  insertDs(row: StoredDataSource): number {
    const id = -this.newDs.push(row);
    this.hold(row, id);
    return id;
  }

  updateDs(row: StoredDataSource & { id: number }): void {
    if (row.id < 0) this.newDs[-row.id - 1] = row;
    else this.dsUpdates.set(row.id, row);
    this.hold(row, row.id);
  }

  /** What a later record of the batch finds under this site and identifier. */
  private hold(row: StoredDataSource, id: number): void {
    this.held.set(PgBatch.dsKey(row.site_id, row.identifier), {
      ...row, id, owner_id: row.entry_id, owner_canonical: this.canonicalOf.get(row.entry_id) ?? null,
    });
  }

  /**
   * Writes the batch; answers the real ids of the stand-in ones. With `image`, keeps in it what was
   * written of the entries made (as SQLite's imaged target does record by record), under their real ids.
   */
  write(image: EntryImage | null): { entryId: (id: number) => number; dataSourceId: (id: number) => number } {
    const q = this.q;
    // Agents by exact name: those not known yet are looked up, the rest made.
    const names = [...new Set(this.people.flatMap((p) => p.authors))].filter((n) => !this.agentIds.has(n));
    if (names.length && !this.stored?.agentsEmpty) {
      for (const a of q.agentsByName.all(jsonbRows(names)) as { id: number; name: string }[]) this.agentIds.set(a.name, a.id);
    }
    const missing = names.filter((n) => !this.agentIds.has(n));
    const [entryIds, agentIds, dsIds] = this.take([this.newEntries.length, missing.length, this.newDs.length]);
    const entryId = (id: number) => (id < 0 ? entryIds[-id - 1]! : id);
    missing.forEach((n, i) => this.agentIds.set(n, agentIds[i]!));
    // The new rows go by COPY without waiting for each (`later`): the server stores one table while the
    // next one's rows are made here, and the last (the data sources) while the next batch is read.
    // Each table's rows come before the rows that name them (entries, agents and languages first).
    const later = { later: true };
    if (entryIds.length) {
      // The later of the records' dates, compared as SQLite compares them (ISO strings, code unit by code unit).
      q.copy.copyRows('entries (id, title, subtitle, grouping_key, datestamp)',
        this.newEntries.map((e, i) => [entryIds[i], e.title, e.subtitle, e.key, e.dates.reduce((a, b) => (b > a ? b : a))]), later);
    }
    if (this.entryUpdates.size) q.updateEntries.run(jsonbRows([...this.entryUpdates.values()]));
    if (missing.length) q.copy.copyRows('agents (id, name, normalized_name)', missing.map((n, i) => [agentIds[i], n, foldText(n)]), later);
    const codes = [...new Set(this.people.flatMap((p) => p.languages))].filter((c) => !this.languages.has(c));
    if (codes.length) {
      q.insertLanguages.run(JSON.stringify(codes));
      for (const c of codes) this.languages.add(c);
    }
    // Only new entries get authors and languages here; a name or code given twice keeps its first position
    // (what the row-wise ON CONFLICT DO NOTHING keeps).
    const agentRows = this.people.flatMap((p) => firstOfEach(p.authors.map((n, i) => [entryId(p.entryId), this.agentIds.get(n)!, i] as const), (r) => r[1]));
    if (agentRows.length) q.copy.copyRows('entry_agents (entry_id, agent_id, position)', agentRows, later);
    const languageRows = this.people.flatMap((p) => firstOfEach(p.languages.map((c, i) => [entryId(p.entryId), c, i] as const), (r) => r[1]));
    if (languageRows.length) q.copy.copyRows('entry_languages (entry_id, language_code, position)', languageRows, later);
    const updatedDs = [...this.dsUpdates.values()].map((d) => ({ ...d, entry_id: entryId(d.entry_id) }));
    if (updatedDs.length) q.updateDs.run(jsonbRows(updatedDs));
    if (dsIds.length) {
      const columns = q.dsColumns.slice(1) as (keyof StoredDataSource)[];
      const newDs = this.newDs;
      q.copy.copyRows(`data_sources (id, site_id, identifier, ${q.dsColumns.join(', ')})`, (function* () {
        for (let i = 0; i < newDs.length; i++) {
          const d = newDs[i]!;
          const row: unknown[] = [dsIds[i], d.site_id, d.identifier, entryId(d.entry_id)];
          for (const c of columns) row.push(d[c]);
          yield row;
        }
      })(), later);
    }
    if (this.stored) {
      this.newEntries.forEach((e, i) => this.stored!.addGroup(e.key, entryIds[i]!));
      for (const u of this.entryUpdates.values()) if (u.w) this.stored.addGroup(u.key!, u.id);
      for (const d of this.newDs) this.stored.dataSources.add(StoredKeys.hash(PgBatch.dsKey(d.site_id, d.identifier)));
    }
    if (image) {
      this.newEntries.forEach((e, i) => image.made(entryIds[i]!, e.title, e.subtitle, e.dates.reduce((a, b) => (b > a ? b : a))));
      for (const u of this.entryUpdates.values()) {
        const latest = u.dates.reduce((a, b) => (b > a ? b : a), '');
        image.changed(u.id, latest, u.w ? { title: u.title!, subtitle: u.subtitle ?? null } : undefined);
      }
      for (const p of this.people) image.people(entryId(p.entryId), p.authors.map((n) => ({ id: this.agentIds.get(n)!, value: n })), p.languages);
      this.newDs.forEach((d, i) => image.stored({ ...d, id: dsIds[i]!, entry_id: entryId(d.entry_id) }));
      for (const d of updatedDs) image.stored(d);
    }
    return { entryId, dataSourceId: (id) => (id < 0 ? dsIds[-id - 1]! : id) };
  }

  /** `counts[i]` new ids of ID_TABLES[i] each, in increasing order, in one statement (with StoredKeys: from those taken ahead). */
  private take(counts: number[]): number[][] {
    if (counts.every((n) => n === 0)) return counts.map(() => []);
    const next = (n: number[]) => (this.q.nextIds.all(...n)[0] as (string | null)[]).map((list) => (list ? list.split(',').map(Number).sort((a, b) => a - b) : []));
    const pools = this.stored?.ids;
    if (!pools) return next(counts);
    const pool = (i: number) => pools.get(ID_TABLES[i]!) ?? [];
    const wanted = counts.map((n, i) => (n > pool(i).length ? Math.max(n - pool(i).length, ID_RESERVE[i]!) : 0));
    if (wanted.some((n) => n > 0)) next(wanted).forEach((ids, i) => pools.set(ID_TABLES[i]!, [...pool(i), ...ids]));
    return counts.map((n, i) => pool(i).splice(0, n));
  }
}

