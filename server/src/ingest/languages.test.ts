import { describe, expect, it } from 'vitest';
import { languageCode, languageCodes } from './languages.ts';

describe('languageCode', () => {
  it('maps ISO 639-2 bibliographic and terminologic codes to ISO 639-1', () => {
    expect(['eng', 'fre', 'fra', 'ger', 'deu', 'ita', 'spa', 'rus', 'gre', 'ell', 'chi', 'zho', 'dut', 'nld', 'cze', 'ces', 'baq', 'eus', 'wel', 'cym', 'tib', 'bod', 'per', 'fas', 'alb', 'sqi', 'arm', 'hye', 'geo', 'kat', 'ice', 'isl', 'mac', 'mkd', 'may', 'msa', 'bur', 'mya', 'rum', 'ron', 'slo', 'slk', 'mao', 'mri'].map((c) => languageCode(c)))
      .toEqual(['en', 'fr', 'fr', 'de', 'de', 'it', 'es', 'ru', 'el', 'el', 'zh', 'zh', 'nl', 'nl', 'cs', 'cs', 'eu', 'eu', 'cy', 'cy', 'bo', 'bo', 'fa', 'fa', 'sq', 'sq', 'hy', 'hy', 'ka', 'ka', 'is', 'is', 'mk', 'mk', 'ms', 'ms', 'my', 'my', 'ro', 'ro', 'sk', 'sk', 'mi', 'mi']);
  });

  it('accepts 2-letter codes, locale tags, any case and MARC obsolete codes', () => {
    expect(languageCode('IT')).toBe('it');
    expect(languageCode('en-GB')).toBe('en');
    expect(languageCode('pt_BR')).toBe('pt');
    expect(languageCode(' eng. ')).toBe('en');
    expect(languageCode('scr')).toBe('hr');
    expect(languageCode('esp')).toBe('eo');
    expect(languageCode('iw')).toBe('he');
  });

  it('keeps a real 3-letter code that has no 2-letter one, and drops codes that name no language', () => {
    expect(languageCode('grc')).toBe('grc');
    expect(languageCode('und')).toBeNull();
    expect(languageCode('mul')).toBeNull();
    expect(languageCode('zxx')).toBeNull();
    expect(languageCode('qaa')).toBeNull();
    expect(languageCode('xyz')).toBeNull();
  });

  it('understands language names in English, in the language itself and in a few other languages', () => {
    expect(['English', 'Italiano', 'Deutsch', 'Français', 'francais', 'Español', 'Русский', 'Ελληνικά', 'inglese', 'tedesco', 'Allemand', 'Portuguese']
      .map((n) => languageCode(n))).toEqual(['en', 'it', 'de', 'fr', 'fr', 'es', 'ru', 'el', 'en', 'de', 'de', 'pt']);
  });

  it('never guesses from the first letters of free text', () => {
    expect(languageCode('Engl')).toBeNull();
    expect(languageCode('Italianissimo')).toBeNull();
    expect(languageCode('Text in English')).toBeNull();
    expect(languageCode('')).toBeNull();
  });

  it('accepts codes only when names are turned off (spreadsheets report names instead)', () => {
    expect(languageCode('english', { names: false })).toBeNull();
    expect(languageCode('eng', { names: false })).toBe('en');
  });
});

describe('languageCodes', () => {
  it('splits lists of codes or names, and takes nothing from prose', () => {
    expect(languageCodes('English; French')).toEqual(['en', 'fr']);
    expect(languageCodes('eng, fre, eng')).toEqual(['en', 'fr']);
    expect(languageCodes('Italiano e inglese')).toEqual(['it', 'en']);
    expect(languageCodes('Spanish, with English summary')).toEqual([]);
    expect(languageCodes('Text in English')).toEqual([]);
  });
});
