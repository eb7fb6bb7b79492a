// Pure helpers of the library screens (overview filter, cards, detail page, map popups).
import { foldedIncludes, OWN_LOGO_PATH, type LibraryPublic } from '../../lib/shared';
import { countryName } from '../../lib/intl';
import { LIBRARY_TYPE_LABELS } from '../search/labels';

/** The English source label of a library type (translated with t()); unknown types show as they are. */
export function libraryTypeLabel(type: string): string {
  return LIBRARY_TYPE_LABELS[type] ?? type;
}

/** Every text field of a library (strings only: name, city, description, PGP key…). */
export function libraryTexts(lib: LibraryPublic): string[] {
  return Object.values(lib).filter((v): v is string => typeof v === 'string' && v !== '');
}

/**
 * The library filter (spec §5): accent- and case-insensitive substring match across all text fields.
 * An empty filter matches everything. `extra` adds displayed texts (e.g. the translated type label).
 */
export function libraryMatches(lib: LibraryPublic, filter: string, extra: string[] = []): boolean {
  if (filter.trim() === '') return true;
  return [...libraryTexts(lib), ...extra].some((s) => foldedIncludes(s, filter));
}

export function filterLibraries(
  libraries: readonly LibraryPublic[],
  filter: string,
  extra: (lib: LibraryPublic) => string[] = () => [],
): LibraryPublic[] {
  return libraries.filter((lib) => libraryMatches(lib, filter, extra(lib)));
}

/** Only http(s) addresses become links or images (no javascript:, data: or relative tricks). */
export function safeHttpUrl(url: string | null | undefined): string | undefined {
  const u = url?.trim();
  if (!u) return undefined;
  try {
    const parsed = new URL(u);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The logo's address when it is the one we keep and serve (a logo on another host is not shown: the
 * CSP allows images from our own origin, so a library's host never learns who looks at its card).
 */
export function logoSrc(url: string | null | undefined): string | undefined {
  const u = url?.trim();
  return u && OWN_LOGO_PATH.test(u) ? u : undefined;
}

/** A web address without its scheme and trailing slash, for display. */
export function displayUrl(url: string): string {
  return url.replace(/^https?:\/\//i, '').replace(/\/$/, '');
}

/** The year a library was established ('1978' from '1978-03-11'). */
export function establishedYear(lib: Pick<LibraryPublic, 'established' | 'year_established'>): string | undefined {
  const y = (lib.established ?? lib.year_established ?? '').trim().slice(0, 4);
  return /^\d{3,4}$/.test(y) ? y : undefined;
}

/** 'City, Country' (either may be missing), the country named in the interface language `uiLanguage`. */
export function libraryPlace(lib: Pick<LibraryPublic, 'address_city' | 'address_country'>, uiLanguage: string): string {
  return [lib.address_city?.trim(), countryName(lib.address_country, uiLanguage)].filter((s) => s).join(', ');
}

/** The address lines: line 1, line 2, 'zip city', state, country (in the interface language; empty parts left out). */
export function addressLines(lib: LibraryPublic, uiLanguage: string): string[] {
  const cityLine = [lib.address_zip, lib.address_city].filter((s) => s && s.trim()).join(' ');
  return [lib.address_line_1, lib.address_line_2, cityLine, lib.address_state, countryName(lib.address_country, uiLanguage)]
    .map((s) => (s ?? '').trim())
    .filter((s) => s !== '');
}

/**
 * Does a library's place match a place search (the map's)? Its own place fields and name, accent- and
 * case-insensitive, the country also in the interface language ("Kroatien" finds a library in "Croatia");
 * `extra` adds displayed texts (the region's translated name).
 */
export function placeMatches(lib: LibraryPublic, query: string, uiLanguage: string, extra: string[] = []): boolean {
  const words = query.trim().split(/[\s,]+/).filter(Boolean);
  if (words.length === 0) return true;
  const fields = [
    lib.name, lib.address_line_1, lib.address_line_2, lib.address_zip, lib.address_city, lib.address_state,
    lib.address_country, countryName(lib.address_country, uiLanguage), lib.region, ...extra,
  ].filter((s): s is string => typeof s === 'string' && s.trim() !== '');
  // Every word somewhere: "Lyon France" and "Zagreb" both find the library in Zagreb, Croatia.
  return words.every((w) => fields.some((f) => foldedIncludes(f, w)));
}

/** The library's holdings in the search: the spec's `library:<id>` query, by title (as /library/entries/<id>). */
export function holdingsHref(libraryId: number | string): string {
  return `/search?${new URLSearchParams({ query: `library:${libraryId}`, sort_by: 'title_asc' })}`;
}
