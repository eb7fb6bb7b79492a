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

describe('import file lines', () => {
  it('numbers lines as readline does (CRLF, LF, lone CR, blank lines, no final newline), across chunk boundaries', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-lines-'));
    const file = path.join(dir, 'f.jsonl');
    const text = 'first\r\nsecond\n\n  \r\nthird\rfourth\r\n\r\nfifth é\nlast';
    fs.writeFileSync(file, text);
    const rl = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
    const expected: [number, string][] = [];
    let n = 0;
    for await (const line of rl) {
      n++;
      if (line.trim()) expected.push([n, line]);
    }
    expect(expected.map((l) => l[0])).toEqual([1, 2, 5, 6, 8, 9]);
    for (const chunk of [1, 2, 3, 5, 7, 1 << 20]) {
      const read = { bytes: 0 };
      expect(await collect(readLines(file, read, chunk))).toEqual(expected);
      expect(read.bytes).toBe(Buffer.byteLength(text));
    }
    fs.rmSync(dir, { recursive: true });
  });
});
