// Worker-thread entry for book builds. Plain JavaScript so it starts in any host (the tsx CLI, tests,
// plain node): worker threads do not get the parent's TypeScript loader, so tsx's is registered here.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
// an image thread loads only the image code (see image-thread-main.ts)
const mod = await import(workerData?.image ? './image-thread-main.ts' : './build-thread-main.ts');
mod.serve(parentPort);
