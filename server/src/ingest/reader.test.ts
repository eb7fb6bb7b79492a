// The import's readers: two threads take turns by blocks of lines; the import gets every line once, in
// the file's order, with its own line number, and a bad line as its problem.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readCheckedLines } from './reader.ts';
import { LINES_PER_MESSAGE } from './format.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('readCheckedLines', () => {
  it.each([['CRLF', '\r\n'], ['LF', '\n']])('gives every line of a file of several blocks in order, with its number, blank lines skipped and a bad line as its problem (%s)', async (_name, newline) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-reader-'));
    dirs.push(dir);
    const entries = Math.floor(LINES_PER_MESSAGE * 3.5);
    const text: string[] = [JSON.stringify({ type: 'library', id: 1, name: 'Archivio' })];
    for (let i = 1; i <= entries; i++) {
      if (i === 1500) text.push(''); // a blank line: skipped, still counted
      text.push(i === 2600 ? '{"type": "entry", "id": ' : JSON.stringify({
        type: 'entry', id: i, title: `Work ${i}`, authors: [], languages: [], data_sources: [{ library_id: 1, identifier: `r${i}` }],
      }));
    }
    const file = path.join(dir, 'c.jsonl');
    fs.writeFileSync(file, text.join(newline) + '\n');
    const read = { bytes: 0 };
    const got: [number, string][] = [];
    for await (const [n, rec] of readCheckedLines(file, read)) got.push([n, typeof rec === 'string' ? rec : rec.type === 'entry' ? `entry ${rec.id}` : rec.type]);
    const expected: [number, string][] = [[1, 'library']];
    for (let i = 1, n = 2; i <= entries; i++, n++) {
      if (i === 1500) n++;
      expected.push([n, i === 2600 ? `line ${n}: not valid JSON` : `entry ${i}`]);
    }
    expect(got).toEqual(expected);
    expect(read.bytes).toBe(fs.statSync(file).size);
  });

  it('an import that stops early gets the lines up to there in order', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-reader-'));
    dirs.push(dir);
    const file = path.join(dir, 'c.jsonl');
    fs.writeFileSync(file, Array.from({ length: 5000 }, (_, i) => JSON.stringify({ type: 'page', id: i + 1, title: `P${i}`, text: 'x' })).join('\n'));
    let n = 0;
    for await (const line of readCheckedLines(file, { bytes: 0 })) {
      expect(line[0]).toBe(++n);
      if (n === 1200) break;
    }
    expect(n).toBe(1200);
  });
});
