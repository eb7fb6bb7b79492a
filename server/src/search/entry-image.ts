// What a bulk import stored of the entries it made, kept in memory until they are indexed: the Indexer
// builds their index documents from it instead of reading back the rows just written (at 300,000
// entries, those reads were about 6 s of the import's main thread). Filled by the ingest store as it
// writes (IngestService, `image`), read by Indexer.reindexBatch, emptied after every indexed chunk.
// It holds only entries made since it was last emptied, and only facts a bulk load cannot have changed
// any other way: no entry of it is merged or linked yet (links come after the records: the import
// indexes linked entries from the tables), and its authors are the agents as named (the Indexer makes
// no image where an agent is merged or split).
import { resolveAuthors, type ResolvedAuthor, type ResolvedAuthors } from '../agents/resolve.ts';

/** An entry as the Indexer reads it. */
export interface EntryRow { id: number; title: string; subtitle: string | null; canonical_entry_id: number | null; original_entry_id: number | null; datestamp: string }
/** A data source as the Indexer reads it. */
export interface DsRow {
  id: number; entry_id: number; library_id: number; title: string; subtitle: string | null; authors: string;
  year_edition: number | null; year_first_edition: number | null; description: string | null; publisher: string | null;
  isbn: string | null; material_description: string | null; downloads: string; full_text: string | null; datestamp: string;
}

/** A data source row as the store writes it. */
export type StoredDataSource = Omit<DsRow, 'library_id'> & { site_id: number };

interface ImagedEntry { row: EntryRow; authors: ResolvedAuthors | null; languages: string[]; dataSources: StoredDataSource[] }

export class EntryImage {
  private entries = new Map<number, ImagedEntry>();
  /** The imaged entry holding each data source stored into one. */
  private holder = new Map<number, number>();

  constructor(private libraryOfSite: (siteId: number) => number) {}

  /** A new entry (the store's insertEntry). */
  made(id: number, title: string, subtitle: string | null, datestamp: string): void {
    this.entries.set(id, { row: { id, title, subtitle, canonical_entry_id: null, original_entry_id: null, datestamp }, authors: null, languages: [], dataSources: [] });
  }

  /** The entry's wording changed (when given) and a record dated `datestamp` is in it: the later date stays (the store's updateEntry and bumpEntry). */
  changed(id: number, datestamp: string, wording?: { title: string; subtitle: string | null }): void {
    const e = this.entries.get(id);
    if (!e) return;
    if (wording) Object.assign(e.row, wording);
    if (datestamp > e.row.datestamp) e.row.datestamp = datestamp;
  }

  /** A new entry's authors (agents as named: id and name) and languages, in order. */
  people(id: number, authors: ResolvedAuthor[], languages: string[]): void {
    const e = this.entries.get(id);
    if (!e) return;
    // The resolver's rule, for agents neither merged nor split (no parts).
    e.authors = resolveAuthors(authors);
    e.languages = languages;
  }

  /** A data source written (new, or stored again: it may have moved to another entry). */
  stored(d: StoredDataSource): void {
    const before = this.holder.get(d.id);
    if (before !== undefined) {
      const list = this.entries.get(before)!.dataSources;
      list.splice(list.findIndex((x) => x.id === d.id), 1);
      this.holder.delete(d.id);
    }
    const e = this.entries.get(d.entry_id);
    if (!e) return;
    // The store's own row (it has more columns than the Indexer reads), in id order, as the Indexer reads them.
    const at = e.dataSources.findIndex((x) => x.id > d.id);
    if (at < 0) e.dataSources.push(d);
    else e.dataSources.splice(at, 0, d);
    this.holder.set(d.id, d.entry_id);
  }

  has(id: number): boolean {
    return this.entries.has(id);
  }

  entry(id: number): EntryRow {
    return this.entries.get(id)!.row;
  }

  dataSources(id: number): DsRow[] {
    return this.entries.get(id)!.dataSources.map((d) => ({
      id: d.id, entry_id: d.entry_id, library_id: this.libraryOfSite(d.site_id), title: d.title, subtitle: d.subtitle, authors: d.authors,
      year_edition: d.year_edition, year_first_edition: d.year_first_edition, description: d.description, publisher: d.publisher,
      isbn: d.isbn, material_description: d.material_description, downloads: d.downloads, full_text: d.full_text, datestamp: d.datestamp,
    }));
  }

  authors(id: number): ResolvedAuthors | null {
    return this.entries.get(id)!.authors;
  }

  languages(id: number): string[] {
    return this.entries.get(id)!.languages;
  }

  /** Forgets everything (the entries were indexed; one touched again later is read from the tables). */
  clear(): void {
    this.entries.clear();
    this.holder.clear();
  }
}
