import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Header } from './Header';
import { Footer } from './Footer';
import SearchPage, { RESULTS_HEADING_ID } from '../search/SearchPage';

const SEARCH_PATH = '/search';

/**
 * The shell: header, main and footer. The search view is kept alive: once visited it stays mounted
 * (hidden while another page shows), so results, facets and the scroll position come back at once.
 * It always reads the URL (its last own URL while hidden), so Back/Forward and links update it.
 */
export function RootLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const onSearch = location.pathname === SEARCH_PATH;
  const [searchMounted, setSearchMounted] = useState(onSearch);
  const lastSearch = useRef(onSearch ? location.search : '');
  if (onSearch) lastSearch.current = location.search;
  const searchScroll = useRef(0);
  const mainRef = useRef<HTMLElement>(null);
  /** The search URL shown when the visitor left the search view. */
  const leftSearch = useRef<string | null>(null);
  const prev = useRef({ path: location.pathname, search: location.search });

  useEffect(() => {
    if (onSearch && !searchMounted) setSearchMounted(true);
  }, [onSearch, searchMounted]);

  // Remember how far the search view was scrolled.
  useEffect(() => {
    if (!onSearch) return;
    const onScroll = () => {
      searchScroll.current = window.scrollY;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [onSearch]);

  // Scroll: coming back to the same search restores its position; any other new page starts at the top
  // (an entry page with #library-N scrolls itself once loaded).
  useLayoutEffect(() => {
    const from = prev.current;
    prev.current = { path: location.pathname, search: location.search };
    if (from.path === location.pathname) return;
    if (onSearch) {
      window.scrollTo(0, location.search === leftSearch.current ? searchScroll.current : 0);
      // A search sent from another page (the map's box) lands on its results heading, not on <body>.
      document.getElementById(RESULTS_HEADING_ID)?.focus({ preventScroll: true });
    } else {
      if (from.path === SEARCH_PATH) leftSearch.current = from.search;
      if (!location.hash) window.scrollTo(0, 0);
      // Screen readers start reading the new page from its main content.
      mainRef.current?.focus({ preventScroll: true });
    }
  }, [location.pathname, location.search, location.hash, onSearch]);

  return (
    <div className="flex min-h-screen flex-col bg-stone-50 text-stone-900">
      <a href="#main" className="skip-link">
        {t('Skip to content')}
      </a>
      <Header />
      <main id="main" ref={mainRef} tabIndex={-1} className="grow outline-none">
        {(searchMounted || onSearch) && (
          <div hidden={!onSearch}>
            <SearchPage search={onSearch ? location.search : lastSearch.current} active={onSearch} />
          </div>
        )}
        {!onSearch && <Outlet />}
      </main>
      <Footer />
    </div>
  );
}

/** The /search route's element: the search view itself lives in RootLayout (kept alive). */
export function SearchRoute() {
  return null;
}
