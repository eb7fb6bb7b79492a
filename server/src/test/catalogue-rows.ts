// Catalogue rows written straight into a database for service tests on each back end (libraries, sites,
// entries with authors and languages, data sources, aggregation parts), without the import path.
import type { Db } from '../db/index.ts';
import { ensureSite, upsertLibrary } from '../libraries/service.ts';

export interface EntryOptions { authors?: string[]; languages?: string[]; subtitle?: string; canonical?: number; original?: number }
export interface RecordOptions {
  identifier?: string; title?: string; year_edition?: number; uri?: string; authors?: string[]; languages?: string[];
  description?: string; isbn?: string; publisher?: string; datestamp?: string;
}

export class CatalogueRows {
  private n = 0;

  constructor(private db: Db) {}

  /** A library (public and active unless told) with one generic site; returns both ids. */
  library(name: string, flags: { public?: number; active?: number; email_internal?: string } = {}): { id: number; site: number } {
    const id = upsertLibrary(this.db, { name, public: 1, active: 1, ...flags });
    return { id, site: ensureSite(this.db, id, 'generic', `https://${id}.example.org/oai`, name) };
  }

  agent(name: string): number {
    const s = this.db.sqlite;
    s.prepare('INSERT INTO agents (name, normalized_name) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(name, name.toLowerCase());
    return s.prepare('SELECT id FROM agents WHERE name = ?').pluck().get(name) as number;
  }

  entry(title: string, o: EntryOptions = {}): number {
    const s = this.db.sqlite;
    const id = Number(s.prepare('INSERT INTO entries (title, subtitle, grouping_key, canonical_entry_id, original_entry_id) VALUES (?, ?, ?, ?, ?)')
      .run(title, o.subtitle ?? null, `${title.toLowerCase()}#${++this.n}`, o.canonical ?? null, o.original ?? null).lastInsertRowid);
    (o.authors ?? []).forEach((name, i) => s.prepare('INSERT INTO entry_agents (entry_id, agent_id, position) VALUES (?, ?, ?)').run(id, this.agent(name), i));
    (o.languages ?? []).forEach((code, i) => {
      s.prepare('INSERT INTO languages (code) VALUES (?) ON CONFLICT DO NOTHING').run(code);
      s.prepare('INSERT INTO entry_languages (entry_id, language_code, position) VALUES (?, ?, ?)').run(id, code, i);
    });
    return id;
  }

  /** A data source of the entry at this site (its record). */
  record(site: number, entry: number, o: RecordOptions = {}): number {
    const title = o.title ?? (this.db.sqlite.prepare('SELECT title FROM entries WHERE id = ?').pluck().get(entry) as string);
    return Number(this.db.sqlite.prepare(`INSERT INTO data_sources (site_id, identifier, entry_id, title, authors, languages, year_edition, uri,
        description, isbn, publisher, datestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(?, strftime('%Y-%m-%dT%H:%M:%fZ','now')))`)
      .run(site, o.identifier ?? `rec-${++this.n}`, entry, title, JSON.stringify(o.authors ?? []), JSON.stringify(o.languages ?? []),
        o.year_edition ?? null, o.uri ?? null, o.description ?? null, o.isbn ?? null, o.publisher ?? null, o.datestamp ?? null).lastInsertRowid);
  }

  /** The entry `part` as a part of `aggregation` at this position. */
  part(aggregation: number, part: number, position: number | null) {
    this.db.sqlite.prepare('INSERT INTO aggregation_links (aggregation_entry_id, aggregated_entry_id, position) VALUES (?, ?, ?)').run(aggregation, part, position);
  }
}
