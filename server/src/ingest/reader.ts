// The lines of an import file, read, parsed and checked in a worker thread (format.ts) while the
// import stores and indexes the lines before them: reading and checking took a quarter of the main
// thread's time, and the machine has a second core.
import { Worker } from 'node:worker_threads';
import type { CheckedLine, LinesMessage } from './format.ts';

/** Every non-blank line of `file` in order, checked; `read.bytes` follows the reading. Stopping early ends the thread. */
export async function* readCheckedLines(file: string, read: { bytes: number }): AsyncGenerator<CheckedLine> {
  const worker = new Worker(new URL('./reader-thread.mjs', import.meta.url), { workerData: { file } });
  const queue: LinesMessage[] = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  worker.on('message', (m: LinesMessage) => {
    queue.push(m);
    notify();
  });
  worker.on('error', (e) => {
    failure = e;
    notify();
  });
  worker.on('exit', (code) => {
    failure ??= new Error(`The import's reader thread ended (code ${code}) before the end of the file`);
    notify();
  });
  try {
    for (;;) {
      while (!queue.length) {
        if (failure) throw failure;
        await new Promise<void>((r) => (wake = r));
      }
      const m = queue.shift()!;
      read.bytes = m.bytes;
      if (!m.done) worker.postMessage('more');
      yield* m.lines;
      if (m.done) return;
    }
  } finally {
    worker.removeAllListeners();
    await worker.terminate();
  }
}
