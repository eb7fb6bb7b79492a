// The console line of a long import (`npm run import`, bench:import): entries, entries/s, share of the
// file read and the time left, every 2 seconds; on a terminal one line rewritten in place.
import type { ImportProgress } from './jsonl.ts';

export interface ProgressPrinter {
  /** importJsonl's onProgress. */
  update(p: ImportProgress): void;
  /** Ends the line on a terminal (call once the import ended, well or not). */
  done(): void;
}

const clock = (s: number) => (s >= 60 ? `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s` : `${Math.round(s)} s`);

export function importProgressPrinter(out: NodeJS.WriteStream = process.stderr, label = 'import', everyMs = 2000): ProgressPrinter {
  const started = Date.now();
  let last = started;
  let open = false;
  const print = (text: string) => {
    if (out.isTTY) {
      out.write(`\r${text}\x1b[K`);
      open = true;
    } else out.write(`${text}\n`);
  };
  return {
    update(p) {
      const now = Date.now();
      if (now - last < everyMs && p.phase !== 'finishing') return;
      last = now;
      const seconds = (now - started) / 1000;
      const rate = Math.round(p.entries / Math.max(seconds, 0.001));
      if (p.phase === 'finishing') {
        print(`${label}: ${p.entries.toLocaleString('en')} entries read in ${clock(seconds)} (${rate.toLocaleString('en')}/s); linking and indexing the rest...`);
        return;
      }
      const share = p.totalBytes ? p.bytes / p.totalBytes : 0;
      // The time left from the share of the file read so far (reading, storing and indexing go together).
      const eta = share > 0.01 ? `, about ${clock(seconds / share - seconds)} left` : '';
      print(`${label}: ${p.entries.toLocaleString('en')} entries, ${rate.toLocaleString('en')} entries/s, ${Math.round(share * 100)}%${eta}`);
    },
    done() {
      if (open) out.write('\n');
      open = false;
    },
  };
}
