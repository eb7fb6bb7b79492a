// The build's status (spec §4): polled once a second while queued or running (stops when the page is
// left or the job ends), then the PDF embedded with a download link (an EPUB: the link alone).
import { useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { JOB_POLL_INTERVAL_MS } from '../../../../packages/shared/src/bookbuilder-constants.ts';
import type { BookFormat, BookbuilderResponse } from '@uc/shared';
import { api, bookPdfUrl } from '../../api/client';
import { isPolling, useBookBuilder, type JobStatusValue } from './store';
import { useBookFormat } from './FormatChoice';

export const JOB_FAILED = 'Job failed';
export const JOB_NOT_FOUND_MESSAGE = 'Job not found. Stale session?';

/** What a builder's store does with check_job answers (the Book Builder's and the Covers tab's). */
export interface JobTarget {
  /** The job the store waits for (answers about another job are stale). */
  currentJob(): number | null;
  setStatus(status: JobStatusValue): void;
  /** finished: the answer carries the PDF's figures. */
  finish(answer: BookbuilderResponse): void;
  /** failed / not found, with the reason shown. */
  fail(error: string): void;
}

/** How far a running build is: its step of how many (a large book advances per chunk). */
export interface JobProgress {
  step: number;
  steps: number;
}

/**
 * Polls check_job once a second while queued or running (stops when the page is left or the job ends);
 * answers the queue position and the running build's progress.
 */
export function useCheckJob(
  scope: string,
  sessionId: string | null,
  jobId: number | null,
  polling: boolean,
  target: JobTarget,
): { position: number | null; progress: JobProgress | null } {
  const q = useQuery({
    queryKey: [scope, 'job', sessionId, jobId],
    queryFn: ({ signal }) => api.bookbuilder({ action: 'check_job', session_id: sessionId, check_job_id: jobId! }, signal),
    enabled: polling && jobId !== null && sessionId !== null,
    refetchInterval: JOB_POLL_INTERVAL_MS,
    refetchIntervalInBackground: false,
    staleTime: 0,
    gcTime: 0,
    retry: 3,
  });
  const data = q.data;
  useEffect(() => {
    if (!data || data.job_id !== target.currentJob()) return;
    switch (data.status) {
      case 'inactive':
      case 'active':
        target.setStatus(data.status);
        break;
      case 'finished':
        target.finish(data);
        break;
      case 'failed':
        target.setStatus('failed');
        target.fail(data.error || JOB_FAILED);
        break;
      default:
        target.setStatus('not found');
        target.fail(JOB_NOT_FOUND_MESSAGE);
    }
  }, [data, target]);
  return { position: data?.queue_position ?? null, progress: data?.status === 'active' ? data.progress ?? null : null };
}

const bookJobTarget: JobTarget = {
  currentJob: () => useBookBuilder.getState().job_id,
  setStatus: (status) => useBookBuilder.getState().setStatus(status),
  finish: (data) => {
    const s = useBookBuilder.getState();
    s.setProduced({ pages: data.pages ?? null, book_pages: data.book_pages ?? null, sheets: data.sheets ?? null });
    useBookFormat.getState().setProduced(data.format ?? 'pdf');
    s.finishJob();
  },
  fail: (error) => useBookBuilder.getState().failJob(error),
};

export function useJobPolling() {
  const sessionId = useBookBuilder((s) => s.session_id);
  const jobId = useBookBuilder((s) => s.job_id);
  const polling = useBookBuilder(isPolling);
  return useCheckJob('bookbuilder', sessionId, jobId, polling, bookJobTarget);
}

function Spinner() {
  return <span aria-hidden="true" className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent" />;
}

/**
 * A build's status as the user sees it (Queued with the builds ahead, Working, Job failed with its
 * reason, Job not found) and, once finished, the PDF embedded with its download link. Presentational:
 * the caller polls and passes the state; the Book Builder and the Covers tab both use it.
 */
export interface JobStatusViewProps {
  /** Id of the status heading (one per page). */
  headingId: string;
  status: JobStatusValue | null;
  error: string | null;
  queuePosition: number | null;
  /** A running build's step, shown when it has several (a large book, per chunk). */
  progress?: JobProgress | null;
  /** The session and job of the finished PDF, when there is one. */
  pdf: { sessionId: string; job: number } | null;
  /** Title of the embedded PDF. */
  frameTitle: string;
  /** Shown next to the download link (figures of the PDF). */
  details?: ReactNode;
  /** What the finished build is (default pdf): an EPUB is offered for download, not shown. */
  format?: BookFormat;
}

export function JobStatusView({ headingId, status, error, queuePosition, progress, pdf, frameTitle, details, format = 'pdf' }: JobStatusViewProps) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby={headingId} className="mt-4">
      <h2 id={headingId} className="sr-only">
        {t('Build status')}
      </h2>
      <div role="status" aria-live="polite" className="min-h-6">
        {status === 'inactive' && (
          <p className="flex flex-wrap items-center gap-2 font-medium">
            <Spinner /> {t('Queued')}
            {queuePosition ? <span className="text-sm text-stone-700">({t('{{n}} builds ahead', { n: queuePosition })})</span> : null}
          </p>
        )}
        {status === 'active' && (
          <p className="flex items-center gap-2 font-medium">
            <Spinner /> {t('Working')}
            {progress && progress.steps > 1 ? <span className="text-sm text-stone-700">({t('step {{step}} of {{steps}}', { step: progress.step, steps: progress.steps })})</span> : null}
          </p>
        )}
        {status === 'failed' && (
          <div className="text-red-800">
            <p className="font-semibold">{t(JOB_FAILED)}</p>
            {error && error !== JOB_FAILED && <p className="text-sm break-words">{error}</p>}
          </div>
        )}
        {status === 'not found' && <p className="font-semibold text-red-800">{t(JOB_NOT_FOUND_MESSAGE)}</p>}
      </div>
      {pdf && (
        <div className="mt-3">
          <div className="mb-2 flex flex-wrap items-center gap-3">
            <a className="btn btn-primary" href={bookPdfUrl(pdf.sessionId, { job: pdf.job })} download>
              {format === 'epub' ? t('Download the EPUB') : t('Download the PDF')}
            </a>
            {details}
          </div>
          {format === 'pdf' && (
            <iframe title={frameTitle} src={bookPdfUrl(pdf.sessionId, { job: pdf.job, inline: true })} className="h-[85vh] w-full rounded border border-stone-300" />
          )}
        </div>
      )}
    </section>
  );
}

export function JobStatus() {
  const { t } = useTranslation();
  const status = useBookBuilder((s) => s.status);
  const error = useBookBuilder((s) => s.error);
  const produced = useBookBuilder((s) => s.job_produced);
  const info = useBookBuilder((s) => s.produced);
  const sessionId = useBookBuilder((s) => s.session_id);
  const format = useBookFormat((s) => s.produced);
  const { position, progress } = useJobPolling();
  return (
    <JobStatusView
      format={format}
      headingId="bb-status"
      status={status}
      error={error}
      queuePosition={position}
      progress={progress}
      pdf={produced !== null && sessionId ? { sessionId, job: produced } : null}
      frameTitle={t('Preview of the book (PDF)')}
      details={
        info?.pages ? (
          <span className="text-sm text-stone-700">
            {info.sheets
              ? t('{{pages}} book pages on {{sheets}} sheets of paper', { pages: info.book_pages ?? info.pages, sheets: info.sheets })
              : t('{{pages}} pages', { pages: info.pages })}
          </span>
        ) : null
      }
    />
  );
}
