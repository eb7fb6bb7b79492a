// Worker-thread entry for the font work of the Book Builder (reading every font file, rendering a
// specimen). Plain JavaScript so it starts in any host: worker threads do not get tsx's loader.
// One thread answers the tasks in turn, so the compiler's fonts are loaded once while it lives.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const mod = await import('./font-thread-main.ts');
parentPort.on('message', async ({ id, task }) => parentPort.postMessage({ id, answer: await mod.run(task) }));
