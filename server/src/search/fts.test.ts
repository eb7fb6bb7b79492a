import { describe, expect, it } from 'vitest';
import { addRankList, parseIdList } from './fts.ts';

describe('FTS5 answers read as one value', () => {
  it('reads a group_concat of rowids, as text (PostgreSQL) or as bytes (SQLite)', () => {
    expect(Array.from(parseIdList('3,17,200000'))).toEqual([3, 17, 200000]);
    expect(Array.from(parseIdList(Buffer.from('3,17,200000')))).toEqual([3, 17, 200000]);
    expect(Array.from(parseIdList(Buffer.from('42')))).toEqual([42]);
    expect(parseIdList(null).length).toBe(0);
    expect(parseIdList(Buffer.alloc(0)).length).toBe(0);
  });

  it('adds rowid/score pairs in millionths to the scores, skipping ids not yet synced', () => {
    const scores = new Float64Array(10);
    scores[4] = 1;
    addRankList('4 2500000 7 125 12 9000000', scores);
    expect(scores[4]).toBeCloseTo(3.5, 9);
    expect(scores[7]).toBeCloseTo(0.000125, 9);
    expect(Array.from(scores).filter((v) => v !== 0)).toHaveLength(2);
    addRankList('2 -1500000', scores);
    expect(scores[2]).toBeCloseTo(-1.5, 9);
    addRankList(null, scores);
    addRankList(Buffer.from('9 1000000'), scores);
    expect(scores[9]).toBeCloseTo(1, 9);
  });

});
