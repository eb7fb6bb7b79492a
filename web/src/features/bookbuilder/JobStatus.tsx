// The build's status (spec §4): polled once a second while queued or running (stops when the page is
// left or the job ends), then the PDF embedded with a download link.
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { JOB_POLL_INTERVAL_MS } from '../../../../packages/shared/src/bookbuilder-constants.ts';
import { api, bookPdfUrl } from '../../api/client';
import { isPolling, useBookBuilder } from './store';

export const JOB_FAILED = 'Job failed';
export const JOB_NOT_FOUND_MESSAGE = 'Job not found. Stale session?';

export function useJobPolling() {
  const sessionId = useBookBuilder((s) => s.session_id);
  const jobId = useBookBuilder((s) => s.job_id);
  const polling = useBookBuilder(isPolling);
  const { setStatus, finishJob, failJob, setProduced } = useBookBuilder.getState();
  const q = useQuery({
    queryKey: ['bookbuilder', 'job', sessionId, jobId],
    queryFn: ({ signal }) => api.bookbuilder({ action: 'check_job', session_id: sessionId, check_job_id: jobId! }, signal),
    enabled: polling && jobId !== null,
    refetchInterval: JOB_POLL_INTERVAL_MS,
    refetchIntervalInBackground: false,
    staleTime: 0,
    gcTime: 0,
    retry: 3,
  });
  const data = q.data;
  useEffect(() => {
    if (!data || data.job_id !== useBookBuilder.getState().job_id) return;
    switch (data.status) {
      case 'inactive':
      case 'active':
        setStatus(data.status);
        break;
      case 'finished':
        setProduced({ pages: data.pages ?? null, book_pages: data.book_pages ?? null, sheets: data.sheets ?? null });
        finishJob();
        break;
      case 'failed':
        setStatus('failed');
        failJob(data.error || JOB_FAILED);
        break;
      default:
        setStatus('not found');
        failJob(JOB_NOT_FOUND_MESSAGE);
    }
  }, [data, setStatus, finishJob, failJob, setProduced]);
  return data?.queue_position ?? null;
}

function Spinner() {
  return <span aria-hidden="true" className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent" />;
}

export function JobStatus() {
  const { t } = useTranslation();
  const status = useBookBuilder((s) => s.status);
  const error = useBookBuilder((s) => s.error);
  const produced = useBookBuilder((s) => s.job_produced);
  const info = useBookBuilder((s) => s.produced);
  const sessionId = useBookBuilder((s) => s.session_id);
  const position = useJobPolling();

  return (
    <section aria-labelledby="bb-status" className="mt-4">
      <h2 id="bb-status" className="sr-only">
        {t('Build status')}
      </h2>
      <div role="status" aria-live="polite" className="min-h-6">
        {status === 'inactive' && (
          <p className="flex items-center gap-2 font-medium">
            <Spinner /> {t('Queued')}
            {position ? <span className="text-sm text-stone-700">({t('{{n}} builds ahead', { n: position })})</span> : null}
          </p>
        )}
        {status === 'active' && (
          <p className="flex items-center gap-2 font-medium">
            <Spinner /> {t('Working')}
          </p>
        )}
        {status === 'failed' && (
          <div className="text-red-800">
            <p className="font-semibold">{t(JOB_FAILED)}</p>
            {error && error !== JOB_FAILED && <p className="text-sm">{error}</p>}
          </div>
        )}
        {status === 'not found' && <p className="font-semibold text-red-800">{t(JOB_NOT_FOUND_MESSAGE)}</p>}
      </div>
      {produced !== null && sessionId && (
        <div className="mt-3">
          <div className="mb-2 flex flex-wrap items-center gap-3">
            <a className="btn btn-primary" href={bookPdfUrl(sessionId, { job: produced })} download>
              {t('Download the PDF')}
            </a>
            {info?.pages ? (
              <span className="text-sm text-stone-700">
                {info.sheets
                  ? t('{{pages}} book pages on {{sheets}} sheets of paper', { pages: info.book_pages ?? info.pages, sheets: info.sheets })
                  : t('{{pages}} pages', { pages: info.pages })}
              </span>
            ) : null}
          </div>
          <iframe
            title={t('Preview of the book (PDF)')}
            src={bookPdfUrl(sessionId, { job: produced, inline: true })}
            className="h-[85vh] w-full rounded border border-stone-300"
          />
        </div>
      )}
    </section>
  );
}
