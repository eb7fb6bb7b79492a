import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SortBy, Suggestion } from '../../lib/shared';
import { api } from '../../api/client';
import { Dialog } from '../../components/Dialog';
import { SORT_LABELS, effectiveSort, sortOptionsFor } from './searchState';

interface Props {
  query: string;
  sort?: SortBy;
  onSearch: (query: string, sort?: SortBy) => void;
  /** With onTranslations: the "translations and originals too" checkbox beside the query. */
  translations?: boolean;
  onTranslations?: (on: boolean) => void;
  /** Titles and authors suggested as the reader types (GET /suggest). */
  suggest?: boolean;
  /** Called after a submit (Enter or the Search button), not after a new sort: where the focus goes next. */
  onSubmitted?: () => void;
}

/** Waits this long after the last key before asking for suggestions. */
const SUGGEST_DELAY_MS = 150;

/** Text box with clear and help buttons, the sort selector and the Search button. */
export function SearchForm({ query, sort, onSearch, translations, onTranslations, suggest, onSubmitted }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState(query);
  const [helpOpen, setHelpOpen] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const sortId = useId();
  const translationsId = useId();
  const listId = useId();
  const navigate = useNavigate();
  // Suggestions: asked for only after the reader typed (not when the URL sets the text).
  const [typed, setTyped] = useState(false);
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  // Back/Forward and links change the URL: the box follows it.
  useEffect(() => {
    setText(query);
    setTyped(false);
    setOpen(false);
  }, [query]);

  useEffect(() => {
    if (!suggest || !typed || text.trim().length < 2) {
      setSuggestions([]);
      setOpen(false);
      return;
    }
    const ctrl = new AbortController();
    const timer = window.setTimeout(() => {
      api.suggest(text.trim(), ctrl.signal).then(
        (r) => {
          setSuggestions(r.suggestions);
          setOpen(r.suggestions.length > 0);
          setActive(-1);
        },
        () => undefined, // no suggestions: the box works as before
      );
    }, SUGGEST_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      ctrl.abort();
    };
  }, [text, typed, suggest]);

  const choose = (s: Suggestion) => {
    setOpen(false);
    setTyped(false);
    navigate(s.type === 'title' ? `/entry/${s.id}` : `/library/author/${s.id}`);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = suggestions.length;
    if (e.key === 'ArrowDown' && n) {
      e.preventDefault();
      if (!open) setOpen(true);
      setActive((a) => (open ? (a + 1) % n : 0));
    } else if (e.key === 'ArrowUp' && open && n) {
      e.preventDefault();
      setActive((a) => (a <= 0 ? n - 1 : a - 1));
    } else if (e.key === 'Enter' && open && active >= 0) {
      e.preventDefault();
      choose(suggestions[active]);
    } else if (e.key === 'Escape' && open) {
      // Closes the list only (the browser would clear a search box).
      e.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const options = sortOptionsFor(text);
  const currentSort = effectiveSort(text, sort);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setOpen(false);
    setTyped(false);
    onSearch(text);
    onSubmitted?.();
  };

  return (
    <>
    <form role="search" onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <div className="flex-1">
        <label htmlFor={inputId} className="mb-1 block text-sm font-medium">
          {t('Search the catalogue')}
        </label>
        <div className="relative flex rounded border border-stone-500 bg-white focus-within:outline-3 focus-within:outline-blue-700">
          <input
            ref={inputRef}
            id={inputId}
            type="search"
            name="query"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setTyped(true);
            }}
            onKeyDown={suggest ? onKeyDown : undefined}
            onBlur={() => setOpen(false)}
            placeholder={t('Search')}
            autoComplete="off"
            // ARIA 1.2 combobox pattern (allowed on type=search): the box owns the suggestion list.
            role={suggest ? 'combobox' : undefined}
            aria-expanded={suggest ? open : undefined}
            aria-autocomplete={suggest ? 'list' : undefined}
            aria-controls={open ? listId : undefined}
            aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
            // The app has its own clear button: hide the browser's (UX review: two clear buttons).
            className="min-w-0 flex-1 rounded bg-transparent px-3 py-2 outline-none placeholder:text-stone-600 [&::-webkit-search-cancel-button]:appearance-none [&::-webkit-search-decoration]:appearance-none"
          />
          {text !== '' && (
            <button
              type="button"
              className="icon-btn"
              title={t('Clear the query')}
              aria-label={t('Clear the query')}
              onClick={() => {
                setText('');
                inputRef.current?.focus();
              }}
            >
              <span aria-hidden="true">✕</span>
            </button>
          )}
          <button
            type="button"
            className="icon-btn"
            title={t('Help on the query syntax')}
            aria-label={t('Help on the query syntax')}
            aria-haspopup="dialog"
            onClick={() => setHelpOpen(true)}
          >
            <span aria-hidden="true">?</span>
          </button>
          {open && (
            <ul
              id={listId}
              role="listbox"
              aria-label={t('Suggestions')}
              className="absolute top-full right-0 left-0 z-20 mt-1 max-h-80 overflow-y-auto rounded border border-stone-500 bg-white py-1 shadow-lg"
            >
              {suggestions.map((s, i) => (
                <li
                  key={`${s.type}${s.id}`}
                  id={`${listId}-${i}`}
                  role="option"
                  aria-selected={i === active}
                  // mousedown: chosen before the box's blur closes the list.
                  onMouseDown={(e) => {
                    e.preventDefault();
                    choose(s);
                  }}
                  onMouseEnter={() => setActive(i)}
                  className={`cursor-pointer px-3 py-1 ${i === active ? 'bg-blue-700 text-white' : ''}`}
                >
                  {s.type === 'author' ? (
                    <>
                      {s.value} <span className={`text-sm ${i === active ? '' : 'text-stone-700'}`}>({t('Author')})</span>
                    </>
                  ) : (
                    <>
                      <span className="font-medium">{s.value}</span>
                      {s.detail && <span className={`text-sm ${i === active ? '' : 'text-stone-700'}`}> · {s.detail}</span>}
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
        {suggest && (
          <p role="status" className="sr-only">
            {open ? t('Suggestions: {{number}}. Up and down arrows to choose.', { number: suggestions.length }) : ''}
          </p>
        )}
        {onTranslations && (
          <div className="mt-1 flex items-center gap-2 text-sm">
            <input
              id={translationsId}
              type="checkbox"
              checked={!!translations}
              onChange={(e) => onTranslations(e.target.checked)}
              className="h-4 w-4"
            />
            <label htmlFor={translationsId}>{t('Include translations and originals')}</label>
          </div>
        )}
      </div>
      <div>
        <label htmlFor={sortId} className="mb-1 block text-sm font-medium">
          {t('Sort results')}
        </label>
        <select
          id={sortId}
          value={currentSort}
          onChange={(e) => onSearch(text, e.target.value as SortBy)}
          className="w-full rounded border border-stone-500 bg-white px-2 py-2 sm:w-auto"
        >
          {options.map((o) => (
            <option key={o} value={o}>
              {t(SORT_LABELS[o])}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn btn-primary w-full sm:w-auto">
        {t('Search')}
      </button>
    </form>
    <Dialog open={helpOpen} title={t('Help on the query syntax')} onClose={() => setHelpOpen(false)}>
      <QueryHelp />
    </Dialog>
    </>
  );
}

export function QueryHelp() {
  const { t } = useTranslation();
  return (
    <div className="space-y-3">
      <p>{t('__QUERY_HELP__')}</p>
      <p>{t('__QUERY_HELP_MORE__')}</p>
      <p>{t('For example:')}</p>
      <pre className="rounded bg-stone-100 p-3 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">
        <code>title:revolution author:kropot* "mutual aid"</code>
      </pre>
      <p>{t('__QUERY_HELP_SCRIPTS__')}</p>
      <p>{t('__QUERY_HELP_FORMS__')}</p>
      <p>{t('__QUERY_HELP_TYPOS__')}</p>
      <p>{t('__QUERY_HELP_TRANSLATIONS__')}</p>
      <p>{t('__QUERY_HELP_SUGGEST__')}</p>
      <p>{t('__QUERY_HELP_SNIPPETS__')}</p>
    </div>
  );
}
