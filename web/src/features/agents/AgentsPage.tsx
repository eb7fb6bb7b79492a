import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAgentSearch } from '../../api/hooks';
import { useCurrentUser } from '../../api/account';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { AgentCard } from './AgentCard';
import { MergeColumn } from '../curation/MergeBox';
import { Notice } from '../curation/Notice';
import { AGENT_BOXES } from '../curation/boxes';

/** Typing waits this long before searching (the anchor searched on every keystroke). */
export const TYPE_AHEAD_MS = 350;

/** /agent: the author overview (spec §2 Author overview); the search lives in ?search=. */
export default function AgentsPage() {
  const { t } = useTranslation();
  const inputId = useId();
  const [params, setParams] = useSearchParams();
  const search = (params.get('search') ?? '').trim();
  const [text, setText] = useState(search);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const { data, error, isFetching } = useAgentSearch(search);

  // Back/Forward and links change the URL: the box follows.
  useEffect(() => {
    setText((current) => (current.trim() === search ? current : search));
  }, [search]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const commit = (value: string, replace: boolean) => {
    clearTimeout(timer.current);
    const v = value.trim();
    if (v === search) return;
    const next = new URLSearchParams(params);
    if (v) next.set('search', v);
    else next.delete('search');
    setParams(next, { replace, preventScrollReset: true });
  };

  const hasSearch = search !== '';
  const heading = hasSearch && data && !error ? t('authors_matching', { query: search, count: data.matches }) : t('Authors');
  useDocumentTitle(hasSearch ? `${t('Authors')}: ${search}` : t('Authors'));
  const warning = data?.warning ? t(data.warning) : '';
  const agents = hasSearch && !error ? (data?.agents ?? []) : [];
  // The merge and split boxes for users enabled for merging: the flag comes with the author search
  // (before any search, from the user check, so the boxes' contents can be seen and committed).
  const { user } = useCurrentUser();
  const canMerge = data ? data.can_merge : !!user?.can_merge;

  return (
    <div className="mx-auto max-w-screen-2xl px-4 py-6">
      <div aria-live="polite" aria-atomic="true">
        <h1 className="text-3xl font-semibold">{heading}</h1>
      </div>
      <form
        role="search"
        className="mt-4 flex max-w-xl flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          commit(text, false);
        }}
      >
        <div className="grow">
          <label htmlFor={inputId} className="mb-1 block font-medium">
            {t('Search authors')}
          </label>
          <input
            id={inputId}
            type="search"
            value={text}
            onChange={(e) => {
              const v = e.target.value;
              setText(v);
              clearTimeout(timer.current);
              timer.current = setTimeout(() => commit(v, true), TYPE_AHEAD_MS);
            }}
            placeholder={t('Type here to search authors')}
            className="w-full rounded border border-stone-500 bg-white px-3 py-2"
            autoComplete="off"
          />
        </div>
        <button type="submit" className="btn btn-primary">
          {t('Search')}
        </button>
      </form>

      <div className="mt-4" aria-live="polite">
        {!hasSearch && <p className="text-lg font-medium text-amber-900">{t('Please search')}</p>}
        {hasSearch && error && (
          <p className="text-red-800">{error.message || t('The catalogue could not be reached. Please try again later.')}</p>
        )}
        {hasSearch && warning && <p className="text-lg font-medium text-amber-900">{warning}</p>}
        {hasSearch && isFetching && (
          <p role="status" className="text-stone-700">
            {t('Loading...')}
          </p>
        )}
        {hasSearch && data && !error && agents.length === 0 && !isFetching && (
          <p className="text-lg">{t('No author found.')}</p>
        )}
      </div>

      <div className={canMerge ? 'mt-4 grid gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]' : 'mt-4'}>
        <div className="min-w-0">
          {agents.length > 0 && (
            <ul
              className={`grid gap-4 sm:grid-cols-2 ${canMerge ? 'xl:grid-cols-3' : 'lg:grid-cols-3 xl:grid-cols-4'}`}
              aria-busy={isFetching}
            >
              {agents.map((a) => (
                <li key={a.id}>
                  <AgentCard agent={a} canMerge={canMerge} />
                </li>
              ))}
            </ul>
          )}
        </div>
        {canMerge && (
          <div className="lg:sticky lg:top-2 lg:max-h-[calc(100vh-1rem)] lg:self-start lg:overflow-y-auto">
            <MergeColumn kinds={AGENT_BOXES} />
          </div>
        )}
      </div>
      <Notice />
    </div>
  );
}
