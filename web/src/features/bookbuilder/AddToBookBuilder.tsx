// "Add to the Book Builder" on the entry page (spec §2): copies the text into the session, then links
// to the tool. Small on purpose: it ships with the entry page, the builder itself is a lazy chunk.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../../api/client';
import { ALREADY_FROM_OTHER_LIBRARY, useBookBuilder } from './store';

export function AddToBookBuilder({ dataSourceId }: { dataSourceId: number }) {
  const { t } = useTranslation();
  const sessionId = useBookBuilder((s) => s.session_id);
  const added = useBookBuilder((s) => s.text_list.some((x) => x.attributes.data_source_id === dataSourceId));
  // Another data source of the same entry in the list (also after a reload, when the answer is gone).
  const twice = useBookBuilder((s) => {
    const mine = s.text_list.find((x) => x.attributes.data_source_id === dataSourceId);
    return !!mine?.attributes.entry_id && s.text_list.some((x) => x.attributes.entry_id === mine.attributes.entry_id && x.attributes.data_source_id !== dataSourceId);
  });
  const setTexts = useBookBuilder((s) => s.setTexts);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  // The button the reader pressed is replaced by the link: the focus follows it (issue 32 point 8).
  const linkRef = useRef<HTMLAnchorElement>(null);
  const focusLink = useRef(false);
  useEffect(() => {
    if (!added || !focusLink.current) return;
    focusLink.current = false;
    // Only when the focus went down with the button (not when the reader moved on meanwhile).
    if (!document.activeElement || document.activeElement === document.body) linkRef.current?.focus();
  }, [added]);

  if (added) {
    const note = status === ALREADY_FROM_OTHER_LIBRARY || twice;
    return (
      <span role="status" className={note ? 'flex w-full flex-wrap items-center gap-2' : undefined}>
        <Link ref={linkRef} to="/bookbuilder" className="btn btn-primary">
          {t('Added to the Book Builder!')}
        </Link>
        {note && (
          <span className="text-sm text-amber-900">
            {t(ALREADY_FROM_OTHER_LIBRARY)}. {t('You can remove one of them in the Book Builder.')}
          </span>
        )}
      </span>
    );
  }
  const add = async () => {
    if (busy) return;
    focusLink.current = true;
    setBusy(true);
    setError(null);
    try {
      const r = await api.bookbuilder({ action: 'add', add: dataSourceId, session_id: sessionId });
      setStatus(r.status ?? null);
      setTexts(r);
    } catch (e) {
      focusLink.current = false;
      setError(isApiError(e) ? e.message : t('Failed!'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {/* aria-disabled, not disabled, while busy: a disabled button drops the focus to <body>. */}
      <button type="button" className="btn btn-primary aria-busy:cursor-progress aria-busy:opacity-80" onClick={add} aria-disabled={busy} aria-busy={busy}>
        {t('Add to the Book Builder')}
      </button>
      {error && (
        <p role="alert" className="w-full text-center text-sm text-red-800">
          {error}
        </p>
      )}
    </>
  );
}
