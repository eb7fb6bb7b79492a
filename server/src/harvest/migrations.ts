import { sql, type Kysely, type Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** Harvesting: the OAI-PMH and Calibre settings of sites, their harvest state, and the runs with their reports. */
export const harvestMigrations: Record<string, Migration> = {
  '2026-11-24-1000-harvest': {
    async up(db: AnyDb) {
      const add = (name: string, type: 'text' | 'integer', dflt?: number) =>
        db.schema.alterTable('sites').addColumn(name, type, (c) => (dflt === undefined ? c : c.notNull().defaultTo(dflt))).execute();
      await add('oai_set', 'text');
      await add('oai_metadata_format', 'text');
      await add('harvest_interval_minutes', 'integer', 30);
      await add('tree_path', 'text');
      /** When the last successful run started (shown), and the source's own clock to harvest `from` next time. */
      await add('last_harvested', 'text');
      await add('harvest_from', 'text');
      /** Identify: 'YYYY-MM-DD' or 'YYYY-MM-DDThh:mm:ssZ'. */
      await add('oai_granularity', 'text');
      /** amusewiki: the JSON list of download formats the site offers (refreshed at every harvest). */
      await add('amusewiki_formats', 'text');
      await add('consecutive_failures', 'integer', 0);
      /** Set when the library was told the site keeps failing; cleared by the next success. */
      await add('failure_mailed', 'integer', 0);
      // The site types of the harvest settings (the old names meant the same sources).
      await sql`UPDATE sites SET site_type = 'koha-marc21' WHERE site_type = 'koha'`.execute(db);
      await sql`UPDATE sites SET site_type = 'generic' WHERE site_type = 'oai-pmh'`.execute(db);
      await sql`UPDATE sites SET oai_metadata_format = 'oai_dc' WHERE site_type = 'generic' AND oai_metadata_format IS NULL`.execute(db);
      // Until now `active` meant nothing for sites other than csv; harvesting is switched on per site by an admin.
      await sql`UPDATE sites SET active = 0 WHERE site_type <> 'csv'`.execute(db);

      await db.schema.createTable('harvest_runs')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('job_id', 'integer')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
        .addColumn('force', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', 'text', (c) => c.notNull().defaultTo(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`))
        .addColumn('started', 'text')
        .addColumn('finished', 'text')
        /** Last progress write: a running run not updated for long lost its process (a CLI run that was killed). */
        .addColumn('progressed', 'text')
        .addColumn('pages', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('records', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('total', 'integer')
        .addColumn('new', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('unchanged', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('message', 'text')
        .execute();
      await db.schema.createIndex('harvest_runs_site').on('harvest_runs').columns(['site_id', 'id']).execute();
      // At most one queued or running harvest per site, whatever the number of workers and processes.
      await sql`CREATE UNIQUE INDEX harvest_runs_one_open ON harvest_runs (site_id) WHERE status IN ('queued', 'running')`.execute(db);
    },
  },
  '2026-11-26-1500-harvest-deletion-policy': {
    async up(db: AnyDb) {
      /** Identify's deletedRecord ('no', 'transient', 'persistent'): a source that forgets its deletions gets full harvests. */
      await db.schema.alterTable('sites').addColumn('oai_deleted_record', 'text').execute();
      /** When the last complete (forced) harvest that succeeded started. */
      await db.schema.alterTable('sites').addColumn('last_full_harvest', 'text').execute();
    },
  },
};
