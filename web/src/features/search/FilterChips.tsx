import { useTranslation } from 'react-i18next';
import { FILTER_NAMES, type FilterName, type SearchResponse } from '../../lib/shared';
import type { Filters } from './searchState';
import { FACET_TITLES, facetValueLabel } from './labels';

interface Props {
  filters: Filters;
  facets?: SearchResponse['facets'];
  onRemove: (name: FilterName, value: string) => void;
}

/** One removable chip (a real button) per active filter value. */
export function FilterChips({ filters, facets, onRemove }: Props) {
  const { t, i18n } = useTranslation();
  const chips = FILTER_NAMES.flatMap((name) =>
    (filters[name] ?? []).map((value) => {
      const facet = name === 'translate' ? undefined : facets?.[name];
      const term = facet?.values.find((v) => v.id === value)?.term;
      return { name, value, label: facetValueLabel(t, name, value, term, i18n.language) };
    }),
  );
  if (chips.length === 0) return null;
  return (
    <ul className="flex flex-wrap justify-center gap-2" aria-label={t('Active filters')}>
      {chips.map((c) => (
        <li key={`${c.name}:${c.value}`}>
          <button
            type="button"
            className="inline-flex items-center gap-1 rounded-full border border-amber-900 bg-amber-50 px-3 py-1 text-sm text-amber-950 hover:bg-amber-100"
            title={t('Click to remove the filter')}
            onClick={() => onRemove(c.name, c.value)}
          >
            <span className="font-medium">{t(FACET_TITLES[c.name])}:</span> {c.label}
            <span aria-hidden="true" className="ml-1">
              ✕
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
