import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../db/pg-open.ts';

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

/** Library administration: the spreadsheet format of csv sites, and uploaded spreadsheets. */
export const libraryAdminMigrations: Record<string, Migration> = {
  '2026-11-21-0700-libraryadmin': {
    async up(db: Kysely<any>) {
      const cols = dialectOf(db) === 'postgres'
        ? await sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'sites'`.execute(db)
        : await sql<{ name: string }>`PRAGMA table_info(sites)`.execute(db);
      if (!cols.rows.some((c) => c.name === 'csv_type')) {
        await db.schema.alterTable('sites').addColumn('csv_type', 'text').execute();
      }
      // The file is kept in the row (a few MB at most) until processed: nothing reaches the catalogue
      // before the uploader confirms.
      await db.schema.createTable('spreadsheet_uploads')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('library_id', 'integer', (c) => c.notNull().references('libraries.id').onDelete('cascade'))
        .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('filename', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('content', 'blob')
        .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('replace_all', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('number_of_records', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('bad_rows', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('uploaded'))
        .addColumn('job_id', 'integer')
        .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('stored', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('processed', 'text')
        .execute();
      await db.schema.createIndex('spreadsheet_uploads_site').on('spreadsheet_uploads').column('site_id').execute();
    },
  },
  /**
   * What a spreadsheet job changed, so a failed or killed job can be undone: each data source it
   * touched, with its row as it was before (NULL: the job created it).
   */
  '2026-11-26-1100-spreadsheet-journal': {
    async up(db: Kysely<any>) {
      await db.schema.createTable('spreadsheet_journal')
        .addColumn('upload_id', 'integer', (c) => c.notNull().references('spreadsheet_uploads.id').onDelete('cascade'))
        .addColumn('data_source_id', 'integer', (c) => c.notNull())
        .addColumn('previous', 'text')
        .addPrimaryKeyConstraint('spreadsheet_journal_pk', ['upload_id', 'data_source_id'])
        .execute();
    },
  },
  /**
   * Issue 27: who gave an affiliation. `created_here` is 1 when this library's admins created the account
   * (they typed its e-mail); only then do they see its e-mail, name and last login. Existing rows: 0 (not
   * known, so not shown). And library logos kept by us (served from our own origin, never a library's host).
   */
  '2026-11-28-0900-affiliation-origin-and-logos': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('user_libraries').addColumn('created_here', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.createTable('library_logos')
        .addColumn('library_id', 'integer', (c) => c.primaryKey().references('libraries.id').onDelete('cascade'))
        .addColumn('content', 'blob', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .execute();
    },
  },
};
