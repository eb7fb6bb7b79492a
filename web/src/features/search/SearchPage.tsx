import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FACET_NAMES, type FacetName, type FilterName, type SearchResponse, type SortBy } from '../../lib/shared';
import { MARK, sentence } from './sentence';
import { useSearch } from '../../api/hooks';
import { useCurrentUser } from '../../api/account';
import { isApiError } from '../../api/client';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { SearchForm } from './SearchForm';
import { FacetBox } from './FacetBox';
import { FilterChips } from './FilterChips';
import { Pager } from './Pager';
import { ResultCard } from './ResultCard';
import { AgentFilterBox, LibraryFilterBox } from './SingleFilterBoxes';
import { FilterDrawer } from './FilterDrawer';
import { MergeColumn } from '../curation/MergeBox';
import { Notice } from '../curation/Notice';
import { SEARCH_BOXES } from '../curation/boxes';
import { SubscribeLinks, feedQuery } from '../feeds/SubscribeLinks';
import {
  isFilterActive,
  parseSearch,
  searchHref,
  singleFilterIds,
  toSearchString,
  toApiParams,
  toggleFilter,
  withPage,
  withQuery,
  withTranslations,
  type SearchState,
} from './searchState';

interface Props {
  /** The location.search this view shows (the last one while the view is hidden). */
  search: string;
  /** False while kept alive but hidden behind another page. */
  active?: boolean;
}

/** The results heading's id: RootLayout focuses it when the search view is opened from another page. */
export const RESULTS_HEADING_ID = 'search-results-heading';

type Layout = 'both' | 'facets' | 'right' | 'none';
// Whole class names (Tailwind finds them in the source): facets column, results, curators' column.
const GRID: Record<Layout, string> = {
  both: 'md:grid-cols-[16rem_minmax(0,1fr)] lg:grid-cols-[16rem_minmax(0,1fr)_18rem]',
  facets: 'md:grid-cols-[16rem_minmax(0,1fr)]',
  right: 'lg:grid-cols-[minmax(0,1fr)_18rem]',
  none: '',
};
const RESULTS_COL: Record<Layout, string> = { both: 'md:col-start-2', facets: 'md:col-start-2', right: 'lg:col-start-1', none: '' };
const RIGHT_COL: Record<Layout, string> = { both: 'md:col-start-2 lg:col-start-3', facets: '', right: 'lg:col-start-2', none: '' };

export default function SearchPage({ search, active = true }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const state = useMemo(() => parseSearch(search), [search]);
  const apiParams = useMemo(() => toApiParams(state), [state]);
  const result = useSearch(apiParams);
  const { data, error, isFetching } = result;
  // The previous search's answer, shown dimmed while this one runs (keepPreviousData): never paired
  // with this query in the heading.
  const stale = result.isPlaceholderData && !error;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const resultsRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const filtersHeadingRef = useRef<HTMLHeadingElement>(null);
  /** Set by the drawer's "Show N results": the heading takes the focus once the drawer gave it back. */
  const toResults = useRef(false);
  const filtersId = useId();
  const closeFilters = useCallback(() => setFiltersOpen(false), []);
  const showResults = useCallback(() => {
    toResults.current = true;
    setFiltersOpen(false);
  }, []);
  // Runs after the drawer's own clean-up returned the focus to the Filters button (child effects first).
  useEffect(() => {
    if (filtersOpen || !toResults.current) return;
    toResults.current = false;
    const h = headingRef.current;
    h?.focus({ preventScroll: true });
    h?.scrollIntoView({ block: 'start' });
  }, [filtersOpen]);

  const go = useCallback((s: SearchState) => navigate(searchHref(s)), [navigate]);
  // A new sort of the same query keeps a refused correction refused.
  const onSearch = (query: string, sort?: SortBy) => go(withQuery(state, query, sort, query.trim() === state.query && !!state.exact));
  // After a submitted search the reader is at its results (issue 32 point 8): the heading, which the
  // live region then fills with the count, rather than the box the form leaves behind.
  const onSubmitted = () => headingRef.current?.focus({ preventScroll: true });
  const onToggle = (name: FilterName, value: string) => go(toggleFilter(state, name, value));
  const onPage = () => {
    const node = resultsRef.current;
    if (!node) return;
    node.scrollIntoView({ behavior: 'smooth', block: 'start' });
    node.focus({ preventScroll: true });
  };

  const hasQuery = state.query.trim() !== '';
  const titleQuery = data && !error && !stale && data.pretty_query ? data.pretty_query : state.query;
  useDocumentTitle(hasQuery ? `${t('Search')}: ${titleQuery}` : t('Search'), active);

  const singles = singleFilterIds(state.query);
  const hasSingles = singles.library.length > 0 || singles.creator.length > 0;

  let heading: string;
  let headingError = false;
  if (error) {
    heading = t('Invalid query!');
    headingError = true;
  } else if (!data || stale) {
    heading = t('Fetching results, hold on...');
  } else if (hasQuery) {
    heading = t('search_results', { query: data.pretty_query || state.query, count: data.total_entries });
  } else {
    heading = t('All entries ({{count}})', { count: data.total_entries });
  }
  const errorDetail = error
    ? isApiError(error, 400)
      ? error.message
      : t('The catalogue could not be reached. Please try again later.')
    : undefined;
  const matches = error ? [] : (data?.matches ?? []);
  const facets = error ? undefined : data?.facets;
  const facetNames = facets ? FACET_NAMES.filter((name) => facets[name]?.values.length) : [];
  // No lone 'Filters' heading: the column is there only with something to filter by.
  const hasFacets = facetNames.length > 0;
  const hrefFor = (page: number) => searchHref(withPage(state, page));
  // Spec §6: merge handles and boxes for can_merge, 'Omit' for can_set_exclusions, from the search answer
  // (from the user check while there is none, e.g. after an invalid query, so the boxes stay).
  const { user } = useCurrentUser();
  const rights = data
    ? { canMerge: data.can_merge, canExclude: data.can_set_exclusions }
    : { canMerge: !!user?.can_merge, canExclude: !!user?.can_set_exclusions };
  // After an author merge the merged authors' filter values are gone: the filter goes too (spec §4).
  // The right column holds curators' boxes: reserved only when there is one to show (UX review).
  const hasRight = hasSingles || rights.canMerge;
  const layout: Layout = hasFacets ? (hasRight ? 'both' : 'facets') : hasRight ? 'right' : 'none';
  const facetBoxes =
    facets &&
    facetNames.map((name: FacetName) => (
      <FacetBox
        key={name}
        name={name}
        facet={facets[name]}
        isActive={(v) => isFilterActive(state, name, v)}
        onToggle={(v) => onToggle(name, v)}
        rights={rights}
      />
    ));
  const activeFilters = Object.values(state.filters).reduce((n, values) => n + (values?.length ?? 0), 0);
  const afterAuthorMerge = () => {
    if (!state.filters.creator?.length) return;
    navigate(searchHref({ ...state, page: 1, filters: { ...state.filters, creator: undefined } }), { replace: true });
  };

  return (
    <div className="mx-auto max-w-screen-2xl px-4 py-4">
      <SearchForm
        query={state.query}
        sort={state.sort_by}
        onSearch={onSearch}
        translations={!!state.translations}
        onTranslations={(on) => go(withTranslations(state, on))}
        onSubmitted={onSubmitted}
        suggest
      />
      <div className="relative">
        <a
          href="#search-results"
          className="skip-link"
          onClick={(e) => {
            e.preventDefault();
            const node = resultsRef.current;
            node?.scrollIntoView({ block: 'start' });
            node?.focus({ preventScroll: true });
          }}
        >
          {t('Skip to results')}
        </a>
      </div>

      <div aria-live="polite" aria-atomic="true" className="mt-4 text-center">
        <h1
          ref={headingRef}
          id={RESULTS_HEADING_ID}
          tabIndex={-1}
          className={`scroll-mt-2 text-2xl font-semibold outline-none ${headingError ? 'text-red-800' : ''}`}
        >
          {heading}
        </h1>
        {errorDetail && <p className="text-red-800">{errorDetail}</p>}
        {data && !error && !stale && <Correction data={data} state={state} />}
        {isFetching && data && !error && !stale && (
          <p role="status" className="text-stone-700">
            <span aria-hidden="true" className="inline-block animate-spin">⚙</span>{' '}
            {t('Fetching results, hold on...')}
          </p>
        )}
      </div>

      {data && !error && !stale && data.total_entries > 0 && (
        <p className="mt-1 text-center">
          {/* Beyond the spec: the libraries holding these results, with their counts, on the map. */}
          <Link to={`/map${toSearchString({ ...state, page: 1 })}`} className="link text-sm">
            {t('Show these libraries on the map')}
          </Link>
        </p>
      )}
      {data && !error && !stale && (
        // The feeds of this search (an author's: creator:N, a library's: library:N), filters included.
        <SubscribeLinks query={feedQuery(state.query, state.filters)} title={heading} className="mt-1 justify-center" />
      )}
      <div className="my-3">
        <FilterChips filters={state.filters} facets={facets} onRemove={onToggle} />
      </div>
      {(hasFacets || activeFilters > 0) && (
        <>
          {/* Phones: the facets open in a drawer; wider: a skip link past the results to the side column. */}
          <button
            type="button"
            className="btn mb-3 w-full md:hidden"
            aria-haspopup="dialog"
            onClick={() => setFiltersOpen(true)}
          >
            {t('Filters')}
            {activeFilters > 0 && ` (${activeFilters})`}
          </button>
          {hasFacets && (
          <div className="relative max-md:hidden">
            <a
              href={`#${filtersId}-h`}
              className="skip-link"
              onClick={(e) => {
                e.preventDefault();
                filtersHeadingRef.current?.focus();
              }}
            >
              {t('Skip to filters')}
            </a>
          </div>
          )}
        </>
      )}

      <div className={`grid gap-4 lg:grid-rows-[auto_1fr] ${GRID[layout]}`}>
        {hasSingles && (
          <div className={`space-y-3 lg:row-start-1 ${RIGHT_COL[layout]}`}>
            {singles.library.map((id) => (
              <LibraryFilterBox key={`l${id}`} id={id} />
            ))}
            {singles.creator.map((id) => (
              <AgentFilterBox key={`c${id}`} id={id} canMerge={rights.canMerge} />
            ))}
          </div>
        )}

        <section
          ref={resultsRef}
          id="search-results"
          tabIndex={-1}
          aria-label={t('Results')}
          aria-busy={stale}
          className={`scroll-mt-4 outline-none transition-opacity lg:row-span-2 lg:row-start-1 ${RESULTS_COL[layout]} ${stale ? 'opacity-85 grayscale' : ''}`}
        >
          {data && !error && (
            <>
              <Pager items={data.pager} hrefFor={hrefFor} onNavigate={onPage} label={t('Result pages, top')} />
              {matches.length === 0 ? (
                <p className="py-8 text-center text-lg">{t('No result found!')}</p>
              ) : (
                <ol className="space-y-3">
                  {matches.map((m) => (
                    <li key={m.entry_id}>
                      <ResultCard match={m} rights={rights} />
                    </li>
                  ))}
                </ol>
              )}
              <Pager items={data.pager} hrefFor={hrefFor} onNavigate={onPage} label={t('Result pages, bottom')} />
            </>
          )}
        </section>

        {hasFacets && (
          // After the results in the DOM (and the Tab order); beside them from md on, by grid placement.
          <aside aria-labelledby={`${filtersId}-h`} className="hidden md:col-start-1 md:row-span-2 md:row-start-1 md:block">
            <h2 ref={filtersHeadingRef} id={`${filtersId}-h`} tabIndex={-1} className="mb-2 text-lg font-semibold outline-none">
              {t('Filters')}
            </h2>
            <div aria-busy={stale} className={`space-y-3 transition-opacity ${stale ? 'opacity-85 grayscale' : ''}`}>
              {facetBoxes}
            </div>
          </aside>
        )}

        {rights.canMerge && (
          <div
            className={`${RIGHT_COL[layout]} ${hasSingles ? 'lg:row-start-2' : 'lg:row-start-1'} lg:sticky lg:top-2 lg:max-h-[calc(100vh-1rem)] lg:self-start lg:overflow-y-auto`}
          >
            <MergeColumn kinds={SEARCH_BOXES} onDone={{ 'merge-authors': afterAuthorMerge }} />
          </div>
        )}
      </div>
      <FilterDrawer
        open={filtersOpen}
        onClose={closeFilters}
        onShowResults={showResults}
        count={data && !error && !stale ? data.total_entries : undefined}
        busy={stale}
      >
        {facetBoxes}
      </FilterDrawer>
      <Notice />
    </div>
  );
}

/** "Did you mean …?", or, when the answer is the correction's, what was searched and a way back. */
function Correction({ data, state }: { data: SearchResponse; state: SearchState }) {
  const { t } = useTranslation();
  const fixed = data.did_you_mean;
  if (!fixed) return null;
  const fixedLink = (
    <Link to={searchHref(withQuery(state, fixed, state.sort_by))} className="link font-semibold">
      {fixed}
    </Link>
  );
  if (!data.corrected) return <p className="mt-1">{sentence(t('Did you mean {{query}}?', { query: MARK }), fixedLink)}</p>;
  return (
    <p className="mt-1">
      {sentence(t('Showing results for {{query}}.', { query: MARK }), fixedLink)}{' '}
      {sentence(
        t('Search instead for {{query}}', { query: MARK }),
        <Link to={searchHref(withQuery(state, state.query, state.sort_by, true))} className="link">
          {state.query}
        </Link>,
      )}
    </p>
  );
}
