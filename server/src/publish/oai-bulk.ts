// The OAI-PMH record state in a bulk load (the JSONL import): the per-row triggers that keep it as
// index rows are written (publish/migrations.ts) cost three statements per entry, a good part of a
// large import. Inside the load's transaction they are skipped, and before the commit the same rule
// runs once over every doc written (writtenSetWise); a rollback undoes all of it. SQLite drops the
// triggers and makes them again from their stored definitions (the load holds the only write lock
// anyway); PostgreSQL keeps them, and the load's transaction sets OAI_DEFERRED_SETTING, which their WHEN
// tests, so every other transaction's rows still fire them and no reader waits on a lock. Every record
// of the load gets the datestamp of its end, so an incremental harvest that ran during the load does not
// miss one dated before it was visible.
import type { Db } from '../db/index.ts';
import { OAI_DEFERRED_SETTING, WRITTEN_TRIGGERS, writtenSetWise } from './migrations.ts';

export interface DeferredOaiRecords {
  /** Writes the records of the docs written since, and makes the triggers work again (in the same transaction). */
  finish(): void;
}

export function deferOaiRecords(db: Db): DeferredOaiRecords {
  const s = db.sqlite;
  if (!s.inTransaction) throw new Error('deferOaiRecords: no transaction is open');
  const since = s.prepare('SELECT coalesce(max(seq), 0) FROM search_docs').pluck().get() as number;
  const writeSetWise = () => {
    // The docs written, read once: each statement reading search_docs itself went through every doc
    // (about 1 GB at 1,000,000 entries on SQLite) to reach its libraries column.
    s.exec(`CREATE TEMP TABLE oai_written (entry_id ${s.dialect === 'postgres' ? 'bigint' : 'INTEGER'} PRIMARY KEY, libraries TEXT)`);
    s.prepare('INSERT INTO oai_written (entry_id, libraries) SELECT entry_id, libraries FROM search_docs WHERE seq > ? AND doc IS NOT NULL').run(since);
    for (const statement of writtenSetWise(s.dialect, 'oai_written')) s.prepare(statement).run();
    s.exec('DROP TABLE oai_written');
  };
  if (s.dialect === 'postgres') {
    s.exec(`SET LOCAL ${OAI_DEFERRED_SETTING} = 'on'`);
    return {
      finish() {
        s.exec(`SET LOCAL ${OAI_DEFERRED_SETTING} = 'off'`);
        writeSetWise();
      },
    };
  }
  const triggers = s.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (${WRITTEN_TRIGGERS.map(() => '?').join(', ')})`)
    .all(...WRITTEN_TRIGGERS) as { name: string; sql: string }[];
  if (triggers.length !== WRITTEN_TRIGGERS.length) return { finish() {} };
  for (const t of triggers) s.exec(`DROP TRIGGER ${t.name}`);
  return {
    finish() {
      writeSetWise();
      for (const t of triggers) s.exec(t.sql);
    },
  };
}
