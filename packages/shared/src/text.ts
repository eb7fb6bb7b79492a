// Text folding shared by the index, the query parser and the web app's filters:
// one rule, so that "liberta" finds "libertà" and "kropotkin" finds "Кропоткин" everywhere. Also the text of the API's {id, value} titles.
import type { ShortEntry } from './api.ts';

const SPECIAL: Record<string, string> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', ı: 'i', þ: 'th', ħ: 'h', ŧ: 't',
};
const SPECIAL_RE = /[ßæœøđðłıþħŧ]/g;
const NON_ASCII_RE = /[^\x00-\x7f]/;

/** Lower-cases, strips diacritics (NFKD + combining marks) and turns apostrophes into spaces. */
export function foldText(input: string): string {
  // ASCII text (most of a catalogue) has nothing to decompose or strip: the same result, much faster.
  if (!NON_ASCII_RE.test(input)) return input.toLowerCase().replace(/['`]/g, ' ');
  return input
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c)
    .replace(/['’`´]/g, ' ');
}

// Cyrillic and Greek in the Latin letters readers type ("Кропоткин" → "kropotkin", "Достоевский" →
// "dostoevsky", "Μπακούνιν" → "bakounin"). Our own small table rather than a general transliterator: it
// gives the common English forms and keeps the web bundle small.
const CYRILLIC: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l',
  м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh',
  щ: 'shch', ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya', є: 'ye', і: 'i', ї: 'yi', ґ: 'g', ў: 'u',
  ђ: 'dj', ј: 'j', љ: 'lj', њ: 'nj', ћ: 'c', џ: 'dz', ѓ: 'gj', ќ: 'kj', ѕ: 'dz',
};
/** Serbian and Macedonian Cyrillic (told by their own letters) go to their Latin alphabet, folded: "Његош" → "njegos". */
const SOUTH_SLAVIC: Record<string, string> = { ж: 'z', х: 'h', ц: 'c', ч: 'c', ш: 's', џ: 'dz', ђ: 'dj', ћ: 'c' };
const SOUTH_SLAVIC_RE = /[ђјљњћџѓќѕЂЈЉЊЋЏЃЌЅ]/;
const GREEK: Record<string, string> = {
  α: 'a', β: 'v', γ: 'g', δ: 'd', ε: 'e', ζ: 'z', η: 'i', θ: 'th', ι: 'i', κ: 'k', λ: 'l', μ: 'm', ν: 'n',
  ξ: 'x', ο: 'o', π: 'p', ρ: 'r', σ: 's', ς: 's', τ: 't', υ: 'y', φ: 'f', χ: 'ch', ψ: 'ps', ω: 'o',
};
const OTHER_SCRIPT_RE = /[\u0370-\u03ff\u1f00-\u1fff\u0400-\u04ff]/;

function greekToLatin(word: string): string {
  return word
    .normalize('NFD').replace(/\p{M}+/gu, '')
    // Digraphs first (ELOT 743, simplified): ου, αυ/ευ (f before a voiceless sound), initial μπ/ντ, γγ/γκ.
    .replace(/ου/g, 'ou')
    .replace(/([αε])υ(?=[θκξπστφχψ]|$)/g, (_, v: string) => `${GREEK[v]}f`)
    .replace(/([αε])υ/g, (_, v: string) => `${GREEK[v]}v`)
    .replace(/^μπ/, 'b').replace(/^ντ/, 'd').replace(/γγ/g, 'ng').replace(/γ(?=[κξχ])/g, 'n')
    .replace(/./g, (c) => GREEK[c] ?? c);
}

/**
 * Cyrillic and Greek letters written in Latin letters, everything else kept, then folded as foldText.
 * Word-final "ий"/"ый" become "y" as readers write them ("Dostoevsky", "Tolstoy").
 */
export function transliterate(input: string): string {
  if (!OTHER_SCRIPT_RE.test(input)) return foldText(input);
  const lower = input.normalize('NFC').toLowerCase();
  const latin = lower
    .replace(/[иы]й(?![\p{L}])/gu, 'y')
    .replace(/[\u0370-\u03ff\u1f00-\u1fff]+/g, greekToLatin)
    .replace(/[\u0400-\u04ff]/g, SOUTH_SLAVIC_RE.test(input) ? (c) => SOUTH_SLAVIC[c] ?? CYRILLIC[c] ?? c : (c) => CYRILLIC[c] ?? c);
  return foldText(latin);
}

/** True when the text has Cyrillic or Greek letters (it has a second, transliterated search form). */
export function hasOtherScript(input: string): boolean {
  return OTHER_SCRIPT_RE.test(input);
}

/** The folded forms a text is searched by: as written, and transliterated when in another script. */
export function searchForms(input: string): string[] {
  const folded = foldText(input);
  if (!OTHER_SCRIPT_RE.test(input)) return [folded];
  const latin = transliterate(input);
  return latin === folded ? [folded] : [folded, latin];
}

/** The words of folded text, split as the search index's tokenizer splits them (letters and digits). */
export function foldedWords(folded: string): string[] {
  return folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Accent-, case- and script-insensitive substring test (library filter, dashboard search): "kropotkin" finds "Кропоткин" and back. */
export function foldedIncludes(haystack: string, needle: string): boolean {
  const n = transliterate(needle).trim();
  return foldText(haystack).includes(foldText(needle).trim()) || transliterate(haystack).includes(n);
}

/** The title and subtitle of a short entry ("Part of:", "Contains:") as text. */
export function shortEntryText(e: Pick<ShortEntry, 'title' | 'subtitle'>): { title: string; subtitle: string | null } {
  return { title: e.title[0]?.value ?? '', subtitle: e.subtitle[0]?.value || null };
}
