// The count step of a search: one pass over the matches keeps what the viewer may see and what passes
// the active filters, then counts each facet's values (each facet over the other active filters). The
// whole catalogue as a viewer sees it (the listing without query or filter, every visitor's first page)
// is counted once per index change.
import { FACET_NAMES, type FilterName } from '@uc/shared';
import type { FacetColumn, MemoryIndex } from './memory-index.ts';
import { countFacet, scanEntries } from './scan.ts';

/** Viewer scopes whose whole-catalogue counts are kept (anonymous visitors share one). */
const WHOLE_CATALOGUE_VIEWS = 8;

/** An active filter (filter_<facet>): the codes of its values in the facet's dictionary. */
export interface ActiveFilter {
  name: FilterName;
  codes: Uint8Array;
  facetIndex: number;
}

export interface CountInput {
  /** The query's match set (null: no query, every entry). */
  candidates: Uint8Array | null;
  active: ActiveFilter[];
  hidden: ((id: number) => boolean) | null;
  libVisible: Uint8Array;
  columns: Record<FilterName, FacetColumn>;
  /** The viewer scope's key when neither query nor filter narrows the catalogue; else null. */
  whole: string | null;
}

export class MatchCounter {
  /** The matches, reused (a search runs to its end before the next starts). */
  private ids = new Int32Array(0);
  /** The whole catalogue's visible entries and facet counts per index version and viewer scope (newest last). */
  private wholeCatalogue = new Map<string, { results: Int32Array; counts: Int32Array[] }>();
  private wholeCatalogueSeq = -1;

  /** The visible matches passing the filters, and the facet counts in FACET_NAMES order (the caller may change them). */
  count(index: MemoryIndex, input: CountInput): { results: Int32Array; counts: Int32Array[] } {
    const { candidates, active, hidden, libVisible, columns, whole } = input;
    if (this.wholeCatalogueSeq !== index.seq) {
      this.wholeCatalogue.clear();
      this.wholeCatalogueSeq = index.seq;
    }
    const known = whole === null ? undefined : this.wholeCatalogue.get(whole);
    if (known) return { results: known.results, counts: known.counts.map((c) => c.slice()) }; // `facets` zeroes hidden values in place
    const counts = FACET_NAMES.map((f) => new Int32Array(index.dicts[f].size + 1));
    const scan = scanEntries({
      capacity: index.capacity, present: index.present, candidates, hidden, library: index.columns.library, libVisible,
      active: active.map((a) => ({ column: columns[a.name], codes: a.codes, facetIndex: a.facetIndex })), facets: FACET_NAMES.length,
      out: this.ids.length >= index.capacity ? this.ids : (this.ids = new Int32Array(index.capacity)),
    });
    let results = scan.results;
    // Facet counts, one tight loop per column (each facet over the other active filters).
    FACET_NAMES.forEach((name, k) => {
      const only = name === 'library' ? libVisible : null;
      countFacet(columns[name], scan.results, counts[k]!, only);
      countFacet(columns[name], scan.partial[k]!, counts[k]!, only);
    });
    if (whole !== null) {
      results = results.slice(); // out of the reused array
      if (this.wholeCatalogue.size >= WHOLE_CATALOGUE_VIEWS) this.wholeCatalogue.delete(this.wholeCatalogue.keys().next().value!);
      this.wholeCatalogue.set(whole, { results, counts: counts.map((c) => c.slice()) });
    }
    return { results, counts };
  }
}
