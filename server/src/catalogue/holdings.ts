// THE rule of where a curated aggregation (an entry with no record of its own) is held: by the libraries
// holding its parts (their own records, or those of entries merged into them). The index and the entry
// page both read it from here.
import type { Dialect } from '../db/connection.ts';
import { idList } from '../db/dialect.ts';

/** Rows (entry_id, library_id) for the record-less aggregations among the entry ids bound as one JSON list. */
export function partLibrariesSql(dialect: Dialect): string {
  return `SELECT DISTINCT l.aggregation_entry_id AS entry_id, s.library_id FROM aggregation_links l
  JOIN entries c ON c.id = l.aggregated_entry_id OR c.canonical_entry_id = l.aggregated_entry_id
  JOIN data_sources d ON d.entry_id = c.id JOIN sites s ON s.id = d.site_id
  WHERE l.aggregation_entry_id IN ${idList(dialect)}
    AND NOT EXISTS (SELECT 1 FROM data_sources o WHERE o.entry_id = l.aggregation_entry_id)`;
}
