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
