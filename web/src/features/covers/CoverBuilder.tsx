// The Covers tab: the form from the template's tokens beside the live preview, Build with the job's
// status and the PDF (as in the Book Builder), and Reset with a confirmation. On a phone the preview
// comes under the form.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../../api/client';
import { Dialog } from '../../components/Dialog';
import { CoverForm, fieldId, useTokenLabel } from './CoverForm';
import { JobStatusView } from '../bookbuilder/JobStatus';
import { isCoverPolling, useCoverStore } from './store';
import { coverArgs, splitError } from './tokens';
import { useCoverPreview } from './useCoverPreview';
import { useCoverFromBook } from './fromBook';
import { useCoverJobPolling, useCoverSession } from './useCoverSession';

type ServerError = { field: string | null; message: string };

export function CoverBuilder() {
  const { t } = useTranslation();
  const session = useCoverSession();
  const tokens = useCoverStore((s) => s.tokens);
  const sessionId = useCoverStore((s) => s.session_id);
  const status = useCoverStore((s) => s.status);
  const jobError = useCoverStore((s) => s.error);
  const produced = useCoverStore((s) => s.job_produced);
  const polling = useCoverStore(isCoverPolling);
  const position = useCoverJobPolling();
  const preview = useCoverPreview(session.ready);
  useCoverFromBook(session.ready);
  const [buildError, setBuildError] = useState<ServerError | null>(null);
  const [building, setBuilding] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const [formKey, setFormKey] = useState(0);

  const errors: Record<string, string> = {};
  if (preview.error?.field) errors[preview.error.field] = preview.error.message;
  if (buildError?.field) errors[buildError.field] = buildError.message;

  const build = async () => {
    const s = useCoverStore.getState();
    if (!s.session_id) return;
    setBuildError(null);
    setBuilding(true);
    try {
      const r = await api.bookcover({ action: 'build', args: coverArgs(s.values, s.tokens, s.session_id) });
      if (r.session_id && r.session_id !== useCoverStore.getState().session_id) useCoverStore.setState({ session_id: r.session_id });
      if (r.job_id) useCoverStore.getState().startJob(r.job_id);
    } catch (e) {
      const err = splitError(isApiError(e) ? e.message : t('Failed!'), s.tokens);
      setBuildError(err);
      if (err.field) document.getElementById(fieldId(err.field))?.focus();
    } finally {
      setBuilding(false);
    }
  };

  const reset = () => {
    setConfirmReset(false);
    setBuildError(null);
    useCoverStore.getState().reset();
    setFormKey((k) => k + 1);
  };

  if (tokens.length === 0) {
    return session.error ? (
      <div role="alert" className="rounded border border-red-700 bg-red-50 p-3 text-red-900">
        <p>{t('The cover form could not be loaded: {{error}}', { error: session.error })}</p>
        <button type="button" className="btn mt-2" onClick={session.retry}>
          {t('Try again')}
        </button>
      </div>
    ) : (
      <p role="status">{t('Loading…')}</p>
    );
  }

  return (
    <div>
      <p className="mb-4 text-stone-700">{t('Make a wrap-around cover for your book: set its size, texts and image, check the preview, then build the PDF.')}</p>
      {session.error && (
        <div role="alert" className="mb-4 rounded border border-red-700 bg-red-50 p-3 text-red-900">
          <p>{t('The cover session could not be checked: {{error}}', { error: session.error })}</p>
          <button type="button" className="btn mt-2" onClick={session.retry}>
            {t('Try again')}
          </button>
        </div>
      )}
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="min-w-0">
          <CoverForm key={formKey} errors={errors} ready={session.ready} />
          <div className="mt-6 flex flex-wrap items-center gap-3 border-t border-stone-200 pt-4">
            <button type="button" className="btn btn-primary" onClick={() => void build()} disabled={!session.ready || building || polling} aria-busy={building}>
              {t('Build')}
            </button>
            <button type="button" className="btn" onClick={() => setConfirmReset(true)} disabled={polling}>
              {t('Reset')}
            </button>
          </div>
          {buildError && !buildError.field && (
            <p role="alert" className="mt-3 break-words text-red-800">
              {buildError.message}
            </p>
          )}
          {buildError?.field && (
            <p role="alert" className="mt-3 text-red-800">
              {t('Please check the highlighted field before building.')}
            </p>
          )}
        </div>
        <CoverPreview preview={preview} />
      </div>
      <JobStatusView
        headingId="cover-status"
        status={status}
        error={jobError}
        queuePosition={position}
        pdf={produced !== null && sessionId ? { sessionId, job: produced } : null}
        frameTitle={t('Preview of the cover (PDF)')}
      />
      <Dialog open={confirmReset} title={t('Reset the cover?')} onClose={() => setConfirmReset(false)}>
        <p>{t('Every field goes back to its default value and the chosen images are removed from the form.')}</p>
        <div className="mt-4 flex flex-wrap gap-2">
          <button type="button" className="btn btn-primary" onClick={reset}>
            {t('Reset all fields')}
          </button>
        </div>
      </Dialog>
    </div>
  );
}

function CoverPreview({ preview }: { preview: ReturnType<typeof useCoverPreview> }) {
  const { t } = useTranslation();
  // Image resolution is told, translated, under the image field itself (the same rule as the server's).
  const imageTokens = useCoverStore((s) => s.tokens).filter((x) => x.type === 'file').map((x) => `${x.name}: `);
  const warnings = preview.warnings.filter((w) => !imageTokens.some((p) => w.startsWith(p)));
  const tokens = useCoverStore((s) => s.tokens);
  const label = useTokenLabel();
  const fieldToken = preview.error?.field ? tokens.find((x) => x.name === preview.error!.field) : undefined;
  return (
    <section aria-labelledby="cover-preview-heading" className="min-w-0 self-start lg:sticky lg:top-4">
      <h2 id="cover-preview-heading" className="mb-2 text-lg font-semibold">
        {t('Preview')}
      </h2>
      <div aria-busy={preview.busy} className="rounded border border-stone-300 bg-stone-50 p-2">
        {preview.url ? (
          <img src={preview.url} alt={t('Preview of the cover')} className={`block h-auto w-full max-w-full ${preview.busy ? 'opacity-70' : ''}`} />
        ) : (
          <p className="p-4 text-sm text-stone-700">{preview.busy ? t('Drawing the preview…') : t('The preview of the cover appears here.')}</p>
        )}
      </div>
      {/* why the preview is blank or stale: a field the server refused (an ISBN whose check digit is wrong) */}
      {fieldToken && (
        <p data-testid="cover-preview-blocked" className="mt-2 rounded border border-red-700 bg-red-50 p-2 text-sm break-words text-red-900">
          {t('The preview is not updated while “{{field}}” is not valid: {{error}}', { field: label(fieldToken), error: preview.error!.message })}
        </p>
      )}
      <div aria-live="polite">
        {warnings.length > 0 && (
          <ul className="mt-2 list-disc rounded border border-amber-700 bg-amber-50 py-2 pr-2 pl-6 text-sm text-amber-950">
            {warnings.map((w) => (
              <li key={w} className="break-words">
                {w}
              </li>
            ))}
          </ul>
        )}
      </div>
      {preview.error && !preview.error.field && (
        <p role="alert" className="mt-2 text-sm font-semibold break-words text-red-800">
          {t('The preview failed: {{error}}', { error: preview.error.message })}
        </p>
      )}
    </section>
  );
}
