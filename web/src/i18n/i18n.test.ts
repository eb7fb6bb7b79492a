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

  it('defaults to en and reads the stored language', () => {
    expect(storedLanguage()).toBe('en');
    window.localStorage.setItem('language', 'hr');
    expect(storedLanguage()).toBe('hr');
    window.localStorage.setItem('language', 'xx');
    expect(storedLanguage()).toBe('en');
  });
});
