import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi, adminKeys } from './api';
import { ErrorAlert } from './ui';

/** The mail outbox, newest first, 25 a page; each message's text opens in place. */
export function OutboxSection() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const { data, error, isPending } = useQuery({ queryKey: adminKeys.outbox(page), queryFn: () => adminApi.outbox(page), placeholderData: keepPreviousData });
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  const status = (s: string) => (s === 'sent' ? t('Sent') : s === 'failed' ? t('Failed') : t('Queued'));
  return (
    <div>
      {isPending && <p role="status">{t('Loading...')}</p>}
      <ErrorAlert error={error} />
      {data && data.total === 0 && <p>{t('The outbox is empty.')}</p>}
      {data && data.total > 0 && (
        <>
          <div className="overflow-x-auto">
            <table className="w-full text-left">
              <caption className="sr-only">{t('Outbox')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('Date')}</th>
                  <th scope="col">{t('Kind')}</th>
                  <th scope="col">{t('To')}</th>
                  <th scope="col">{t('Subject')}</th>
                  <th scope="col">{t('Status')}</th>
                </tr>
              </thead>
              <tbody>
                {data.messages.map((m) => (
                  <tr key={m.id} className="border-t border-stone-200 align-top">
                    <td className="whitespace-nowrap">{m.created.replace('T', ' ').slice(0, 16)}</td>
                    <td>{m.kind}</td>
                    <td className="break-all">{m.to_address}</td>
                    <td>
                      <details>
                        <summary className="cursor-pointer">{m.subject}</summary>
                        <pre className="mt-2 whitespace-pre-wrap text-sm">{m.body}</pre>
                      </details>
                    </td>
                    <td>
                      {status(m.status)}
                      {m.error && <span className="block text-sm text-red-900">{m.error}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {/* One page: no pager at all. Otherwise the button that leads nowhere is disabled and looks it. */}
          {pages > 1 && (
            <nav className="mt-3 flex items-center gap-3" aria-label={t('Outbox pages')}>
              <button type="button" className="btn" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t('Newer')}
              </button>
              <span>{t('Page {{page}} of {{pages}}', { page, pages })}</span>
              <button type="button" className="btn" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                {t('Older')}
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
