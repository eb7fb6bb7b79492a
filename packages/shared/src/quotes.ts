// Quotation marks per interface language: one rule for the web app's strings and the server's messages
// (pure, no zod: the web app imports this file directly).

/** Opening and closing marks per interface language (French with its narrow no-break spaces). */
const QUOTES: Record<string, readonly [string, string]> = {
  en: ['“', '”'],
  de: ['„', '“'],
  el: ['«', '»'],
  fr: ['«\u202f', '\u202f»'],
  hr: ['„', '”'],
  it: ['«', '»'],
};

export function quoteMarks(lang: string): readonly [string, string] {
  return QUOTES[lang.split('-')[0]] ?? QUOTES.en;
}

/** `text` in the language's quotation marks. */
export function quote(text: string, lang: string): string {
  const [open, close] = quoteMarks(lang);
  return `${open}${text}${close}`;
}

/**
 * A translated string with its English quotation marks (“…”, as most translations were written) in the
 * language's marks instead. Marks the translator chose („…“, «…») are kept as they are.
 */
export function localQuotes(s: string, lang: string): string {
  const [open, close] = quoteMarks(lang);
  if (open === '“' && close === '”') return s;
  return s.replace(/“([^“”]*)”/g, `${open}$1${close}`);
}
