import { describe, expect, it } from 'vitest';
import { SuggestIndex } from './suggest.ts';

const doc = (entry_id: number, title: string, authors: [number, string][] = []) => ({
  entry_id, title, creator: authors.map(([id, value]) => ({ id, value })),
});
const values = (s: SuggestIndex, typed: string) => s.candidates(typed).map((c) => c.value).sort();

describe('SuggestIndex', () => {
  it('follows changes and removals after it was built (the delta), and after a rebuild', () => {
    const s = new SuggestIndex();
    for (let i = 1; i <= 3000; i++) s.put(doc(i, `Filler title ${i}`));
    s.put(doc(5000, 'Mutual Aid', [[1, 'Peter Kropotkin']]));
    expect(values(s, 'mutu')).toEqual(['Mutual Aid']);
    // Changed title: the old words no longer suggest it.
    s.put(doc(5000, 'La Conquête du pain', [[1, 'Pierre Kropotkine']]));
    expect(values(s, 'mutu')).toEqual([]);
    expect(values(s, 'conquete')).toEqual(['La Conquête du pain']);
    expect(values(s, 'kropot')).toEqual(['Pierre Kropotkine']);
    s.remove(5000);
    expect(values(s, 'conq')).toEqual([]);
    // Many changes at once: rebuilt, same answers.
    for (let i = 1; i <= 6000; i++) s.put(doc(i, `Other title ${i}`));
    expect(values(s, 'filler')).toEqual([]);
    expect(values(s, 'other title 2999')).toEqual(['Other title 2999']);
    expect(values(s, 'kropot')).toEqual(['Pierre Kropotkine']);
  });
});

describe('SuggestIndex.step', () => {
  it('builds the keys in slices between requests, then answers as a cold index would; a change made meanwhile is kept', () => {
    const warm = new SuggestIndex();
    const cold = new SuggestIndex();
    for (let i = 1; i <= 5000; i++) {
      const d = doc(i, `Work number ${i} of Autor${i % 50}`, [[i % 300, `Writer ${i % 300}`]]);
      warm.put(d);
      cold.put(d);
    }
    let slices = 0;
    while (!warm.step(0)) {
      slices++;
      if (slices === 3) warm.put(doc(17, 'Кропоткин и друзья', [[9999, 'Пётр Кропоткин']]));
      expect(slices).toBeLessThan(10_000);
    }
    expect(slices, 'a zero-millisecond slice does one batch at a time').toBeGreaterThan(3);
    expect(warm.step(0)).toBe(true);
    cold.put(doc(17, 'Кропоткин и друзья', [[9999, 'Пётр Кропоткин']]));
    for (const typed of ['work number 49', 'work number 12', 'writer 29', 'kropot', 'Кроп', 'autor7']) expect(values(warm, typed)).toEqual(values(cold, typed));
    expect(values(warm, 'kropot')).toEqual(['Кропоткин и друзья', 'Пётр Кропоткин']);
  });
});
