// The indexed snapshot of one entry: what a search match shows and what facets count.
import type { FilterName } from '@uc/shared';

export interface IndexDoc {
  entry_id: number;
  title: string;
  subtitle: string;
  creator: { id: number; value: string }[];
  language: { id: string; value: string }[];
  translate: ('translated' | 'translation')[];
  /** Years of the copies anyone may see (those of active public libraries). */
  date: number[];
  /**
   * Facet and filter values by name (ids as strings); `library` holds every holding library's id,
   * `date` and `download` the values of the copies anyone may see.
   */
  values: Record<FilterName, string[]>;
  /** Every copy; a viewer is shown those of the libraries they may see (years and download kind absent before index format 3). */
  data_sources: {
    data_source_id: number; library_id: number; year_edition: number | null;
    year_first_edition?: number | null; download?: 'text' | 'raw' | 'none';
  }[];
  /** Private libraries with copies here, each with a full-text layer row (search/layers.ts). */
  layers?: number[];
  /** Acquisition date (ISO) and transliterated title sort key. */
  datestamp: string;
  sort_title: string;
  /** Agent ids an author exclusion can name (AuthorResolver keys); absent in snapshots written before curation. */
  agent_keys?: number[];
}
