// Worker-thread entry for reading an uploaded spreadsheet. Plain JavaScript so it starts in any host (the
// tsx CLI, tests, plain node): worker threads do not get the parent's TypeScript loader, so tsx's is
// registered here.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const mod = await import('./sheet-thread-main.ts');
mod.serve(parentPort);
