// The short message of the curation controls ('“Name” added to Merge authors', 'Hidden from your
// searches…'): a polite live region that is always in the page, shown at the bottom of the screen so it
// is seen at any scroll position and at phone widths.
import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useNotice } from './store';

/** Notices without a link go away after this long; those with a link stay until dismissed. */
export const NOTICE_MS = 8000;

export function Notice() {
  const { t } = useTranslation();
  const notice = useNotice((s) => s.notice);
  const dismiss = useNotice((s) => s.dismiss);
  const ref = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  // A notice belongs to the page it was said on: another page (its link followed, or any other) drops it.
  const shownOn = useRef<{ id: number; path: string } | null>(null);
  useEffect(() => {
    if (notice && shownOn.current?.id !== notice.id) shownOn.current = { id: notice.id, path: pathname };
  }, [notice, pathname]);
  useEffect(() => {
    if (notice && shownOn.current?.id === notice.id && shownOn.current.path !== pathname) dismiss();
  }, [notice, pathname, dismiss]);

  useEffect(() => {
    if (!notice) return;
    if (notice.focus) ref.current?.focus();
    if (notice.link) return;
    const timer = setTimeout(() => {
      if (useNotice.getState().notice?.id === notice.id) dismiss();
    }, NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice, dismiss]);

  return (
    <div role="status" className="pointer-events-none fixed inset-x-0 bottom-4 z-40 flex justify-center px-4">
      {notice && (
        <div
          ref={ref}
          tabIndex={-1}
          className="pointer-events-auto flex max-w-full flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-stone-600 bg-stone-900 px-4 py-2 text-white shadow-lg"
        >
          <span className="break-words">{notice.text}</span>
          {notice.link && (
            <Link to={notice.link.to} className="text-amber-200 underline hover:text-white">
              {notice.link.text}
            </Link>
          )}
          <button type="button" onClick={dismiss} className="rounded px-1 text-stone-200 underline hover:text-white">
            {t('Close')}
          </button>
        </div>
      )}
    </div>
  );
}
