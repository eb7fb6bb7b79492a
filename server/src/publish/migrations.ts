import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../db/pg-open.ts';
import type { Dialect } from '../db/connection.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** OAI-PMH datestamps have second granularity in UTC. */
const NOW = `strftime('%Y-%m-%dT%H:%M:%SZ','now')`;
const VISIBLE = 'l.public = 1 AND l.active = 1';

/** What differs between the back ends in this migration's SQL (PostgreSQL has strftime() from db/pg-open.ts). */
function forms(dialect: Dialect) {
  const pg = dialect === 'postgres';
  /** The ids of a JSON array text as rows j(value). */
  const eachId = (json: string) => (pg ? `jsonb_array_elements_text(${json}::jsonb) AS j(value)` : `json_each(${json}) j`);
  return {
    pg,
    INT: pg ? 'bigint' : 'INTEGER',
    eachId,
    /** INSERT that skips rows already there: `${insertIgnore} INTO ... ${onConflictIgnore}`. */
    insertIgnore: pg ? 'INSERT' : 'INSERT OR IGNORE',
    onConflictIgnore: pg ? ' ON CONFLICT DO NOTHING' : '',
    greatest: pg ? 'greatest' : 'max',
    /** Some library of the doc is visible to anonymous visitors right now (1/0). */
    docShown: (libraries: string) => {
      const exists = `EXISTS (SELECT 1 FROM ${eachId(libraries)} JOIN libraries l ON l.id = CAST(j.value AS INTEGER) WHERE ${VISIBLE})`;
      return pg ? `CAST(${exists} AS INTEGER)` : exists;
    },
    randomKey: pg ? `replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')` : 'lower(hex(randomblob(32)))',
    /** A row trigger: SQLite's BEGIN ... END, or a PL/pgSQL function and its trigger. */
    trigger: (name: string, event: string, when: string | null, body: string) => (pg
      ? `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN ${body} RETURN NULL; END $fn$;
         CREATE TRIGGER ${name} AFTER ${event} FOR EACH ROW${when ? ` WHEN (${when})` : ''} EXECUTE FUNCTION ${name}();`
      : `CREATE TRIGGER ${name} AFTER ${event}${when ? ` WHEN ${when}` : ''} BEGIN ${body} END`),
  };
}

/**
 * The `written` rule of the triggers below, as three set-wise statements (a bulk load,
 * publish/oai-bulk.ts), for the docs listed in table `written` (entry_id, libraries: docs written
 * since the load began): the record changed now, live, exposed if a library of its doc is visible now
 * or was; its sets are its doc's libraries.
 */
export function writtenSetWise(dialect: Dialect, written: string): string[] {
  const f = forms(dialect);
  return [
    // (WHERE true: SQLite reads ON CONFLICT after a bare FROM as a join constraint. PostgreSQL calls a
    // function per row, its strftime about 6 µs: as a subquery it runs once; 'now' is the statement's time anyway.)
    `INSERT INTO oai_records (entry_id, datestamp, live, exposed)
      SELECT d.entry_id, ${f.pg ? `(SELECT ${NOW})` : NOW}, 1, ${f.docShown('d.libraries')} FROM ${written} d WHERE true
      ON CONFLICT (entry_id) DO UPDATE SET datestamp = excluded.datestamp, live = 1, exposed = ${f.greatest}(oai_records.exposed, excluded.exposed)`,
    `DELETE FROM oai_sets WHERE entry_id IN (SELECT entry_id FROM ${written})`,
    f.pg
      // Every record written got the one datestamp of the statement above: read once, not joined per row
      // (a lookup in oai_records per set row, 1,350,000 at 1,000,000 entries).
      ? `INSERT INTO oai_sets (library_id, datestamp, entry_id)
        SELECT CAST(j.value AS INTEGER), (SELECT r.datestamp FROM oai_records r WHERE r.entry_id = (SELECT min(entry_id) FROM ${written})), d.entry_id
        FROM ${written} d, ${f.eachId('d.libraries')}${f.onConflictIgnore}`
      : `${f.insertIgnore} INTO oai_sets (library_id, datestamp, entry_id)
      SELECT CAST(j.value AS INTEGER), r.datestamp, r.entry_id FROM ${written} d JOIN oai_records r ON r.entry_id = d.entry_id,
        ${f.eachId('d.libraries')}${f.onConflictIgnore}`,
  ];
}

/** The triggers that keep a record's state per written index row (writtenSetWise does their work for a bulk load). */
export const WRITTEN_TRIGGERS = ['oai_doc_inserted', 'oai_doc_updated'];

/**
 * PostgreSQL: a transaction that sets this to 'on' (SET LOCAL) skips the WRITTEN_TRIGGERS for its own
 * rows (their WHEN tests it), and writes their work set-wise before it commits (publish/oai-bulk.ts).
 * Dropping the triggers there, as on SQLite, would lock search_docs against every reader for the load.
 */
export const OAI_DEFERRED_SETTING = 'uc.oai_deferred';
const notDeferred = `current_setting('${OAI_DEFERRED_SETTING}', true) IS DISTINCT FROM 'on'`;

/** A library's visibility changed: every record it holds (or held last) gets a new datestamp, so incremental harvests see it. */
const bumpLibrary = (exposeLive: boolean) => `
  UPDATE oai_records SET datestamp = ${NOW}${exposeLive ? ', exposed = CASE WHEN live = 1 THEN 1 ELSE exposed END' : ''}
    WHERE entry_id IN (SELECT entry_id FROM oai_sets WHERE library_id = $ID);
  UPDATE oai_sets SET datestamp = (SELECT r.datestamp FROM oai_records r WHERE r.entry_id = oai_sets.entry_id)
    WHERE entry_id IN (SELECT entry_id FROM oai_sets WHERE library_id = $ID);`;

/**
 * The OAI-PMH provider's record state, kept by triggers on search_docs (the indexer writes a row
 * whenever an entry changes) and on libraries, so no other module has to know about it:
 * - oai_records: when each entry last changed (datestamp), whether it has an index doc now (live), and
 *   whether an anonymous visitor ever saw it (exposed). Only exposed records are ever listed, so a
 *   private library's entries never show up, not even as deleted.
 * - oai_sets: the libraries of each record (kept from the last live doc once it is gone, so set
 *   harvesters learn about the deletion), with the datestamp, for keyset paging inside one set.
 * - oai_exposed_libraries: libraries that were ever visible (a set that may list deletions).
 * - oai_secret: the key resumption tokens are signed with (shared by every process on the database).
 */
export const publishMigrations: Record<string, Migration> = {
  '2026-11-25-0900-publish-oai': {
    async up(db: AnyDb) {
      const run = (text: string) => sql.raw(text).execute(db);
      const f = forms(dialectOf(db));
      await run(`CREATE TABLE oai_records (
        entry_id ${f.INT} PRIMARY KEY,
        datestamp TEXT NOT NULL,
        live ${f.INT} NOT NULL,
        exposed ${f.INT} NOT NULL DEFAULT 0)`);
      await run('CREATE INDEX oai_records_datestamp ON oai_records (datestamp, entry_id) WHERE exposed = 1');
      await run(`CREATE TABLE oai_sets (
        library_id ${f.INT} NOT NULL,
        datestamp TEXT NOT NULL,
        entry_id ${f.INT} NOT NULL,
        PRIMARY KEY (library_id, datestamp, entry_id))${f.pg ? '' : ' WITHOUT ROWID'}`);
      await run('CREATE INDEX oai_sets_entry ON oai_sets (entry_id)');
      await run(`CREATE TABLE oai_exposed_libraries (library_id ${f.INT} PRIMARY KEY)`);
      await run(`CREATE TABLE oai_secret (id ${f.INT} PRIMARY KEY CHECK (id = 1), key TEXT NOT NULL)`);
      await run(`INSERT INTO oai_secret (id, key) VALUES (1, ${f.randomKey})`);

      // What is in the index already starts its history now.
      await run(`INSERT INTO oai_exposed_libraries (library_id) SELECT id FROM libraries l WHERE ${VISIBLE}`);
      await run(`INSERT INTO oai_records (entry_id, datestamp, live, exposed)
        SELECT d.entry_id, ${NOW}, 1, ${f.docShown('d.libraries')} FROM search_docs d WHERE d.doc IS NOT NULL`);
      await run(`${f.insertIgnore} INTO oai_sets (library_id, datestamp, entry_id)
        SELECT CAST(j.value AS INTEGER), r.datestamp, r.entry_id FROM search_docs d
        JOIN oai_records r ON r.entry_id = d.entry_id, ${f.eachId('d.libraries')} WHERE d.doc IS NOT NULL${f.onConflictIgnore}`);

      // A doc written (new or rewritten): the record changed now; its sets are the doc's libraries.
      const written = `
        INSERT INTO oai_records (entry_id, datestamp, live, exposed) VALUES (NEW.entry_id, ${NOW}, 1, ${f.docShown('NEW.libraries')})
          ON CONFLICT (entry_id) DO UPDATE SET datestamp = excluded.datestamp, live = 1, exposed = ${f.greatest}(oai_records.exposed, excluded.exposed);
        DELETE FROM oai_sets WHERE entry_id = NEW.entry_id;
        ${f.insertIgnore} INTO oai_sets (library_id, datestamp, entry_id)
          SELECT CAST(j.value AS INTEGER), r.datestamp, r.entry_id FROM oai_records r, ${f.eachId('NEW.libraries')}
          WHERE r.entry_id = NEW.entry_id${f.onConflictIgnore};`;
      await run(f.trigger('oai_doc_inserted', 'INSERT ON search_docs', 'NEW.doc IS NOT NULL', written));
      await run(f.trigger('oai_doc_updated', 'UPDATE ON search_docs', 'NEW.doc IS NOT NULL', written));
      // The doc went away (merged, no holding left): the record is deleted now; it keeps its last sets.
      await run(f.trigger('oai_doc_dropped', 'UPDATE ON search_docs', 'NEW.doc IS NULL AND OLD.doc IS NOT NULL', `
        UPDATE oai_records SET datestamp = ${NOW}, live = 0 WHERE entry_id = NEW.entry_id;
        UPDATE oai_sets SET datestamp = (SELECT datestamp FROM oai_records WHERE entry_id = NEW.entry_id) WHERE entry_id = NEW.entry_id;`));

      const shown = (p: string) => `(${p}.public = 1 AND ${p}.active = 1)`;
      await run(f.trigger('oai_library_added', 'INSERT ON libraries', shown('NEW'), `
        ${f.insertIgnore} INTO oai_exposed_libraries (library_id) VALUES (NEW.id)${f.onConflictIgnore};`));
      await run(f.trigger('oai_library_shown', 'UPDATE OF public, active ON libraries', `${shown('NEW')} AND NOT ${shown('OLD')}`, `
        ${f.insertIgnore} INTO oai_exposed_libraries (library_id) VALUES (NEW.id)${f.onConflictIgnore};
        ${bumpLibrary(true).replaceAll('$ID', 'NEW.id')}`));
      await run(f.trigger('oai_library_hidden', 'UPDATE OF public, active ON libraries', `${shown('OLD')} AND NOT ${shown('NEW')}`,
        bumpLibrary(false).replaceAll('$ID', 'NEW.id')));
      await run(f.trigger('oai_library_deleted', 'DELETE ON libraries', null, bumpLibrary(false).replaceAll('$ID', 'OLD.id')));
    },
  },
  // PostgreSQL only: the written triggers skip the rows of a transaction that defers them (OAI_DEFERRED_SETTING).
  '2026-11-27-1100-publish-oai-deferrable': {
    async up(db: AnyDb) {
      if (!forms(dialectOf(db)).pg) return;
      for (const [name, event] of [['oai_doc_inserted', 'INSERT'], ['oai_doc_updated', 'UPDATE']]) {
        await sql.raw(`DROP TRIGGER ${name} ON search_docs;
          CREATE TRIGGER ${name} AFTER ${event} ON search_docs FOR EACH ROW
            WHEN (NEW.doc IS NOT NULL AND ${notDeferred}) EXECUTE FUNCTION ${name}();`).execute(db);
      }
    },
  },
};
