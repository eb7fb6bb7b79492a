import { useDeferredValue, useId, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLibraries } from '../../api/hooks';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { LibraryCard } from './LibraryCard';
import { filterLibraries, libraryTypeLabel } from './libraryText';
import { countryName } from '../../lib/intl';

/** /library: the filterable grid of library cards (spec §2 Library overview). */
export default function LibrariesPage() {
  const { t, i18n } = useTranslation();
  const inputId = useId();
  const [params, setParams] = useSearchParams();
  const filter = params.get('filter') ?? '';
  const deferred = useDeferredValue(filter);
  const { data: libraries, isPending, error } = useLibraries();
  useDocumentTitle(t('Libraries'));

  const shown = useMemo(
    // The displayed texts match too: the type's label and the country's name in the interface language.
    () => filterLibraries(libraries ?? [], deferred, (lib) => [t(libraryTypeLabel(lib.library_type)), countryName(lib.address_country, i18n.language)]),
    [libraries, deferred, t, i18n.language],
  );

  const setFilter = (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set('filter', value);
    else next.delete('filter');
    setParams(next, { replace: true, preventScrollReset: true });
  };

  return (
    <div className="mx-auto max-w-screen-2xl px-4 py-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-semibold">{t('Libraries')}</h1>
        <Link to="/contact" className="btn btn-primary">
          {t('Add your library or archive')}
        </Link>
      </div>

      <form role="search" className="mt-4 max-w-xl" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor={inputId} className="mb-1 block font-medium">
          {t('Filter the libraries')}
        </label>
        <input
          id={inputId}
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder={t('Type here to search the libraries')}
          className="w-full rounded border border-stone-500 bg-white px-3 py-2"
          autoComplete="off"
        />
      </form>

      {isPending && (
        <p role="status" className="mt-6">
          {t('Loading...')}
        </p>
      )}
      {error && (
        <p role="alert" className="mt-6 text-red-800">
          {t('The libraries could not be loaded. Please try again later.')}
        </p>
      )}
      {libraries && (
        <>
          <p role="status" className="mt-4 text-stone-700">
            {filter.trim()
              ? t('{{shown}} of {{total}} libraries', { shown: shown.length, total: libraries.length })
              : t('library_count', { count: libraries.length })}
          </p>
          {shown.length === 0 ? (
            <p className="mt-6 text-lg">{t('No library matches “{{filter}}”.', { filter: filter.trim() })}</p>
          ) : (
            <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
              {shown.map((lib) => (
                <li key={lib.id}>
                  <LibraryCard library={lib} />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
