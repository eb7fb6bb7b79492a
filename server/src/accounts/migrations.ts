import { sql, type Kysely, type Migration } from 'kysely';

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

/** Accounts: users and their library affiliations, server-side sessions, password-reset tokens. */
export const accountMigrations: Record<string, Migration> = {
  '2026-11-21-0100-accounts': {
    async up(db: Kysely<any>) {
      await db.schema.createTable('users')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('password_hash', 'text')
        .addColumn('is_superuser', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('library_admin', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('can_merge', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('can_set_exclusions', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('expiration', 'text')
        .addColumn('last_login', 'text')
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('last_modified', 'text', (c) => c.notNull().defaultTo(now))
        .execute();

      await db.schema.createTable('user_libraries')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('library_id', 'integer', (c) => c.notNull().references('libraries.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('user_libraries_pk', ['user_id', 'library_id'])
        .execute();

      // Only a hash of the session token is stored: a leaked database does not leak sessions.
      await db.schema.createTable('sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('expires', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema.createTable('password_resets')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .addColumn('expires', 'text', (c) => c.notNull())
        .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
};
