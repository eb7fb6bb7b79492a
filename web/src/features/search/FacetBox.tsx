import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Facet, FacetName } from '../../lib/shared';
import { FACET_TITLES, SORTABLE_FACETS, facetValueLabel } from './labels';
import { MergeHandles } from '../curation/AddToBox';
import { OmitButton } from '../curation/OmitButton';
import type { CurationRights } from './ResultCard';

interface Props {
  name: FacetName;
  facet: Facet;
  isActive: (value: string) => boolean;
  onToggle: (value: string) => void;
  /** Merge handles on author values, 'Omit' on library values. */
  rights?: CurationRights;
}

type FacetSort = 'count' | 'term';

const numericId = (id: string) => /^\d{1,10}$/.test(id) && Number(id) > 0;

/** Collapsed facet boxes, remembered for the session (sessionStorage). */
const COLLAPSED_KEY = 'search.collapsedFacets';

function readCollapsed(): string[] {
  try {
    const v: unknown = JSON.parse(window.sessionStorage.getItem(COLLAPSED_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function storeCollapsed(name: FacetName, collapsed: boolean): void {
  try {
    const rest = readCollapsed().filter((n) => n !== name);
    window.sessionStorage.setItem(COLLAPSED_KEY, JSON.stringify(collapsed ? [...rest, name] : rest));
  } catch {
    /* storage unavailable: the state lasts as long as the page */
  }
}

export function FacetBox({ name, facet, isActive, onToggle, rights }: Props) {
  const { t, i18n } = useTranslation();
  const uiLanguage = i18n.language;
  const [sort, setSort] = useState<FacetSort>('count');
  const [collapsed, setCollapsed] = useState(() => readCollapsed().includes(name));
  const headingId = useId();
  const bodyId = useId();
  const radioName = useId();
  const sortable = SORTABLE_FACETS.includes(name);

  const values = useMemo(() => {
    const labelled = facet.values.map((v) => ({ ...v, label: facetValueLabel(t, name, v.id, v.term, uiLanguage) }));
    if (!sortable) return labelled;
    if (sort === 'count') {
      labelled.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label, uiLanguage, { numeric: true }));
    } else {
      labelled.sort((a, b) => a.label.localeCompare(b.label, uiLanguage, { numeric: true, sensitivity: 'base' }));
    }
    return labelled;
  }, [facet.values, sort, sortable, t, name, uiLanguage]);

  const toggleCollapsed = () => {
    storeCollapsed(name, !collapsed);
    setCollapsed(!collapsed);
  };

  return (
    <section aria-labelledby={headingId} className="rounded border border-stone-300 bg-white" data-facet={name}>
      <h3 id={headingId} className={`bg-amber-900 font-semibold text-white ${collapsed ? 'rounded' : 'rounded-t'}`}>
        {/* Collapsing a box takes its checkboxes out of the Tab order (UX review: ~60 Tabs to the results). */}
        <button
          type="button"
          aria-expanded={!collapsed}
          aria-controls={bodyId}
          onClick={toggleCollapsed}
          className="flex w-full items-center justify-between gap-2 rounded px-3 py-1.5 text-left"
        >
          {t(FACET_TITLES[name])}
          <span aria-hidden="true" className="text-xs">
            {collapsed ? '▼' : '▲'}
          </span>
        </button>
      </h3>
      <div id={bodyId} hidden={collapsed}>
        {sortable && (
          <fieldset className="flex flex-wrap items-center gap-x-3 border-b border-stone-200 px-3 py-1 text-sm">
            <legend className="float-left mr-1 font-medium">{t('Sort')}</legend>
            {(['term', 'count'] as const).map((s) => (
              <label key={s} className="inline-flex items-center gap-1 whitespace-nowrap">
                <input
                  type="radio"
                  name={radioName}
                  value={s}
                  checked={sort === s}
                  onChange={() => setSort(s)}
                />
                {s === 'term' ? t('by term') : t('by count')}
              </label>
            ))}
          </fieldset>
        )}
        <ul className="max-h-48 overflow-y-auto px-3 py-2 text-sm">
          {values.map((v) => {
            const label = v.label;
            return (
              <li key={v.key}>
                <label className="flex cursor-pointer items-start gap-2 py-0.5">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={isActive(v.id)}
                    onChange={() => onToggle(v.id)}
                  />
                  <span className="flex-1 break-words">
                    {label} <span className="text-stone-600">({v.count})</span>
                  </span>
                </label>
                {numericId(v.id) && name === 'creator' && rights?.canMerge && (
                  <div className="mb-1 ml-6 flex flex-wrap items-baseline gap-1">
                    <MergeHandles item={{ id: Number(v.id), label: v.term, type: 'author' }} />
                  </div>
                )}
                {numericId(v.id) && name === 'library' && rights?.canExclude && (
                  <div className="mb-1 ml-6 flex flex-wrap items-baseline gap-1">
                    <OmitButton type="library" id={Number(v.id)} label={v.term} />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
