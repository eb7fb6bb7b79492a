// Child-process entry for harvest runs on PostgreSQL: the libpq binding loads in one thread per process,
// so a worker thread cannot open a connection there; a child process can. Plain JavaScript for the same
// reason as thread.mjs (tsx's loader is registered here). Over the IPC channel: first the run's data
// (not in argv: it holds the SMTP URL), then the parent's {abort}; ours are {done} or {error}.
import { register } from 'tsx/esm/api';

register();
const mod = await import('./thread-main.ts');
const port = {
  on: (event, listener) => {
    process.on(event, listener);
    // The parent went away (stopped, killed): stop the run as a shutdown does.
    process.once('disconnect', () => listener({ abort: 'The process that started the harvest ended' }));
  },
  postMessage: (message) => process.send(message),
  close: () => process.disconnect(),
};
process.once('message', (data) => mod.serve(port, data));
