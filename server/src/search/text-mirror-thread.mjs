// Worker-thread entry of the text mirror's fill (text-mirror.ts). Plain JavaScript so it starts in any
// host (the tsx CLI, tests, plain node): worker threads do not get the parent's TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const mod = await import('./text-mirror-thread-main.ts');
mod.serve(parentPort, workerData);
