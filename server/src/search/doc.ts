// The indexed snapshot of one entry: what a search match shows and what facets count.
import type { FilterName } from '@uc/shared';

export interface IndexDoc {
  entry_id: number;
  title: string;
  subtitle: string;
  creator: { id: number; value: string }[];
  language: { id: string; value: string }[];
  translate: ('translated' | 'translation')[];
  date: number[];
  /** Facet and filter values by name (ids as strings); `library` holds library ids. */
  values: Record<FilterName, string[]>;
  data_sources: { data_source_id: number; library_id: number; year_edition: number | null }[];
  /** Acquisition date (ISO) and transliterated title sort key. */
  datestamp: string;
  sort_title: string;
  /** Agent ids an author exclusion can name (AuthorResolver keys); absent in snapshots written before curation. */
  agent_keys?: number[];
}
