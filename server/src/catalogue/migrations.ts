import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../db/pg-open.ts';
import { ENTRY_FTS5_TABLE, PG_ENTRY_TEXT_TABLE } from '../search/fts-text.ts';

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

/** The catalogue core: libraries, sites, data sources, entries, agents, languages, links, pages, settings. */
export const catalogueMigrations: Record<string, Migration> = {
  '2026-11-21-0001-catalogue-core': {
    async up(db: Kysely<any>) {
      await db.schema.createTable('settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('last_modified', 'text', (c) => c.notNull().defaultTo(now))
        .execute();

      await db.schema.createTable('libraries')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('logo_url', 'text')
        .addColumn('library_type', 'text', (c) => c.notNull().defaultTo('digital'))
        .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('email_public', 'text')
        .addColumn('email_internal', 'text')
        .addColumn('opening_hours', 'text')
        .addColumn('description', 'text')
        .addColumn('short_desc', 'text')
        .addColumn('pgp_public_key', 'text')
        .addColumn('address_line_1', 'text')
        .addColumn('address_line_2', 'text')
        .addColumn('address_zip', 'text')
        .addColumn('address_city', 'text')
        .addColumn('address_state', 'text')
        .addColumn('address_country', 'text')
        .addColumn('latitude', 'real')
        .addColumn('longitude', 'real')
        .addColumn('languages', 'text')
        .addColumn('year_established', 'text')
        .addColumn('region', 'text')
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('last_modified', 'text', (c) => c.notNull().defaultTo(now))
        .execute();

      await db.schema.createTable('sites')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('library_id', 'integer', (c) => c.notNull().references('libraries.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('site_type', 'text', (c) => c.notNull().defaultTo('generic'))
        .addColumn('url', 'text')
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('last_modified', 'text', (c) => c.notNull().defaultTo(now))
        .execute();
      await db.schema.createIndex('sites_library').on('sites').column('library_id').execute();

      await db.schema.createTable('languages').addColumn('code', 'text', (c) => c.primaryKey()).execute();

      await db.schema.createTable('agents')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('normalized_name', 'text', (c) => c.notNull())
        .addColumn('wikidata_id', 'text')
        .addColumn('canonical_agent_id', 'integer', (c) => c.references('agents.id').onDelete('set null'))
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('last_modified', 'text', (c) => c.notNull().defaultTo(now))
        .execute();
      await db.schema.createIndex('agents_normalized').on('agents').column('normalized_name').execute();

      await db.schema.createTable('entries')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('subtitle', 'text')
        .addColumn('grouping_key', 'text', (c) => c.notNull())
        .addColumn('canonical_entry_id', 'integer', (c) => c.references('entries.id').onDelete('set null'))
        .addColumn('original_entry_id', 'integer', (c) => c.references('entries.id').onDelete('set null'))
        .addColumn('datestamp', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('last_modified', 'text', (c) => c.notNull().defaultTo(now))
        .execute();
      await db.schema.createIndex('entries_grouping_key').on('entries').column('grouping_key').execute();
      await db.schema.createIndex('entries_canonical').on('entries').column('canonical_entry_id').execute();
      await db.schema.createIndex('entries_original').on('entries').column('original_entry_id').execute();

      await db.schema.createTable('entry_agents')
        .addColumn('entry_id', 'integer', (c) => c.notNull().references('entries.id').onDelete('cascade'))
        .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('entry_agents_pk', ['entry_id', 'agent_id'])
        .execute();
      await db.schema.createIndex('entry_agents_agent').on('entry_agents').column('agent_id').execute();

      await db.schema.createTable('entry_languages')
        .addColumn('entry_id', 'integer', (c) => c.notNull().references('entries.id').onDelete('cascade'))
        .addColumn('language_code', 'text', (c) => c.notNull().references('languages.code'))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('entry_languages_pk', ['entry_id', 'language_code'])
        .execute();

      await db.schema.createTable('aggregation_links')
        .addColumn('aggregation_entry_id', 'integer', (c) => c.notNull().references('entries.id').onDelete('cascade'))
        .addColumn('aggregated_entry_id', 'integer', (c) => c.notNull().references('entries.id').onDelete('cascade'))
        .addColumn('position', 'integer')
        .addPrimaryKeyConstraint('aggregation_links_pk', ['aggregation_entry_id', 'aggregated_entry_id'])
        .execute();
      await db.schema.createIndex('aggregation_links_aggregated').on('aggregation_links').column('aggregated_entry_id').execute();

      await db.schema.createTable('data_sources')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('identifier', 'text', (c) => c.notNull())
        .addColumn('entry_id', 'integer', (c) => c.references('entries.id').onDelete('set null'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('subtitle', 'text')
        .addColumn('authors', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('languages', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('year_edition', 'integer')
        .addColumn('year_first_edition', 'integer')
        .addColumn('description', 'text')
        .addColumn('publisher', 'text')
        .addColumn('isbn', 'text')
        .addColumn('shelf_location_code', 'text')
        .addColumn('material_description', 'text')
        .addColumn('edition_statement', 'text')
        .addColumn('place_date_of_publication_distribution', 'text')
        .addColumn('uri', 'text')
        .addColumn('uri_label', 'text')
        .addColumn('content_type', 'text')
        .addColumn('downloads', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('full_text', 'text')
        .addColumn('datestamp', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('last_modified', 'text', (c) => c.notNull().defaultTo(now))
        .addUniqueConstraint('data_sources_site_identifier', ['site_id', 'identifier'])
        .execute();
      await db.schema.createIndex('data_sources_entry').on('data_sources').column('entry_id').execute();

      await db.schema.createTable('data_source_files')
        .addColumn('data_source_id', 'integer', (c) => c.notNull().references('data_sources.id').onDelete('cascade'))
        .addColumn('ext', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('data_source_files_pk', ['data_source_id', 'ext'])
        .execute();

      await db.schema.createTable('pages')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
        .addColumn('location', 'text', (c) => c.notNull().defaultTo('draft'))
        .addColumn('sorting', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('logged_in_only', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('last_modified', 'text', (c) => c.notNull().defaultTo(now))
        .execute();

      // The search index: one JSON snapshot per entry (seq lets every process catch up on changes)
      // and a contentless FTS5 table holding folded text.
      await db.schema.createTable('search_docs')
        .addColumn('entry_id', 'integer', (c) => c.primaryKey())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('doc', 'text')
        .execute();
      await db.schema.createIndex('search_docs_seq').on('search_docs').column('seq').execute();
      if (dialectOf(db) === 'postgres') {
        // PostgreSQL's full-text search instead of FTS5: one tsvector per entry, its four columns as the
        // weights A (title), B (authors), C (body), D (fulltext), so a column filter is a weight filter
        // (word:AB) and ts_rank weighs them like bm25's column weights (docs/architecture.md).
        await sql.raw(`CREATE TEXT SEARCH CONFIGURATION uc_search (COPY = simple);
          ALTER TEXT SEARCH CONFIGURATION uc_search ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH unaccent, simple;
          CREATE TABLE entry_fts (rowid bigint PRIMARY KEY, doc tsvector NOT NULL);
          CREATE INDEX entry_fts_doc ON entry_fts USING gin (doc);`).execute(db);
      } else {
        await sql.raw(ENTRY_FTS5_TABLE).execute(db);
      }
    },
  },
  '2026-11-25-0800-search-doc-libraries': {
    /** The holding libraries of an index row, apart from its document: triggers (OAI-PMH records) read them without parsing the document. */
    async up(db: Kysely<any>) {
      await db.schema.alterTable('search_docs').addColumn('libraries', 'text').execute();
      const library = dialectOf(db) === 'postgres' ? sql`(doc::jsonb #> '{values,library}')::text` : sql`json_extract(doc, '$.values.library')`;
      await sql`UPDATE search_docs SET libraries = ${library} WHERE doc IS NOT NULL`.execute(db);
    },
  },
  '2026-11-28-1000-search-doc-layers': {
    /** The private libraries whose full-text layer rows an entry has (search/layers.ts): the indexer drops them when it rewrites the entry. */
    async up(db: Kysely<any>) {
      await db.schema.alterTable('search_docs').addColumn('layers', 'text').execute();
    },
  },
  '2026-11-26-1200-data-source-uri': {
    /** GET /check-internal-url looks texts up by their address (once per link in a description). */
    async up(db: Kysely<any>) {
      await db.schema.createIndex('data_sources_uri').on('data_sources').column('uri').execute();
    },
  },
  '2026-11-28-1200-library-revision': {
    /**
     * Counts a library's updates: LibraryService's cache compares the sum with what it read (another
     * process's rename within the same millisecond left `last_modified` unchanged and the cache stale).
     */
    async up(db: Kysely<any>) {
      await db.schema.alterTable('libraries').addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
  '2026-11-29-0700-pg-entry-texts': {
    /**
     * PostgreSQL: entry_fts holds each index row's texts instead of a GIN-indexed tsvector; every app
     * node searches them in a SQLite FTS5 file of its own (search/text-mirror.ts). The stored index
     * format is forgotten, so the next start rebuilds the rows (Indexer.ensureFormat).
     */
    async up(db: Kysely<any>) {
      if (dialectOf(db) !== 'postgres') return;
      await sql.raw(`DROP TABLE entry_fts;
        DROP TEXT SEARCH CONFIGURATION IF EXISTS uc_search;
        ${PG_ENTRY_TEXT_TABLE}
        DELETE FROM settings WHERE name = 'index_format';`).execute(db);
    },
  },
};
