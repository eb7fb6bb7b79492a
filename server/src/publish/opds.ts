// OPDS 1.2 catalogue of the texts that can be downloaded: a navigation feed (latest, by library, by
// language) and paged acquisition feeds whose links are the download route's URLs, so e-book readers
// can browse and fetch them. Which libraries count is LibraryService's rule for an anonymous visitor;
// each listed entry is then read through CatalogueService.getEntry (which applies it again).
import type { Entry } from '@uc/shared';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { Db } from '../db/index.ts';
import type { Dialect } from '../db/connection.ts';
import { jsonIds, jsonValues, outerLoopJoin } from '../db/dialect.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { LibraryService } from '../libraries/service.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { languageName } from '../search/indexer.ts';
import type { SearchService } from '../search/service.ts';
import { ATOM_NS, DC_NS, atomEntry, feedItems, rfc3339, xmlDocument, type FeedItem } from './feeds.ts';

export const OPDS_NAV = 'application/atom+xml;profile=opds-catalog;kind=navigation';
export const OPDS_ACQ = 'application/atom+xml;profile=opds-catalog;kind=acquisition';
const OPDS_NS = 'http://opds-spec.org/2010/catalog';
const ACQUISITION_REL = 'http://opds-spec.org/acquisition';
export const OPDS_PAGE_SIZE = 50;

/** The formats offered to readers (what an e-book reader opens); Muse sources and zips are left to the web app. */
export const ACQUISITION_TYPES: Record<string, string> = {
  '.epub': 'application/epub+zip',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
};

/** Stored files that make an entry listed: the formats above, and a Muse source (its EPUB is made on request: catalogue/text-epub.ts). */
const LISTED_EXTS = [...Object.keys(ACQUISITION_TYPES), '.muse'];

export type OpdsScope = { kind: 'latest' } | { kind: 'library'; id: number } | { kind: 'language'; code: string };

export interface AcquisitionPage { items: FeedItem[]; total: number; page: number; pageSize: number }

const CANON = 'coalesce(e.canonical_entry_id, e.id)';
// Files readers can open, in data sources of libraries an anonymous visitor sees (bound as JSON lists).
// The files as the outer loop (SQLite's CROSS JOIN): there are far fewer of them than records.
const from = (d: Dialect) => `FROM data_source_files f ${outerLoopJoin(d)} data_sources d ON d.id = f.data_source_id JOIN sites s ON s.id = d.site_id
  JOIN entries e ON e.id = d.entry_id
  WHERE f.ext IN (${jsonValues(d, '@exts')}) AND s.library_id IN (${jsonIds(d, '@libs')})`;
// Typed where they are first read: PostgreSQL cannot tell a parameter's type from IS NULL.
const SCOPE = `AND (CAST(@library AS BIGINT) IS NULL OR s.library_id = @library)
  AND (CAST(@lang AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM entry_languages l WHERE l.entry_id = ${CANON} AND l.language_code = @lang))`;

export class OpdsCatalogue {
  private q;

  constructor(private db: Db, private libraries: LibraryService, private catalogue: CatalogueService) {
    const s = db.sqlite;
    const FROM = from(s.dialect);
    this.q = {
      page: s.prepare(`SELECT ${CANON} AS id, max(d.datestamp) AS ds ${FROM} ${SCOPE} GROUP BY 1 ORDER BY ds DESC, id DESC LIMIT @limit OFFSET @offset`),
      count: s.prepare(`SELECT count(DISTINCT ${CANON}) ${FROM} ${SCOPE}`).pluck(),
      byLibrary: s.prepare(`SELECT s.library_id AS id, count(DISTINCT ${CANON}) AS n ${FROM} GROUP BY 1`),
      byLanguage: s.prepare(`SELECT l.language_code AS id, count(DISTINCT ${CANON}) AS n ${FROM.replace('WHERE', `JOIN entry_languages l ON l.entry_id = ${CANON} WHERE`)} GROUP BY 1`),
    };
  }

  private binds() {
    return { exts: JSON.stringify(LISTED_EXTS), libs: JSON.stringify([...this.libraries.visibleIds(ANONYMOUS)]) };
  }

  /** A visible library's name, or null (unknown, inactive or private: the same 404 for all). */
  libraryName(id: number): string | null {
    const lib = this.libraries.get(id);
    return lib && this.libraries.isVisible(lib, ANONYMOUS) ? lib.name : null;
  }

  /** Libraries and languages having downloadable texts, with their counts, for the navigation feeds. */
  librariesWithTexts(): { id: number; name: string; count: number }[] {
    const rows = this.q.byLibrary.all(this.binds()) as { id: number; n: number }[];
    return rows
      .map((r) => ({ id: r.id, name: this.libraryName(r.id) ?? '', count: r.n }))
      .filter((r) => r.name)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  languagesWithTexts(): { code: string; name: string; count: number }[] {
    const rows = this.q.byLanguage.all(this.binds()) as { id: string; n: number }[];
    return rows.map((r) => ({ code: r.id, name: languageName(r.id), count: r.n })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  }

  page(scope: OpdsScope, page: number, pageSize = OPDS_PAGE_SIZE): AcquisitionPage {
    const binds = {
      ...this.binds(),
      library: scope.kind === 'library' ? scope.id : null,
      lang: scope.kind === 'language' ? scope.code : null,
    };
    const total = this.q.count.get(binds) as number;
    const rows = this.q.page.all({ ...binds, limit: pageSize, offset: (page - 1) * pageSize }) as { id: number; ds: string }[];
    const items: FeedItem[] = [];
    for (const r of rows) {
      const entry = this.catalogue.getEntry(r.id, ANONYMOUS);
      if (entry && acquisitions(entry).length) items.push({ entry, updated: rfc3339(r.ds) ?? new Date(0).toISOString() });
    }
    return { items, total, page, pageSize };
  }
}

/**
 * A page of the texts a search finds (per search, author `creator:N`, library `library:N`): the same
 * matches as the Atom feed of that query (feedItems, the feeds' one rule), those with files to download.
 * The search's download filter narrows it first; `total` is that count, so a page may list fewer.
 */
export function searchPage(db: Db, search: SearchService, catalogue: CatalogueService, query: string, page: number, pageSize = OPDS_PAGE_SIZE): AcquisitionPage & { pretty: string } {
  const found = feedItems(db, search, catalogue, { query, page, pageSize, filters: { download: ['text', 'raw'] } });
  return { items: found.items.filter((i) => acquisitions(i.entry).length > 0), total: found.total, page, pageSize, pretty: found.pretty };
}

/** The downloadable files of an entry's visible records, as acquisition links. */
export function acquisitions(entry: Entry): { path: string; type: string; title: string }[] {
  return entry.data_sources.flatMap((d) =>
    d.downloads
      .filter((dl) => ACQUISITION_TYPES[dl.ext])
      .map((dl) => ({ path: `/collector/api/download/${d.data_source_id}${dl.ext}`, type: ACQUISITION_TYPES[dl.ext], title: `${dl.desc} (${d.library_name})` })),
  );
}

function feedHead(feed: XMLBuilder, o: { base: string; path: string; title: string; kind: string; updated: string; siteName: string }) {
  feed.ele('id').txt(`${o.base}${o.path}`);
  feed.ele('title').txt(o.title);
  feed.ele('updated').txt(o.updated);
  feed.ele('author').ele('name').txt(o.siteName);
  feed.ele('link', { rel: 'self', type: o.kind, href: `${o.base}${o.path}` });
  feed.ele('link', { rel: 'start', type: OPDS_NAV, href: `${o.base}/opds` });
  if (o.path !== '/opds') feed.ele('link', { rel: 'up', type: OPDS_NAV, href: `${o.base}/opds` });
}

export const OPENSEARCH = 'application/opensearchdescription+xml';

/** The OpenSearch description of the OPDS search: its results are /opds/search's acquisition feed. */
export function openSearchDescription(base: string, siteName: string): string {
  const doc = xmlDocument();
  const root = doc.ele('http://a9.com/-/spec/opensearch/1.1/', 'OpenSearchDescription');
  // ShortName: at most 16 characters (OpenSearch 1.1).
  root.ele('ShortName').txt(siteName.slice(0, 16));
  root.ele('Description').txt(`Search the downloadable texts of ${siteName}`);
  root.ele('InputEncoding').txt('UTF-8');
  root.ele('Url', { type: OPDS_ACQ, template: `${base}/opds/search?query={searchTerms}` });
  return doc.end({ prettyPrint: true });
}

export interface NavItem { id: string; title: string; content: string; href: string; type: string; rel?: string }

export function navigationFeed(o: { base: string; path: string; title: string; siteName: string; items: NavItem[]; search?: boolean }): string {
  const doc = xmlDocument();
  const feed = doc.ele(ATOM_NS, 'feed');
  const updated = new Date().toISOString();
  feedHead(feed, { ...o, kind: OPDS_NAV, updated });
  // Readers offer a search box from an OpenSearch description (OPDS 1.2 §3.3).
  if (o.search) feed.ele('link', { rel: 'search', type: OPENSEARCH, href: `${o.base}/opds/opensearch.xml` });
  for (const item of o.items) {
    const el = feed.ele('entry');
    el.ele('id').txt(`${o.base}${item.id}`);
    el.ele('title').txt(item.title);
    el.ele('updated').txt(updated);
    el.ele('content', { type: 'text' }).txt(item.content);
    el.ele('link', { rel: item.rel ?? 'subsection', type: item.type, href: `${o.base}${item.href}` });
  }
  return doc.end({ prettyPrint: true });
}

export function acquisitionFeed(o: { base: string; path: string; title: string; siteName: string; page: AcquisitionPage }): string {
  const { base, page } = o;
  const doc = xmlDocument();
  const feed = doc.ele(ATOM_NS, 'feed').att('xmlns:dc', DC_NS).att('xmlns:opds', OPDS_NS);
  const updated = page.items.reduce((max, i) => (i.updated > max ? i.updated : max), page.items[0]?.updated ?? new Date().toISOString());
  const pageUrl = (n: number) => `${o.path}${n > 1 ? `${o.path.includes('?') ? '&' : '?'}page=${n}` : ''}`;
  feedHead(feed, { ...o, path: pageUrl(page.page), kind: OPDS_ACQ, updated });
  // Paging links (RFC 5005), which OPDS readers follow to load more.
  const last = Math.max(1, Math.ceil(page.total / page.pageSize));
  feed.ele('link', { rel: 'first', type: OPDS_ACQ, href: `${base}${pageUrl(1)}` });
  if (page.page > 1) feed.ele('link', { rel: 'previous', type: OPDS_ACQ, href: `${base}${pageUrl(Math.min(page.page - 1, last))}` });
  if (page.page < last) feed.ele('link', { rel: 'next', type: OPDS_ACQ, href: `${base}${pageUrl(page.page + 1)}` });
  feed.ele('link', { rel: 'last', type: OPDS_ACQ, href: `${base}${pageUrl(last)}` });
  for (const item of page.items) {
    const el = atomEntry(feed, base, item);
    const { entry } = item;
    for (const l of entry.languages) el.ele('dc:language').txt(l.id);
    const years = entry.data_sources.map((d) => d.year_edition).filter((y): y is number => !!y);
    if (years.length) el.ele('dc:issued').txt(String(Math.min(...years)));
    const publisher = entry.data_sources.find((d) => d.publisher)?.publisher;
    if (publisher) el.ele('dc:publisher').txt(publisher);
    for (const isbn of new Set(entry.data_sources.map((d) => d.isbn?.replace(/[^0-9Xx]/g, '')).filter(Boolean))) el.ele('dc:identifier').txt(`urn:isbn:${isbn}`);
    for (const a of acquisitions(entry)) el.ele('link', { rel: ACQUISITION_REL, type: a.type, href: `${base}${a.path}`, title: a.title });
  }
  return doc.end({ prettyPrint: true });
}
