import { useCallback, useId, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { foldedIncludes } from '../../../lib/shared';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import { BackButton } from '../../entry/EntryPage';
import { NotFoundPage } from '../../pages/NotFoundPage';
import { curationApi, type ListingField, type ListingType } from '../api';
import { ChangeLogView } from './ChangeLogPage';
import { DuplicatesView } from './DuplicatesPage';
import { EXCLUSION_TYPE_LABELS } from './ExclusionsPage';
import {
  ConfirmDialog, LoadFailure, PageFrame, ResultLine, TableScroll, curationPageKeys, formatDate, inputClass, tdClass,
  thClass, useCurationAction,
} from './shared';

/** The dashboards and their titles (spec §2 Dashboard); 'changes' and 'duplicates' have their own views. */
export const DASHBOARD_TITLES: Record<ListingType | 'duplicates', string> = {
  'merged-agents': 'Merged authors',
  'merged-entries': 'Merged entries',
  translations: 'Translations',
  aggregations: 'Aggregations',
  'split-agents': 'Split authors',
  exclusions: 'My Exclusions',
  changes: 'Change log',
  duplicates: 'Possible duplicates',
};

/** What removing a row of each table does, said in the confirmation. */
const REMOVE_EXPLAINED: Partial<Record<ListingType, string>> = {
  'merged-agents': 'The author is no longer merged into the canonical author.',
  'merged-entries': 'The entry is no longer merged into the canonical entry.',
  translations: 'The entry is no longer marked as a translation of the original.',
  aggregations: 'The item is taken out of the aggregation.',
  'split-agents': 'The split of this author is removed.',
  exclusions: 'The exclusion is removed: what it hid shows in your searches again.',
};

type Row = Record<string, unknown>;
interface SortState {
  name: string;
  dir: 'ascending' | 'descending';
}

/** A cell's text (what the filter and the sort look at). */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function compareCells(a: unknown, b: unknown, collator: Intl.Collator): number {
  const ea = a === null || a === undefined || a === '';
  const eb = b === null || b === undefined || b === '';
  if (ea || eb) return ea === eb ? 0 : ea ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(cellText(a), cellText(b));
}

/**
 * Case-insensitive substring match on any listed field (spec §5 Dashboard search), on the value as
 * stored and as shown (a translated type, a localised date). Folded as the search folds (accents,
 * other scripts: issue 16's one rule for the index, the queries and the UI filters).
 */
export function filterRows(rows: Row[], fields: ListingField[], filter: string, shown: (f: ListingField, v: unknown) => string = (_f, v) => cellText(v)): Row[] {
  const q = filter.trim();
  if (!q) return rows;
  return rows.filter((r) => fields.some((f) => foldedIncludes(cellText(r[f.name]), q) || foldedIncludes(shown(f, r[f.name]), q)));
}

/** /dashboard/:type: the change log, the duplicate suggestions, or a listing table. */
export default function DashboardPage() {
  const { type = '' } = useParams();
  if (type === 'changes') return <ChangeLogView />;
  if (type === 'duplicates') return <DuplicatesView />;
  const listing = type === 'splat-agents' ? 'split-agents' : type;
  if (!(listing in DASHBOARD_TITLES)) return <NotFoundPage />;
  return <ListingView key={listing} type={listing as ListingType} />;
}

function ListingView({ type }: { type: ListingType }) {
  const { t, i18n } = useTranslation();
  const title = t(DASHBOARD_TITLES[type]);
  useDocumentTitle(title);
  const query = useQuery({
    queryKey: curationPageKeys.listing(type),
    queryFn: ({ signal }) => curationApi.listing(type, signal),
    staleTime: 0,
  });
  const filterId = useId();
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<SortState | null>(null);
  const [confirm, setConfirm] = useState<Row | null>(null);
  const { working, result, resultRef, run } = useCurationAction();
  const removable = type !== 'changes';

  const fields = useMemo(() => query.data?.fields ?? [], [query.data]);
  const display = useCallback(
    (f: ListingField, v: unknown) => {
      const text = cellText(v);
      if (f.name === 'type' && text in EXCLUSION_TYPE_LABELS) return t(EXCLUSION_TYPE_LABELS[text as keyof typeof EXCLUSION_TYPE_LABELS]);
      if (f.name === 'created' && typeof v === 'string') return formatDate(v, i18n.language);
      return text;
    },
    [t, i18n.language],
  );
  const rows = useMemo(() => {
    const filtered = filterRows(query.data?.records ?? [], fields, filter, display);
    if (!sort) return filtered;
    const collator = new Intl.Collator(i18n.language || 'en', { numeric: true, sensitivity: 'base' });
    const sign = sort.dir === 'ascending' ? 1 : -1;
    return [...filtered].sort((a, b) => sign * compareCells(a[sort.name], b[sort.name], collator));
  }, [query.data, fields, filter, sort, display, i18n.language]);

  const describe = (r: Row) => fields.map((f) => display(f, r[f.name])).filter(Boolean).join(', ');

  const toggleSort = (name: string) =>
    setSort((s) => (s?.name === name ? { name, dir: s.dir === 'ascending' ? 'descending' : 'ascending' } : { name, dir: 'ascending' }));

  const remove = (r: Row) => {
    setConfirm(null);
    const body = (r.revert as { id: number; item?: number } | undefined) ?? { id: Number(r.id) };
    void run(body.id, () => curationApi.revert(type, body), (res) => t(res.success || 'Done'));
  };

  let body;
  if (query.isPending) {
    body = <p role="status">{t('Loading...')}</p>;
  } else if (query.isError) {
    body = <LoadFailure error={query.error} />;
  } else {
    const total = query.data.records.length;
    body = (
      <>
        <div className="mb-3 flex flex-wrap items-end gap-x-4 gap-y-2">
          <div className="w-full max-w-sm">
            <label htmlFor={filterId} className="mb-1 block font-medium">
              {t('Search table here')}
            </label>
            <input id={filterId} type="search" className={inputClass} value={filter} onChange={(e) => setFilter(e.target.value)} autoComplete="off" />
          </div>
          <p role="status" className="text-stone-800">
            {total > 0 ? t('{{shown}} of {{total}} records', { shown: rows.length, total }) : ''}
          </p>
        </div>
        {query.data.truncated && <p className="mb-3 text-amber-900">{t('Only the first {{count}} records are listed.', { count: total })}</p>}
        {rows.length === 0 ? (
          <p>{t('No records')}</p>
        ) : (
          <TableScroll label={title}>
            <table className="w-full border-collapse">
              <thead className="bg-stone-100">
                <tr className="border-b border-stone-300">
                  {fields.map((f) => {
                    const dir = sort?.name === f.name ? sort.dir : undefined;
                    return (
                      <th key={f.name} scope="col" aria-sort={dir} className={thClass}>
                        <button
                          type="button"
                          className="inline-flex items-center gap-1 rounded px-1 text-left font-semibold hover:bg-stone-200"
                          title={t('Click to sort')}
                          onClick={() => toggleSort(f.name)}
                        >
                          {t(f.label)}
                          <span aria-hidden="true" className="text-stone-600">
                            {dir === 'ascending' ? '▲' : dir === 'descending' ? '▼' : '↕'}
                          </span>
                        </button>
                      </th>
                    );
                  })}
                  {removable && (
                    <th scope="col" className={thClass}>
                      {t('Remove')}
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={cellText(r.revert ?? r.id) || i} className="border-b border-stone-200 last:border-b-0">
                    {fields.map((f) => (
                      <td key={f.name} className={tdClass}>
                        <Cell field={f} text={display(f, r[f.name])} />
                      </td>
                    ))}
                    {removable && (
                      <td className={tdClass}>
                        <button
                          type="button"
                          className="btn"
                          disabled={working}
                          aria-haspopup="dialog"
                          aria-label={t('Remove: {{title}}', { title: describe(r) })}
                          onClick={() => setConfirm(r)}
                        >
                          {t('Remove')}
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </>
    );
  }

  return (
    <PageFrame title={title} actions={<BackButton />}>
      <ResultLine ref={resultRef} result={result} working={working} />
      {body}
      <ConfirmDialog
        open={confirm !== null}
        title={t('Remove this record?')}
        confirmLabel={t('Remove')}
        onCancel={() => setConfirm(null)}
        onConfirm={() => confirm && void remove(confirm)}
      >
        {REMOVE_EXPLAINED[type] && <p className="mb-3">{t(REMOVE_EXPLAINED[type])}</p>}
        {confirm && (
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            {fields.map((f) => (
              <div key={f.name} className="contents">
                <dt className="font-medium">{t(f.label)}</dt>
                <dd className="break-words">{display(f, confirm[f.name])}</dd>
              </div>
            ))}
          </dl>
        )}
      </ConfirmDialog>
    </PageFrame>
  );
}

function Cell({ field, text }: { field: ListingField; text: string }) {
  if (!field.link || text === '' || !/^\d+$/.test(text)) return <>{text}</>;
  const to = field.link === 'entry' ? `/entry/${text}` : `/library/author/${text}`;
  return (
    <Link to={to} className="link">
      {text}
    </Link>
  );
}
