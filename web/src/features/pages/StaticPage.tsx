import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePage } from '../../api/hooks';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { NotFoundPage } from './NotFoundPage';

export default function StaticPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data: page, isPending, error } = usePage(id);
  useDocumentTitle(page?.title);
  if (isPending) {
    return (
      <p role="status" className="py-10 text-center">
        {t('Loading...')}
      </p>
    );
  }
  if (error || !page) return <NotFoundPage />;
  return (
    <article className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-semibold">{page.title}</h1>
      {/* Server-sanitised HTML written by the site's editors. */}
      <div className="fulltext mt-6" dangerouslySetInnerHTML={{ __html: page.content }} />
    </article>
  );
}
