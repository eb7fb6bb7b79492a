// The lines of an import file, read, parsed and checked in worker threads (format.ts) while the import
// stores and indexes the lines before them: reading and checking took a quarter of the main thread's
// time, and the machine has a second core. Two readers take turns by blocks of lines: a re-import of an
// unchanged file does little on the main thread and waited for one reader most of the time.
import { Worker } from 'node:worker_threads';
import type { CheckedLine, LinesMessage } from './format.ts';

const READERS = 2;

/** Every non-blank line of `file` in order, checked; `read.bytes` follows the reading. Stopping early ends the threads. */
export async function* readCheckedLines(file: string, read: { bytes: number }): AsyncGenerator<CheckedLine> {
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  const readers = Array.from({ length: READERS }, (_, part) => {
    const worker = new Worker(new URL('./reader-thread.mjs', import.meta.url), { workerData: { file, part, parts: READERS } });
    const queue: LinesMessage[] = [];
    worker.on('message', (m: LinesMessage) => {
      queue.push(m);
      notify();
    });
    worker.on('error', (e) => {
      failure = e;
      notify();
    });
    worker.on('exit', (code) => {
      if (!queue.at(-1)?.done) failure ??= new Error(`The import's reader thread ended (code ${code}) before the end of the file`);
      notify();
    });
    return { worker, queue };
  });
  try {
    // Block b of the file comes from reader b % READERS; the first reader with no next block says the file ended.
    for (let block = 0; ; block++) {
      const { worker, queue } = readers[block % READERS]!;
      while (!queue.length) {
        if (failure) throw failure;
        await new Promise<void>((r) => (wake = r));
      }
      const m = queue.shift()!;
      if (m.done) return;
      read.bytes = Math.max(read.bytes, m.bytes);
      worker.postMessage('more');
      yield* m.lines;
    }
  } finally {
    for (const { worker } of readers) {
      worker.removeAllListeners();
      await worker.terminate();
    }
  }
}
