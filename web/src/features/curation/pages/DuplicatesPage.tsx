import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import { BackButton } from '../../entry/EntryPage';
import { curationApi, type DuplicateGroup, type ItemType } from '../api';
import { CHANGE_DONE } from '../boxes';
import {
  ConfirmDialog, LoadFailure, PageFrame, ResultLine, curationPageKeys, useCurationAction,
} from './shared';

const KINDS: ItemType[] = ['author', 'entry'];
const KIND_LABELS: Record<ItemType, string> = { author: 'Authors', entry: 'Entries' };

const itemLink = (kind: ItemType, id: number) => (kind === 'author' ? `/library/author/${id}` : `/entry/${id}`);

/** /dashboard/duplicates: authors and entries that look alike, each group mergeable in one step. */
export default function DuplicatesPage() {
  return <DuplicatesView />;
}

export function DuplicatesView() {
  const { t } = useTranslation();
  const title = t('Possible duplicates');
  useDocumentTitle(title);
  const [params, setParams] = useSearchParams();
  const kind: ItemType = params.get('kind') === 'entry' ? 'entry' : 'author';
  const query = useQuery({
    queryKey: curationPageKeys.duplicates(kind),
    queryFn: ({ signal }) => curationApi.duplicates(kind, signal),
    staleTime: 0,
  });
  const id = useId();
  const tabs = useRef(new Map<ItemType, HTMLButtonElement | null>());
  const [confirm, setConfirm] = useState<DuplicateGroup | null>(null);
  const { working, result, setResult, resultRef, run } = useCurationAction();

  const select = (k: ItemType) => {
    setResult(null);
    setParams(k === 'author' ? {} : { kind: k }, { replace: true });
  };
  const onTabKey = (e: KeyboardEvent) => {
    const i = KINDS.indexOf(kind);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: KINDS.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const k = KINDS[(next + KINDS.length) % KINDS.length];
    select(k);
    tabs.current.get(k)?.focus();
  };

  const merge = (g: DuplicateGroup) => {
    setConfirm(null);
    const kind = g.kind === 'author' ? 'merge-authors' : 'merge-entries';
    void run(g.key, () => curationApi.commit(kind, g.items.map((i) => ({ id: i.id, label: i.label }))), () => t(CHANGE_DONE));
  };

  let panel;
  if (query.isPending) {
    panel = <p role="status">{t('Loading...')}</p>;
  } else if (query.isError) {
    panel = <LoadFailure error={query.error} />;
  } else if (query.data.groups.length === 0) {
    panel = <p>{t('No records')}</p>;
  } else {
    panel = (
      <ul className="flex flex-col gap-3">
        {query.data.groups.map((g) => (
          <li key={`${g.kind}-${g.key}-${g.items[0]?.id}`} className="rounded border border-stone-300 bg-white p-3">
            <h2 className="font-semibold break-words">{g.items[0]?.label}</h2>
            <p className="text-sm text-stone-700">{t('Matched on “{{key}}”', { key: g.key })}</p>
            <ul className="mt-2 flex flex-col gap-1">
              {g.items.map((item, i) => (
                <li key={item.id} className="break-words">
                  <Link className="link" to={itemLink(g.kind, item.id)}>
                    {item.label}
                  </Link>{' '}
                  <span className="text-stone-700">
                    ({g.kind === 'author' ? t('author_entries', { count: item.entries }) : t('holdings_count', { count: item.entries })}
                    {i === 0 ? `, ${t('suggested canonical')}` : ''})
                  </span>
                </li>
              ))}
            </ul>
            <button
              type="button"
              className="btn mt-2"
              disabled={working || g.items.length < 2}
              aria-haspopup="dialog"
              aria-label={t('Merge these: {{names}}', { names: g.items.map((i) => i.label).join(', ') })}
              onClick={() => setConfirm(g)}
            >
              {t('Merge these')}
            </button>
          </li>
        ))}
      </ul>
    );
  }

  const canonical = confirm?.items[0];
  return (
    <PageFrame title={title} actions={<BackButton />}>
      <div role="tablist" aria-label={title} className="mb-4 flex gap-1 border-b border-stone-300" onKeyDown={onTabKey}>
        {KINDS.map((k) => (
          <button
            key={k}
            ref={(el) => void tabs.current.set(k, el)}
            type="button"
            role="tab"
            id={`${id}-tab-${k}`}
            aria-selected={kind === k}
            aria-controls={`${id}-panel`}
            tabIndex={kind === k ? 0 : -1}
            onClick={() => select(k)}
            className={`-mb-px rounded-t border px-3 py-1.5 ${kind === k ? 'border-stone-300 border-b-white bg-white font-semibold' : 'border-transparent text-stone-700 hover:bg-stone-100'}`}
          >
            {t(KIND_LABELS[k])}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${kind}`}>
        <ResultLine ref={resultRef} result={result} working={working} />
        {panel}
      </div>
      <ConfirmDialog
        open={confirm !== null}
        title={t('Merge these?')}
        confirmLabel={t('Merge')}
        onCancel={() => setConfirm(null)}
        onConfirm={() => confirm && void merge(confirm)}
      >
        {confirm && canonical && (
          <>
            <p>
              {confirm.kind === 'author'
                ? t('“{{name}}” stays as the canonical author; these become its variants:', { name: canonical.label })
                : t('“{{name}}” stays as the canonical entry; these are merged into it:', { name: canonical.label })}
            </p>
            <ul className="mt-2 list-disc pl-6">
              {confirm.items.slice(1).map((i) => (
                <li key={i.id} className="break-words">
                  {i.label}
                </li>
              ))}
            </ul>
            <p className="mt-3">{t('You can undo this from the change log.')}</p>
          </>
        )}
      </ConfirmDialog>
    </PageFrame>
  );
}
