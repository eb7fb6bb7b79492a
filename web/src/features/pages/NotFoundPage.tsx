import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

/** A "not found" message with a way back to the search; pages pass their own (translated) texts. */
export function NotFoundMessage({ title, message }: { title: string; message: string }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 text-center">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-3">{message}</p>
      <p className="mt-6">
        <Link to="/search" className="link">
          {t('Search the catalogue')}
        </Link>
      </p>
    </div>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('Page not found'));
  return <NotFoundMessage title={t('Page not found')} message={t('The page you asked for does not exist.')} />;
}
