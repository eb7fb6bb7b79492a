import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { isApiError } from '../../api/client';
import { useCurrentUser } from '../../api/account';
import { SitesPanel } from '../harvest/SitesPanel';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { libraryAdminApi } from './api';
import { LibraryForm } from './LibraryForm';
import { AddUserForm, LibraryUsers } from './LibraryUsers';
import { SpreadsheetUpload } from './SpreadsheetUpload';

// The same page container as the public pages and /admin: centred, with room at the window edges.
const PAGE = 'mx-auto w-full max-w-screen-2xl px-4 py-6';

/**
 * /library/admin/{id} (spec §2 Library admin screen): edit form, sites and harvesting (issue 10), record upload,
 * add-user form, 'Library Users'.
 */
export default function LibraryAdminPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { user } = useCurrentUser();
  const query = useQuery({
    queryKey: ['libraryadmin', 'details', id],
    queryFn: ({ signal }) => libraryAdminApi.details(id, signal),
    retry: false,
    staleTime: 0,
  });
  const lib = query.data?.library;
  useDocumentTitle(lib ? t('Administration of {{name}}', { name: lib.name }) : t('Library administration'));

  if (query.isPending) {
    return (
      <div className={PAGE}>
        <p role="status">{t('Loading…')}</p>
      </div>
    );
  }
  if (query.error || !query.data) {
    const text = isApiError(query.error, 401) ? t('Please log in to administer this library.')
      : isApiError(query.error, 403) ? t('You cannot administer this library.')
        : isApiError(query.error, 404) ? t('This library does not exist.') : query.error?.message;
    return (
      <div className={`${PAGE} flex flex-col gap-2`}>
        <h1 className="text-2xl font-bold">{t('Library administration')}</h1>
        <p role="alert" className="text-red-800">{text}</p>
      </div>
    );
  }
  const library = query.data.library;
  const refresh = () => void query.refetch();
  return (
    <div className={`${PAGE} flex flex-col gap-10`}>
      <h1 className="text-2xl font-bold">{t('Administration of {{name}}', { name: library.name })}</h1>
      <LibraryForm key={library.last_modified} library={library} />
      <SitesPanel scope="library" libraryId={library.id} title={t('Sites and harvesting')} level={2} superuser={!!user?.is_superuser} />
      <SpreadsheetUpload libraryId={library.id} />
      <AddUserForm libraryId={library.id} onAdded={refresh} />
      <LibraryUsers libraryId={library.id} libraryName={library.name} users={query.data.users} onChange={refresh} />
    </div>
  );
}
