import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';
import { readLines } from './format.ts';

async function collect(gen: AsyncGenerator<[number, string]>) {
  const out: [number, string][] = [];
  for await (const l of gen) out.push(l);
  return out;
}

/** readline's non-blank lines of a file, with their numbers (what readLines must give). */
async function byReadline(file: string): Promise<[number, string][]> {
  const rl = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  const out: [number, string][] = [];
  let n = 0;
  for await (const line of rl) {
    n++;
    if (line.trim()) out.push([n, line]);
  }
  return out;
}

describe('import file lines', () => {
  it('splits LF-only text on bytes as readline does: blank lines of spaces, tabs or non-breaking spaces skipped, lines of other letters kept', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-lines-'));
    const file = path.join(dir, 'f.jsonl');
    const text = '\ufefffirst\n\n \t\nзаглавие\n\u00a0\u2003\n\u00a0x\nlast é\n';
    fs.writeFileSync(file, text);
    const expected = await byReadline(file);
    expect(expected.map((l) => l[0])).toEqual([1, 4, 6, 7]);
    for (const chunk of [1, 2, 3, 5, 7, 1 << 20]) {
      const read = { bytes: 0 };
      expect(await collect(readLines(file, read, chunk))).toEqual(expected);
      expect(read.bytes).toBe(Buffer.byteLength(text));
      // Only the lines kept are given; the others still count for the numbers and places.
      expect(await collect(readLines(file, { bytes: 0 }, chunk, (i) => i % 2 === 1))).toEqual(expected.filter((_, i) => i % 2 === 1));
    }
    fs.rmSync(dir, { recursive: true });
  });

  it('numbers lines as readline does (CRLF, LF, lone CR, blank lines, no final newline), across chunk boundaries', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-lines-'));
    const file = path.join(dir, 'f.jsonl');
    const text = 'first\r\nsecond\n\n  \r\nthird\rfourth\r\n\r\nfifth é\nlast';
    fs.writeFileSync(file, text);
    const expected = await byReadline(file);
    expect(expected.map((l) => l[0])).toEqual([1, 2, 5, 6, 8, 9]);
    for (const chunk of [1, 2, 3, 5, 7, 1 << 20]) {
      const read = { bytes: 0 };
      expect(await collect(readLines(file, read, chunk))).toEqual(expected);
      expect(read.bytes).toBe(Buffer.byteLength(text));
    }
    fs.rmSync(dir, { recursive: true });
  });
});
