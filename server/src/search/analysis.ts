// The analysis of words (issue 30): the one rule that decides which forms of a word the search index
// holds and which forms a query word looks for. The indexer (fts-text.ts), the query compilers (fts.ts,
// pg-fts.ts through the parser's `stems`), snippets and spelling corrections all ask this module.
//
// Text is folded first (case, accents, script: @uc/shared foldText), which also splits elisions at the
// apostrophe ("l'école" → "l ecole", "dell'arte" → "dell arte"). Each folded word of a record's title,
// subtitle, description and full text is then stemmed by the Snowball stemmer of each of the record's
// languages (@orama/stemmers), and the stem is indexed beside the exact word as a token tagged with its
// language: `00` + language code + stem ("00enlibrari"). A query word looks for its exact form and, for
// every language with a stemmer, its stem in that language: "libraries" reaches English records through
// "00enlibrari" only, never an Italian record (whose stems are tagged "00it…"). Author names are never
// stemmed; a quoted word or phrase, a wildcard and a word of several tokens match as written.
import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as bulgarian } from '@orama/stemmers/bulgarian';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as greek } from '@orama/stemmers/greek';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import { stemmer as ukrainian } from '@orama/stemmers/ukrainian';
import { foldedWords } from '@uc/shared';

type Stemmer = (word: string) => string;

/** The languages with a Snowball stemmer, by ISO 639-1 code. */
const STEMMERS: Record<string, Stemmer> = {
  ar: arabic, bg: bulgarian, da: danish, de: german, el: greek, en: english, es: spanish, fi: finnish,
  fr: french, hu: hungarian, it: italian, nl: dutch, no: norwegian, pt: portuguese, ro: romanian,
  ru: russian, sv: swedish, tr: turkish, uk: ukrainian,
};

/** ISO 639-2/3 and other codes a record may carry for the same languages. */
const ALIASES: Record<string, string> = {
  ara: 'ar', bul: 'bg', dan: 'da', ger: 'de', deu: 'de', gre: 'el', ell: 'el', eng: 'en', spa: 'es',
  fin: 'fi', fre: 'fr', fra: 'fr', hun: 'hu', ita: 'it', dut: 'nl', nld: 'nl', nor: 'no', nob: 'no',
  nno: 'no', nb: 'no', nn: 'no', por: 'pt', rum: 'ro', ron: 'ro', rus: 'ru', swe: 'sv', tur: 'tr', ukr: 'uk',
};

/** Every language with a stemmer, in a fixed order (a query word is looked up in each). */
export const STEM_LANGUAGES: readonly string[] = Object.keys(STEMMERS).sort();

/** Marks a stem token: digits then the language code, a token no reader types and FTS5 keeps whole. */
export const STEM_TAG = '00';

/** The stemming language of a record's language code, or null (no stemmer: exact forms only). */
export function stemLanguage(code: string): string | null {
  const c = code.trim().toLowerCase().split(/[-_]/)[0]!;
  const lang = ALIASES[c] ?? c;
  return STEMMERS[lang] ? lang : null;
}

/** The distinct stemming languages of a record's language codes. */
export function stemLanguages(codes: readonly string[]): string[] {
  const out: string[] = [];
  for (const code of codes) {
    const lang = stemLanguage(code);
    if (lang && !out.includes(lang)) out.push(lang);
  }
  return out;
}

// Stems are memoised per language (a catalogue repeats its words): a bounded map, cleared when full
// (50,000 words a language: a few MB each, in the main thread and the bulk load's full-text thread).
const MEMO_LIMIT = 50_000;
const memo = new Map<string, Map<string, string>>();

/** The stem of a folded word in a language (the word itself when the stemmer leaves it, or it has no letters to stem). */
export function stemOf(lang: string, word: string): string {
  let m = memo.get(lang);
  if (!m) memo.set(lang, (m = new Map()));
  let stem = m.get(word);
  if (stem === undefined) {
    // Digits and one-letter words are not stemmed (years, volume numbers, elided articles).
    stem = word.length < 2 || /^\p{N}+$/u.test(word) ? word : STEMMERS[lang]!(word);
    if (m.size >= MEMO_LIMIT) m.clear();
    m.set(word, stem);
  }
  return stem;
}

/** The tagged index token of a stem: "00" + language + stem. */
export const stemToken = (lang: string, stem: string): string => STEM_TAG + lang + stem;

/**
 * The stem tokens of folded text in a record's stemming languages, space-separated, in the text's
 * order (one per word and language: positions keep a stem near its word for ranking); '' when none.
 */
export function stemText(folded: string, langs: readonly string[]): string {
  if (!langs.length || !folded) return '';
  let out = '';
  for (const word of foldedWords(folded)) {
    for (const lang of langs) out += (out ? ' ' : '') + stemToken(lang, stemOf(lang, word));
  }
  return out;
}

/**
 * The stem tokens a folded query word looks for: one per stemming language of the catalogue (a language
 * no record has holds no stems to find).
 */
export function queryStems(word: string, langs: readonly string[] = STEM_LANGUAGES): string[] {
  return langs.map((lang) => stemToken(lang, stemOf(lang, word)));
}

/** The stemming languages among a catalogue's language codes (its language facet's values), in a fixed order. */
export function catalogueStemLanguages(codes: readonly string[]): string[] {
  return stemLanguages(codes).sort();
}

/** Articles and prepositions elided before an apostrophe (French, Italian, Catalan): "l'école", "dell'arte", "d'Italia". */
const ELIDED = new Set([
  'l', 'd', 'j', 'm', 'n', 's', 't', 'c', 'qu', 'lorsqu', 'puisqu', 'jusqu', 'quoiqu',
  'dell', 'dall', 'nell', 'sull', 'all', 'coll', 'pell', 'quell', 'quest', 'un', 'gl', 'tutt', 'senz',
]);

/** A folded word that is an article or preposition elided before an apostrophe ("l", "dell", "qu"). */
export const isElidedArticle = (word: string): boolean => ELIDED.has(word);

const LEADING_ELISION = /^[\p{L}]+['’`´]\p{L}/u;

/**
 * Typed words without an elided article at their start ("l'éco" → eco, "dell'arte op" → arte op), as a
 * query word drops it; null when the text starts with none. Suggestions as you type use it.
 */
export function afterLeadingElision(raw: string, tokens: readonly string[]): string[] | null {
  // As in a query, the word after the apostrophe has two letters at least: "all's" stays as typed.
  if (tokens.length < 2 || tokens[1]!.length < 2 || !isElidedArticle(tokens[0]!) || !LEADING_ELISION.test(raw.trimStart())) return null;
  return tokens.slice(1);
}

/** A query word folded to an elided article and a word ("l'école" → l, ecole): the word alone; otherwise null. */
export function withoutElision(raw: string, tokens: readonly string[]): string | null {
  // The word after the apostrophe has two letters at least: "all's" stays a phrase.
  if (tokens.length !== 2 || tokens[1]!.length < 2 || !/['’`´]/.test(raw)) return null;
  return ELIDED.has(tokens[0]!) ? tokens[1]! : null;
}
