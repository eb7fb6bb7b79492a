import { describe, expect, it } from 'vitest';
import { countryCode, countryName, languageLabel, languageList, languageName } from './intl';

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
    expect(languageList('it, en', 'de')).toBe('Italienisch, Englisch');
    expect(languageList('hr;en', 'el')).toBe('Κροατικά, Αγγλικά');
    expect(languageList('it, Friulian dialects', 'en')).toBe('Italian, Friulian dialects');
  });
});

describe('the interface strings', () => {
  it('use each language’s quotation marks, not the English ones', async () => {
    const { loadBundle } = await import('../i18n');
    for (const lang of ['de', 'el', 'fr', 'hr', 'it'] as const) {
      const english = Object.entries(await loadBundle(lang)).filter(([, v]) => /“[^“”]*”/.test(v)).map(([k]) => k);
      expect(english, `${lang}: strings with English quotation marks`).toEqual([]);
    }
    expect((await loadBundle('de'))['search_results_other']).toContain('„{{query}}“');
    expect((await loadBundle('el'))['search_results_other']).toContain('«{{query}}»');
  });
});
