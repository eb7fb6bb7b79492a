import { describe, expect, it } from 'vitest';
import { localQuotes, quote } from './quotes.ts';

describe('quotation marks', () => {
  it('quotes in each language’s marks', () => {
    expect(quote('Zagreb', 'en')).toBe('“Zagreb”');
    expect(quote('Zagreb', 'de')).toBe('„Zagreb“');
    expect(quote('Zagreb', 'el')).toBe('«Zagreb»');
    expect(quote('Zagreb', 'fr')).toBe('«\u202fZagreb\u202f»');
    expect(quote('Zagreb', 'hr')).toBe('„Zagreb”');
    expect(quote('Zagreb', 'it')).toBe('«Zagreb»');
  });

  it('turns a translation’s English marks into the language’s, leaving marks the translator chose', () => {
    expect(localQuotes('Suchergebnisse für “{{query}}”', 'de')).toBe('Suchergebnisse für „{{query}}“');
    expect(localQuotes('„A“ und “B”', 'de')).toBe('„A“ und „B“');
    expect(localQuotes('Αναζήτηση “{{q}}”', 'el')).toBe('Αναζήτηση «{{q}}»');
    expect(localQuotes('Search “{{q}}”', 'en')).toBe('Search “{{q}}”');
    expect(localQuotes('Pretraga „x” i “y”', 'hr')).toBe('Pretraga „x” i „y”');
  });
});
