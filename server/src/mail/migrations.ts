import { sql, type Kysely, type Migration } from 'kysely';

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

/** The outbox: every message the site sends, stored before it is handed to SMTP, with its delivery status. */
export const mailMigrations: Record<string, Migration> = {
  '2026-11-21-0300-mail-outbox': {
    async up(db: Kysely<any>) {
      await db.schema.createTable('outbox')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('cc_address', 'text')
        .addColumn('from_address', 'text', (c) => c.notNull())
        .addColumn('reply_to', 'text')
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
        .addColumn('error', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema.createIndex('outbox_status').on('outbox').columns(['status', 'id']).execute();
    },
  },
};
