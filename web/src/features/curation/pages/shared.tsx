// Pieces shared by the curation pages (exclusions, dashboards, change log, duplicates): query keys,
// the access messages for 401/403, a confirmation dialog, the result line and date formatting.
import { forwardRef, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { CurationReply } from '@uc/shared';
import { isApiError } from '../../../api/client';
import { catalogueChanged, serverErrorOr } from '../catalogue';
import { Dialog } from '../../../components/Dialog';

export const curationPageKeys = {
  all: ['curation'] as const,
  exclusions: ['curation', 'exclusions'] as const,
  listing: (type: string) => ['curation', 'listing', type] as const,
  changes: (filters: object) => ['curation', 'changes', filters] as const,
  duplicates: (kind: string) => ['curation', 'duplicates', kind] as const,
};

/** The failure text of a call: the server's error, else that the catalogue could not be reached, else the failure itself, else 'Failed!'. */
export function errorText(err: unknown, t: (k: string) => string): string {
  if (isApiError(err, 0)) return t('The catalogue could not be reached. Please try again later.');
  return serverErrorOr(err, err instanceof Error && err.message ? err.message : t('Failed!'));
}

/** A date in the interface language (the ISO text when it cannot be read). */
export function formatDate(iso: string, lang: string, withTime = false): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(lang || 'en', withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' }).format(d);
  } catch {
    return d.toISOString().slice(0, withTime ? 16 : 10).replace('T', ' ');
  }
}

/** What a page shows when its first load failed: a log-in prompt (401), a refusal (403), or the error. */
export function LoadFailure({ error, loginText }: { error: unknown; loginText?: string }) {
  const { t } = useTranslation();
  if (isApiError(error, 401)) {
    return (
      <p role="alert" className="rounded border border-amber-700 bg-amber-50 px-3 py-2 text-amber-950">
        {loginText ?? t('Please log in to see this page.')}
      </p>
    );
  }
  if (isApiError(error, 403)) {
    return (
      <p role="alert" className="rounded border border-amber-700 bg-amber-50 px-3 py-2 text-amber-950">
        {t('You are not allowed to see this page.')}
      </p>
    );
  }
  return (
    <p role="alert" className="rounded border border-red-700 bg-red-50 px-3 py-2 text-red-900">
      {errorText(error, t)}
    </p>
  );
}

export interface ResultState {
  ok: boolean;
  text: string;
}

/**
 * One curation action at a time on a page: runs the call, refreshes what it changed, and puts its outcome
 * (success text or the server's error) in the result line, which then takes focus. `busy` is the key of
 * the running action (its row), null when idle.
 */
export function useCurationAction() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | number | null>(null);
  const [result, setResult] = useState<ResultState | null>(null);
  const resultRef = useRef<HTMLParagraphElement>(null);
  const run = async (key: string | number, call: () => Promise<CurationReply>, success: (res: CurationReply) => string) => {
    setBusy(key);
    setResult(null);
    try {
      const res = await call();
      if (res.error) throw new Error(res.error);
      await catalogueChanged(queryClient);
      setResult({ ok: true, text: success(res) });
    } catch (e) {
      setResult({ ok: false, text: errorText(e, t) });
      // What the page shows may be stale (that is often why it failed): read it again.
      void queryClient.invalidateQueries({ queryKey: curationPageKeys.all });
    } finally {
      setBusy(null);
      resultRef.current?.focus();
    }
  };
  return { busy, working: busy !== null, result, setResult, resultRef, run };
}

/**
 * The outcome of the last action (aria-live, always in the page so screen readers hear it); it can take
 * focus after the row it came from is gone.
 */
export const ResultLine = forwardRef<HTMLParagraphElement, { result: ResultState | null; working?: boolean }>(function ResultLine(
  { result, working },
  ref,
) {
  const { t } = useTranslation();
  const cls = working ? 'motion-safe:animate-pulse text-stone-800' : result?.ok ? 'text-green-800' : 'text-red-800';
  return (
    <p ref={ref} tabIndex={-1} role="status" aria-live="polite" className={`min-h-6 outline-none ${cls}`}>
      {working ? t('Working') : result?.text ?? ''}
    </p>
  );
});

/** Asks before a curation change: the question, what it touches, then Cancel (focused first) and the action. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onCancel}>
      {props.children}
      <div className="mt-4 flex flex-wrap gap-2">
        <button type="button" className="btn" onClick={props.onCancel}>
          {t('Cancel')}
        </button>
        <button type="button" className="btn btn-primary" onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

/** The page frame: a heading row (title and optional controls) and the body. */
export function PageFrame({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-screen-xl min-w-0 px-4 py-6">
      <div className="mb-4 flex flex-wrap items-center gap-3">
        {actions}
        <h1 className="text-2xl font-semibold sm:text-3xl">{title}</h1>
      </div>
      {children}
    </div>
  );
}

/**
 * A table's own horizontal scroll area, so a narrow screen (320 px) scrolls the table and not the page.
 * It is a labelled, focusable region so keyboard users can scroll it too.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="max-w-full overflow-x-auto rounded border border-stone-300 bg-white">
      {children}
    </div>
  );
}

export const thClass = 'px-3 py-2 text-left font-semibold whitespace-nowrap';
export const tdClass = 'px-3 py-2 align-top';
export const inputClass = 'w-full rounded border border-stone-500 bg-white px-2 py-1';
