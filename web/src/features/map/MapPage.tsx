import { lazy, Suspense, useCallback, useId, useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { queryKeys, useGeneral, useLibraries } from '../../api/hooks';
import { byDistance, type LibraryPublic } from '../../lib/shared';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { LibraryType } from '../libraries/LibraryCard';
import { libraryPlace, placeMatches } from '../libraries/libraryText';
import { SearchForm } from '../search/SearchForm';
import { parseSearch, searchHref, toApiParams, toggleFilter, withQuery, type SearchState } from '../search/searchState';
import { hasCoordinates, librariesInView, type Box } from './bounds';
import type { FitRequest, FocusRequest, MapLibrary } from './LibraryMap';
import { locate, NEAREST_FITTED, PlaceFinder, type NearState } from './PlaceFinder';
import { tileSetting } from './settings';
import { CatalogueCounts, LatestAdditions } from './HomeOverview';
import { MapLegend } from './MapLegend';

// Leaflet needs a DOM with layout; in the page it is part of this (already lazy) chunk.
const LibraryMap = lazy(() => import('./LibraryMap'));

/** Is the map showing the libraries of a search (query or filters in the URL)? */
export function isSearchMode(s: SearchState): boolean {
  return s.query.trim() !== '' || Object.values(s.filters).some((v) => v && v.length > 0);
}

/**
 * The entries each library holds among a search's results, from the search's library facet. With a
 * library filter active only the chosen libraries count (the facet lists the others for toggling).
 */
export function heldCounts(
  facetValues: readonly { id: string; count: number }[] | undefined,
  libraryFilter: readonly string[] | undefined,
): Map<number, number> {
  const chosen = libraryFilter && libraryFilter.length ? new Set(libraryFilter) : undefined;
  const out = new Map<number, number>();
  for (const v of facetValues ?? []) {
    const id = Number(v.id);
    if (!Number.isInteger(id) || v.count <= 0 || (chosen && !chosen.has(v.id))) continue;
    out.set(id, v.count);
  }
  return out;
}

/** The home page's (smaller) map and the search mode's full-size one: height classes. */
const HOME_MAP_SIZE = 'h-[45vh] max-h-[28rem] min-h-64';
const SEARCH_MAP_SIZE = 'h-[60vh] max-h-[40rem] min-h-80';

/**
 * /map, the home page: a search box, the catalogue's size, the latest additions and the libraries on a
 * map (the ones in view listed below it). With a search in the URL: the libraries holding its results.
 */
export default function MapPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const state = useMemo(() => parseSearch(params), [params]);
  const searchMode = isSearchMode(state);
  const apiParams = useMemo(() => toApiParams(state), [state]);
  const { data: general } = useGeneral();
  const { data: libraries, isPending, error } = useLibraries();
  // The same query (and cache) as the search page's: coming from there costs no request.
  const results = useQuery({
    queryKey: queryKeys.search(apiParams),
    queryFn: ({ signal }) => api.search(apiParams, signal),
    enabled: searchMode,
  });
  const [box, setBox] = useState<Box | null>(null);
  // ?show=<id> (the library page's 'Show on the map') opens that library's card once the map is drawn.
  const showId = Number(params.get('show'));
  const [focus, setFocus] = useState<FocusRequest | null>(() =>
    Number.isInteger(showId) && showId > 0 ? { id: showId, seq: 1 } : null,
  );
  const showOnMap = useCallback((id: number) => setFocus((f) => ({ id, seq: (f?.seq ?? 0) + 1 })), []);
  const listHeadingId = useId();
  const otherHeadingId = useId();
  const onBounds = useCallback((b: Box) => setBox(b), []);

  const counts = useMemo(
    () => (searchMode && results.data ? heldCounts(results.data.facets.library?.values, state.filters.library) : undefined),
    [searchMode, results.data, state.filters.library],
  );
  // The place search narrows the libraries shown (markers and lists); "Near me" orders them by distance.
  const [place, setPlace] = useState('');
  const [near, setNear] = useState<NearState>({ status: 'idle' });
  const [fitSeq, setFitSeq] = useState(0);
  const held: LibraryPublic[] = useMemo(() => {
    if (!libraries) return [];
    if (!searchMode) return libraries;
    if (!counts) return [];
    return libraries.filter((l) => counts.has(l.id));
  }, [libraries, searchMode, counts]);
  const shown = useMemo(
    () => (place.trim() ? held.filter((l) => placeMatches(l, place, i18n.language, l.region ? [t(l.region)] : [])) : held),
    [held, place, i18n.language, t],
  );
  const located = useMemo(() => shown.filter(hasCoordinates) as MapLibrary[], [shown]);
  const elsewhere = useMemo(() => shown.filter((l) => !hasCoordinates(l)).sort((a, b) => a.name.localeCompare(b.name)), [shown]);
  const tiles = useMemo(() => tileSetting(general), [general]);
  // The introduction in the interface language when the site has one for it (the default otherwise).
  const intro = general?.descriptions?.[i18n.language] || general?.description;
  const position = near.status === 'found' ? near.position : null;
  // The list in view by name, or nearest first once "Near me" knows where the reader is.
  const inView = useMemo(() => {
    const list = librariesInView(located, box);
    return position ? byDistance(position, list).map((n) => n.point) : list;
  }, [located, box, position]);
  const nearest = useMemo(
    () => (position ? byDistance(position, located).map(({ point, km }) => ({ library: point, km })) : []),
    [position, located],
  );
  const onNearMe = useCallback(() => {
    setNear({ status: 'locating' });
    locate((state) => {
      setNear(state);
      if (state.status === 'found') setFitSeq((n) => n + 1);
    });
  }, []);
  // The view around the reader: their position and the nearest few libraries (of those shown).
  const fitTo: FitRequest | null = useMemo(
    () => (fitSeq && position ? { seq: fitSeq, points: [position, ...nearest.slice(0, NEAREST_FITTED).map((n) => n.library)] } : null),
    // Only a new "Near me" answer moves the map, not every change of the list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [fitSeq],
  );

  const title = searchMode ? t('Libraries holding these results') : t('Map of the libraries');
  // The home page is titled by the site itself.
  useDocumentTitle(searchMode ? title : undefined);
  // Stable, so the (memoised) map does not re-render its cards on every pan: an open card re-renders
  // with its content, and Leaflet would pan it into view again.
  const resultsHref = useCallback(
    (id: number) => searchHref(toggleFilter({ ...state, filters: { ...state.filters, library: [] } }, 'library', String(id))),
    [state],
  );
  const backToSearch = searchHref({ ...state, page: 1 });
  const loading = isPending || (searchMode && results.isPending);
  const failed = error || (searchMode && results.error);

  const listItem = (lib: LibraryPublic, onMap: boolean) => {
    const count = counts?.get(lib.id);
    const where = libraryPlace(lib, i18n.language);
    return (
      <li key={lib.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
        <span>
          <Link to={`/library/details/${lib.id}`} className="link font-medium">
            {lib.name}
          </Link>
          <span className="text-sm text-stone-700">
            {' · '}
            <LibraryType type={lib.library_type} />
            {where && ` · ${where}`}
          </span>
        </span>
        <span className="flex flex-wrap items-center gap-2">
          {count !== undefined && (
            <Link to={resultsHref(lib.id)} className="link text-sm">
              {t('entries_found', { count })}
            </Link>
          )}
          {onMap && (
            <button
              type="button"
              className="btn px-2 py-1 text-sm"
              aria-label={`${t('Show on the map')}: ${lib.name}`}
              onClick={() => showOnMap(lib.id)}
            >
              {t('Show on the map')}
            </button>
          )}
        </span>
      </li>
    );
  };

  const mapSize = searchMode ? SEARCH_MAP_SIZE : HOME_MAP_SIZE;
  const mapBlock = (
    <>
      {loading && !failed && (
        <p role="status" className="mt-2">
          {t('Loading...')}
        </p>
      )}
      {failed && (
        <p role="alert" className="mt-2 text-red-800">
          {searchMode && results.error ? t('Invalid query!') : t('The libraries could not be loaded. Please try again later.')}
        </p>
      )}
      {!loading && !failed && (
        <>
          <PlaceFinder
            place={place}
            onPlace={setPlace}
            matches={shown}
            near={near}
            onNearMe={onNearMe}
            nearest={nearest}
            onShow={showOnMap}
          />
          <div className="mt-2">
            <Suspense fallback={<div className={`${mapSize} w-full rounded-lg border border-stone-300 bg-[#c9dde9]`} />}>
              <LibraryMap
                libraries={located}
                counts={counts}
                resultsHref={searchMode ? resultsHref : undefined}
                tiles={tiles}
                label={title}
                onBounds={onBounds}
                focus={focus}
                fitTo={fitTo}
                here={position}
                sizeClass={mapSize}
              />
            </Suspense>
          </div>
          <MapLegend withCounts={searchMode} />
          <details className="mt-2 text-sm text-stone-700">
            <summary className="cursor-pointer">{t('Using the map with the keyboard')}</summary>
            <p className="mt-1">{t('map_help')}</p>
          </details>
        </>
      )}
    </>
  );

  return (
    <div className="mx-auto max-w-screen-2xl px-4 py-6">
      {searchMode ? (
        <>
          <h1 className="text-3xl font-semibold">{title}</h1>
          <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
            {state.query.trim() && <span>{t('Search: “{{query}}”', { query: state.query.trim() })}</span>}
            {results.data && <span>{t('search_found', { count: results.data.total_entries })}</span>}
            <Link to={backToSearch} className="link">
              {t('Back to the search results')}
            </Link>
            <Link to="/map" className="link">
              {t('Show all the libraries')}
            </Link>
          </p>
          {mapBlock}
        </>
      ) : (
        <>
          <h1 className="text-3xl font-semibold">{general?.site_name || t('Union catalogue')}</h1>
          {intro && <p className="mt-1 max-w-3xl text-stone-700">{intro}</p>}
          <div className="mt-4">
            <SearchForm query="" onSearch={(q, sort) => navigate(searchHref(withQuery(parseSearch(''), q, sort)))} suggest />
          </div>
          <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
            <Link to="/search?sort_by=title_asc" className="link">
              {t('Browse all entries by title')}
            </Link>
          </p>
          <div className="mt-4">
            <CatalogueCounts libraryCount={libraries?.length} />
          </div>
          <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            <div>
              <h2 className="text-xl font-semibold">
                {title}
              </h2>
              {mapBlock}
            </div>
            <LatestAdditions />
          </div>
        </>
      )}

      {!loading && !failed && (
        <>
          <section aria-labelledby={listHeadingId} className="mt-6">
            <h2 id={listHeadingId} className="text-xl font-semibold">
              {t('libraries_in_view', { count: inView.length })}
            </h2>
            {inView.length === 0 ? (
              <p className="mt-2">{t('No library in this part of the map. Zoom out to see more.')}</p>
            ) : (
              <ul className="mt-2 divide-y divide-stone-200">{inView.map((lib) => listItem(lib, true))}</ul>
            )}
          </section>

          {elsewhere.length > 0 && (
            <section aria-labelledby={otherHeadingId} className="mt-6">
              <h2 id={otherHeadingId} className="text-xl font-semibold">
                {t('Libraries without a place on the map')}
              </h2>
              <ul className="mt-2 divide-y divide-stone-200">{elsewhere.map((lib) => listItem(lib, false))}</ul>
            </section>
          )}

          {!searchMode && libraries && (
            <p className="mt-6">
              <Link to="/library" className="btn btn-primary">
                {t('See all the physical and digital libraries ({{count}})', { count: libraries.length })}
              </Link>
            </p>
          )}
          {searchMode && shown.length === 0 && <p className="mt-4 text-lg">{t('No result found!')}</p>}
        </>
      )}
    </div>
  );
}
