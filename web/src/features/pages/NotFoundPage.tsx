import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

export function NotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('Page not found'));
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 text-center">
      <h1 className="text-3xl font-semibold">{t('Page not found')}</h1>
      <p className="mt-4">{t('The page you asked for does not exist.')}</p>
      <p className="mt-6">
        <Link to="/search" className="link">
          {t('Search the catalogue')}
        </Link>
      </p>
    </div>
  );
}
