// The search screen's state lives in the URL only (query, sort_by, page_number, filter_<facet>,
// translations=1, exact=1).
import { FILTER_NAMES, SORT_OPTIONS, type FilterName, type SortBy } from '../../lib/shared';
import type { SearchParams } from '../../api/client';

export type Filters = Partial<Record<FilterName, string[]>>;

export interface SearchState {
  query: string;
  /** As written in the URL; see effectiveSort for the one actually used. */
  sort_by?: SortBy;
  page: number;
  filters: Filters;
  /** Every translation and the original of each matching work too. */
  translations?: boolean;
  /** The words as typed: the reader refused the spelling correction. */
  exact?: boolean;
}

export const SORT_LABELS: Record<SortBy, string> = {
  datestamp: 'Sort by Acquisition Date',
  relevance: 'Sort by Relevance',
  title_asc: 'Sort by Title (A-Z)',
  title_desc: 'Sort by Title (Z-A)',
};

function isSort(v: string | null): v is SortBy {
  return v !== null && (SORT_OPTIONS as readonly string[]).includes(v);
}

export function parseSearch(search: string | URLSearchParams): SearchState {
  const sp = typeof search === 'string' ? new URLSearchParams(search) : search;
  const pageRaw = Number.parseInt(sp.get('page_number') ?? '', 10);
  const filters: Filters = {};
  for (const name of FILTER_NAMES) {
    const values = sp.getAll(`filter_${name}`).filter((v) => v.trim() !== '');
    if (values.length) filters[name] = Array.from(new Set(values));
  }
  const sort = sp.get('sort_by');
  return {
    query: sp.get('query') ?? '',
    sort_by: isSort(sort) ? sort : undefined,
    page: Number.isFinite(pageRaw) && pageRaw > 1 ? pageRaw : 1,
    filters,
    ...(sp.get('translations') === '1' ? { translations: true } : {}),
    ...(sp.get('exact') === '1' ? { exact: true } : {}),
  };
}

/** Serialises the state as a query string (with '?'), omitting empty values and page 1. */
export function toSearchString(s: SearchState): string {
  const sp = new URLSearchParams();
  const q = s.query.trim();
  if (q) sp.set('query', q);
  if (s.sort_by) sp.set('sort_by', s.sort_by);
  if (s.page > 1) sp.set('page_number', String(s.page));
  for (const name of FILTER_NAMES) {
    for (const v of s.filters[name] ?? []) sp.append(`filter_${name}`, v);
  }
  if (s.translations) sp.set('translations', '1');
  if (s.exact && q) sp.set('exact', '1');
  const qs = sp.toString();
  return qs ? `?${qs}` : '';
}

export function searchHref(s: SearchState): string {
  return `/search${toSearchString(s)}`;
}

/**
 * The spec's swapping rule: acquisition date exists only with an empty query, relevance only with
 * a query; each becomes the other when the query changes between empty and non-empty.
 * Default: acquisition date (which becomes relevance once there is a query).
 */
export function effectiveSort(query: string, sort?: SortBy): SortBy {
  const hasQuery = query.trim() !== '';
  const s = sort ?? 'datestamp';
  if (hasQuery && s === 'datestamp') return 'relevance';
  if (!hasQuery && s === 'relevance') return 'datestamp';
  return s;
}

export function sortOptionsFor(query: string): SortBy[] {
  return query.trim() === ''
    ? ['datestamp', 'title_asc', 'title_desc']
    : ['relevance', 'title_asc', 'title_desc'];
}

/** A new search: page 1, the sort swapped if needed, filters kept; a new query may be corrected again. */
export function withQuery(s: SearchState, query: string, sort?: SortBy, exact = false): SearchState {
  const q = query.trim();
  const next: SearchState = { ...s, query: q, sort_by: effectiveSort(q, sort ?? s.sort_by), page: 1 };
  if (exact) next.exact = true;
  else delete next.exact;
  return next;
}

/** The same search widened to translations and originals, or not; back to page 1. */
export function withTranslations(s: SearchState, on: boolean): SearchState {
  const next: SearchState = { ...s, page: 1 };
  if (on) next.translations = true;
  else delete next.translations;
  return next;
}

export function isFilterActive(s: SearchState, name: FilterName, value: string): boolean {
  return (s.filters[name] ?? []).includes(value);
}

/** Adds or removes one filter value; back to page 1. */
export function toggleFilter(s: SearchState, name: FilterName, value: string): SearchState {
  const current = s.filters[name] ?? [];
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  const filters: Filters = { ...s.filters };
  if (next.length) filters[name] = next;
  else delete filters[name];
  return { ...s, filters, page: 1 };
}

export function withPage(s: SearchState, page: number): SearchState {
  return { ...s, page: Math.max(1, page) };
}

/** What is sent to GET /search. */
export function toApiParams(s: SearchState): SearchParams {
  return {
    query: s.query.trim() || undefined,
    sort_by: effectiveSort(s.query, s.sort_by),
    page_number: s.page > 1 ? s.page : undefined,
    filters: s.filters,
    translations: s.translations || undefined,
    exact: s.exact || undefined,
  };
}

/** The `library:N` and `creator:N` terms of a query (single-filter boxes). */
export function singleFilterIds(query: string): { library: string[]; creator: string[] } {
  const pick = (prefix: string) =>
    Array.from(new Set(Array.from(query.matchAll(new RegExp(`(?:^|[\\s(+])${prefix}:(\\d+)\\b`, 'g')), (m) => m[1])));
  return { library: pick('library'), creator: pick('creator') };
}
