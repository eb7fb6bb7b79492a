// Libraries: the public view of a library and the visibility rule used by every module.
import type { Db } from '../db/index.ts';
import type { LibrariesTable } from '../db/schema.ts';
import { safeHttpUrl, type LibraryPublic } from '@uc/shared';
import type { Viewer } from '../http/viewer.ts';
import type { Selectable } from 'kysely';

export type LibraryRow = Selectable<LibrariesTable>;

export class LibraryService {
  private cache: { version: string; rows: Map<number, LibraryRow> } | null = null;
  private versionStmt;
  private allStmt;

  constructor(private db: Db) {
    // Every write moves one of these: an insert or delete the count and the ids' sum, an update the revisions' sum.
    this.versionStmt = db.sqlite.prepare('SELECT count(*) || \'/\' || coalesce(sum(id), 0) || \'/\' || coalesce(sum(revision), 0) || \'/\' || coalesce(max(last_modified), \'\') FROM libraries').pluck();
    this.allStmt = db.sqlite.prepare('SELECT * FROM libraries ORDER BY id');
  }

  /** All libraries, cached until a row changes (checked with one cheap query; once inside `steadily`). */
  all(): Map<number, LibraryRow> {
    if (this.steady > 0 && this.steadyChecked && this.cache) return this.cache.rows;
    const version = this.versionStmt.get() as string;
    this.steadyChecked = this.steady > 0;
    if (!this.cache || this.cache.version !== version) {
      const rows = this.allStmt.all() as LibraryRow[];
      this.cache = { version, rows: new Map(rows.map((r) => [r.id, r])) };
    }
    return this.cache.rows;
  }

  private steady = 0;
  private steadyChecked = false;

  /**
   * Runs `fn` (synchronous) with the libraries' version read at most once: a search asks for the
   * libraries several times, and on PostgreSQL each check is a round trip. A write through this
   * service (`invalidate`) still makes the next `all()` read them again.
   */
  steadily<T>(fn: () => T): T {
    if (this.steady++ === 0) this.steadyChecked = false;
    try {
      return fn();
    } finally {
      this.steady--;
    }
  }

  /** Called after a library is written (the search index follows its public and active flags). */
  private listeners: (() => void)[] = [];

  /** Call after writing libraries inside the same second (last_modified granularity is ms, but be safe). */
  invalidate() {
    this.cache = null;
    this.steadyChecked = false;
    for (const listener of this.listeners) listener();
  }

  /** `listener` runs after every write of a library (`invalidate`). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * The visibility rule: inactive libraries are hidden from everyone; anonymous visitors see public
   * ones; a logged-in user also sees the private libraries they are affiliated with; superusers see all.
   */
  isVisible(lib: LibraryRow, viewer: Viewer): boolean {
    if (!lib.active) return false;
    if (lib.public || viewer.isSuperuser) return true;
    return viewer.libraryIds.includes(lib.id);
  }

  visibleIds(viewer: Viewer): Set<number> {
    const out = new Set<number>();
    for (const lib of this.all().values()) if (this.isVisible(lib, viewer)) out.add(lib.id);
    return out;
  }

  /** Listed in the overview and on the map: visible ones, plus active physical libraries (a place to visit). */
  isListed(lib: LibraryRow, viewer: Viewer): boolean {
    return this.isVisible(lib, viewer) || (!!lib.active && lib.library_type === 'physical');
  }

  get(id: number): LibraryRow | undefined {
    return this.all().get(id);
  }

  /** The public fields; `entryCounts` (visible entries per library id, from the search index) gives entries_count. */
  toPublic(lib: LibraryRow, viewer: Viewer, entryCounts?: Map<string, number>): LibraryPublic {
    const accessible = this.isVisible(lib, viewer);
    return {
      id: lib.id,
      name: lib.name,
      url: safeHttpUrl(lib.url), // never a script link, even from a row stored before the rule
      logo_url: lib.logo_url,
      library_type: lib.library_type,
      public: !!lib.public,
      active: !!lib.active,
      established: lib.year_established ? lib.year_established.slice(0, 4) : null,
      year_established: lib.year_established,
      languages: lib.languages,
      description: lib.description,
      short_desc: lib.short_desc,
      opening_hours: lib.opening_hours,
      email_public: lib.email_public,
      address_line_1: lib.address_line_1,
      address_line_2: lib.address_line_2,
      address_zip: lib.address_zip,
      address_city: lib.address_city,
      address_state: lib.address_state,
      address_country: lib.address_country,
      pgp_public_key: lib.pgp_public_key,
      latitude: lib.latitude,
      longitude: lib.longitude,
      region: lib.region,
      catalog_is_accessible: accessible,
      entries_count: accessible && entryCounts ? (entryCounts.get(String(lib.id)) ?? 0) : null,
    };
  }

  listPublic(viewer: Viewer, entryCounts?: Map<string, number>): LibraryPublic[] {
    return [...this.all().values()]
      .filter((l) => this.isListed(l, viewer))
      .map((l) => this.toPublic(l, viewer, entryCounts))
      .sort((a, b) => a.name.localeCompare(b.name));
  }
}

/** Fields a library can be created or updated with (import, and later the library admin form). */
export type LibraryInput = Partial<Omit<LibraryRow, 'created' | 'last_modified'>> & { id?: number; name: string };

const LIBRARY_COLUMNS = [
  'name', 'url', 'logo_url', 'library_type', 'public', 'active', 'email_public', 'email_internal', 'opening_hours',
  'description', 'short_desc', 'pgp_public_key', 'address_line_1', 'address_line_2', 'address_zip', 'address_city',
  'address_state', 'address_country', 'latitude', 'longitude', 'languages', 'year_established', 'region',
] as const;

export function upsertLibrary(db: Db, input: LibraryInput): number {
  const cols = LIBRARY_COLUMNS.filter((c) => input[c] !== undefined);
  const values = cols.map((c) => input[c] as unknown);
  if (input.id !== undefined) {
    const exists = db.sqlite.prepare('SELECT 1 FROM libraries WHERE id = ?').get(input.id);
    if (exists) {
      db.sqlite
        .prepare(`UPDATE libraries SET ${cols.map((c) => `${c} = ?`).join(', ')}, last_modified = strftime('%Y-%m-%dT%H:%M:%fZ','now'), revision = revision + 1 WHERE id = ?`)
        .run(...values, input.id);
      return input.id;
    }
    db.sqlite.prepare(`INSERT INTO libraries (id, ${cols.join(', ')}) VALUES (?, ${cols.map(() => '?').join(', ')})`).run(input.id, ...values);
    return input.id;
  }
  return Number(db.sqlite.prepare(`INSERT INTO libraries (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...values).lastInsertRowid);
}

/** The library's site of a given type (created on first use): data sources belong to sites. */
export function ensureSite(db: Db, libraryId: number, siteType: string, url: string | null, title: string): number {
  const row = db.sqlite.prepare('SELECT id FROM sites WHERE library_id = ? AND site_type = ? ORDER BY id LIMIT 1').get(libraryId, siteType) as { id: number } | undefined;
  if (row) {
    if (url) db.sqlite.prepare('UPDATE sites SET url = ? WHERE id = ?').run(url, row.id);
    return row.id;
  }
  // An imported site is a delivery, not a harvest source: harvesting it is switched on by an admin.
  return Number(db.sqlite.prepare(`INSERT INTO sites (library_id, title, site_type, url, active, oai_metadata_format) VALUES (?, ?, ?, ?, ?, ?)`)
    .run(libraryId, title, siteType, url, siteType === 'csv' ? 1 : 0, siteType === 'generic' ? 'oai_dc' : null).lastInsertRowid);
}
