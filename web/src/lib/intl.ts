// Names and typography in the interface language: languages and countries through the browser's
// Intl.DisplayNames (no name lists of our own), and each language's quotation marks.

const displayNames = new Map<string, Intl.DisplayNames | null>();

function namesFor(uiLanguage: string, type: 'language' | 'region'): Intl.DisplayNames | null {
  const key = `${type}:${uiLanguage}`;
  let names = displayNames.get(key);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([uiLanguage], { type, fallback: 'none' });
    } catch {
      names = null;
    }
    displayNames.set(key, names);
  }
  return names;
}

function nameOf(names: Intl.DisplayNames | null, code: string): string | undefined {
  try {
    const name = names?.of(code);
    return name && name !== code ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The name of a language (ISO 639 code) in the interface language, or undefined when the browser does
 * not know the code (then the server's term is shown).
 */
export function languageName(code: string, uiLanguage: string): string | undefined {
  if (!/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/i.test(code)) return undefined;
  const name = nameOf(namesFor(uiLanguage, 'language'), code);
  // French, Italian… name languages in lower case: a list label starts with a capital.
  return name ? name.charAt(0).toLocaleUpperCase(uiLanguage) + name.slice(1) : undefined;
}

/** Folded for matching a country written by hand ("Côte d'Ivoire", "cote d’ivoire"). */
const foldName = (s: string) =>
  s.normalize('NFD').replace(/\p{M}/gu, '').replace(/[’']/g, "'").toLowerCase().trim();

let countryCodes: Map<string, string> | null = null;

/**
 * ISO 3166 code of a country as a library's address gives it: a two-letter code ("HR"), or its name in
 * one of the interface languages ("Croatia", "Kroatien", "Hrvatska"…). Built once from the browser's own
 * names of every code it knows, so no country list is kept here.
 */
export function countryCode(value: string): string | undefined {
  const v = value.trim();
  if (/^[A-Za-z]{2}$/.test(v)) {
    const code = v.toUpperCase();
    return nameOf(namesFor('en', 'region'), code) ? code : undefined;
  }
  if (!countryCodes) {
    countryCodes = new Map();
    const langs = ['en', 'de', 'el', 'fr', 'hr', 'it'];
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        for (const lang of langs) {
          const name = nameOf(namesFor(lang, 'region'), code);
          if (name && !countryCodes.has(foldName(name))) countryCodes.set(foldName(name), code);
        }
      }
    }
  }
  return countryCodes.get(foldName(v));
}

/**
 * A country (a library's address_country: a name in any interface language, or an ISO code) named in
 * the interface language; a value the browser cannot place is shown as it was written.
 */
export function countryName(value: string | null | undefined, uiLanguage: string): string {
  const v = (value ?? '').trim();
  if (!v) return '';
  const code = countryCode(v);
  return (code && nameOf(namesFor(uiLanguage, 'region'), code)) || v;
}

// Quotation marks: the one rule shared with the server's messages.
export { localQuotes, quote, quoteMarks } from '../../../packages/shared/src/quotes.ts';

/** A language of an entry ({id: code, value: the server's name}) named in the interface language. */
export function languageLabel(l: { id: string; value?: string | null }, uiLanguage: string): string {
  return languageName(l.id, uiLanguage) ?? (l.value || l.id);
}

/**
 * A library's languages (free text, usually codes: "it, en") named in the interface language
 * ("Italienisch, Englisch"); a part that is not a known code is kept as written.
 */
export function languageList(text: string, uiLanguage: string): string {
  return text
    .split(/[,;/]/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => languageName(part, uiLanguage) ?? part)
    .join(', ');
}
