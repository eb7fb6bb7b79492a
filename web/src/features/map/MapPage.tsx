import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

/** Placeholder of the map of libraries (a later issue builds it); lazily loaded as its own chunk. */
export default function MapPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('Map of the libraries'));
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-semibold">{t('Map of the libraries')}</h1>
      <p className="mt-4">{t('The map of the libraries and archives is coming soon.')}</p>
      <ul className="mt-6 space-y-2">
        <li>
          <Link to="/search" className="link text-lg">
            {t('Search the catalogue')}
          </Link>
        </li>
        <li>
          <Link to="/search?sort_by=title_asc" className="link">
            {t('Browse all entries by title')}
          </Link>
        </li>
      </ul>
    </div>
  );
}
