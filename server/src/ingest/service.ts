// The one ingestion path: records from any source (JSONL import, demo, later CSV and harvests) become
// data sources, grouped into entries by the grouping rule, and the touched entries are reindexed.
import type { Db } from '../db/index.ts';
import type { Indexer } from '../search/indexer.ts';
import type { FileStore } from '../catalogue/files.ts';
import { foldText } from '@uc/shared';
import { groupingKey, normaliseAuthorName, normaliseLanguage } from './grouping.ts';

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
}

/** What storing a record did: a new data source, a changed one, or nothing (same as stored). */
export type StoreOutcome = 'new' | 'updated' | 'unchanged';

/**
 * `inTransaction`: the caller holds the write transaction and rolls all of it back on failure (a bulk
 * import), so no savepoint is opened per call: each one copies every page it touches into the
 * sub-journal again, which made a 1,000,000-record import spend most of its time copying pages.
 */
export interface BulkOptions { inTransaction?: boolean }

export interface LinkRequest {
  kind: 'aggregation' | 'translation';
  /** aggregation: the anthology/issue; translation: the original. */
  parentEntryId: number;
  childEntryId: number;
  position?: number | null;
}

const TITLE_MAX = 250;
const DS_FIELDS = [
  'title', 'subtitle', 'authors', 'languages', 'year_edition', 'year_first_edition', 'description', 'publisher', 'isbn',
  'shelf_location_code', 'material_description', 'edition_statement', 'place_date_of_publication_distribution', 'uri',
  'uri_label', 'content_type', 'downloads', 'full_text', 'datestamp',
] as const;
const clip = (s: string | null | undefined, max = 10000) => (s == null ? null : s.length > max ? s.slice(0, max) + '...' : s);

export class IngestService {
  private q;
  private agentIds = new Map<string, number>();
  private languages = new Set<string>();

  constructor(private db: Db, private indexer: Indexer, private files: FileStore) {
    const s = db.sqlite;
    this.q = {
      // With the entry holding it (one statement per record: most of a re-import is unchanged records).
      dsByKey: s.prepare(`SELECT d.*, e.id AS owner_id, e.canonical_entry_id AS owner_canonical
        FROM data_sources d LEFT JOIN entries e ON e.id = d.entry_id WHERE d.site_id = ? AND d.identifier = ?`),
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
      insertDs: s.prepare(`INSERT INTO data_sources (site_id, identifier, entry_id, title, subtitle, authors, languages,
          year_edition, year_first_edition, description, publisher, isbn, shelf_location_code, material_description,
          edition_statement, place_date_of_publication_distribution, uri, uri_label, content_type, downloads, full_text, datestamp)
        VALUES (@site_id, @identifier, @entry_id, @title, @subtitle, @authors, @languages, @year_edition, @year_first_edition,
          @description, @publisher, @isbn, @shelf_location_code, @material_description, @edition_statement,
          @place_date_of_publication_distribution, @uri, @uri_label, @content_type, @downloads, @full_text, @datestamp)`),
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
      for (const r of records) {
        const { entryId, dataSourceId, outcome } = this.storeOne(r, now, touched);
        entryIds.push(entryId);
        dataSourceIds.push(dataSourceId);
        outcomes.push(outcome);
      }
    });
    return { entryIds, touched, dataSourceIds, outcomes };
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

  private storeOne(r: IngestRecord, now: string, touched: Set<number>): { entryId: number; dataSourceId: number; outcome: StoreOutcome } {
    const q = this.q;
    const title = clip(r.title.trim(), TITLE_MAX) || '(untitled)';
    const subtitle = clip(r.subtitle?.trim() || null, TITLE_MAX);
    const authors = [...new Set(r.authors.map(normaliseAuthorName).filter(Boolean))];
    const languages = [...new Set(r.languages.map(normaliseLanguage).filter((l): l is string => !!l))];
    const existing = q.dsByKey.get(r.siteId, r.identifier) as (Record<string, unknown> & {
      id: number; entry_id: number | null; datestamp: string; owner_id: number | null; owner_canonical: number | null;
    }) | undefined;
    // The datestamp is the acquisition date: a record already held keeps it unless the source gives one.
    const datestamp = r.datestamp || existing?.datestamp || now;
    const row = this.dataSourceRow(r, title, subtitle, authors, languages, datestamp);
    // A record that says nothing of its full text (a harvested record: the text comes with its files) keeps the stored one.
    if (r.full_text === undefined && existing) row.full_text = (existing.full_text as string | null) ?? null;
    // A record stored again unchanged changes nothing (no datestamp bump, no reindex): re-uploading the
    // same spreadsheet or re-running an import does not make old records "new".
    if (existing && existing.entry_id !== null && DS_FIELDS.every((f) => (existing[f] ?? null) === row[f])) {
      if (existing.owner_id !== null) return { entryId: existing.owner_canonical ?? existing.owner_id, dataSourceId: existing.id, outcome: 'unchanged' };
    }
    // The grouping key is only needed for a new or changed record (most of a re-import is unchanged).
    const key = groupingKey(title, authors, languages);
    let entryId: number;
    const found = q.entryByKey.get(key) as { id: number; canonical_entry_id: number | null } | undefined;
    if (found) {
      entryId = found.canonical_entry_id ?? found.id;
      // A new holding keeps the entry's wording (records differ only in case or accents); a re-import
      // of a record already in the entry may correct it.
      if (!found.canonical_entry_id) {
        if (existing?.entry_id === found.id) q.updateEntry.run({ title, subtitle, key, datestamp, id: found.id });
        else q.bumpEntry.run({ datestamp, id: found.id });
      } else touched.add(found.id);
    } else {
      entryId = Number(q.insertEntry.run(title, subtitle, key, datestamp).lastInsertRowid);
    }
    if (!found) this.addAuthorsAndLanguages(entryId, authors, languages);
    touched.add(entryId);
    if (existing?.entry_id && existing.entry_id !== entryId) touched.add(existing.entry_id);

    const entryRow = { ...row, site_id: r.siteId, identifier: r.identifier, entry_id: found && found.canonical_entry_id ? found.id : entryId };
    let dataSourceId: number;
    if (existing) {
      q.updateDs.run({ ...entryRow, id: existing.id });
      dataSourceId = existing.id;
    } else {
      dataSourceId = Number(q.insertDs.run(entryRow).lastInsertRowid);
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

  /** The authors and languages of a new entry (ids are never reused: it has none yet). */
  private addAuthorsAndLanguages(entryId: number, authors: string[], languages: string[]) {
    const q = this.q;
    authors.forEach((name, i) => q.addAgent.run(entryId, this.agentId(name), i));
    languages.forEach((code, i) => {
      if (!this.languages.has(code)) {
        q.insertLanguage.run(code);
        this.languages.add(code);
      }
      q.addLanguage.run(entryId, code, i);
    });
  }

  /** Forgets the cached agent ids and languages: a rolled-back transaction may have written them. */
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

  reindex(entryIds: Iterable<number>, opts?: BulkOptions): number {
    return this.indexer.reindex(entryIds, opts);
  }
}
