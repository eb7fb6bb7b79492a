import { sql, type Kysely, type Migration } from 'kysely';

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

/** Curation: split authors, per-user exclusions, and the change log (every change with its state before and after). */
export const curationMigrations: Record<string, Migration> = {
  '2026-11-23-0901-curation': {
    async up(db: Kysely<any>) {
      // An author split into several (the parts shown instead of it).
      await db.schema.createTable('agent_children')
        .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
        .addColumn('child_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('agent_children_pk', ['agent_id', 'child_id'])
        .execute();
      await db.schema.createIndex('agent_children_child').on('agent_children').column('child_id').execute();

      // One row per user and target; the target id is a library, agent or entry id by `type`.
      await db.schema.createTable('exclusions')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'integer', (c) => c.notNull())
        .addColumn('comment', 'text', (c) => c.notNull())
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .addUniqueConstraint('exclusions_user_target', ['user_id', 'type', 'target_id'])
        .execute();

      await db.schema.createTable('changes')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('username', 'text')
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
        /** JSON [{type, id, label}]: what the change is about. */
        .addColumn('objects', 'text', (c) => c.notNull().defaultTo('[]'))
        /** JSON [{key, before, after}]: the state it changed (docs/curation.md). */
        .addColumn('effects', 'text', (c) => c.notNull().defaultTo('[]'))
        /** Exclusion changes are private to their owner. */
        .addColumn('private', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('undone_by', 'integer')
        .addColumn('undoes', 'integer')
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(now))
        .execute();
      await db.schema.createIndex('changes_created').on('changes').column('created').execute();
      await db.schema.createTable('change_keys')
        .addColumn('change_id', 'integer', (c) => c.notNull().references('changes.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('change_keys_key').on('change_keys').columns(['key', 'change_id']).execute();
      await db.schema.createTable('change_objects')
        .addColumn('change_id', 'integer', (c) => c.notNull().references('changes.id').onDelete('cascade'))
        .addColumn('object_type', 'text', (c) => c.notNull())
        .addColumn('object_id', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('change_objects_object').on('change_objects').columns(['object_type', 'object_id', 'change_id']).execute();
    },
  },
  // Which authors are merged into these: the curation visibility rule (visibility.ts) and merges ask it.
  '2026-11-28-1100-curation-agent-aliases': {
    async up(db: Kysely<any>) {
      await db.schema.createIndex('agents_canonical').on('agents').column('canonical_agent_id').execute();
    },
  },
};
