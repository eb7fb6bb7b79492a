// Worker-thread entry of the import's line reader (reader.ts). Plain JavaScript so it starts in any
// host (the tsx CLI, tests, plain node): worker threads do not get the parent's TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { sendCheckedLines } = await import('./format.ts');
await sendCheckedLines(parentPort, workerData.file, workerData.part, workerData.parts);
