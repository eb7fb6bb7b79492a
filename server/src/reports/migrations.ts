import { sql, type Kysely, type Migration } from 'kysely';

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

/** Reports sent through the site (bug reports, data-source errors and questions); the e-mail is in the outbox. */
export const reportMigrations: Record<string, Migration> = {
  '2026-11-21-0302-reports': {
    async up(db: Kysely<any>) {
      await db.schema.createTable('reports')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('sender', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer')
        .addColumn('library_id', 'integer', (c) => c.references('libraries.id').onDelete('set null'))
        .addColumn('data_source_id', 'integer', (c) => c.references('data_sources.id').onDelete('set null'))
        .addColumn('outbox_id', 'integer', (c) => c.references('outbox.id').onDelete('set null'))
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .execute();
    },
  },
};
