import { describe, expect, it } from 'vitest';
import { loadBundle, storedLanguage } from './index';

// Every language's merged strings (common file plus feature files).
const en = await loadBundle('en');
const bundles: Record<string, Record<string, string>> = {
  de: await loadBundle('de'), el: await loadBundle('el'), fr: await loadBundle('fr'), hr: await loadBundle('hr'), it: await loadBundle('it'),
};
const placeholders = (s: string) => (s.match(/{{\w+}}/g) ?? []).sort();

describe('translations', () => {
  for (const [lang, bundle] of Object.entries(bundles)) {
    it(`${lang} translates every key with the same placeholders and all plural forms`, () => {
      for (const [key, source] of Object.entries(en)) {
        if (key.endsWith('_one') || key.endsWith('_other')) continue;
        expect(bundle[key], `${lang}: ${key}`).toBeTruthy();
        expect(placeholders(bundle[key]), `${lang}: ${key}`).toEqual(placeholders(source));
      }
      for (const cat of new Intl.PluralRules(lang).resolvedOptions().pluralCategories) {
        expect(bundle[`search_results_${cat}`], `${lang}: search_results_${cat}`).toBeTruthy();
      }
      // Translated for real, not copied (a few words are the same in both languages).
      const same = Object.keys(en).filter((k) => !k.startsWith('__') && bundle[k] === (en as Record<string, string>)[k]);
      expect(same.length).toBeLessThan(Object.keys(en).length / 5);
    });
  }

  // Issue 16: the query help explains the forgiving search in each language, translated, naming the
  // controls as that language's screen does (the help is read beside them).
  for (const [lang, bundle] of Object.entries(bundles)) {
    it(`${lang} query help explains other scripts, typos, translations, suggestions and snippets in its own words`, () => {
      const keys = ['__QUERY_HELP_SCRIPTS__', '__QUERY_HELP_FORMS__', '__QUERY_HELP_TYPOS__', '__QUERY_HELP_TRANSLATIONS__', '__QUERY_HELP_SUGGEST__', '__QUERY_HELP_SNIPPETS__'];
      for (const key of keys) {
        expect(bundle[key], `${lang}: ${key}`).toBeTruthy();
        expect(bundle[key], `${lang}: ${key} is not the English text`).not.toBe((en as Record<string, string>)[key]);
      }
      expect(bundle.__QUERY_HELP_SCRIPTS__).toMatch(/Кропоткин/);
      // Issue 30: word forms by each record's language, and quotes for a word as written.
      expect(bundle.__QUERY_HELP_FORMS__).toMatch(/βιβλιοθήκες/);
      expect(bundle.__QUERY_HELP_FORMS__).toMatch(/"[^"]+"/);
      expect(bundle.__QUERY_HELP_TYPOS__).toContain(bundle['Did you mean {{query}}?'].replace('{{query}}', '…'));
      expect(bundle.__QUERY_HELP_TRANSLATIONS__).toContain(bundle['Include translations and originals']);
      expect(bundle.__QUERY_HELP_SNIPPETS__).toContain(bundle['Read in the full text']);
    });
  }

  it('defaults to en and reads the stored language', () => {
    expect(storedLanguage()).toBe('en');
    window.localStorage.setItem('language', 'hr');
    expect(storedLanguage()).toBe('hr');
    window.localStorage.setItem('language', 'xx');
    expect(storedLanguage()).toBe('en');
  });
});
