// Whether a process that left something behind (a file journal, a scratch database, a temporary file)
// still runs: what it left is cleaned up only once it has ended.
import fs from 'node:fs';

/**
 * Whether a process of this machine is running (EPERM: it is, under another user). A zombie has ended:
 * killed, with its exit not yet collected by its parent or, once that parent is gone too, by the first
 * process of the machine or container, which may take seconds (or for ever where nothing reaps).
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return true; // no /proc (not Linux): kill(0) answers alone
  }
  // "pid (name) state ...": the name may hold spaces and parentheses, the state follows the last ')'.
  return stat[stat.lastIndexOf(')') + 2] !== 'Z';
}
