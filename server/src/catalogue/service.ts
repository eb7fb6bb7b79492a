// Entries and data sources as readers see them: the entry page, full texts and downloads.
import { DOWNLOAD_FORMAT_LABELS, safeHttpUrl, type DataSource, type Download, type Entry, type ShortEntry } from '@uc/shared';
import type { Db } from '../db/index.ts';
import { idList } from '../db/dialect.ts';
import type { Viewer } from '../http/viewer.ts';
import type { LibraryService } from '../libraries/service.ts';
import { languageName } from '../search/indexer.ts';
import type { FileStore } from './files.ts';
import type { DerivedFiles } from './derived-files.ts';
import type { AuthorResolver } from '../agents/resolve.ts';
import { partLibrariesSql } from './holdings.ts';

interface EntryRow { id: number; title: string; subtitle: string | null; canonical_entry_id: number | null; original_entry_id: number | null }
interface DsRow {
  id: number; entry_id: number; identifier: string; library_id: number; site_type: string; site_url: string | null;
  title: string; subtitle: string | null; authors: string; languages: string; year_edition: number | null;
  year_first_edition: number | null; description: string | null; shelf_location_code: string | null;
  material_description: string | null; isbn: string | null; publisher: string | null; edition_statement: string | null;
  place_date_of_publication_distribution: string | null; uri: string | null; uri_label: string | null; content_type: string | null;
}


export class CatalogueService {
  private q;

  constructor(private db: Db, private libraries: LibraryService, private files: FileStore, private authors: AuthorResolver, private derived?: Pick<DerivedFiles, 'offered'>) {
    const s = db.sqlite;
    const IDS = idList(s.dialect);
    this.q = {
      entry: s.prepare('SELECT id, title, subtitle, canonical_entry_id, original_entry_id FROM entries WHERE id = ?'),
      entries: s.prepare(`SELECT id, title, subtitle, canonical_entry_id, original_entry_id FROM entries WHERE id IN ${IDS}`),
      members: s.prepare('SELECT id FROM entries WHERE id = ? OR canonical_entry_id = ?').pluck(),
      dataSources: s.prepare(`SELECT d.id, d.entry_id, d.identifier, s.library_id, s.site_type, s.url AS site_url, d.title, d.subtitle,
          d.authors, d.languages, d.year_edition, d.year_first_edition, d.description, d.shelf_location_code,
          d.material_description, d.isbn, d.publisher, d.edition_statement, d.place_date_of_publication_distribution,
          d.uri, d.uri_label, d.content_type
        FROM data_sources d JOIN sites s ON s.id = d.site_id WHERE d.entry_id IN ${IDS}`),
      visibleLibrariesOf: s.prepare(`SELECT d.entry_id, s.library_id FROM data_sources d JOIN sites s ON s.id = d.site_id
        WHERE d.entry_id IN (SELECT id FROM entries WHERE id IN ${IDS} OR canonical_entry_id IN ${IDS})`),
      variantsOf: s.prepare(`SELECT id, canonical_entry_id FROM entries WHERE canonical_entry_id IN ${IDS}`),
      partLibrariesOf: s.prepare(partLibrariesSql(s.dialect)),
      languages: s.prepare(`SELECT entry_id, language_code FROM entry_languages WHERE entry_id IN ${IDS} ORDER BY entry_id, position`),
      translationsOf: s.prepare('SELECT id FROM entries WHERE original_entry_id = ? AND +canonical_entry_id IS NULL ORDER BY id').pluck(),
      parents: s.prepare(`SELECT DISTINCT coalesce(p.canonical_entry_id, p.id) FROM aggregation_links l JOIN entries p ON p.id = l.aggregation_entry_id
        WHERE l.aggregated_entry_id IN ${IDS}`).pluck(),
      children: s.prepare(`SELECT coalesce(c.canonical_entry_id, c.id) AS id, min(l.position) AS position FROM aggregation_links l
        JOIN entries c ON c.id = l.aggregated_entry_id WHERE l.aggregation_entry_id IN ${IDS} GROUP BY 1`),
      dsById: s.prepare(`SELECT d.id, d.entry_id, s.library_id, d.title FROM data_sources d JOIN sites s ON s.id = d.site_id WHERE d.id = ?`),
    };
  }

  /** Follows merges to the entry that is shown (a short chain at most). */
  private canonical(id: number): EntryRow | null {
    let row = this.q.entry.get(id) as EntryRow | undefined;
    for (let hops = 0; row?.canonical_entry_id && hops < 5; hops++) row = this.q.entry.get(row.canonical_entry_id) as EntryRow | undefined;
    return row ?? null;
  }

  /** Which of these (canonical) entries have at least one data source the viewer may see (a curated aggregation: through its parts). */
  visibleEntries(ids: number[], viewer: Viewer): Set<number> {
    if (ids.length === 0) return new Set();
    const json = JSON.stringify(ids);
    const variants = new Map((this.q.variantsOf.all(json) as { id: number; canonical_entry_id: number }[]).map((v) => [v.id, v.canonical_entry_id]));
    const visible = this.libraries.visibleIds(viewer);
    const out = new Set<number>();
    for (const r of this.q.visibleLibrariesOf.all(json, json) as { entry_id: number; library_id: number }[]) {
      if (visible.has(r.library_id)) out.add(variants.get(r.entry_id) ?? r.entry_id);
    }
    for (const r of this.q.partLibrariesOf.all(json) as { entry_id: number; library_id: number }[]) {
      if (visible.has(r.library_id)) out.add(r.entry_id);
    }
    return out;
  }

  private shortEntries(ids: number[], viewer: Viewer, order?: Map<number, number | null>): ShortEntry[] {
    const visible = this.visibleEntries(ids, viewer);
    const shown = ids.filter((id) => visible.has(id));
    if (shown.length === 0) return [];
    const json = JSON.stringify(shown);
    const rows = this.q.entries.all(json) as EntryRow[];
    const authors = this.authors.resolve(shown);
    const langs = groupBy(this.q.languages.all(json) as { entry_id: number; language_code: string }[]);
    const list = rows.map((r) => ({
      entry_id: r.id,
      id: r.id,
      title: [{ id: r.id, value: r.title }],
      subtitle: r.subtitle ? [{ id: r.id, value: r.subtitle }] : [],
      authors: authors.get(r.id)?.shown ?? [],
      languages: (langs.get(r.id) ?? []).map((l) => ({ id: l.language_code, value: languageName(l.language_code) })),
    }));
    const pos = (id: number) => order?.get(id) ?? Number.MAX_SAFE_INTEGER;
    return list.sort((a, b) => pos(a.entry_id) - pos(b.entry_id) || a.title[0].value.localeCompare(b.title[0].value));
  }

  getEntry(requestedId: number, viewer: Viewer): Entry | null {
    const entry = this.canonical(requestedId);
    if (!entry) return null;
    const q = this.q;
    const members = q.members.all(entry.id, entry.id) as number[];
    const membersJson = JSON.stringify(members);
    const visibleLibs = this.libraries.visibleIds(viewer);
    const dsRows = (q.dataSources.all(membersJson) as DsRow[]).filter((d) => visibleLibs.has(d.library_id));
    // Nothing visible: the entry is private or gone; do not leak its bibliographic data. A curated
    // aggregation (no record of its own) is shown when a part of it is visible.
    if (dsRows.length === 0 && !this.visibleEntries([entry.id], viewer).has(entry.id)) return null;

    const selfJson = JSON.stringify([entry.id]);
    const authors = this.authors.resolve([entry.id]).get(entry.id)?.shown ?? [];
    const languages = (q.languages.all(selfJson) as { language_code: string }[]).map((l) => ({ id: l.language_code, value: languageName(l.language_code) }));

    // Translation group: the original and its other translations, each only if visible.
    const originalId = entry.original_entry_id ? this.canonical(entry.original_entry_id)?.id ?? null : null;
    const groupIds = originalId ? (q.translationsOf.all(originalId) as number[]) : (q.translationsOf.all(entry.id) as number[]);
    const candidates = [...new Set([...(originalId ? [originalId] : []), ...groupIds])].filter((id) => id !== entry.id);
    const visibleGroup = this.visibleEntries(candidates, viewer);
    const langOf = (id: number) => (q.languages.all(JSON.stringify([id])) as { language_code: string }[]).map((l) => ({ id: l.language_code, value: languageName(l.language_code) }));
    const original_entry = originalId && visibleGroup.has(originalId) ? { id: originalId, languages: langOf(originalId) } : null;
    const translations = groupIds.filter((id) => id !== entry.id && visibleGroup.has(id)).map((id) => ({ id, languages: langOf(id) }));

    const parentIds = (q.parents.all(membersJson) as number[]).filter((id) => id !== entry.id);
    const childRows = (q.children.all(membersJson) as { id: number; position: number | null }[]).filter((c) => c.id !== entry.id);
    const aggregations = this.shortEntries(parentIds, viewer);
    const aggregated = this.shortEntries(childRows.map((c) => c.id), viewer, new Map(childRows.map((c) => [c.id, c.position])));

    const fileExts = this.files.list(dsRows.map((d) => d.id));
    const libs = this.libraries.all();
    const dataSources: DataSource[] = dsRows.map((d) => {
      const exts = fileExts.get(d.id) ?? [];
      const lib = libs.get(d.library_id)!;
      // Beside the stored files, those made from them on request (a Muse text's PDF: derived-files.ts).
      const offered = [...exts, ...(this.derived?.offered(exts) ?? [])].sort();
      const downloads: Download[] = offered.map((ext) => ({ code: ext.slice(1), ext, desc: DOWNLOAD_FORMAT_LABELS[ext.slice(1)] ?? ext.slice(1).toUpperCase() }));
      // An aggregation by the parts the viewer may see: hidden parts alone would tell a private library holds them.
      const isAggregation = aggregated.length > 0;
      return {
        data_source_id: d.id,
        library_id: d.library_id,
        library_name: lib.name,
        library_type: lib.library_type,
        title: d.title,
        subtitle: d.subtitle,
        authors: JSON.parse(d.authors) as string[],
        year_edition: d.year_edition,
        year_first_edition: d.year_first_edition,
        languages: JSON.parse(d.languages) as string[],
        description: d.description,
        shelf_location_code: d.shelf_location_code,
        material_description: d.material_description,
        isbn: d.isbn,
        publisher: d.publisher,
        edition_statement: d.edition_statement,
        place_date_of_publication_distribution: d.place_date_of_publication_distribution,
        site_type: d.site_type,
        uri: safeHttpUrl(d.uri), // never a script link, even from a row stored before the rule
        uri_label: d.uri_label,
        koha_url: kohaUrl(d),
        content_type: d.content_type,
        downloads,
        aggregated: isAggregation,
        aggregations: aggregations.map((a) => ({ id: a.entry_id, entry_id: a.entry_id })),
        public: !!lib.public,
        report_error: !!lib.email_internal,
        identifier: d.identifier,
        has_full_text: !isAggregation && (exts.includes('.muse') || exts.includes('.txt')),
        has_pdf: exts.includes('.pdf'),
        can_add_to_bookbuilder: exts.includes('.muse') && exts.includes('.zip'),
      };
    });
    // Texts first (Muse, then PDF), then the most recent edition.
    const rank = (d: DataSource) => (d.can_add_to_bookbuilder ? 2 : d.has_pdf ? 1 : 0);
    dataSources.sort((a, b) => rank(b) - rank(a) || (b.year_edition ?? 0) - (a.year_edition ?? 0) || a.data_source_id - b.data_source_id);

    return {
      id: entry.id,
      title: entry.title,
      subtitle: entry.subtitle,
      authors,
      languages,
      original_entry,
      translations,
      aggregations,
      aggregated,
      data_sources: dataSources,
    };
  }

  /** A data source the viewer may see, or null. */
  visibleDataSource(id: number, viewer: Viewer): { id: number; entry_id: number; library_id: number; title: string } | null {
    const row = this.q.dsById.get(id) as { id: number; entry_id: number; library_id: number; title: string } | undefined;
    if (!row) return null;
    const lib = this.libraries.get(row.library_id);
    return lib && this.libraries.isVisible(lib, viewer) ? row : null;
  }
}

function kohaUrl(d: DsRow): string | null {
  const site = d.site_url?.match(/^(https?:\/\/[^\s]+)\/cgi-bin\/koha\/oai\.pl/);
  const num = d.identifier.match(/^KOHA-[^:]*:(\d+)$/);
  return (d.site_type.startsWith('koha') || d.site_type === 'generic') && site && num ? `${site[1]}/cgi-bin/koha/opac-detail.pl?biblionumber=${num[1]}` : null;
}

function groupBy<T extends { entry_id: number }>(rows: T[]): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const r of rows) m.set(r.entry_id, [...(m.get(r.entry_id) ?? []), r]);
  return m;
}
