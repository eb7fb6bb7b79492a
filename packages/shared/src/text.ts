// Text folding shared by the index, the query parser and the web app's filters:
// one rule, so that "liberta" finds "libertà" everywhere. Also the text of the API's {id, value} titles.
import type { ShortEntry } from './api.ts';

const SPECIAL: Record<string, string> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', ı: 'i', þ: 'th', ħ: 'h', ŧ: 't',
};
const SPECIAL_RE = /[ßæœøđðłıþħŧ]/g;

/** Lower-cases, strips diacritics (NFKD + combining marks) and turns apostrophes into spaces. */
export function foldText(input: string): string {
  return input
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c)
    .replace(/['’`´]/g, ' ');
}

/** Accent- and case-insensitive substring test (library filter, dashboard search). */
export function foldedIncludes(haystack: string, needle: string): boolean {
  return foldText(haystack).includes(foldText(needle).trim());
}

/** The title and subtitle of a short entry ("Part of:", "Contains:") as text. */
export function shortEntryText(e: Pick<ShortEntry, 'title' | 'subtitle'>): { title: string; subtitle: string | null } {
  return { title: e.title[0]?.value ?? '', subtitle: e.subtitle[0]?.value || null };
}
