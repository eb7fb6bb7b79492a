import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import { curationApi, type Exclusion, type ExclusionType } from '../api';
import {
  LoadFailure, PageFrame, ResultLine, TableScroll, curationPageKeys, formatDate, tdClass, thClass, useCurationAction,
} from './shared';

export const EXCLUSION_TYPE_LABELS: Record<ExclusionType, string> = { library: 'Library', author: 'Author', entry: 'Entry' };

/** /exclusions: the viewer's own exclusions (spec §2 Exclusions screen), each with a working Restore. */
export default function ExclusionsPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('My Exclusions'));
  const query = useQuery({
    queryKey: curationPageKeys.exclusions,
    queryFn: ({ signal }) => curationApi.exclusions(signal),
    staleTime: 0,
  });
  const { busy, result, resultRef, run } = useCurationAction();

  // The row is gone afterwards: the result line takes the keyboard focus.
  const restore = (x: Exclusion) => run(x.id, () => curationApi.removeExclusion(x.id), () => t('Restored'));

  let body;
  if (query.isPending) {
    body = <p role="status">{t('Loading...')}</p>;
  } else if (query.isError) {
    body = <LoadFailure error={query.error} loginText={t('Please log in to see your exclusions')} />;
  } else if (query.data.exclusions.length === 0) {
    body = <p>{t('Nothing to show!')}</p>;
  } else {
    body = (
      <TableScroll label={t('My Exclusions')}>
        <table className="w-full border-collapse">
          <thead className="bg-stone-100">
            <tr className="border-b border-stone-300">
              <th scope="col" className={thClass}>{t('Target')}</th>
              <th scope="col" className={thClass}>{t('Type')}</th>
              <th scope="col" className={thClass}>{t('Reason')}</th>
              <th scope="col" className={thClass}>{t('Date')}</th>
              <th scope="col" className={thClass}>{t('Actions')}</th>
            </tr>
          </thead>
          <tbody>
            {query.data.exclusions.map((x) => (
              <tr key={x.id} className="border-b border-stone-200 last:border-b-0">
                <td className={tdClass}>{x.target}</td>
                <td className={tdClass}>{t(EXCLUSION_TYPE_LABELS[x.type] ?? x.type)}</td>
                <td className={`${tdClass} whitespace-pre-line`}>{x.comment}</td>
                <td className={`${tdClass} whitespace-nowrap`}>
                  <time dateTime={x.created}>{formatDate(x.created, i18n.language)}</time>
                </td>
                <td className={tdClass}>
                  <button
                    type="button"
                    className="btn"
                    disabled={busy !== null}
                    aria-label={t('Restore “{{target}}”', { target: x.target })}
                    onClick={() => void restore(x)}
                  >
                    {busy === x.id ? t('Working') : t('Restore')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    );
  }

  return (
    <PageFrame title={t('My Exclusions')}>
      <p className="mb-3 text-stone-800">{t('What you excluded is hidden from your searches. Restore it to see it again.')}</p>
      <ResultLine ref={resultRef} result={result} />
      {body}
    </PageFrame>
  );
}
