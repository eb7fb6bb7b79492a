import { describe, expect, it } from 'vitest';
import { importProgressPrinter } from './progress.ts';

function sink(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream };
}

describe('import progress', () => {
  it('shows entries, entries/s, share and time left; on a terminal one line rewritten in place', () => {
    const { writes, stream } = sink(true);
    const p = importProgressPrinter(stream, 'import', 0);
    p.update({ phase: 'records', entries: 2000, bytes: 250, totalBytes: 1000 });
    p.update({ phase: 'records', entries: 4000, bytes: 500, totalBytes: 1000 });
    p.done();
    expect(writes).toHaveLength(3);
    expect(writes[1]).toMatch(/^\rimport: 4,000 entries, [\d,]+ entries\/s, 50%, about \d+ s left\x1b\[K$/);
    expect(writes.slice(0, 2).join('')).not.toContain('\n');
    expect(writes[2]).toBe('\n');
  });

  it('writes a line per report elsewhere (a log file), at most one per interval, and says when the file is read', () => {
    const { writes, stream } = sink(false);
    const p = importProgressPrinter(stream, 'import', 60_000);
    p.update({ phase: 'records', entries: 2000, bytes: 250, totalBytes: 1000 });
    p.update({ phase: 'records', entries: 4000, bytes: 500, totalBytes: 1000 });
    p.update({ phase: 'finishing', entries: 8000, bytes: 1000, totalBytes: 1000 });
    p.done();
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^import: 8,000 entries read in \d+ s \([\d,]+\/s\); linking and indexing the rest\.\.\.\n$/);
  });
});
