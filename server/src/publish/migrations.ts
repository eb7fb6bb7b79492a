import { sql, type Kysely, type Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** OAI-PMH datestamps have second granularity in UTC. */
const NOW = `strftime('%Y-%m-%dT%H:%M:%SZ','now')`;
const VISIBLE = 'l.public = 1 AND l.active = 1';
/** Some library of the doc is visible to anonymous visitors right now. */
const DOC_SHOWN = `EXISTS (SELECT 1 FROM json_each(NEW.libraries) j JOIN libraries l ON l.id = CAST(j.value AS INTEGER) WHERE ${VISIBLE})`;

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
      await run(`CREATE TABLE oai_records (
        entry_id INTEGER PRIMARY KEY,
        datestamp TEXT NOT NULL,
        live INTEGER NOT NULL,
        exposed INTEGER NOT NULL DEFAULT 0)`);
      await run('CREATE INDEX oai_records_datestamp ON oai_records (datestamp, entry_id) WHERE exposed = 1');
      await run(`CREATE TABLE oai_sets (
        library_id INTEGER NOT NULL,
        datestamp TEXT NOT NULL,
        entry_id INTEGER NOT NULL,
        PRIMARY KEY (library_id, datestamp, entry_id)) WITHOUT ROWID`);
      await run('CREATE INDEX oai_sets_entry ON oai_sets (entry_id)');
      await run('CREATE TABLE oai_exposed_libraries (library_id INTEGER PRIMARY KEY)');
      await run(`CREATE TABLE oai_secret (id INTEGER PRIMARY KEY CHECK (id = 1), key TEXT NOT NULL)`);
      await run(`INSERT INTO oai_secret (id, key) VALUES (1, lower(hex(randomblob(32))))`);

      // What is in the index already starts its history now.
      await run(`INSERT INTO oai_exposed_libraries (library_id) SELECT id FROM libraries l WHERE ${VISIBLE}`);
      await run(`INSERT INTO oai_records (entry_id, datestamp, live, exposed)
        SELECT d.entry_id, ${NOW}, 1, ${DOC_SHOWN.replaceAll('NEW.libraries', 'd.libraries')} FROM search_docs d WHERE d.doc IS NOT NULL`);
      await run(`INSERT OR IGNORE INTO oai_sets (library_id, datestamp, entry_id)
        SELECT CAST(j.value AS INTEGER), r.datestamp, r.entry_id FROM search_docs d
        JOIN oai_records r ON r.entry_id = d.entry_id, json_each(d.libraries) j WHERE d.doc IS NOT NULL`);

      // A doc written (new or rewritten): the record changed now; its sets are the doc's libraries.
      const written = `
        INSERT INTO oai_records (entry_id, datestamp, live, exposed) VALUES (NEW.entry_id, ${NOW}, 1, ${DOC_SHOWN})
          ON CONFLICT (entry_id) DO UPDATE SET datestamp = excluded.datestamp, live = 1, exposed = max(exposed, excluded.exposed);
        DELETE FROM oai_sets WHERE entry_id = NEW.entry_id;
        INSERT OR IGNORE INTO oai_sets (library_id, datestamp, entry_id)
          SELECT CAST(j.value AS INTEGER), r.datestamp, r.entry_id FROM oai_records r, json_each(NEW.libraries) j
          WHERE r.entry_id = NEW.entry_id;`;
      await run(`CREATE TRIGGER oai_doc_inserted AFTER INSERT ON search_docs WHEN NEW.doc IS NOT NULL BEGIN ${written} END`);
      await run(`CREATE TRIGGER oai_doc_updated AFTER UPDATE ON search_docs WHEN NEW.doc IS NOT NULL BEGIN ${written} END`);
      // The doc went away (merged, no holding left): the record is deleted now; it keeps its last sets.
      await run(`CREATE TRIGGER oai_doc_dropped AFTER UPDATE ON search_docs WHEN NEW.doc IS NULL AND OLD.doc IS NOT NULL BEGIN
        UPDATE oai_records SET datestamp = ${NOW}, live = 0 WHERE entry_id = NEW.entry_id;
        UPDATE oai_sets SET datestamp = (SELECT datestamp FROM oai_records WHERE entry_id = NEW.entry_id) WHERE entry_id = NEW.entry_id;
      END`);

      const shown = (p: string) => `(${p}.public = 1 AND ${p}.active = 1)`;
      await run(`CREATE TRIGGER oai_library_added AFTER INSERT ON libraries WHEN ${shown('NEW')} BEGIN
        INSERT OR IGNORE INTO oai_exposed_libraries (library_id) VALUES (NEW.id);
      END`);
      await run(`CREATE TRIGGER oai_library_shown AFTER UPDATE OF public, active ON libraries
        WHEN ${shown('NEW')} AND NOT ${shown('OLD')} BEGIN
        INSERT OR IGNORE INTO oai_exposed_libraries (library_id) VALUES (NEW.id);
        ${bumpLibrary(true).replaceAll('$ID', 'NEW.id')}
      END`);
      await run(`CREATE TRIGGER oai_library_hidden AFTER UPDATE OF public, active ON libraries
        WHEN ${shown('OLD')} AND NOT ${shown('NEW')} BEGIN ${bumpLibrary(false).replaceAll('$ID', 'NEW.id')} END`);
      await run(`CREATE TRIGGER oai_library_deleted AFTER DELETE ON libraries BEGIN ${bumpLibrary(false).replaceAll('$ID', 'OLD.id')} END`);
    },
  },
};
