export const FACET_NAMES = ['language', 'creator', 'library', 'date', 'download', 'aggregate'] as const;
export type FacetName = (typeof FACET_NAMES)[number];

/** Facets and filter prefixes: every facet can be filtered; `translate` is a filter without a facet box. */
export const FILTER_NAMES = [...FACET_NAMES, 'translate'] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

export const SORT_OPTIONS = ['datestamp', 'relevance', 'title_asc', 'title_desc'] as const;
export type SortBy = (typeof SORT_OPTIONS)[number];

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export const UI_LANGUAGES = ['en', 'de', 'el', 'fr', 'hr', 'it'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

/** Download facet values and their (English source) labels. */
export const DOWNLOAD_TYPES = {
  text: 'Editable and printable text',
  raw: 'Raw scan',
  none: 'Bibliographical entry only',
} as const;
export type DownloadType = keyof typeof DOWNLOAD_TYPES;

/**
 * The entry page's file downloads by format code (the extension without its dot): the English source
 * label the server sends as `desc`, which the web app translates by the code.
 */
export const DOWNLOAD_FORMAT_LABELS: Readonly<Record<string, string>> = {
  pdf: 'PDF',
  epub: 'EPUB',
  muse: 'Muse source',
  zip: 'Source and images (zip)',
  txt: 'Plain text',
};

/** Aggregate facet values beside the ids of aggregations. */
export const AGGREGATE_SPECIAL = {
  aggregation: 'Aggregation',
  no_aggregations: 'Exclude aggregated items',
} as const;

export const TRANSLATE_VALUES = {
  translated: 'Translated Entries',
  translation: 'Translations',
  unknown: 'Unknown',
} as const;

export const LIBRARY_TYPES = ['physical', 'digital', 'closed'] as const;
export type LibraryType = (typeof LIBRARY_TYPES)[number];

export const REGIONS = [
  'Africa', 'Asia', 'Europe', 'Oceania', 'North America East', 'North America West',
  'Center America East', 'Center America West', 'South America',
] as const;

/** Site types: how a site's records arrive (OAI-PMH flavours, a Calibre folder, spreadsheet uploads). */
export const SITE_TYPES = ['amusewiki', 'koha-marc21', 'koha-unimarc', 'generic', 'calibretree', 'csv'] as const;
export type SiteType = (typeof SITE_TYPES)[number];

/** A library's logo as we keep and serve it (logo_url after an upload or a fetch; never another host's). */
export const OWN_LOGO_PATH = /^\/collector\/api\/libraries\/\d+\/logo(\?v=[0-9a-f]{1,64})?$/;
