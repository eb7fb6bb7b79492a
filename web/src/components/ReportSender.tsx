import { useRef, useState, type RefObject } from 'react';
import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ReportAnswer } from '../api/types';

class ReportFailure extends Error {}

/**
 * Sending a report (bug report, data-source error): a failed answer becomes an error carrying the
 * server's text; after success the confirmation takes the focus (the Send button is gone) and
 * `sentOnce` stays true so the opening button can say 'Report Sent'.
 */
export function useReportSender<V>(send: (vars: V) => Promise<ReportAnswer>, onSent?: () => void) {
  const [sentOnce, setSentOnce] = useState(false);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const mutation = useMutation({
    mutationFn: async (vars: V) => {
      const res = await send(vars);
      if (res.error || !res.success) throw new ReportFailure(res.error || '');
      return res;
    },
    onSuccess: () => {
      setSentOnce(true);
      onSent?.();
      setTimeout(() => statusRef.current?.focus(), 0);
    },
  });
  return { mutation, sentOnce, statusRef };
}

/** 'Report Sent!' (announced), or the spec's failure text followed by the detail. */
export function ReportOutcome({ mutation, statusRef }: {
  mutation: Pick<UseMutationResult<ReportAnswer, Error>, 'isSuccess' | 'isError' | 'error'>;
  statusRef: RefObject<HTMLParagraphElement | null>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div role="status" aria-live="polite">
        {mutation.isSuccess && (
          <p ref={statusRef} tabIndex={-1} className="font-semibold text-emerald-900 outline-none">
            {t('Report Sent!')}
          </p>
        )}
      </div>
      {mutation.isError && (
        <div role="alert" className="text-red-800">
          <p>{t('Failure sending the report. Please contact us by email!')}</p>
          <p>{mutation.error?.message || t('Error')}</p>
        </div>
      )}
    </>
  );
}
