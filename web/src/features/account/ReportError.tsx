import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataSource } from '../../lib/shared';
import { api } from '../../api/client';
import { useCurrentUser } from '../../api/account';
import { Dialog } from '../../components/Dialog';
import { ReportOutcome, useReportSender } from '../../components/ReportSender';

/** The Report Error button shows for logged-in users with an e-mail address, when the library takes reports. */
export function useCanReportError(ds: Pick<DataSource, 'report_error'>): boolean {
  const { user } = useCurrentUser();
  return !!(ds.report_error && user && user.email.trim());
}

/**
 * 'Report Error' on a data source box (spec §2 Entry page): a modal with the message; Send enabled only
 * with a message; 'Report Sent!' or the failure text with the detail.
 */
export function ReportError({ ds }: { ds: Pick<DataSource, 'data_source_id' | 'title' | 'library_name'> }) {
  const { t } = useTranslation();
  const ids = { message: useId(), note: useId() };
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const { mutation: send, sentOnce, statusRef } = useReportSender(
    (message: string) => api.reportDataSourceError(ds.data_source_id, { message, report_type: 'error' }),
    () => setText(''),
  );

  const canSend = text.trim() !== '';

  return (
    <>
      <button
        type="button"
        className="btn"
        aria-haspopup="dialog"
        onClick={() => {
          send.reset();
          setOpen(true);
        }}
      >
        {sentOnce ? t('Report Sent') : t('Report Error')}
      </button>
      <Dialog
        open={open}
        title={t('Report an error for “{{title}}” ({{library}})', { title: ds.title, library: ds.library_name })}
        onClose={() => setOpen(false)}
      >
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (canSend && !send.isPending) send.mutate(text.trim());
          }}
        >
          <div>
            <label htmlFor={ids.message} className="mb-1 block font-medium">
              {t('Message')}
            </label>
            <textarea
              id={ids.message}
              required
              rows={6}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                if (send.isSuccess || send.isError) send.reset();
              }}
              aria-describedby={ids.note}
              className="w-full rounded border border-stone-500 bg-white px-3 py-2"
            />
            <p id={ids.note} className="mt-1 text-sm text-stone-700">
              {t('The library receives your message and your e-mail address, to answer you.')}
            </p>
          </div>
          <ReportOutcome mutation={send} statusRef={statusRef} />
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn btn-primary" disabled={!canSend || send.isPending}>
              {send.isPending ? t('Sending...') : t('Send')}
            </button>
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              {t('Cancel')}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
