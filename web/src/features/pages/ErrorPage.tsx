import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';

/** Shown by the router when a page fails to render or a lazy chunk fails to load. */
export function ErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (error) console.error(error);
  return (
    <main className="mx-auto max-w-3xl px-4 py-10 text-center">
      <h1 className="text-2xl font-semibold">{t('Something went wrong.')}</h1>
      <p className="mt-6 flex justify-center gap-4">
        <button type="button" className="btn" onClick={() => window.location.reload()}>
          {t('Reload the page')}
        </button>
        <a href="/search" className="btn">
          {t('Search the catalogue')}
        </a>
      </p>
    </main>
  );
}
