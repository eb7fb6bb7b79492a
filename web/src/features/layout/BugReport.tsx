import { useId, useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { api } from '../../api/client';
import { ReportOutcome, useReportSender } from '../../components/ReportSender';

/** The message body of spec §7: page address, sender and text combined. */
export function bugReportMessage(page: string, from: string, text: string): string {
  return `On ${page}\n\nFrom ${from}\n\n${text}`;
}

/**
 * The footer's Bug Report button and its dialog (spec §2 Bug report dialog): From, Page (read-only,
 * the address when the dialog opened), the message; Send only when both the message and the sender
 * are filled; 'Report Sent' afterwards; failures show the spec's text and the detail.
 */
export function BugReport() {
  const { t } = useTranslation();
  const location = useLocation();
  const ids = { from: useId(), page: useId(), message: useId(), note: useId() };
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState('');
  const [from, setFrom] = useState('');
  const [text, setText] = useState('');
  const { mutation: send, sentOnce, statusRef } = useReportSender(
    (vars: { page: string; from: string; text: string }) =>
      api.reportBug({ message: bugReportMessage(vars.page, vars.from, vars.text), email_from: vars.from }),
    () => setText(''),
  );

  const openDialog = () => {
    // The page being reported: the full current address, captured now.
    setPage(typeof window !== 'undefined' ? window.location.href : `${location.pathname}${location.search}`);
    send.reset();
    setOpen(true);
  };

  const canSend = from.trim() !== '' && text.trim() !== '';
  const sentNow = send.isSuccess;

  return (
    <>
      <button type="button" className="btn" onClick={openDialog} aria-haspopup="dialog">
        {sentOnce ? t('Report Sent') : t('Bug Report')}
      </button>
      <Dialog open={open} title={t('Report a bug to the site administrators')} onClose={() => setOpen(false)}>
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (canSend && !send.isPending) send.mutate({ page, from: from.trim(), text });
          }}
        >
          <div>
            <label htmlFor={ids.from} className="mb-1 block font-medium">
              {t('From:')}
            </label>
            <input
              id={ids.from}
              type="email"
              required
              autoComplete="email"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              placeholder="my-email@example.com"
              className="w-full rounded border border-stone-500 bg-white px-3 py-2"
            />
          </div>
          <div>
            <label htmlFor={ids.page} className="mb-1 block font-medium">
              {t('Page:')}
            </label>
            <input
              id={ids.page}
              type="text"
              readOnly
              value={page}
              className="w-full rounded border border-stone-300 bg-stone-100 px-3 py-2 font-mono text-sm"
            />
          </div>
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
              {t('Send appears once the sender and the message are filled in.')}
            </p>
          </div>

          <ReportOutcome mutation={send} statusRef={statusRef} />

          <div className="flex flex-wrap gap-2">
            {sentNow ? (
              <button type="button" className="btn" disabled aria-disabled="true">
                {t('Report Sent')}
              </button>
            ) : (
              canSend && (
                <button type="submit" className="btn btn-primary" disabled={send.isPending}>
                  {send.isPending ? t('Sending...') : t('Send')}
                </button>
              )
            )}
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              {t('Cancel')}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
