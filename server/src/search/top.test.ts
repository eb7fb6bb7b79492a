import { describe, expect, it } from 'vitest';
import { firstByRelevance } from './top.ts';

describe('firstByRelevance', () => {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const fullSort = (ids: number[], scores: Float64Array, dates: Float64Array) =>
    [...ids].sort((a, b) => scores[b] - scores[a] || dates[b] - dates[a] || b - a);

  it('gives the same first k as a full sort by score, then date, then id, ties included', () => {
    for (const n of [0, 1, 5, 50, 1000, 20000]) {
      const scores = Float64Array.from({ length: n }, () => Math.floor(rand() * 30) / 4); // many equal scores
      const dates = Float64Array.from({ length: n }, () => Math.floor(rand() * 5)); // and equal dates
      const ids = Array.from({ length: n }, (_, i) => i).sort(() => rand() - 0.5);
      const sorted = fullSort(ids, scores, dates);
      for (const k of [1, 10, 60, n, n + 3]) expect(firstByRelevance(ids, k, scores, dates)).toEqual(sorted.slice(0, k));
    }
  });

  it('reads a subset of ids over larger arrays and leaves its input alone', () => {
    const scores = new Float64Array([0, 5, 1, 5, 9]);
    const dates = new Float64Array([0, 1, 0, 2, 0]);
    const ids = new Int32Array([3, 1, 2]);
    expect(firstByRelevance(ids, 2, scores, dates)).toEqual([3, 1]);
    expect(Array.from(ids)).toEqual([3, 1, 2]);
    expect(firstByRelevance(ids, 0, scores, dates)).toEqual([]);
  });
});
