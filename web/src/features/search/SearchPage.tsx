import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FACET_NAMES, type FacetName, type FilterName, type SortBy } from '../../lib/shared';
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
import { MergeColumn } from '../curation/MergeBox';
import { Notice } from '../curation/Notice';
import { SEARCH_BOXES } from '../curation/boxes';
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
  type SearchState,
} from './searchState';

interface Props {
  /** The location.search this view shows (the last one while the view is hidden). */
  search: string;
  /** False while kept alive but hidden behind another page. */
  active?: boolean;
}

export default function SearchPage({ search, active = true }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const state = useMemo(() => parseSearch(search), [search]);
  const apiParams = useMemo(() => toApiParams(state), [state]);
  const result = useSearch(apiParams);
  const { data, error, isFetching } = result;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const resultsRef = useRef<HTMLElement>(null);
  const filtersId = useId();

  const go = useCallback((s: SearchState) => navigate(searchHref(s)), [navigate]);
  const onSearch = (query: string, sort?: SortBy) => go(withQuery(state, query, sort));
  const onToggle = (name: FilterName, value: string) => go(toggleFilter(state, name, value));
  const onPage = () => {
    const node = resultsRef.current;
    if (!node) return;
    node.scrollIntoView({ behavior: 'smooth', block: 'start' });
    node.focus({ preventScroll: true });
  };

  const hasQuery = state.query.trim() !== '';
  const titleQuery = data && !error && data.pretty_query ? data.pretty_query : state.query;
  useDocumentTitle(hasQuery ? `${t('Search')}: ${titleQuery}` : t('Search'), active);

  const singles = singleFilterIds(state.query);
  const hasSingles = singles.library.length > 0 || singles.creator.length > 0;

  let heading: string;
  let headingError = false;
  if (error) {
    heading = t('Invalid query!');
    headingError = true;
  } else if (!data) {
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
  const hrefFor = (page: number) => searchHref(withPage(state, page));
  // Spec §6: merge handles and boxes for can_merge, 'Omit' for can_set_exclusions, from the search answer
  // (from the user check while there is none, e.g. after an invalid query, so the boxes stay).
  const { user } = useCurrentUser();
  const rights = data
    ? { canMerge: data.can_merge, canExclude: data.can_set_exclusions }
    : { canMerge: !!user?.can_merge, canExclude: !!user?.can_set_exclusions };
  // After an author merge the merged authors' filter values are gone: the filter goes too (spec §4).
  const afterAuthorMerge = () => {
    if (!state.filters.creator?.length) return;
    navigate(searchHref({ ...state, page: 1, filters: { ...state.filters, creator: undefined } }), { replace: true });
  };

  return (
    <div className="mx-auto max-w-screen-2xl px-4 py-4">
      <SearchForm query={state.query} sort={state.sort_by} onSearch={onSearch} />

      <div aria-live="polite" aria-atomic="true" className="mt-4 text-center">
        <h1 className={`text-2xl font-semibold ${headingError ? 'text-red-800' : ''}`}>{heading}</h1>
        {errorDetail && <p className="text-red-800">{errorDetail}</p>}
        {isFetching && data && !error && (
          <p role="status" className="text-stone-700">
            <span aria-hidden="true" className="inline-block animate-spin">⚙</span>{' '}
            {t('Fetching results, hold on...')}
          </p>
        )}
      </div>

      {data && !error && data.total_entries > 0 && (
        <p className="mt-1 text-center">
          {/* Beyond the spec: the libraries holding these results, with their counts, on the map. */}
          <Link to={`/map${toSearchString({ ...state, page: 1 })}`} className="link text-sm">
            {t('Show these libraries on the map')}
          </Link>
        </p>
      )}
      <div className="my-3">
        <FilterChips filters={state.filters} facets={facets} onRemove={onToggle} />
      </div>

      <div className="grid gap-4 md:grid-cols-[16rem_minmax(0,1fr)] lg:grid-cols-[16rem_minmax(0,1fr)_18rem] lg:grid-rows-[auto_1fr]">
        {hasSingles && (
          <div className="space-y-3 md:col-start-2 lg:col-start-3 lg:row-start-1">
            {singles.library.map((id) => (
              <LibraryFilterBox key={`l${id}`} id={id} />
            ))}
            {singles.creator.map((id) => (
              <AgentFilterBox key={`c${id}`} id={id} canMerge={rights.canMerge} />
            ))}
          </div>
        )}

        <aside aria-labelledby={`${filtersId}-h`} className="md:col-start-1 md:row-span-2 md:row-start-1">
          <h2 id={`${filtersId}-h`} className="sr-only md:not-sr-only md:mb-2 md:text-lg md:font-semibold">
            {t('Filters')}
          </h2>
          <button
            type="button"
            className="btn w-full md:hidden"
            aria-expanded={filtersOpen}
            aria-controls={filtersId}
            onClick={() => setFiltersOpen((o) => !o)}
          >
            {t('Filters')} <span aria-hidden="true">{filtersOpen ? '▲' : '▼'}</span>
          </button>
          <div id={filtersId} className={`${filtersOpen ? 'block' : 'hidden'} mt-2 space-y-3 md:mt-0 md:block`}>
            {facets &&
              FACET_NAMES.filter((name) => facets[name]?.values.length).map((name: FacetName) => (
                <FacetBox
                  key={name}
                  name={name}
                  facet={facets[name]}
                  isActive={(v) => isFilterActive(state, name, v)}
                  onToggle={(v) => onToggle(name, v)}
                  rights={rights}
                />
              ))}
          </div>
        </aside>

        <section
          ref={resultsRef}
          tabIndex={-1}
          aria-label={t('Results')}
          className="scroll-mt-4 outline-none md:col-start-2 lg:row-span-2 lg:row-start-1"
        >
          {data && !error && (
            <>
              <Pager items={data.pager} hrefFor={hrefFor} onNavigate={onPage} label={t('Result pages, top')} />
              {matches.length === 0 ? (
                <p className="py-8 text-center text-lg">{t('No result found!')}</p>
              ) : (
                <ol className="space-y-3" aria-busy={isFetching}>
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

        {rights.canMerge && (
          <div
            className={`md:col-start-2 lg:col-start-3 ${hasSingles ? 'lg:row-start-2' : 'lg:row-start-1'} lg:sticky lg:top-2 lg:max-h-[calc(100vh-1rem)] lg:self-start lg:overflow-y-auto`}
          >
            <MergeColumn kinds={SEARCH_BOXES} onDone={{ 'merge-authors': afterAuthorMerge }} />
          </div>
        )}
      </div>
      <Notice />
    </div>
  );
}
