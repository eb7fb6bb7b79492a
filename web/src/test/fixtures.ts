// Fixtures typed by the shared API contract.
import type { DataSource, Entry, General, LibraryPublic, Agent, SearchResponse, Match } from '../lib/shared';

export const general: General = {
  site_name: 'Test Catalogue',
  site_logo: '',
  description: 'A test',
  contact_email: 'info@example.org',
};

export function match(id: number, title: string, extra: Partial<Match> = {}): Match {
  return {
    entry_id: id,
    title: [{ id, value: title }, { id, value: '' }],
    creator: [{ id: 7, value: 'Mikhail Bakunin' }],
    language: [{ id: 'en', value: 'English' }],
    translate: [],
    date: [{ id: 1882, value: 1882 }],
    data_sources: [{ data_source_id: id * 10, library_id: 3, library_name: 'Bibliotheca Test', library_type: 'digital', year_edition: 1882 }],
    ...extra,
  };
}

export function searchResponse(extra: Partial<SearchResponse> = {}): SearchResponse {
  return {
    matches: [match(1, 'God and the State'), match(2, 'Statism and Anarchy')],
    facets: {
      language: {
        name: 'language',
        values: [
          { id: 'en', key: 'languageen', term: 'English', count: 2, active: false },
          { id: 'it', key: 'languageit', term: 'Italiano', count: 5, active: false },
          { id: 'de', key: 'languagede', term: 'Deutsch', count: 1, active: false },
        ],
      },
      creator: { name: 'creator', values: [{ id: '7', key: 'creator7', term: 'Mikhail Bakunin', count: 2, active: false }] },
      library: { name: 'library', values: [{ id: '3', key: 'library3', term: 'Bibliotheca Test', count: 2, active: false }] },
      date: { name: 'date', values: [{ id: '1882', key: 'date1882', term: '1882', count: 2, active: false }] },
      download: {
        name: 'download',
        values: [
          { id: 'text', key: 'downloadtext', term: 'text', count: 1, active: false },
          { id: 'raw', key: 'downloadraw', term: 'raw', count: 1, active: false },
        ],
      },
      aggregate: {
        name: 'aggregate',
        values: [{ id: 'no_aggregations', key: 'aggregateno_aggregations', term: 'no_aggregations', count: 2, active: false }],
      },
    },
    filters: {},
    pager: [],
    total_entries: 2,
    page_number: 1,
    page_size: 10,
    sort_by: 'datestamp',
    can_merge: false,
    can_set_exclusions: false,
    is_authenticated: false,
    pretty_query: '',
    querystring: '',
    ...extra,
  };
}

export function dataSource(extra: Partial<DataSource> = {}): DataSource {
  return {
    data_source_id: 11,
    library_id: 3,
    library_name: 'Bibliotheca Test',
    library_type: 'digital',
    title: 'God and the State',
    subtitle: null,
    authors: ['Mikhail Bakunin'],
    year_edition: 1882,
    year_first_edition: 1882,
    languages: ['en'],
    description: 'First line\nSecond line',
    shelf_location_code: 'A-12',
    material_description: null,
    isbn: '9780486224831',
    publisher: 'Mother Earth',
    edition_statement: null,
    place_date_of_publication_distribution: 'New York, 1916',
    site_type: 'amusewiki',
    uri: 'https://library.example.org/library/god-and-state',
    uri_label: 'Read on the library site',
    koha_url: null,
    content_type: 'text/html',
    downloads: [
      { code: 'pdf', ext: '.pdf', desc: 'PDF' },
      { code: 'epub', ext: '.epub', desc: 'EPUB' },
    ],
    aggregated: false,
    aggregations: [],
    public: true,
    report_error: false,
    identifier: 'oai:library.example.org:god-and-state',
    has_full_text: true,
    has_pdf: true,
    can_add_to_bookbuilder: true,
    ...extra,
  };
}

export function entry(extra: Partial<Entry> = {}): Entry {
  return {
    id: 1,
    title: 'God and the State',
    subtitle: 'An essay',
    authors: [{ id: 7, value: 'Mikhail Bakunin' }],
    languages: [{ id: 'en', value: 'English' }],
    original_entry: null,
    translations: [],
    aggregations: [],
    aggregated: [],
    data_sources: [dataSource()],
    ...extra,
  };
}

export const library: LibraryPublic = {
  id: 3,
  name: 'Bibliotheca Test',
  url: 'https://library.example.org',
  logo_url: null,
  library_type: 'physical',
  public: true,
  active: true,
  established: null,
  year_established: null,
  languages: null,
  description: null,
  short_desc: 'A small social-centre library.',
  opening_hours: null,
  email_public: null,
  address_line_1: null,
  address_line_2: null,
  address_zip: null,
  address_state: null,
  address_city: 'Zagreb',
  address_country: 'Croatia',
  pgp_public_key: null,
  latitude: null,
  longitude: null,
  region: null,
  catalog_is_accessible: true,
};

export const agent: Agent = { id: 7, name: 'Mikhail Bakunin', wikidata_id: null, canonical: null, search_link_id: 7 };
