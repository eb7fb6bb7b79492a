import { Link, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useEntry } from '../../api/hooks';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { contentLang } from '../../lib/lang';
import { EntryNotFound, useCanonicalEntryAddress } from './EntryPage';
import { FullText } from './FullText';
import { DownloadList } from './DataSourceBox';

/**
 * /entry/{id}/text: an entry's full text on a page of its own, to link and share: the title, authors,
 * the holding library and the downloads above the text, and the way back to the entry.
 */
export default function EntryTextPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const { data: entry, error, isPending } = useEntry(id);

  useCanonicalEntryAddress(entry, id, '/text');

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
        {ds && <DownloadList ds={ds} />}
      </header>
      {ds ? (
        <FullText dataSourceId={ds.data_source_id} id="entry-text" hidden={false} />
      ) : (
        <p className="mt-6">{t('This entry has no full text.')}</p>
      )}
    </article>
  );
}
