// Worker-thread entry for book builds. Plain JavaScript so it starts in any host: under the tsx CLI
// the thread inherits its loader; elsewhere (tests, plain node) tsx's loader is registered here.
import { parentPort } from 'node:worker_threads';

if (!process.execArgv.some((a) => a.includes('tsx'))) {
  const { register } = await import('tsx/esm/api');
  register();
}
const mod = await import('./build-thread-main.ts');
mod.serve(parentPort);
