// A harvest run in its own thread (SQLite) or child process (PostgreSQL, process.mjs) with its own
// database connection: parsing, mapping, storing and indexing a large harvest never stall the requests
// the main thread serves (SQLite's WAL lets the readers go on while this thread writes).
import { openDatabase } from '../db/index.ts';
import { Indexer } from '../search/indexer.ts';
import { FileStore } from '../catalogue/files.ts';
import { IngestService } from '../ingest/service.ts';
import { JobQueue } from '../jobs/queue.ts';
import { MailService, type MailSettings } from '../mail/service.ts';
import { SiteStore } from './sites.ts';
import { HarvestService, type HarvestOptions } from './service.ts';
import { yieldToRequests } from '../jobs/thread-priority.ts';

export interface HarvestThreadData {
  runId: number;
  dbFile: string;
  dataDir: string;
  calibreRoot: string;
  mail: MailSettings;
  options: Omit<HarvestOptions, 'log' | 'thread'>;
}

/** `log`: a line for the server's log (the parent writes it). */
export type HarvestThreadMessage = { done: unknown } | { error: string } | { log: { msg: string; extra?: Record<string, unknown> } };

/** The parent's end: a worker thread's MessagePort, or a child process's IPC channel (process.mjs). */
export interface HarvestPort {
  on(event: 'message', listener: (m: { abort?: string }) => void): unknown;
  postMessage(message: HarvestThreadMessage): unknown;
  close(): unknown;
}

export async function serve(port: HarvestPort, data: HarvestThreadData): Promise<void> {
  yieldToRequests(); // readers' requests on the main thread come first (a child process: the whole process)
  const db = openDatabase(data.dbFile);
  const files = new FileStore(db, data.dataDir);
  const mail = new MailService(db, data.mail);
  const harvest = new HarvestService(db, new SiteStore(db, data.calibreRoot), new IngestService(db, new Indexer(db), files), files, new JobQueue(db), mail, {
    ...data.options,
    log: (msg, extra) => port.postMessage({ log: { msg, extra } } satisfies HarvestThreadMessage),
  });
  const abort = new AbortController();
  port.on('message', (m) => {
    if (m?.abort) abort.abort(new Error(m.abort));
  });
  try {
    port.postMessage({ done: await harvest.execute(data.runId, abort.signal) } satisfies HarvestThreadMessage);
  } catch (e) {
    port.postMessage({ error: (e as Error).message } satisfies HarvestThreadMessage);
  } finally {
    mail.close();
    await db.close();
    port.close();
  }
}
