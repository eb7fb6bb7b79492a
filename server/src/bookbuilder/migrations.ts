import { sql, type Kysely, type Migration } from 'kysely';

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

/** Book Builder sessions and the texts copied into them (files under DATA_DIR/bookbuilder/<session>/). */
export const bookbuilderMigrations: Record<string, Migration> = {
  '2026-11-21-0410-bookbuilder': {
    async up(db: Kysely<any>) {
      await db.schema.createTable('book_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('job_id', 'integer')
        /** The last successful build: file name inside the session folder, its job and page count. */
        .addColumn('output', 'text')
        .addColumn('output_job_id', 'integer')
        .addColumn('output_pages', 'integer')
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('last_modified', 'text', (c) => c.notNull().defaultTo(now))
        .execute();
      await db.schema.createIndex('book_sessions_modified').on('book_sessions').column('last_modified').execute();

      await db.schema.createTable('book_session_texts')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('session_id', 'text', (c) => c.notNull().references('book_sessions.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('data_source_id', 'integer', (c) => c.notNull())
        .addColumn('entry_id', 'integer')
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('authors', 'text', (c) => c.notNull().defaultTo('[]'))
        /** Bytes of the copied .muse and .zip. */
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .execute();
      await db.schema.createIndex('book_session_texts_session').on('book_session_texts').columns(['session_id', 'position']).execute();
    },
  },
  /** One table for both builders' sessions: 'book' (texts) or 'cover' (uploaded images). */
  '2026-11-26-0900-cover-sessions': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('book_sessions').addColumn('kind', 'text', (c) => c.notNull().defaultTo('book')).execute();
    },
  },
  /** A partial selection of a text (our addition to `add`): its section numbers as a JSON list; null is the whole text. */
  '2026-11-29-0300-book-text-partial': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('book_session_texts').addColumn('partial', 'text').execute();
    },
  },
};
