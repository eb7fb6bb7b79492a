// The texts of the book: drag a row onto another to move it before that one (or onto the end zone),
// or use the Move up / Move down buttons; Remove takes a text out. Every change goes to the server,
// whose answer replaces the list.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { BookbuilderRequest, BookText } from '@uc/shared';
import { api, isApiError } from '../../api/client';
import { useBookBuilder } from './store';

type Focus = { id: number; button: 'up' | 'down' | 'remove-next' } | null;

export function TextList() {
  const { t } = useTranslation();
  const texts = useBookBuilder((s) => s.text_list);
  const sessionId = useBookBuilder((s) => s.session_id);
  const setTexts = useBookBuilder((s) => s.setTexts);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [announce, setAnnounce] = useState('');
  const [dragId, setDragId] = useState<number | null>(null);
  const [overId, setOverId] = useState<number | 'end' | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement | null>());
  const focusAfter = useRef<Focus>(null);

  useEffect(() => {
    const f = focusAfter.current;
    if (!f) return;
    focusAfter.current = null;
    const el = buttons.current.get(`${f.button}-${f.id}`);
    if (el && !el.disabled) el.focus();
    else buttons.current.get(`remove-${f.id}`)?.focus();
  }, [texts]);

  const send = async (body: BookbuilderRequest, message?: (list: BookText[]) => string) => {
    setBusy(true);
    setError(null);
    try {
      const r = await api.bookbuilder(body);
      setTexts(r);
      if (message && r.texts) setAnnounce(message(r.texts));
    } catch (e) {
      setError(isApiError(e) ? e.message : t('Failed!'));
    } finally {
      setBusy(false);
    }
  };

  const moved = (id: number) => (list: BookText[]) => {
    const i = list.findIndex((x) => x.id === id);
    return t('{{title}} moved to position {{position}} of {{count}}', { title: list[i]?.attributes.title ?? '', position: i + 1, count: list.length });
  };

  const reorder = (moveId: number, toId: number | null, focus: Focus = null) => {
    if (moveId === toId) return;
    focusAfter.current = focus;
    void send({ action: 'reorder', session_id: sessionId, move_id: moveId, to_id: toId }, moved(moveId));
  };

  if (texts.length === 0) {
    return (
      <div className="rounded border border-dashed border-stone-400 p-4">
        <p className="font-medium">{t('No text added, so far!')}</p>
        <p className="mt-1 text-sm text-stone-700">
          {t('Open a text in the catalogue and choose “Add to the Book Builder”.')}{' '}
          <Link to="/search" className="link">
            {t('Search the catalogue')}
          </Link>
        </p>
      </div>
    );
  }

  return (
    <div>
      {texts.length > 1 && <p className="mb-2 text-sm text-stone-700">{t('Drag the titles to reorder, or use the arrow buttons.')}</p>}
      <ol className="flex flex-col gap-1" aria-label={t('Texts of the book')} aria-busy={busy}>
        {texts.map((x, i) => {
          const title = x.attributes.title;
          return (
            <li
              key={x.id}
              draggable
              onDragStart={(e) => {
                setDragId(x.id);
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', String(x.id));
              }}
              onDragEnd={() => {
                setDragId(null);
                setOverId(null);
              }}
              onDragOver={(e) => {
                if (dragId === null) return;
                e.preventDefault();
                setOverId(x.id);
              }}
              onDrop={(e) => {
                e.preventDefault();
                const id = dragId ?? Number(e.dataTransfer.getData('text/plain'));
                setDragId(null);
                setOverId(null);
                if (id) reorder(id, x.id);
              }}
              data-testid="book-text"
              className={`flex items-center gap-2 rounded border bg-white px-2 py-1.5 ${overId === x.id && dragId !== x.id ? 'border-t-4 border-amber-800' : 'border-stone-300'} ${dragId === x.id ? 'opacity-50' : ''}`}
            >
              <span aria-hidden="true" className="cursor-grab px-1 text-stone-500 select-none" title={t('Drag to reorder')}>
                ⠿
              </span>
              <span className="w-6 text-right text-sm text-stone-600">{i + 1}.</span>
              <span className="min-w-0 flex-1">
                {x.attributes.entry_id ? (
                  <Link to={`/entry/${x.attributes.entry_id}`} className="font-semibold hover:underline">
                    {title}
                  </Link>
                ) : (
                  <span className="font-semibold">{title}</span>
                )}
                {x.attributes.authors.length > 0 && <span className="ml-2 text-sm text-stone-700">{x.attributes.authors.join(', ')}</span>}
              </span>
              <button
                type="button"
                className="icon-btn rounded border border-stone-300 py-1 disabled:opacity-40"
                aria-label={t('Move up: {{title}}', { title })}
                title={t('Move up')}
                disabled={i === 0 || busy}
                ref={(el) => void buttons.current.set(`up-${x.id}`, el)}
                onClick={() => reorder(x.id, texts[i - 1].id, { id: x.id, button: 'up' })}
              >
                ↑
              </button>
              <button
                type="button"
                className="icon-btn rounded border border-stone-300 py-1 disabled:opacity-40"
                aria-label={t('Move down: {{title}}', { title })}
                title={t('Move down')}
                disabled={i === texts.length - 1 || busy}
                ref={(el) => void buttons.current.set(`down-${x.id}`, el)}
                onClick={() => reorder(texts[i + 1].id, x.id, { id: x.id, button: 'down' })}
              >
                ↓
              </button>
              <button
                type="button"
                className="icon-btn rounded border border-stone-300 py-1 text-red-800 disabled:opacity-40"
                aria-label={t('Remove: {{title}}', { title })}
                title={t('Remove')}
                disabled={busy}
                ref={(el) => void buttons.current.set(`remove-${x.id}`, el)}
                onClick={() => {
                  const next = texts[i + 1] ?? texts[i - 1];
                  focusAfter.current = next ? { id: next.id, button: 'remove-next' } : null;
                  void send({ action: 'remove', session_id: sessionId, remove_id: x.id }, () => t('{{title}} removed', { title }));
                }}
              >
                ✕
              </button>
            </li>
          );
        })}
      </ol>
      {dragId !== null && (
        <div
          onDragOver={(e) => {
            e.preventDefault();
            setOverId('end');
          }}
          onDrop={(e) => {
            e.preventDefault();
            const id = dragId;
            setDragId(null);
            setOverId(null);
            reorder(id, null);
          }}
          className={`mt-1 rounded border-2 border-dashed p-2 text-center text-sm ${overId === 'end' ? 'border-amber-800' : 'border-stone-300'}`}
        >
          {t('Drop here to move to the end')}
        </div>
      )}
      <p className="sr-only" role="status" aria-live="polite">
        {announce}
      </p>
      {error && (
        <p role="alert" className="mt-2 text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}
