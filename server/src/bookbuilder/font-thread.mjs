// Worker-thread entry for the font work of the Book Builder (reading every font file, rendering a
// specimen). Plain JavaScript so it starts in any host: worker threads do not get tsx's loader.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const mod = await import('./font-thread-main.ts');
parentPort.postMessage(await mod.run(workerData));
