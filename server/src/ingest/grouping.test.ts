import { describe, expect, it } from 'vitest';
import { groupingKey } from './grouping.ts';

describe('grouping rule', () => {
  it('groups records whose title, authors and languages match after normalisation', () => {
    expect(groupingKey('Mutual Aid', ['Peter Kropotkin'], ['en'])).toBe(groupingKey('MUTUAL  AID.', ['peter kropotkin'], ['EN']));
    expect(groupingKey('La libertà', ['Errico Malatesta'], ['it'])).toBe(groupingKey('La liberta', ['Errico Malatesta'], ['it']));
  });

  it('ignores the order of authors and languages', () => {
    expect(groupingKey('T', ['A', 'B'], ['en', 'it'])).toBe(groupingKey('T', ['B', 'A'], ['it', 'en']));
  });

  it('separates different titles, authors or languages', () => {
    const base = groupingKey('Mutual Aid', ['Peter Kropotkin'], ['en']);
    expect(groupingKey('Mutual Aid II', ['Peter Kropotkin'], ['en'])).not.toBe(base);
    expect(groupingKey('Mutual Aid', ['P. Kropotkin'], ['en'])).not.toBe(base);
    expect(groupingKey('Mutual Aid', ['Peter Kropotkin'], ['fr'])).not.toBe(base);
  });
});
