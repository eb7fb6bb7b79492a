import { useId } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LatestResponse } from '@uc/shared';
import { api } from '../../api/client';
import { queryKeys } from '../../api/hooks';
import type { Match } from '../../lib/shared';

/** How many latest additions the home page lists. */
export const LATEST_COUNT = 5;

/** The home page's one call: GET /latest, everything the visitor may see, newest first. */
export const LATEST_PARAMS = { page_size: LATEST_COUNT };

/** The catalogue's size from the latest additions' answer: entries, and their languages. */
export function catalogueCounts(res: LatestResponse): { entries: number; languages: number } {
  return { entries: res.total_entries, languages: res.total_languages };
}

function LatestItem({ match }: { match: Match }) {
  const [{ value: title }, { value: subtitle }] = match.title;
  const authors = match.creator.map((c) => c.value).join(', ');
  const year = match.date.length ? Math.min(...match.date.map((d) => d.value)) : undefined;
  const libraries = Array.from(new Set(match.data_sources.map((d) => d.library_name)));
  return (
    <li className="py-2">
      <Link to={`/entry/${match.entry_id}`} className="link font-medium">
        {title}
        {subtitle && `: ${subtitle}`}
      </Link>
      <span className="block text-sm text-stone-700">
        {[authors, year, libraries.join(', ')].filter((p) => p !== '' && p !== undefined).join(' · ')}
      </span>
    </li>
  );
}

/** The latest additions (shared by the counts and the list: one request). */
function useLatest() {
  return useQuery({
    queryKey: queryKeys.latest(LATEST_PARAMS),
    queryFn: ({ signal }) => api.latest(LATEST_PARAMS, signal),
  });
}

/** The catalogue's size: libraries (from the libraries list), entries and languages (from GET /latest). */
export function CatalogueCounts({ libraryCount }: { libraryCount: number | undefined }) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const latest = useLatest();
  const counts = latest.data ? catalogueCounts(latest.data) : undefined;
  const stat = (value: number | undefined, label: string) => (
    <div className="rounded-lg border border-stone-300 bg-white px-4 py-2">
      <dt className="text-sm text-stone-700">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{value === undefined ? '…' : value.toLocaleString(i18n.language)}</dd>
    </div>
  );
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="sr-only">
        {t('The catalogue in numbers')}
      </h2>
      <dl className="grid grid-cols-3 gap-3 sm:max-w-xl">
        {stat(libraryCount, t('Libraries'))}
        {stat(counts?.entries, t('Entries'))}
        {stat(counts?.languages, t('Languages'))}
      </dl>
    </section>
  );
}

/** The newest entries, linked, with a link to all of them in the search. */
export function LatestAdditions() {
  const { t } = useTranslation();
  const headingId = useId();
  const latest = useLatest();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-semibold">
        {t('Latest additions')}
      </h2>
      {latest.isPending && (
        <p role="status" className="mt-2">
          {t('Loading...')}
        </p>
      )}
      {latest.error && (
        <p role="alert" className="mt-2 text-red-800">
          {t('The latest additions could not be loaded.')}
        </p>
      )}
      {latest.data &&
        (latest.data.entries.length === 0 ? (
          <p className="mt-2">{t('The catalogue is empty for now.')}</p>
        ) : (
          <ul className="mt-1 divide-y divide-stone-200">
            {latest.data.entries.map((m) => (
              <LatestItem key={m.entry_id} match={m} />
            ))}
          </ul>
        ))}
      <p className="mt-2">
        <Link to="/search?sort_by=datestamp" className="link">
          {t('All the entries, newest first')}
        </Link>
      </p>
    </section>
  );
}
