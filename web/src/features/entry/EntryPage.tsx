import { useEffect, useMemo } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NotFoundMessage } from '../pages/NotFoundPage';
import { useQueryClient } from '@tanstack/react-query';
import type { Entry } from '../../lib/shared';
import { useEntry, queryKeys } from '../../api/hooks';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { LanguageTags } from '../../components/LanguageTags';
import { DataSourceBox } from './DataSourceBox';
import { highlightWords } from './highlight';
import { ShortEntryBox } from './ShortEntryBox';
import { CiteMenu } from './CiteMenu';
import { contentLang } from '../../lib/lang';
import { languageLabel } from '../../lib/intl';

function hasHistory(locationKey: string): boolean {
  const idx = (window.history.state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' ? idx > 0 : locationKey !== 'default';
}

export function BackButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <button
      type="button"
      className="btn"
      onClick={() => (hasHistory(location.key) ? navigate(-1) : navigate('/'))}
    >
      <span aria-hidden="true">← </span>
      {t('Back')}
    </button>
  );
}

export function EntryNotFound() {
  const { t } = useTranslation();
  return <NotFoundMessage title={t('Sorry! We could not found this entry!')} message={t('The entry does not exist, it was deleted or it is not public any more')} />;
}

function OtherLanguages({ entry }: { entry: Entry }) {
  const { t, i18n } = useTranslation();
  const items = [
    ...(entry.original_entry ? [{ ...entry.original_entry, kind: 'Original' as const }] : []),
    ...entry.translations.map((tr) => ({ ...tr, kind: 'Translation' as const })),
  ].filter((i) => i.id !== entry.id);
  if (items.length === 0) return null;
  return (
    <section className="mt-4 flex flex-wrap items-center gap-2" aria-labelledby="other-languages">
      <h2 id="other-languages" className="font-semibold">
        {t('Other languages:')}
      </h2>
      <ul className="flex flex-wrap gap-2">
        {items.map((i) => {
          const label = t(i.kind);
          const langs = i.languages.map((l) => languageLabel(l, i18n.language)).join(', ') || '?';
          return (
            <li key={`${i.kind}${i.id}`}>
              <Link
                to={`/entry/${i.id}`}
                title={label}
                className={`inline-block rounded-full px-3 py-1 text-sm text-white ${
                  i.kind === 'Original' ? 'bg-rose-900' : 'bg-teal-800'
                }`}
              >
                {langs} <span className="opacity-90">({label})</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * A merged entry answers with its canonical id: the address moves there (`/entry/{id}` plus `page`, the
 * rest of the path, e.g. '/text'), keeping its query and hash.
 */
export function useCanonicalEntryAddress(entry: Entry | undefined, id: string, page = ''): void {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (entry && String(entry.id) !== id) {
      queryClient.setQueryData(queryKeys.entry(String(entry.id)), entry);
      navigate(`/entry/${entry.id}${page}${location.search}${location.hash}`, { replace: true });
    }
  }, [entry, id, page, location.search, location.hash, navigate, queryClient]);
}

export default function EntryPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const location = useLocation();
  const { data: entry, error, isPending } = useEntry(id);

  useCanonicalEntryAddress(entry, id);

  // From a search snippet: ?text=<data source>&highlight=<words> opens that full text at the first match.
  const [params] = useSearchParams();
  const highlightParam = params.get('highlight');
  const highlight = useMemo(() => (highlightParam ? highlightWords(highlightParam) : undefined), [highlightParam]);
  const highlightIn = Number(params.get('text'));

  // Library badges link to #library-<id>: scroll there once the boxes exist.
  useEffect(() => {
    if (!entry || !location.hash) return;
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    target?.scrollIntoView({ block: 'start' });
  }, [entry, location.hash]);

  // A curated aggregation has no copy of its own: it is shown through its parts (the server sends it
  // only when a part is visible).
  const notFound = !isPending && (!!error || !entry || (entry.data_sources.length === 0 && entry.aggregated.length === 0));
  useDocumentTitle(
    isPending
      ? t('Fetching results, hold on...')
      : notFound
        ? t('Sorry! We could not found this entry!')
        : entry?.title,
  );

  if (isPending) {
    return (
      <p role="status" className="py-10 text-center text-lg">
        <span aria-hidden="true" className="inline-block animate-spin">⚙</span> {t('Fetching results, hold on...')}
      </p>
    );
  }
  if (notFound || !entry) return <EntryNotFound />;

  const seen = new Set<number>();
  return (
    <article className="mx-auto max-w-5xl px-4 py-6">
      {/* Phones: the buttons get a row of their own below the title, which keeps the full width
          (issue 32 point 7); from sm on they sit beside it. */}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="min-w-0 sm:flex-1">
          <h1 className="font-serif text-3xl font-semibold">
            <span lang={contentLang(entry.languages)}>{entry.title}</span>{' '}
            <LanguageTags
              languages={entry.languages}
              marker={entry.original_entry ? 'translation' : entry.translations.length ? 'translated' : undefined}
            />
          </h1>
          {entry.subtitle && (
            <p className="mt-1 font-serif text-xl italic" lang={contentLang(entry.languages)}>
              {entry.subtitle}
            </p>
          )}
          {entry.authors.length > 0 && (
            <ul className="mt-2 flex flex-wrap gap-2" aria-label={t('Authors')}>
              {entry.authors.map((a) => (
                <li key={a.id}>
                  <Link
                    to={`/library/author/${a.id}`}
                    className="inline-block rounded-full border border-stone-500 px-3 py-0.5 text-sm hover:bg-stone-100"
                    title={t('See all entries')}
                  >
                    {a.value}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="flex flex-wrap items-start gap-2">
          <CiteMenu entryId={entry.id} dataSourceId={copyInView(entry, location.hash, highlightIn)} />
          <BackButton />
        </div>
      </div>

      <OtherLanguages entry={entry} />

      {entry.aggregations.length > 0 && (
        <section className="mt-6" aria-labelledby="part-of">
          <h2 id="part-of" className="mb-2 text-lg font-semibold">
            {t('Part of:')}
          </h2>
          <ul className="space-y-2">
            {entry.aggregations.map((a) => (
              <li key={a.entry_id}>
                <ShortEntryBox entry={a} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <div className="mt-6 space-y-6">
        {entry.data_sources.map((ds) => {
          const first = !seen.has(ds.library_id);
          seen.add(ds.library_id);
          return (
            <DataSourceBox
              key={ds.data_source_id}
              ds={ds}
              citeEntryId={entry.data_sources.length > 1 ? entry.id : undefined}
              entryId={entry.id}
              anchorId={first ? `library-${ds.library_id}` : undefined}
              highlight={highlight && ds.data_source_id === highlightIn ? highlight : undefined}
            />
          );
        })}
      </div>

      {entry.aggregated.length > 0 && (
        <section className="mt-6" aria-labelledby="contains">
          <h2 id="contains" className="mb-2 text-lg font-semibold">
            {t('Contains:')}
          </h2>
          <ol className="space-y-2">
            {entry.aggregated.map((a) => (
              <li key={a.entry_id}>
                <ShortEntryBox entry={a} />
              </li>
            ))}
          </ol>
        </section>
      )}
    </article>
  );
}

/**
 * The copy the reader is looking at, for "Cite": the one whose text a search snippet opened (?text=),
 * else the first of the library a badge led to (#library-N); undefined (the first copy) otherwise.
 */
function copyInView(entry: Entry, hash: string, textIn: number): number | undefined {
  if (entry.data_sources.some((d) => d.data_source_id === textIn)) return textIn;
  const library = /^#library-(\d+)$/.exec(hash)?.[1];
  return library ? entry.data_sources.find((d) => String(d.library_id) === library)?.data_source_id : undefined;
}
