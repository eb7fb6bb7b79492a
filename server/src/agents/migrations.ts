import type { Kysely, Migration } from 'kysely';

/** Wikidata cards fetched for authors, kept for WIKIDATA_CACHE_SECONDS (a week by default). */
export const agentMigrations: Record<string, Migration> = {
  '2026-11-21-0301-wikidata-cache': {
    async up(db: Kysely<any>) {
      await db.schema.createTable('wikidata_cache')
        .addColumn('wikidata_id', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('card', 'text', (c) => c.notNull())
        /** Milliseconds since the epoch. */
        .addColumn('fetched_at', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('wikidata_cache_pk', ['wikidata_id', 'language'])
        .execute();
    },
  },
};
