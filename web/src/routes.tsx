import { Navigate, useParams, type RouteObject } from 'react-router';
import { useTranslation } from 'react-i18next';
import { RootLayout, SearchRoute } from './features/layout/RootLayout';
import EntryPage from './features/entry/EntryPage';
import EntryTextPage from './features/entry/EntryTextPage';
import ContactPage from './features/pages/ContactPage';
import StaticPage from './features/pages/StaticPage';
import { NotFoundPage } from './features/pages/NotFoundPage';
import { ErrorPage } from './features/pages/ErrorPage';
import { holdingsHref } from './features/libraries/libraryText';

function LibraryEntriesRedirect() {
  const { id = '' } = useParams();
  return <Navigate replace to={holdingsHref(id)} />;
}

function AuthorEntriesRedirect() {
  const { id = '' } = useParams();
  return <Navigate replace to={`/search?${new URLSearchParams({ query: `creator:${id}`, sort_by: 'title_asc' })}`} />;
}

/**
 * Shown inside the layout while a lazily loaded page's chunk arrives on a direct load (react-router's
 * initial "hydration" of a data router: without a HydrateFallback it warns and renders nothing).
 */
function PageLoading() {
  const { t } = useTranslation();
  return (
    <p role="status" className="py-10 text-center">
      {t('Loading...')}
    </p>
  );
}

/** Every lazy route gets the loading fallback, so the header and footer stay while its chunk loads. */
function withFallbacks(children: RouteObject[]): RouteObject[] {
  return children.map((r) => (r.lazy && !r.HydrateFallback ? ({ ...r, HydrateFallback: PageLoading } as RouteObject) : r));
}

/** The route table of spec §2 (the routes of later issues are added by them). */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <ErrorPage />,
    children: withFallbacks([
      { index: true, element: <Navigate replace to="/map" /> },
      {
        id: 'map',
        path: 'map',
        // The map is its own chunk, loaded on demand.
        lazy: async () => ({ Component: (await import('./features/map/MapPage')).default }),
      },
      { id: 'search', path: 'search', element: <SearchRoute /> },
      { id: 'entry', path: 'entry/:id', element: <EntryPage /> },
      { id: 'entry_text', path: 'entry/:id/text', element: <EntryTextPage /> },
      {
        id: 'library',
        path: 'library',
        lazy: async () => ({ Component: (await import('./features/libraries/LibrariesPage')).default }),
      },
      {
        id: 'library_details',
        path: 'library/details/:id',
        lazy: async () => ({ Component: (await import('./features/libraries/LibraryDetailsPage')).default }),
      },
      {
        id: 'agent',
        path: 'agent',
        lazy: async () => ({ Component: (await import('./features/agents/AgentsPage')).default }),
      },
      {
        id: 'bookbuilder',
        path: 'bookbuilder',
        // The Book Builder and the cover builder share one lazily loaded chunk.
        lazy: async () => ({ Component: (await import('./features/bookbuilder/BookBuilderPage')).default }),
      },
      {
        id: 'coverbuilder',
        path: 'coverbuilder',
        lazy: async () => ({ Component: (await import('./features/bookbuilder/BookBuilderPage')).CoverBuilderPage }),
      },
      {
        id: 'admin',
        path: 'admin',
        // Superusers only (the server decides); its own chunk.
        lazy: async () => ({ Component: (await import('./features/admin/AdminPage')).default }),
      },
      {
        id: 'library_admin',
        path: 'library/admin/:id',
        lazy: async () => ({ Component: (await import('./features/libraryadmin/LibraryAdminPage')).default }),
      },
      {
        id: 'exclusions',
        path: 'exclusions',
        // The curation pages share one lazily loaded chunk.
        lazy: async () => ({ Component: (await import('./features/curation/pages/ExclusionsPage')).default }),
      },
      {
        id: 'dashboard',
        path: 'dashboard/:type',
        lazy: async () => ({ Component: (await import('./features/curation/pages/DashboardPage')).default }),
      },
      {
        id: 'changes',
        path: 'changes',
        lazy: async () => ({ Component: (await import('./features/curation/pages/ChangeLogPage')).default }),
      },
      { path: 'library/entries/:id', element: <LibraryEntriesRedirect /> },
      { path: 'library/author/:id', element: <AuthorEntriesRedirect /> },
      { id: 'contact', path: 'contact', element: <ContactPage /> },
      { id: 'page_view', path: 'page/:id', element: <StaticPage /> },
      {
        id: 'reset_password',
        path: 'reset-password/:username/:token',
        lazy: async () => ({ Component: (await import('./features/account/ResetPasswordPage')).default }),
      },
      { path: '*', element: <NotFoundPage /> },
    ]),
  },
];
