import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { UI_LANGUAGES, type UiLanguage } from '../lib/shared';
import { browser } from '../lib/reload';
import { localQuotes } from '../lib/intl';

export const LANGUAGE_STORAGE_KEY = 'language';

/** The interface languages with their native names (spec §9). */
export const LANGUAGE_NAMES: Record<UiLanguage, string> = {
  en: 'English',
  de: 'Deutsch',
  el: 'Ελληνικά',
  fr: 'Français',
  hr: 'Hrvatski',
  it: 'Italiano',
};

export function isUiLanguage(v: unknown): v is UiLanguage {
  return typeof v === 'string' && (UI_LANGUAGES as readonly string[]).includes(v);
}

export function storedLanguage(): UiLanguage {
  try {
    const v = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isUiLanguage(v) ? v : 'en';
  } catch {
    return 'en';
  }
}

/** Stores the language and reloads the page (spec §2 Header). */
export function changeLanguage(lang: UiLanguage): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    /* storage unavailable: the reload falls back to English */
  }
  browser.reload();
}

// Lazily loaded chunks per language: only the current language's files are fetched. The common strings
// are ./<lang>.json; each feature may keep its own strings in ./<feature>/<lang>.json.
const bundles = import.meta.glob<{ default: Record<string, string> }>(['./*.json', './*/*.json']);

/** Bundle files of a language: './<lang>.json' and every './<feature>/<lang>.json'. */
export function bundlePaths(lang: string): string[] {
  return Object.keys(bundles).filter((p) => p === `./${lang}.json` || p.endsWith(`/${lang}.json`)).sort();
}

export async function loadBundle(lang: UiLanguage): Promise<Record<string, string>> {
  const parts = await Promise.all(bundlePaths(lang).map(async (p) => (await bundles[p]()).default));
  const merged: Record<string, string> = Object.assign({}, ...parts);
  // Translations keep the English “…” where the language has its own marks: one rule, applied here.
  for (const [k, v] of Object.entries(merged)) merged[k] = localQuotes(v, lang);
  return merged;
}

export async function initI18n(lang: UiLanguage, translation?: Record<string, string>): Promise<typeof i18n> {
  const resources: Resource = { [lang]: { translation: translation ?? (await loadBundle(lang)) } };
  await i18n.use(initReactI18next).init({
    lng: lang,
    resources,
    fallbackLng: false,
    // Keys are the English source strings, which contain ':' and '.'.
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
  return i18n;
}

export default i18n;
