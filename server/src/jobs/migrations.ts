import { sql, type Kysely, type Migration } from 'kysely';

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

/** Durable jobs of every kind (book builds now, CSV processing later). */
export const jobsMigrations: Record<string, Migration> = {
  '2026-11-21-0400-jobs': {
    async up(db: Kysely<any>) {
      await db.schema.createTable('jobs')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('inactive').check(sql`status IN ('inactive', 'active', 'finished', 'failed')`))
        .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('result', 'text')
        .addColumn('error', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(3))
        .addColumn('worker', 'text')
        .addColumn('heartbeat', 'text')
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('started', 'text')
        .addColumn('finished', 'text')
        .execute();
      await db.schema.createIndex('jobs_status_id').on('jobs').columns(['status', 'id']).execute();
    },
  },
};
