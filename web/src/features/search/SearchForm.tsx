import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SortBy } from '../../lib/shared';
import { Dialog } from '../../components/Dialog';
import { SORT_LABELS, effectiveSort, sortOptionsFor } from './searchState';

interface Props {
  query: string;
  sort?: SortBy;
  onSearch: (query: string, sort?: SortBy) => void;
  /** With onTranslations: the "translations and originals too" checkbox beside the query. */
  translations?: boolean;
  onTranslations?: (on: boolean) => void;
}

/** Text box with clear and help buttons, the sort selector and the Search button. */
export function SearchForm({ query, sort, onSearch, translations, onTranslations }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState(query);
  const [helpOpen, setHelpOpen] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const sortId = useId();
  const translationsId = useId();

  // Back/Forward and links change the URL: the box follows it.
  useEffect(() => setText(query), [query]);

  const options = sortOptionsFor(text);
  const currentSort = effectiveSort(text, sort);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(text);
  };

  return (
    <>
    <form role="search" onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <div className="flex-1">
        <label htmlFor={inputId} className="mb-1 block text-sm font-medium">
          {t('Search the catalogue')}
        </label>
        <div className="flex rounded border border-stone-500 bg-white focus-within:outline-3 focus-within:outline-blue-700">
          <input
            ref={inputRef}
            id={inputId}
            type="search"
            name="query"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={t('Search')}
            autoComplete="off"
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
        </div>
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
      <p>{t('__QUERY_HELP_TYPOS__')}</p>
      <p>{t('__QUERY_HELP_TRANSLATIONS__')}</p>
    </div>
  );
}
