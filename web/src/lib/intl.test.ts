import { describe, expect, it } from 'vitest';
import { countryCode, countryName, languageLabel, languageName, localQuotes, quote } from './intl';

describe('country and language names in the interface language', () => {
  it('names a country written in English, in another interface language or as a code', () => {
    expect(countryName('Germany', 'de')).toBe('Deutschland');
    expect(countryName('Germany', 'el')).toBe('Γερμανία');
    expect(countryName('Kroatien', 'it')).toBe('Croazia');
    expect(countryName('HR', 'fr')).toBe('Croatie');
    expect(countryName('  united states ', 'hr')).toBe(countryName('US', 'hr'));
    expect(countryCode('Côte d’Ivoire')).toBe('CI');
    // A place the browser does not know stays as written; nothing stays nothing.
    expect(countryName('Atlantis', 'de')).toBe('Atlantis');
    expect(countryName(null, 'de')).toBe('');
  });

  it('names languages by code, capitalised as a label, the server name as fallback', () => {
    expect(languageName('de', 'de')).toBe('Deutsch');
    expect(languageName('en', 'fr')).toBe('Anglais');
    expect(languageName('not a code', 'fr')).toBeUndefined();
    expect(languageLabel({ id: 'de', value: 'German' }, 'el')).toBe('Γερμανικά');
    expect(languageLabel({ id: 'xx-nope', value: 'Server name' }, 'el')).toBe('Server name');
  });
});

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
