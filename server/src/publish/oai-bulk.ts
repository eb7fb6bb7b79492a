// The OAI-PMH record state in a bulk load (the JSONL import, SQLite): the per-row triggers that keep it
// as index rows are written (publish/migrations.ts) cost three statements per entry, a good part of a
// large import. Inside the load's transaction they are dropped, and before the commit the same rule
// runs once over every doc written (writtenSetWise) and the triggers are made again from their stored
// definitions; a rollback undoes all of it. Every record of the load gets the commit's datestamp, so an
// incremental harvest that ran during the load does not miss one dated before it was visible.
// PostgreSQL keeps its triggers: disabling them would lock search_docs for the whole load.
import type { Db } from '../db/index.ts';
import { WRITTEN_TRIGGERS, writtenSetWise } from './migrations.ts';

export interface DeferredOaiRecords {
  /** Writes the records of the docs written since, and makes the triggers again (in the same transaction). */
  finish(): void;
}

export function deferOaiRecords(db: Db): DeferredOaiRecords {
  const s = db.sqlite;
  if (s.dialect !== 'sqlite') return { finish() {} };
  if (!s.inTransaction) throw new Error('deferOaiRecords: no transaction is open');
  const triggers = s.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (${WRITTEN_TRIGGERS.map(() => '?').join(', ')})`)
    .all(...WRITTEN_TRIGGERS) as { name: string; sql: string }[];
  if (triggers.length !== WRITTEN_TRIGGERS.length) return { finish() {} };
  const since = s.prepare('SELECT coalesce(max(seq), 0) FROM search_docs').pluck().get() as number;
  for (const t of triggers) s.exec(`DROP TRIGGER ${t.name}`);
  return {
    finish() {
      // The docs written, read once: each statement reading search_docs itself went through every
      // doc (about 1 GB at 1,000,000 entries) to reach its libraries column.
      s.prepare(`CREATE TEMP TABLE oai_written AS SELECT entry_id, libraries FROM search_docs WHERE seq > ? AND doc IS NOT NULL`).run(since);
      for (const statement of writtenSetWise('sqlite', 'temp.oai_written')) s.prepare(statement).run();
      s.exec('DROP TABLE temp.oai_written');
      for (const t of triggers) s.exec(t.sql);
    },
  };
}
