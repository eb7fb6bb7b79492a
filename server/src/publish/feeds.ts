// The Atom feed of the latest additions: the list the search gives an anonymous visitor sorted by
// acquisition date (the spec's "latest"), each entry read through the entry service.
import type { FastifyRequest } from 'fastify';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { Entry } from '@uc/shared';
import type { Db } from '../db/index.ts';
import { idList, jsonText } from '../db/dialect.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { SearchParams, SearchService } from '../search/service.ts';
import { ANONYMOUS } from '../http/viewer.ts';

export const ATOM_NS = 'http://www.w3.org/2005/Atom';
export const DC_NS = 'http://purl.org/dc/terms/';
export const FEED_SIZE = 50;

/** Absolute origin for links: PUBLIC_URL, or the address the request came to (behind a proxy, with TRUST_PROXY). */
export function publicBase(publicUrl: string, req: FastifyRequest): string {
  return publicUrl || `${req.protocol}://${req.host}`;
}

/** A new XML document; characters XML 1.0 cannot carry (control codes in a harvested title) are dropped, not fatal. */
export function xmlDocument() {
  return create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' });
}

/** RFC 3339 time of a stored datestamp (ISO already, or anything Date reads); null when unreadable. */
export function rfc3339(value: string | null | undefined): string | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** The acquisition dates the index sorts "latest" by, per entry id. */
export function indexDatestamps(db: Db, ids: number[]): Map<number, string> {
  if (ids.length === 0) return new Map();
  const rows = db.sqlite
    .prepare(`SELECT entry_id, ${jsonText(db.sqlite.dialect, 'doc', 'datestamp')} FROM search_docs WHERE entry_id IN ${idList(db.sqlite.dialect)}`)
    .raw()
    .all(JSON.stringify(ids)) as [number, string | null][];
  const out = new Map<number, string>();
  for (const [id, ds] of rows) {
    const t = rfc3339(ds);
    if (t) out.set(id, t);
  }
  return out;
}

export interface FeedItem { entry: Entry; updated: string }

/**
 * The one rule of every feed's matches (Atom and OPDS, per search, author `creator:N` and library
 * `library:N`): the search as an anonymous visitor sees it, newest acquisition first, exactly as asked
 * (a feed follows what was asked, never a spelling correction of it); each entry read through the entry service.
 */
export function feedItems(
  db: Db, search: SearchService, catalogue: CatalogueService,
  o: { query: string; page?: number; pageSize?: number; filters?: SearchParams['filters'] },
): { items: FeedItem[]; total: number; pretty: string } {
  const res = search.search({ query: o.query, sortBy: 'datestamp', page: o.page ?? 1, pageSize: o.pageSize ?? FEED_SIZE, filters: o.filters ?? {}, exact: true }, ANONYMOUS);
  const ids = res.matches.map((m) => m.entry_id);
  const dates = indexDatestamps(db, ids);
  const items: FeedItem[] = [];
  for (const id of ids) {
    const entry = catalogue.getEntry(id, ANONYMOUS);
    if (entry) items.push({ entry, updated: dates.get(id) ?? new Date(0).toISOString() });
  }
  // pretty: the query as the results page heads it (`creator:12` as the author's name), for the feed's title
  return { items, total: res.total_entries, pretty: res.pretty_query || o.query };
}

/** The `n` latest entries an anonymous visitor sees; with `query` (the search language), only its matches. */
export function latestEntries(db: Db, search: SearchService, catalogue: CatalogueService, n = FEED_SIZE, query = ''): FeedItem[] {
  return feedItems(db, search, catalogue, { query, pageSize: n }).items;
}

export function fullTitle(entry: Pick<Entry, 'title' | 'subtitle'>): string {
  return entry.subtitle ? `${entry.title}: ${entry.subtitle}` : entry.title;
}

/** A short text about an entry: the first description its records give, else who holds it and when. */
export function entrySummary(entry: Entry): string {
  const described = entry.data_sources.find((d) => d.description?.trim());
  if (described) return described.description!.trim();
  const libraries = [...new Set(entry.data_sources.map((d) => d.library_name))];
  const years = entry.data_sources.map((d) => d.year_edition).filter((y): y is number => !!y);
  const parts = [entry.authors.map((a) => a.value).join(', '), libraries.join(', '), years.length ? String(Math.min(...years)) : ''];
  return parts.filter(Boolean).join(' — ');
}

/** The Atom elements every entry of ours carries (feed and OPDS): id, title, updated, authors, page link. */
export function atomEntry(parent: XMLBuilder, base: string, item: FeedItem): XMLBuilder {
  const { entry } = item;
  const url = `${base}/entry/${entry.id}`;
  const el = parent.ele('entry');
  el.ele('id').txt(url);
  el.ele('title').txt(fullTitle(entry));
  el.ele('updated').txt(item.updated);
  for (const a of entry.authors) el.ele('author').ele('name').txt(a.value);
  el.ele('link', { rel: 'alternate', type: 'text/html', href: url });
  const summary = entrySummary(entry);
  if (summary) el.ele('summary', { type: 'text' }).txt(summary);
  return el;
}

export function atomFeed(opts: { base: string; siteName: string; items: FeedItem[]; query?: string; pretty?: string }): string {
  const { base, siteName, items } = opts;
  const query = opts.query?.trim() ?? '';
  const named = opts.pretty?.trim() || query;
  const q = query ? `?${new URLSearchParams({ query })}` : '';
  const doc = xmlDocument();
  const feed = doc.ele(ATOM_NS, 'feed');
  feed.ele('id').txt(`${base}/feed.atom${q}`);
  feed.ele('title').txt(query ? `${siteName}: latest entries for “${named}”` : `${siteName}: latest entries`);
  feed.ele('subtitle').txt('Latest entries sorted by acquisition date');
  feed.ele('updated').txt(items.reduce((max, i) => (i.updated > max ? i.updated : max), items.length ? items[0].updated : new Date().toISOString()));
  // Atom wants an author on the feed when an entry may have none (anonymous works).
  feed.ele('author').ele('name').txt(siteName);
  feed.ele('link', { rel: 'self', type: 'application/atom+xml', href: `${base}/feed.atom${q}` });
  feed.ele('link', { rel: 'alternate', type: 'text/html', href: `${base}/search?${new URLSearchParams(query ? { query, sort_by: 'datestamp' } : { sort_by: 'datestamp' })}` });
  for (const item of items) atomEntry(feed, base, item);
  return doc.end({ prettyPrint: true });
}
