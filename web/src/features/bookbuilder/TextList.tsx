// The texts of the book: drag a row onto another to move it before that one (or onto the end zone),
// or use the Move up / Move down buttons; Remove takes a text out, with Undo (added again from its
// data source and put back at its old place). Every change goes to the server, whose answer replaces
// the list. On phones the title takes the first line and the buttons wrap under it.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { BookbuilderRequest, BookbuilderResponse, BookText } from '@uc/shared';
import { api, isApiError } from '../../api/client';
import { useBookBuilder } from './store';
import { PartsPicker } from './PartsPicker';

type Focus = { id: number; button: 'up' | 'down' } | { undo: true } | { restored: number } | null;
/** The last removed text: enough to add it again and put it back before the text that followed it. */
interface Removed { text: BookText; beforeId: number | null }

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
  const [removed, setRemoved] = useState<Removed | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement | null>());
  const undoButton = useRef<HTMLButtonElement>(null);
  const focusAfter = useRef<Focus>(null);

  // After a change, focus stays on the moved text's own move button (the other one when it reached
  // the top or the bottom), never on Remove; after Remove it goes to Undo. Waits for the buttons to
  // be enabled again.
  useEffect(() => {
    const f = focusAfter.current;
    if (!f || busy) return;
    if ('undo' in f) {
      // Undo appears once the removal is recorded (the render after the new list).
      if (!undoButton.current) return;
      focusAfter.current = null;
      undoButton.current.focus();
      return;
    }
    focusAfter.current = null;
    if ('restored' in f) {
      // The text put back by Undo: its title link, else its first enabled move button.
      const row = document.querySelector(`[data-testid="book-text"][data-data-source="${f.restored}"]`);
      row?.querySelector<HTMLElement>('a[href], button:not([disabled])')?.focus();
      return;
    }
    const other = f.button === 'up' ? 'down' : 'up';
    const el = [buttons.current.get(`${f.button}-${f.id}`), buttons.current.get(`${other}-${f.id}`)].find((b) => b && !b.disabled);
    el?.focus();
  }, [texts, busy, removed]);

  const run = async (work: () => Promise<BookbuilderResponse>, message?: (list: BookText[]) => string): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      const r = await work();
      setTexts(r);
      if (message && r.texts) setAnnounce(message(r.texts));
      return true;
    } catch (e) {
      setError(isApiError(e) ? e.message : t('Failed!'));
      focusAfter.current = null;
      return false;
    } finally {
      setBusy(false);
    }
  };
  const send = (body: BookbuilderRequest, message?: (list: BookText[]) => string) => run(() => api.bookbuilder(body), message);

  const remove = async (x: BookText, i: number) => {
    const beforeId = texts[i + 1]?.id ?? null;
    focusAfter.current = { undo: true };
    if (await send({ action: 'remove', session_id: sessionId, remove_id: x.id })) {
      setAnnounce('');
      setRemoved({ text: x, beforeId });
    }
  };

  /** Undo of Remove: `add` the same data source again, then `reorder` it before the text that followed it. */
  const undo = async () => {
    if (!removed) return;
    const { text, beforeId } = removed;
    const title = text.attributes.title;
    const ok = await run(
      async () => {
        const added = await api.bookbuilder({ action: 'add', add: text.attributes.data_source_id, session_id: sessionId });
        const list = added.texts ?? [];
        const back = list.find((x) => x.attributes.data_source_id === text.attributes.data_source_id);
        const last = list[list.length - 1];
        // Already at its old place (it was last, or the text after it is gone): no reorder needed.
        const target = beforeId !== null && list.some((x) => x.id === beforeId) ? beforeId : null;
        if (!back || (target === null && last?.id === back.id)) return added;
        return api.bookbuilder({ action: 'reorder', session_id: added.session_id ?? sessionId, move_id: back.id, to_id: target });
      },
      () => t('{{title}} is back in the book', { title }),
    );
    if (ok) {
      focusAfter.current = { restored: text.attributes.data_source_id };
      setRemoved(null);
    }
  };

  const undoStatus = (
    <div role="status" className={removed ? 'mt-2 flex flex-wrap items-center gap-2 rounded border border-stone-300 bg-stone-50 px-3 py-2 text-sm' : 'sr-only'}>
      {removed && (
        <>
          <span className="min-w-0 [overflow-wrap:anywhere]">{t('Removed “{{title}}”.', { title: removed.text.attributes.title })}</span>
          <button ref={undoButton} type="button" className="btn py-1" onClick={undo} disabled={busy} aria-busy={busy}>
            {t('Undo')}
          </button>
        </>
      )}
    </div>
  );

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
        {undoStatus}
        {error && (
          <p role="alert" className="mt-2 text-red-800">
            {error}
          </p>
        )}
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
              data-data-source={x.attributes.data_source_id}
              className={`flex flex-wrap items-center gap-x-2 gap-y-1 rounded border bg-white px-2 py-1.5 ${overId === x.id && dragId !== x.id ? 'border-t-4 border-amber-800' : 'border-stone-300'} ${dragId === x.id ? 'opacity-50' : ''}`}
            >
              <span aria-hidden="true" className="cursor-grab px-1 text-stone-500 select-none" title={t('Drag to reorder')}>
                ⠿
              </span>
              <span className="w-6 text-right text-sm text-stone-600">{i + 1}.</span>
              <span className="min-w-0 flex-1 basis-32 [overflow-wrap:anywhere]">
                {x.attributes.entry_id ? (
                  <Link to={`/entry/${x.attributes.entry_id}`} className="font-semibold hover:underline">
                    {title}
                  </Link>
                ) : (
                  <span className="font-semibold">{title}</span>
                )}
                {x.attributes.authors.length > 0 && <span className="ml-2 text-sm text-stone-700">{x.attributes.authors.join(', ')}</span>}
              </span>
              <span className="ml-auto flex shrink-0 gap-1">
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
                  onClick={() => void remove(x, i)}
                >
                  ✕
                </button>
              </span>
              <PartsPicker
                text={x}
                sessionId={sessionId}
                busy={busy}
                onSave={(partial) => send({ action: 'set_partial', session_id: sessionId, text_id: x.id, partial }, () => t('Parts of “{{title}}” saved', { title }))}
              />
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
      {undoStatus}
      {error && (
        <p role="alert" className="mt-2 text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}
