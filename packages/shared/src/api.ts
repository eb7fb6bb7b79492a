// Shapes of the /collector/api calls, shared by the server (route schemas) and the web app (typed client).
import { z } from 'zod';
import { FACET_NAMES, FILTER_NAMES, MAX_PAGE_SIZE, SORT_OPTIONS } from './constants.ts';

export const errorSchema = z.object({ error: z.string() });
export type ApiError = z.infer<typeof errorSchema>;

const idValue = z.object({ id: z.number().int(), value: z.string() });
const codeValue = z.object({ id: z.string(), value: z.string() });

// ---------- general ----------
export const generalSchema = z.object({
  site_name: z.string(),
  site_logo: z.string(),
  description: z.string(),
  contact_email: z.string(),
  /** Map basemap: a tile server template when configured (TILE_URL), else '' = the built-in basemap. */
  tile_url: z.string().optional(),
  tile_attribution: z.string().optional(),
  /** Our addition: the shortest password accepted (PASSWORD_MIN_LENGTH), shown beside every new-password field. */
  password_min_length: z.number().int().optional(),
  /**
   * Our addition: the description (the home page's introduction) in other interface languages, by code;
   * `description` is the default, shown for a language without its own.
   */
  descriptions: z.record(z.string(), z.string()).optional(),
});
export type General = z.infer<typeof generalSchema>;

// ---------- search ----------
/** Query-string parameters of GET /search. filter_<name> may repeat; unknown parameters are ignored. */
export const searchQuerySchema = z
  .object({
    query: z.string().max(1000).optional(),
    /** Our four sorts; also the anchor client's `title` (A-Z, or Z-A with sort_direction=desc). */
    sort_by: z.enum([...SORT_OPTIONS, 'title']).optional(),
    /** Sent by the anchor client beside sort_by; only read with sort_by=title. */
    sort_direction: z.enum(['asc', 'desc']).optional(),
    page_number: z.coerce.number().int().min(1).max(100000).optional(),
    page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
    /** 1: search the words as typed, no spelling correction (the reader refused "Did you mean …?"). */
    exact: z.enum(['0', '1']).optional(),
    /** 1: widen the matches to every translation and the original of each matching work. */
    translations: z.enum(['0', '1']).optional(),
    ...Object.fromEntries(
      FILTER_NAMES.map((f) => [
        `filter_${f}`,
        z.union([z.string().max(200), z.array(z.string().max(200)).max(100)]).optional(),
      ]),
    ),
  });

export const facetValueSchema = z.object({
  id: z.string(),
  /** Unique within the whole answer: the facet name followed by the id ("library3"), as the anchor keys its lists. */
  key: z.string(),
  term: z.string(),
  count: z.number().int(),
  active: z.boolean(),
});
export type FacetValue = z.infer<typeof facetValueSchema>;

export const facetSchema = z.object({ name: z.string(), values: z.array(facetValueSchema) });
export type Facet = z.infer<typeof facetSchema>;

export const pagerItemSchema = z.object({
  key: z.string(),
  page_id: z.number().int(),
  label: z.string(),
  current: z.boolean(),
});
export type PagerItem = z.infer<typeof pagerItemSchema>;

export const matchDataSourceSchema = z.object({
  data_source_id: z.number().int(),
  library_id: z.number().int(),
  library_name: z.string(),
  library_type: z.string(),
  year_edition: z.number().int().nullable(),
});

export const snippetPartSchema = z.object({ text: z.string(), match: z.boolean() });
export type SnippetPart = z.infer<typeof snippetPartSchema>;

/**
 * A search match in the spec's shape (§3): every list is of `{id, value}`. `title` is always two items,
 * the title and the subtitle ('' when none), each with the entry id as `id`; `translate` holds
 * 'translation' (this text translates another) and/or 'translated' (other texts translate it);
 * `date` the years of its editions. `data_sources` carry our additions (library name and type, year).
 */
export const matchSchema = z.object({
  entry_id: z.number().int(),
  title: z.tuple([idValue, idValue]),
  creator: z.array(idValue),
  language: z.array(codeValue),
  translate: z.array(z.object({ id: z.enum(['translated', 'translation']), value: z.string() })),
  date: z.array(z.object({ id: z.number().int(), value: z.number().int() })),
  data_sources: z.array(matchDataSourceSchema),
  /**
   * Our addition, with translations=1: why a match that does not match the query itself is listed: it is
   * a translation of the work named (`translation_of`), or the original of a matching translation (`original_of`).
   */
  related: z.object({ relation: z.enum(['translation_of', 'original_of']), entry_id: z.number().int(), title: z.string() }).optional(),
  /**
   * Our addition: when the query's words matched inside a full text, a short passage of it (plain text
   * in parts, the matched words `match: true`; never HTML) and the data source whose text it is.
   */
  snippet: z.object({ data_source_id: z.number().int(), parts: z.array(snippetPartSchema) }).optional(),
});
export type Match = z.infer<typeof matchSchema>;
export type MatchTranslate = Match['translate'][number]['id'];

export const searchResponseSchema = z.object({
  matches: z.array(matchSchema),
  facets: z.object(Object.fromEntries(FACET_NAMES.map((f) => [f, facetSchema])) as Record<
    (typeof FACET_NAMES)[number],
    typeof facetSchema
  >),
  filters: z.record(z.string(), z.array(z.string())),
  pager: z.array(pagerItemSchema),
  total_entries: z.number().int(),
  page_number: z.number().int(),
  page_size: z.number().int(),
  sort_by: z.enum(SORT_OPTIONS),
  can_merge: z.boolean(),
  can_set_exclusions: z.boolean(),
  is_authenticated: z.boolean(),
  pretty_query: z.string(),
  querystring: z.string(),
  /** Our addition: the query with misspelt words replaced by the catalogue's own, when it finds more (null: none). */
  did_you_mean: z.string().nullable().optional(),
  /** True when the matches are those of `did_you_mean`, because the query as typed found nothing (refuse with exact=1). */
  corrected: z.boolean().optional(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

/** GET /suggest?q=: titles and authors for the search box, as the reader types (our addition). */
export const suggestQuerySchema = z.object({ q: z.string().max(200).optional() });
export const suggestResponseSchema = z.object({
  suggestions: z.array(z.object({
    type: z.enum(['title', 'author']),
    /** The entry id of a title, the author id of an author. */
    id: z.number().int(),
    value: z.string(),
    /** A title's first author. */
    detail: z.string().nullable(),
  })),
});
export type SuggestResponse = z.infer<typeof suggestResponseSchema>;
export type Suggestion = SuggestResponse['suggestions'][number];

// ---------- entry ----------
export const downloadSchema = z.object({ code: z.string(), ext: z.string(), desc: z.string() });
export type Download = z.infer<typeof downloadSchema>;

export const dataSourceSchema = z.object({
  data_source_id: z.number().int(),
  library_id: z.number().int(),
  library_name: z.string(),
  library_type: z.string(),
  title: z.string(),
  subtitle: z.string().nullable(),
  authors: z.array(z.string()),
  year_edition: z.number().int().nullable(),
  year_first_edition: z.number().int().nullable(),
  languages: z.array(z.string()),
  description: z.string().nullable(),
  shelf_location_code: z.string().nullable(),
  material_description: z.string().nullable(),
  isbn: z.string().nullable(),
  publisher: z.string().nullable(),
  edition_statement: z.string().nullable(),
  place_date_of_publication_distribution: z.string().nullable(),
  site_type: z.string(),
  uri: z.string().nullable(),
  uri_label: z.string().nullable(),
  koha_url: z.string().nullable(),
  content_type: z.string().nullable(),
  downloads: z.array(downloadSchema),
  aggregated: z.boolean(),
  aggregations: z.array(z.object({ id: z.number().int(), entry_id: z.number().int() })),
  public: z.boolean(),
  report_error: z.boolean(),
  identifier: z.string(),
  /** Derived flags so the UI needs no rule of its own (spec §9). */
  has_full_text: z.boolean(),
  has_pdf: z.boolean(),
  can_add_to_bookbuilder: z.boolean(),
});
export type DataSource = z.infer<typeof dataSourceSchema>;

/**
 * A "Part of:" / "Contains:" entry in the anchor's short form: title and subtitle are lists of
 * {id, value} (the spec's client lists every value; the subtitle list is empty without one).
 */
export const shortEntrySchema = z.object({
  entry_id: z.number().int(),
  id: z.number().int(),
  title: z.array(idValue),
  subtitle: z.array(idValue),
  authors: z.array(idValue),
  languages: z.array(codeValue),
});
export type ShortEntry = z.infer<typeof shortEntrySchema>;

export const entrySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  subtitle: z.string().nullable(),
  authors: z.array(idValue),
  languages: z.array(codeValue),
  original_entry: z.object({ id: z.number().int(), languages: z.array(codeValue) }).nullable(),
  translations: z.array(z.object({ id: z.number().int(), languages: z.array(codeValue) })),
  /** "Part of:" — the aggregations (anthologies, issues) holding this entry. */
  aggregations: z.array(shortEntrySchema),
  /** "Contains:" — the parts of this aggregation, in order. */
  aggregated: z.array(shortEntrySchema),
  data_sources: z.array(dataSourceSchema),
});
export type Entry = z.infer<typeof entrySchema>;

export const idParamSchema = z.object({ id: z.coerce.number().int().min(1).max(2 ** 31 - 1) });
export const dataSourceIdParamSchema = z.object({
  data_source_id: z.coerce.number().int().min(1).max(2 ** 31 - 1),
});
export const fullTextSchema = z.object({ html: z.string() });
export type FullText = z.infer<typeof fullTextSchema>;

// ---------- libraries (short, for badges and single-filter boxes) ----------
export const libraryPublicSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string().nullable(),
  logo_url: z.string().nullable(),
  library_type: z.string(),
  public: z.boolean(),
  active: z.boolean(),
  established: z.string().nullable(),
  year_established: z.string().nullable(),
  languages: z.string().nullable(),
  description: z.string().nullable(),
  short_desc: z.string().nullable(),
  opening_hours: z.string().nullable(),
  email_public: z.string().nullable(),
  address_line_1: z.string().nullable(),
  address_line_2: z.string().nullable(),
  address_zip: z.string().nullable(),
  address_city: z.string().nullable(),
  address_state: z.string().nullable(),
  address_country: z.string().nullable(),
  pgp_public_key: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  region: z.string().nullable(),
  catalog_is_accessible: z.boolean(),
  /**
   * Entries of this library the viewer can see (as `library:<id>` finds them); null when its catalogue is not
   * accessible. Always sent by the server (optional only so older fixtures stay valid).
   */
  entries_count: z.number().int().nullable().optional(),
});
export type LibraryPublic = z.infer<typeof libraryPublicSchema>;
export const librariesResponseSchema = z.object({ libraries: z.array(libraryPublicSchema) });
/** An unknown or hidden library answers `library: null` (the spec's client shows no library for it). */
export const libraryResponseSchema = z.object({ library: libraryPublicSchema.nullable() });

export const agentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  wikidata_id: z.string().nullable(),
  /** The author this one was merged into (the spec's client shows `canonical.name`), else null. */
  canonical: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  search_link_id: z.number().int(),
});
export type Agent = z.infer<typeof agentSchema>;
export const agentResponseSchema = z.object({ agent: agentSchema });

// ---------- authors: search and linked data ----------
export const AGENT_SEARCH_LIMIT = 100;
export const agentsQuerySchema = z.object({ search: z.string().max(200).optional() });
/** An author found by GET /agents: merged authors carry `canonical` (its name) and count the canonical's entries. */
export const agentListItemSchema = agentSchema.extend({ entries_count: z.number().int() });
export type AgentListItem = z.infer<typeof agentListItemSchema>;
export const agentsResponseSchema = z.object({
  agents: z.array(agentListItemSchema),
  /** Visible entries of all the authors found (each entry once): the %2 of 'Authors matching “%1” (%2 entries)'. */
  matches: z.number().int(),
  /** Authors found before the cap of AGENT_SEARCH_LIMIT (the list holds the first ones, most entries first). */
  total_agents: z.number().int(),
  /** 'Please search' for an empty search; 'Too many results, continue searching' when the list is capped. */
  warning: z.string().nullable(),
  can_merge: z.boolean(),
});
export type AgentsResponse = z.infer<typeof agentsResponseSchema>;

export const wikidataLanguageParamSchema = z.object({
  id: z.coerce.number().int().min(1).max(2 ** 31 - 1),
  language: z.string().regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/),
});
export const wikidataStatementSchema = z.object({
  property: z.string(),
  name: z.string(),
  data_type: z.string(),
  values: z.array(z.string()),
  /** Same order as `values`: the value as a safe link (http or https, no spaces), or null to show it as text. */
  links: z.array(z.string().nullable()),
});
export type WikidataStatement = z.infer<typeof wikidataStatementSchema>;
export const wikidataResponseSchema = z.object({
  wikidata_id: z.string().nullable(),
  name: z.string().nullable(),
  desc: z.string().nullable(),
  /** The Wikipedia article in the language asked for, else English, else the Wikidata page. */
  link: z.string().nullable(),
  statements: z.array(wikidataStatementSchema),
  /** Set when Wikidata could not be reached or does not know the id: the page shows it and works on. */
  error: z.string().optional(),
});
export type WikidataCard = z.infer<typeof wikidataResponseSchema>;

// ---------- reports ----------
export const REPORT_MAX_LENGTH = 10000;
export const reportBugBodySchema = z.object({
  /** The page address, the sender and the text, combined by the client. */
  message: z.string().max(REPORT_MAX_LENGTH),
  email_from: z.string().max(254),
});
export const dataSourceReportBodySchema = z.object({
  message: z.string().max(REPORT_MAX_LENGTH),
  report_type: z.enum(['error', 'question']).optional(),
});
export const reportResponseSchema = z.object({ success: z.literal('OK'), report_id: z.number().int() });
export type ReportResponse = z.infer<typeof reportResponseSchema>;

// ---------- pages ----------
export const pageSummarySchema = z.object({ id: z.number().int(), title: z.string(), summary: z.string() });
export const pageSchema = pageSummarySchema.extend({ content: z.string() });
export type PageSummary = z.infer<typeof pageSummarySchema>;
export type Page = z.infer<typeof pageSchema>;
export const pagesResponseSchema = z.object({ pages: z.array(pageSummarySchema) });
export const pageResponseSchema = z.object({ page: pageSchema });

// ---------- accounts ----------
/** GET /auth/user, and the answer of a successful login or password reset (spec §7). */
export const authUserSchema = z.object({
  /** The username when logged in, null otherwise. */
  logged_in: z.string().nullable(),
  message: z.string().nullable(),
  email: z.string(),
  is_superuser: z.boolean(),
  is_library_admin: z.boolean(),
  can_merge: z.boolean(),
  can_set_exclusions: z.boolean(),
  libraries: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type AuthUser = z.infer<typeof authUserSchema>;
export const loginBodySchema = z.object({ username: z.string().min(1), password: z.string().min(1) });
export type LoginBody = z.infer<typeof loginBodySchema>;
export type ResetPasswordBody =
  | { operation: 'send-link'; username: string }
  | { operation: 'reset'; username: string; token: string; password: string };
export type DataSourceReportBody = z.infer<typeof dataSourceReportBodySchema>;
