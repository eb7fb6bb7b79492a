// Kysely table types of the catalogue core. Later modules add their own tables and types.
import type { Generated } from 'kysely';

export interface SettingsTable { name: string; value: string; last_modified: string }

export interface LibrariesTable {
  id: Generated<number>;
  name: string;
  url: string | null;
  logo_url: string | null;
  library_type: string;
  public: number;
  active: number;
  email_public: string | null;
  email_internal: string | null;
  opening_hours: string | null;
  description: string | null;
  short_desc: string | null;
  pgp_public_key: string | null;
  address_line_1: string | null;
  address_line_2: string | null;
  address_zip: string | null;
  address_city: string | null;
  address_state: string | null;
  address_country: string | null;
  latitude: number | null;
  longitude: number | null;
  languages: string | null;
  year_established: string | null;
  region: string | null;
  created: string;
  last_modified: string;
}

export interface SitesTable {
  id: Generated<number>;
  library_id: number;
  title: string;
  site_type: string;
  url: string | null;
  active: number;
  csv_type: string | null;
  oai_set: string | null;
  oai_metadata_format: string | null;
  harvest_interval_minutes: number;
  tree_path: string | null;
  last_harvested: string | null;
  harvest_from: string | null;
  oai_granularity: string | null;
  oai_deleted_record: string | null;
  last_full_harvest: string | null;
  amusewiki_formats: string | null;
  consecutive_failures: number;
  failure_mailed: number;
  created: string;
  last_modified: string;
}

export interface AgentsTable {
  id: Generated<number>;
  name: string;
  normalized_name: string;
  wikidata_id: string | null;
  canonical_agent_id: number | null;
  created: string;
  last_modified: string;
}

export interface EntriesTable {
  id: Generated<number>;
  title: string;
  subtitle: string | null;
  grouping_key: string;
  canonical_entry_id: number | null;
  original_entry_id: number | null;
  datestamp: string;
  created: string;
  last_modified: string;
}

export interface EntryAgentsTable { entry_id: number; agent_id: number; position: number }
export interface EntryLanguagesTable { entry_id: number; language_code: string; position: number }
export interface LanguagesTable { code: string }
export interface AggregationLinksTable { aggregation_entry_id: number; aggregated_entry_id: number; position: number | null }

export interface DataSourcesTable {
  id: Generated<number>;
  site_id: number;
  identifier: string;
  entry_id: number | null;
  title: string;
  subtitle: string | null;
  /** JSON list of author names as received. */
  authors: string;
  /** JSON list of language codes. */
  languages: string;
  year_edition: number | null;
  year_first_edition: number | null;
  description: string | null;
  publisher: string | null;
  isbn: string | null;
  shelf_location_code: string | null;
  material_description: string | null;
  edition_statement: string | null;
  place_date_of_publication_distribution: string | null;
  uri: string | null;
  uri_label: string | null;
  content_type: string | null;
  /** JSON list of download formats (muse, zip, pdf, epub...). */
  downloads: string;
  full_text: string | null;
  datestamp: string;
  created: string;
  last_modified: string;
}

export interface DataSourceFilesTable {
  data_source_id: number;
  ext: string;
  path: string;
  content_type: string;
  size: number;
}

export interface PagesTable {
  id: Generated<number>;
  title: string;
  summary: string;
  content: string;
  language: string;
  location: string;
  sorting: number;
  published: number;
  logged_in_only: number;
  created: string;
  last_modified: string;
}

export interface SearchDocsTable { entry_id: number; seq: number; doc: string | null }

export interface Database {
  settings: SettingsTable;
  libraries: LibrariesTable;
  sites: SitesTable;
  agents: AgentsTable;
  entries: EntriesTable;
  entry_agents: EntryAgentsTable;
  entry_languages: EntryLanguagesTable;
  languages: LanguagesTable;
  aggregation_links: AggregationLinksTable;
  data_sources: DataSourcesTable;
  data_source_files: DataSourceFilesTable;
  pages: PagesTable;
  search_docs: SearchDocsTable;
}
