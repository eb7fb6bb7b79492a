// Background work (book builds, cover renders, harvests) runs in worker threads that give way to the
// main thread, which answers readers: on 2 cores a build or a harvest batch otherwise takes the CPU a
// search is waiting for. On Linux the nice value belongs to each thread (setpriority(2), BUGS), so a
// worker thread lowers its own priority without touching the server's.
import os from 'node:os';

/** The nice value of background threads (0 = normal, 19 = lowest). */
export const BACKGROUND_NICE = 10;

/** Lowers the calling worker thread's CPU priority; false where that would lower the whole process. */
export function yieldToRequests(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    os.setPriority(0, Math.max(os.getPriority(0), BACKGROUND_NICE));
    return true;
  } catch {
    return false; // a sandbox may refuse it: the thread keeps its priority
  }
}
