import { useEffect } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useEntry, queryKeys } from '../../api/hooks';
import { downloadUrl } from '../../api/client';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { contentLang } from '../../lib/lang';
import { EntryNotFound } from './EntryPage';
import { FullText } from './FullText';
import { downloadLabel } from './DataSourceBox';

/**
 * /entry/{id}/text: an entry's full text on a page of its own, to link and share: the title, authors,
 * the holding library and the downloads above the text, and the way back to the entry.
 */
export default function EntryTextPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: entry, error, isPending } = useEntry(id);

  // A merged entry answers with its canonical id: the address follows, as on the entry page.
  useEffect(() => {
    if (entry && String(entry.id) !== id) {
      queryClient.setQueryData(queryKeys.entry(String(entry.id)), entry);
      navigate(`/entry/${entry.id}/text?${params}`, { replace: true });
    }
  }, [entry, id, params, navigate, queryClient]);

  const wanted = Number(params.get('data_source'));
  const ds = entry?.data_sources.find((d) => d.has_full_text && d.data_source_id === wanted) ?? entry?.data_sources.find((d) => d.has_full_text);
  useDocumentTitle(isPending ? t('Fetching results, hold on...') : entry ? entry.title : t('Sorry! We could not found this entry!'));

  if (isPending) {
    return (
      <p role="status" className="py-10 text-center text-lg">
        {t('Fetching results, hold on...')}
      </p>
    );
  }
  if (error || !entry) return <EntryNotFound />;

  const lang = contentLang(entry.languages);
  return (
    <article className="mx-auto max-w-5xl px-4 py-6">
      <p>
        <Link to={`/entry/${entry.id}`} className="link">
          <span aria-hidden="true">← </span>
          {t('Back to the entry')}
        </Link>
      </p>
      <header className="mt-4">
        <h1 className="font-serif text-3xl font-semibold" lang={lang}>
          {entry.title}
        </h1>
        {entry.subtitle && (
          <p className="font-serif text-xl italic" lang={lang}>
            {entry.subtitle}
          </p>
        )}
        {entry.authors.length > 0 && <p className="mt-1 text-lg">{entry.authors.map((a) => a.value).join(', ')}</p>}
        {ds && (
          <p className="mt-2 text-sm text-stone-700">
            {t('Text from {{library}}', { library: ds.library_name })}
          </p>
        )}
        {ds && ds.downloads.length > 0 && (
          <ul className="mt-3 flex flex-wrap gap-2" aria-label={t('Downloads')}>
            {ds.downloads.map((d) => (
              <li key={d.ext + d.code}>
                <a href={downloadUrl(ds.data_source_id, d.ext)} className="btn text-sm" download>
                  <span aria-hidden="true">⤓ </span>
                  {downloadLabel(t, d)}
                </a>
              </li>
            ))}
          </ul>
        )}
      </header>
      {ds ? (
        <FullText dataSourceId={ds.data_source_id} id="entry-text" hidden={false} />
      ) : (
        <p className="mt-6">{t('This entry has no full text.')}</p>
      )}
    </article>
  );
}
