import { describe, expect, it } from 'vitest';
import { firstInOrder } from './top.ts';

describe('firstInOrder', () => {
  const byScoreThenId = (score: number[]) => (a: number, b: number) => score[b] - score[a] || b - a;

  it('gives the same first k as a full sort, ties included', () => {
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const n of [0, 1, 5, 50, 1000, 20000]) {
      const score = Array.from({ length: n }, () => Math.floor(rand() * 30)); // many equal scores
      const ids = Array.from({ length: n }, (_, i) => i).sort(() => rand() - 0.5);
      const cmp = byScoreThenId(score);
      const sorted = [...ids].sort(cmp);
      for (const k of [1, 10, 60, n, n + 3]) expect(firstInOrder(ids, k, cmp)).toEqual(sorted.slice(0, k));
    }
  });

  it('leaves its input alone and answers nothing for k = 0', () => {
    const ids = [3, 1, 2];
    expect(firstInOrder(ids, 2, (a, b) => a - b)).toEqual([1, 2]);
    expect(ids).toEqual([3, 1, 2]);
    expect(firstInOrder(ids, 0, (a, b) => a - b)).toEqual([]);
  });
});
