import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import { BackButton } from '../../entry/EntryPage';
import { curationApi, type DuplicateGroup, type ItemType } from '../api';
import { CHANGE_DONE } from '../boxes';
import { languageName } from '../../search/labels';
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
  const { t, i18n } = useTranslation();
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
  // The record each group keeps (the canonical one), chosen by the curator; the suggestion by default.
  const [keep, setKeep] = useState<Record<string, number>>({});
  const groupId = (g: DuplicateGroup) => `${g.kind}-${g.key}-${g.items[0]?.id}`;
  const withKeptFirst = (g: DuplicateGroup): DuplicateGroup => {
    const kept = keep[groupId(g)];
    const first = g.items.find((i) => i.id === kept) ?? g.items[0];
    return { ...g, items: [first, ...g.items.filter((i) => i !== first)] };
  };
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
        {query.data.groups.map((g) => {
          const gid = groupId(g);
          const kept = keep[gid] ?? g.items[0]?.id;
          return (
            <li key={gid} className="rounded border border-stone-300 bg-white p-3">
              <h2 id={`${id}-${gid}`} className="font-semibold break-words">{g.items[0]?.label}</h2>
              <p className="text-sm text-stone-700">{t('Matched on “{{key}}”', { key: g.key })}</p>
              {/* The records side by side (stacked on a phone), each with what tells them apart. */}
              <fieldset className="mt-2" aria-describedby={`${id}-${gid}`}>
                <legend className="text-sm font-medium">{t('Which record to keep? The others are merged into it.')}</legend>
                <ul className="mt-1 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
                  {g.items.map((item, i) => (
                    <li key={item.id} className={`min-w-0 rounded border p-2 ${item.id === kept ? 'border-amber-800 bg-amber-50' : 'border-stone-300'}`}>
                      <label className="flex items-start gap-2 font-medium">
                        <input type="radio" name={`${id}-keep-${gid}`} checked={item.id === kept} onChange={() => setKeep((k) => ({ ...k, [gid]: item.id }))} className="mt-1" />
                        <span>
                          {t('Keep this one')}
                          {i === 0 ? <span className="font-normal text-stone-700"> ({t('suggested canonical')})</span> : null}
                        </span>
                      </label>
                      <Link className="link block break-words" to={itemLink(g.kind, item.id)}>
                        {item.label}
                      </Link>
                      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-sm">
                        <dt className="text-stone-700">{g.kind === 'author' ? t('Entries') : t('Holdings')}</dt>
                        <dd>{item.entries}</dd>
                        {item.years && item.years.length > 0 && (
                          <>
                            <dt className="text-stone-700">{t('Years')}</dt>
                            <dd>{item.years.join(', ')}</dd>
                          </>
                        )}
                        {item.languages && item.languages.length > 0 && (
                          <>
                            <dt className="text-stone-700">{t('Languages')}</dt>
                            <dd>{item.languages.map((l) => languageName(l, i18n.language) ?? l).join(', ')}</dd>
                          </>
                        )}
                        {item.libraries && item.libraries.length > 0 && (
                          <>
                            <dt className="text-stone-700">{t('Libraries')}</dt>
                            <dd className="break-words">{item.libraries.join(', ')}</dd>
                          </>
                        )}
                      </dl>
                    </li>
                  ))}
                </ul>
              </fieldset>
              <button
                type="button"
                className="btn mt-2"
                disabled={working || g.items.length < 2}
                aria-haspopup="dialog"
                aria-label={t('Merge these: {{names}}', { names: g.items.map((i) => i.label).join(', ') })}
                onClick={() => setConfirm(withKeptFirst(g))}
              >
                {t('Merge these')}
              </button>
            </li>
          );
        })}
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
