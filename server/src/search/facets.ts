// The facet step of a search: each facet's values from the counts (count.ts), the largest FACET_LIMIT
// and the active ones, with their names; values naming what the viewer may not see count nothing.
import {
  AGGREGATE_SPECIAL, DOWNLOAD_TYPES, FACET_NAMES,
  type Facet, type FacetName, type FilterName, type SearchResponse,
} from '@uc/shared';
import type { LibraryService } from '../libraries/service.ts';
import type { MemoryIndex } from './memory-index.ts';

/** Most values a facet returns (by count); active values are always included. */
export const FACET_LIMIT = 100;

/** Where the facets' names come from. */
export interface FacetNames {
  libraries: ReturnType<LibraryService['all']>;
  agentName: (id: number) => string | undefined;
  /** Titles of aggregations by entry id (kept between searches). */
  entryTitles: (ids: number[]) => Map<number, string>;
  /** Whether a filter value names something the viewer may see (SearchService `namer`). */
  named: (name: FilterName, value: string) => boolean;
}

export function buildFacets(index: MemoryIndex, counts: Int32Array[], filters: Record<string, string[]>, visibleLibs: Set<number>,
  names: FacetNames): SearchResponse['facets'] {
  const out = {} as Record<FacetName, Facet>;
  const { named } = names;
  FACET_NAMES.forEach((name, k) => {
    const dict = index.dicts[name];
    const cnt = counts[k];
    const activeValues = new Set(filters[name] ?? []);
    // Values naming something hidden (see `named`) count nothing and have no name, as nonexistent ids:
    // active ones are listed with 0, the others left out. Counted libraries and authors are visible
    // ones already; an aggregation held only by hidden libraries may have visible parts.
    const hidden = new Set([...activeValues].filter((v) => !named(name, v)));
    if (name === 'aggregate') for (let c = 0; c < dict.size; c++) if (cnt[c] > 0 && !named(name, dict.ids[c])) hidden.add(dict.ids[c]);
    for (const h of hidden) {
      const c = dict.codeOf.get(h);
      if (c !== undefined) cnt[c] = 0;
    }
    // Only the FACET_LIMIT largest counts are sorted: find the count threshold first.
    const threshold = kthLargest(cnt, FACET_LIMIT);
    let values: { id: string; count: number }[] = [];
    for (let c = 0; c < dict.size; c++) {
      if (cnt[c] >= threshold && cnt[c] > 0) values.push({ id: dict.ids[c], count: cnt[c] });
    }
    values.sort((a, b) => b.count - a.count || (a.id < b.id ? -1 : 1));
    const top = values.slice(0, FACET_LIMIT);
    for (const a of activeValues) {
      const c = dict.codeOf.get(a);
      if (c !== undefined && cnt[c] > 0 && !top.some((v) => v.id === a)) top.push({ id: a, count: cnt[c] });
    }
    for (const a of activeValues) if (!top.some((v) => v.id === a)) top.push({ id: a, count: 0 });
    if (name === 'library') values = top.filter((v) => visibleLibs.has(Number(v.id)) || activeValues.has(v.id));
    else values = top;
    const aggregateTitles = name === 'aggregate' ? names.entryTitles(values.filter((v) => !hidden.has(v.id)).map((v) => Number(v.id)).filter(Boolean)) : null;
    out[name] = {
      name,
      values: values.map((v) => ({
        id: v.id,
        key: `${name}${v.id}`,
        term: hidden.has(v.id) ? unknownTerm(name, v.id) : term(name, v.id, dict.terms[dict.codeOf.get(v.id) ?? -1], names, aggregateTitles),
        count: v.count,
        active: activeValues.has(v.id),
      })),
    };
  });
  return out;
}

function term(name: FacetName, id: string, known: string | undefined, names: FacetNames, aggTitles: Map<number, string> | null): string {
  switch (name) {
    case 'library':
      return names.libraries.get(Number(id))?.name ?? id;
    case 'download':
      return DOWNLOAD_TYPES[id as keyof typeof DOWNLOAD_TYPES] ?? id;
    case 'aggregate':
      return AGGREGATE_SPECIAL[id as keyof typeof AGGREGATE_SPECIAL] ?? aggTitles?.get(Number(id)) ?? id;
    case 'creator':
      return known || names.agentName(Number(id)) || 'N/A';
    default:
      return known || id;
  }
}

/** The term `term` gives a value that names nothing (a nonexistent id). */
function unknownTerm(name: FacetName, id: string): string {
  return name === 'creator' ? 'N/A' : id;
}

/** The k-th largest value of counts (1 when fewer than k are non-zero). */
function kthLargest(counts: Int32Array, k: number): number {
  let nonZero = 0;
  for (let i = 0; i < counts.length; i++) if (counts[i] > 0) nonZero++;
  if (nonZero <= k) return 1;
  const vals = new Int32Array(nonZero);
  let j = 0;
  for (let i = 0; i < counts.length; i++) if (counts[i] > 0) vals[j++] = counts[i];
  vals.sort();
  return vals[nonZero - k];
}
