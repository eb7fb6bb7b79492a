import { describe, expect, it } from 'vitest';
import { distance, Vocabulary } from './vocabulary.ts';

describe('distance', () => {
  it('counts edits, a swap of neighbours once, and stops past the limit', () => {
    expect(distance('kropotkin', 'kropotkin', 2)).toBe(0);
    expect(distance('kropotkine', 'kropotkin', 2)).toBe(1);
    expect(distance('tolstoi', 'tolstoy', 2)).toBe(1);
    expect(distance('mutaul', 'mutual', 2)).toBe(1);
    expect(distance('dostoevskij', 'dostoevsky', 2)).toBe(2);
    expect(distance('abcdef', 'uvwxyz', 2)).toBe(3);
  });
});

describe('Vocabulary', () => {
  const v = new Vocabulary();
  const doc = (title: string, author = '') => ({ title, subtitle: '', creator: author ? [{ id: 1, value: author }] : [] });
  v.add(doc('Бесы', 'Фёдор Достоевский'));
  v.add(doc('Mutual Aid', 'Peter Kropotkin'));
  v.add(doc('Mutual Help'));
  v.add(doc('Mutable Things'));

  it('knows title and author words in every search form', () => {
    expect(v.has('dostoevsky')).toBe(true);
    expect(v.has('достоевскии')).toBe(true);
    expect(v.has('mutual')).toBe(true);
  });

  it('proposes the closest word, the more frequent one on a tie, nothing for short or far words', () => {
    expect(v.closest('dostoevski')).toBe('dostoevsky');
    expect(v.closest('mutal')).toBe('mutual');
    expect(v.closest('kropotkine')).toBe('kropotkin');
    expect(v.closest('aid')).toBeNull();
    expect(v.closest('zzzzzzzz')).toBeNull();
  });
});
