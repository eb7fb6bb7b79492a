// The facets on a phone (issue 32 point 7): a modal panel over the results instead of a column above
// them, so ticking a value never pushes the first result screens down. "Show N results" closes it.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useModalFocus } from '../../components/Dialog';

/** Tailwind's md breakpoint, where the facets are a side column and the drawer is not needed. */
const WIDE = '(min-width: 48rem)';

interface Props {
  open: boolean;
  onClose: () => void;
  /** Closes the drawer and takes the reader to the results. */
  onShowResults: () => void;
  /** The results' count after the ticked values; undefined while it is being fetched or on an error. */
  count: number | undefined;
  busy: boolean;
  children: ReactNode;
}

export function FilterDrawer({ open, onClose, onShowResults, count, busy, children }: Props) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useModalFocus(ref, open, onClose);

  useEffect(() => {
    if (!open) return;
    // The page behind does not scroll under the panel; a window widened to the side column closes it.
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const wide = window.matchMedia(WIDE);
    const onWide = () => {
      if (wide.matches) onClose();
    };
    onWide();
    wide.addEventListener('change', onWide);
    return () => {
      document.body.style.overflow = overflow;
      wide.removeEventListener('change', onWide);
    };
  }, [open, onClose]);

  if (!open) return null;
  return (
    <div className="fixed inset-0 z-50 md:hidden">
      <div className="absolute inset-0 bg-black/50" aria-hidden="true" onClick={onClose} />
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="absolute inset-y-0 right-0 flex w-full max-w-sm flex-col bg-stone-50 text-stone-900 shadow-xl outline-none"
      >
        <div className="flex items-center justify-between gap-2 border-b border-stone-300 px-4 py-2">
          <h2 id={titleId} className="text-lg font-semibold">
            {t('Filters')}
          </h2>
          <button type="button" className="icon-btn" aria-label={t('Close')} title={t('Close')} onClick={onClose}>
            <span aria-hidden="true">✕</span>
          </button>
        </div>
        <div aria-busy={busy} className={`flex-1 space-y-3 overflow-y-auto p-4 transition-opacity ${busy ? 'opacity-85' : ''}`}>
          {children}
        </div>
        <div className="border-t border-stone-300 p-4">
          <button type="button" className="btn btn-primary w-full" onClick={onShowResults}>
            {count === undefined ? t('Show the results') : t('show_n_results', { count })}
          </button>
        </div>
      </div>
    </div>
  );
}
