// A build's status as the user sees it (Queued with the builds ahead, Working, Job failed with its
// reason, Job not found) and, once finished, the PDF embedded with its download link. Presentational:
// the caller polls and passes the state. The labels are the Book Builder's (JobStatus.tsx).
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { bookPdfUrl } from '../../api/client';
import { JOB_FAILED, JOB_NOT_FOUND_MESSAGE } from '../bookbuilder/JobStatus';
import type { JobStatusValue } from '../bookbuilder/store';

function Spinner() {
  return <span aria-hidden="true" className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent" />;
}

export interface JobStatusViewProps {
  /** Id of the status heading (one per page). */
  headingId: string;
  status: JobStatusValue | null;
  error: string | null;
  queuePosition: number | null;
  /** The session and job of the finished PDF, when there is one. */
  pdf: { sessionId: string; job: number } | null;
  /** Title of the embedded PDF. */
  frameTitle: string;
  /** Shown next to the download link (figures of the PDF). */
  details?: ReactNode;
}

export function JobStatusView({ headingId, status, error, queuePosition, pdf, frameTitle, details }: JobStatusViewProps) {
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
              {t('Download the PDF')}
            </a>
            {details}
          </div>
          <iframe title={frameTitle} src={bookPdfUrl(pdf.sessionId, { job: pdf.job, inline: true })} className="h-[85vh] w-full rounded border border-stone-300" />
        </div>
      )}
    </section>
  );
}
