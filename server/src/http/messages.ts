// Server messages in the reader's language. The English text is the key (as in the web app's strings);
// the translations are in ./messages/<lang>.json; zod's own validation messages come from zod's locales.
// The language is negotiated from Accept-Language (the web app sends its interface language there).
import fs from 'node:fs';
import Negotiator from 'negotiator';
import { z } from 'zod';
import { UI_LANGUAGES, localQuotes } from '@uc/shared';

export type MessageLanguage = (typeof UI_LANGUAGES)[number];
export type MessageValues = Record<string, string | number>;

const catalogues = new Map<MessageLanguage, Record<string, string>>();
for (const lang of UI_LANGUAGES) {
  if (lang === 'en') continue;
  const file = new URL(`./messages/${lang}.json`, import.meta.url);
  const catalogue = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  // Translations keep the English “…” where the language has its own marks: the web app's rule too.
  for (const [k, v] of Object.entries(catalogue)) catalogue[k] = localQuotes(v, lang);
  catalogues.set(lang, catalogue);
}

/** The translations of one language (the English keys map to themselves: none are stored). */
export function messageCatalogue(lang: MessageLanguage): Readonly<Record<string, string>> {
  return catalogues.get(lang) ?? {};
}

/** The best of our languages for a request's Accept-Language (English when none matches). */
export function messageLanguage(acceptLanguage: string | string[] | undefined): MessageLanguage {
  if (!acceptLanguage) return 'en';
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  const best = new Negotiator({ headers: { 'accept-language': header } }).language([...UI_LANGUAGES]);
  return (best as MessageLanguage | undefined) ?? 'en';
}

/** Fills `{{name}}` placeholders. */
export function interpolate(template: string, values?: MessageValues): string {
  if (!values) return template;
  return template.replace(/{{(\w+)}}/g, (all, name: string) => (name in values ? String(values[name]) : all));
}

/** A message template in `lang` (the English template when it has no translation), filled with `values`. */
export function translateMessage(lang: MessageLanguage, template: string, values?: MessageValues): string {
  return interpolate(messageCatalogue(lang)[template] ?? template, values);
}

/**
 * An error whose message the reader sees: `template` is the English text with `{{name}}` placeholders
 * (the catalogue key), `values` fill them; `message` is the English text (for logs and tests).
 */
export interface MessageSource {
  template?: string;
  values?: MessageValues;
}

/** An error whose message is a template with values: domain errors (accounts, spreadsheets, queries) extend it. */
export class MessageError extends Error implements MessageSource {
  readonly template: string;
  constructor(message: string, readonly values?: MessageValues) {
    super(interpolate(message, values));
    this.template = message;
  }
}

/** The message of an error in `lang`: its template when it has one, else its (literal) message as the key. */
export function errorMessage(lang: MessageLanguage, err: Error & MessageSource): string {
  return err.template ? translateMessage(lang, err.template, err.values) : translateMessage(lang, err.message);
}

type LocaleError = (issue: z.core.$ZodRawIssue) => string | { message: string } | undefined | null;
const zodLocales: Record<MessageLanguage, LocaleError> = {
  en: z.locales.en().localeError as LocaleError,
  de: z.locales.de().localeError as LocaleError,
  el: z.locales.el().localeError as LocaleError,
  fr: z.locales.fr().localeError as LocaleError,
  hr: z.locales.hr().localeError as LocaleError,
  it: z.locales.it().localeError as LocaleError,
};

const text = (m: ReturnType<LocaleError>) => (typeof m === 'string' ? m : (m?.message ?? undefined));

/**
 * A validation issue's message in `lang`. A schema's own message (one zod's English locale would not
 * give) is one of ours and goes through the catalogue; zod's default messages come from its locale.
 */
export function zodIssueMessage(lang: MessageLanguage, issue: z.core.$ZodRawIssue & { message?: string }): string {
  const english = text(zodLocales.en(issue));
  const own = issue.message;
  if (own && own !== english) return translateMessage(lang, own);
  return text(zodLocales[lang](issue)) ?? own ?? english ?? 'Invalid input';
}
