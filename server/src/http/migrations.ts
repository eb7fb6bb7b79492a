import type { Kysely, Migration } from 'kysely';

/** Rate-limit counters shared by every process (key = scope|subject; reset_at in epoch milliseconds). */
export const httpMigrations: Record<string, Migration> = {
  '2026-11-26-1000-rate-limits': {
    async up(db: Kysely<any>) {
      await db.schema.createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('reset_at', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rate_limits_reset').on('rate_limits').column('reset_at').execute();
    },
  },
};
