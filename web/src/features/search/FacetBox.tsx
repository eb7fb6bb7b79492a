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

export function FacetBox({ name, facet, isActive, onToggle, rights }: Props) {
  const { t } = useTranslation();
  const [sort, setSort] = useState<FacetSort>('count');
  const headingId = useId();
  const radioName = useId();
  const sortable = SORTABLE_FACETS.includes(name);

  const values = useMemo(() => {
    if (!sortable) return facet.values;
    const copy = [...facet.values];
    if (sort === 'count') {
      copy.sort((a, b) => b.count - a.count || a.term.localeCompare(b.term, undefined, { numeric: true }));
    } else {
      copy.sort((a, b) => a.term.localeCompare(b.term, undefined, { numeric: true, sensitivity: 'base' }));
    }
    return copy;
  }, [facet.values, sort, sortable]);

  return (
    <section aria-labelledby={headingId} className="rounded border border-stone-300 bg-white" data-facet={name}>
      <h3 id={headingId} className="rounded-t bg-amber-900 px-3 py-1.5 font-semibold text-white">
        {t(FACET_TITLES[name])}
      </h3>
      {sortable && (
        <fieldset className="flex flex-wrap items-center gap-x-3 border-b border-stone-200 px-3 py-1 text-sm">
          <legend className="float-left mr-1 font-medium">{t('Sort')}</legend>
          {(['term', 'count'] as const).map((s) => (
            <label key={s} className="inline-flex items-center gap-1">
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
          const label = facetValueLabel(t, name, v.id, v.term);
          return (
            <li key={v.id}>
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
    </section>
  );
}
