// The compaction in its own thread with its own connection: a step's commit can take a WAL checkpoint
// (over a second at 1,000,000 entries), which on the main thread would stall every request.
import type { MessagePort } from 'node:worker_threads';
import { openDatabase } from '../db/index.ts';
import { JobQueue } from '../jobs/queue.ts';
import { yieldToRequests } from '../jobs/thread-priority.ts';
import { IndexCompaction, type CompactOptions, type CompactProgress } from './compaction.ts';

export interface CompactionThreadData {
  dbFile: string;
  options: Omit<CompactOptions, 'signal' | 'onProgress'>;
}

export type CompactionThreadMessage = { progress: CompactProgress } | { done: CompactProgress } | { error: string };

export async function serve(port: MessagePort, data: CompactionThreadData): Promise<void> {
  yieldToRequests();
  const db = openDatabase(data.dbFile);
  const abort = new AbortController();
  port.on('message', (m: { abort?: string }) => {
    if (m?.abort) abort.abort(new Error(m.abort));
  });
  try {
    const compaction = new IndexCompaction(db, new JobQueue(db));
    const done = await compaction.compact({ ...data.options, signal: abort.signal, onProgress: (p) => port.postMessage({ progress: p } satisfies CompactionThreadMessage) });
    port.postMessage({ done } satisfies CompactionThreadMessage);
  } catch (e) {
    port.postMessage({ error: (e as Error).message } satisfies CompactionThreadMessage);
  } finally {
    await db.close();
    port.close();
  }
}
