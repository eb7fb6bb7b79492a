import type { TFunction } from 'i18next';
import {
  AGGREGATE_SPECIAL,
  DOWNLOAD_TYPES,
  TRANSLATE_VALUES,
  type FacetName,
  type FilterName,
} from '../../lib/shared';
import { languageName } from '../../lib/intl';

// English source strings; the t() calls below translate them.
export const FACET_TITLES: Record<FilterName, string> = {
  language: 'Language',
  creator: 'Authors',
  library: 'Libraries',
  date: 'Date',
  download: 'Download Types',
  aggregate: 'Aggregations',
  translate: 'Translations',
};

/** Facets offering 'by term' / 'by count' (Download Types and Aggregations do not). */
export const SORTABLE_FACETS: readonly FacetName[] = ['language', 'creator', 'library', 'date'];

function lookup(table: Record<string, string>, id: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(table, id) ? table[id] : undefined;
}

// One helper for language names (Intl.DisplayNames in the interface language), shared by every screen.
export { languageName };

/**
 * The label of a facet value: download, aggregate and translate specials are translated, languages are
 * named in the interface language (`uiLanguage`) when the browser knows the code.
 */
export function facetValueLabel(t: TFunction, name: FilterName, id: string, term?: string, uiLanguage?: string): string {
  const special =
    name === 'download'
      ? lookup(DOWNLOAD_TYPES, id)
      : name === 'aggregate'
        ? lookup(AGGREGATE_SPECIAL, id)
        : name === 'translate'
          ? lookup(TRANSLATE_VALUES, id)
          : undefined;
  if (special) return t(special);
  if (name === 'language' && uiLanguage) {
    const named = languageName(id, uiLanguage);
    if (named) return named;
  }
  return term && term.trim() !== '' ? term : id;
}

export const LIBRARY_TYPE_LABELS: Record<string, string> = {
  digital: 'Digital library',
  physical: 'Physical library',
  closed: 'Closed library',
};
