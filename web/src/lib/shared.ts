// Runtime constants and types of the API contract (packages/shared).
// Types come from the package entry (`import type` is erased at build time). The runtime constants are
// imported from constants.ts directly: the package entry also builds the zod schemas, which would
// put zod into the first-load bundle although the web app never validates with it.
export {
  FACET_NAMES,
  FILTER_NAMES,
  SORT_OPTIONS,
  UI_LANGUAGES,
  DOWNLOAD_TYPES,
  DOWNLOAD_FORMAT_LABELS,
  AGGREGATE_SPECIAL,
  TRANSLATE_VALUES,
  OWN_LOGO_PATH,
} from '../../../packages/shared/src/constants.ts';
export type {
  FacetName,
  FilterName,
  SortBy,
  UiLanguage,
} from '../../../packages/shared/src/constants.ts';
export type {
  General,
  SearchResponse,
  Suggestion,
  Match,
  Facet,
  FacetValue,
  PagerItem,
  Entry,
  ShortEntry,
  DataSource,
  Download,
  FullText,
  LibraryPublic,
  Agent,
  PageSummary,
  Page,
  AgentListItem,
  AgentsResponse,
  WikidataCard,
  WikidataStatement,
  ReportResponse,
} from '@uc/shared';
// Text folding (pure functions, no zod): the library filter's accent- and case-insensitive match.
export { foldText, foldedIncludes, shortEntryText } from '../../../packages/shared/src/text.ts';
// Great-circle distances (the map's "Near me").
export { byDistance, distanceKm, type LatLng } from '../../../packages/shared/src/geo.ts';
