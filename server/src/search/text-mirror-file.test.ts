// The text mirror's file (text-mirror-file.ts): documents applied in seq order, each entry's rows replaced,
// documents already held skipped, and the segments of a fill merged into one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MirrorFile, type ChangeRow } from './text-mirror-file.ts';
import { LAYER_STRIDE } from './layers.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function fresh(): MirrorFile {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-mirror-file-'));
  dirs.push(dir);
  return new MirrorFile(path.join(dir, 'search-text.sqlite'));
}

const row = (entry: number, seq: number, rowid: number | null, title = '', languages = 'en'): ChangeRow =>
  rowid === null ? [entry, seq, null, null, null, null, null, null] : [entry, seq, rowid, title, 'Ann Author', '', '', languages];
const found = (f: MirrorFile, match: string) => f.db.prepare('SELECT rowid FROM entry_fts WHERE entry_fts MATCH ? ORDER BY rowid').pluck().all(match).map(Number);
const inTransaction = <T>(f: MirrorFile, fn: () => T): T => f.db.transaction(fn).immediate();

describe('the text mirror file', () => {
  it('replaces an entry\'s rows (its own and its layers) with each new document, and drops them for a removed one', () => {
    const f = fresh();
    expect(inTransaction(f, () => f.apply([row(1, 1, 1, 'Harbour workers'), row(1, 1, 3 * LAYER_STRIDE + 1, 'Harbour workers minutes'), row(2, 2, 2, 'Bread')]))).toBe(2);
    expect(found(f, 'harbour')).toEqual([1, 3 * LAYER_STRIDE + 1]);
    expect(found(f, 'minutes')).toEqual([3 * LAYER_STRIDE + 1]);
    expect(inTransaction(f, () => f.apply([row(1, 3, 1, 'Dock workers'), row(2, 4, null)]))).toBe(2);
    expect(found(f, 'harbour')).toEqual([]);
    expect(found(f, 'dock')).toEqual([1]);
    expect(found(f, 'bread')).toEqual([]);
    expect(f.seq).toBe(4);
    f.close();
  });

  it('skips documents it already holds (another node sharing the file applied them)', () => {
    const f = fresh();
    inTransaction(f, () => f.apply([row(1, 1, 1, 'First title'), row(2, 2, 2, 'Second title')]));
    // The same documents again and one newer: only the newer one is applied, nothing is doubled.
    expect(inTransaction(f, () => f.apply([row(1, 1, 1, 'First title'), row(2, 2, 2, 'Second title'), row(3, 5, 3, 'Third title')]))).toBe(1);
    expect(found(f, 'title')).toEqual([1, 2, 3]);
    expect(f.seq).toBe(5);
    f.close();
  });

  it('merges the segments of many transactions into one, and the index finds the same rows', () => {
    const f = fresh();
    for (let t = 0; t < 12; t++) inTransaction(f, () => f.apply([row(t + 1, t + 1, t + 1, `Volume ${t} of the common archive`)]));
    const segments = () => f.db.prepare('SELECT count(DISTINCT segid) FROM entry_fts_idx').pluck().get() as number;
    expect(segments()).toBeGreaterThan(1);
    const before = found(f, 'archive');
    expect(f.compact(1)).toBeGreaterThan(1);
    expect(segments()).toBe(1);
    expect(found(f, 'archive')).toEqual(before);
    f.close();
  });
});
