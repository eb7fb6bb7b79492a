// The grouping rule: records with the same normalised title, authors and languages are one entry.
// Normalised = folded (case, diacritics, apostrophes), punctuation dropped, whitespace collapsed;
// authors and languages compare as sets (their order does not matter). The subtitle does not count.
import { hash } from 'node:crypto';
import { foldText } from '@uc/shared';

/** Titles and subtitles are stored up to this many characters. */
export const TITLE_MAX = 250;

/** Text as stored: cut to `max` characters, with "..." when cut. */
export const clip = (s: string | null | undefined, max = 10000) => (s == null ? null : s.length > max ? s.slice(0, max) + '...' : s);

/** A record's title, authors and languages as stored, the parts of its grouping key. */
export function storedWork(r: { title: string; authors: string[]; languages: string[] }): { title: string; authors: string[]; languages: string[] } {
  return {
    title: clip(r.title.trim(), TITLE_MAX) || '(untitled)',
    authors: [...new Set(r.authors.map(normaliseAuthorName).filter(Boolean))],
    languages: [...new Set(r.languages.map(normaliseLanguage).filter((l): l is string => !!l))],
  };
}

/** The grouping key of a record as it will be stored. */
export function recordGroupingKey(r: { title: string; authors: string[]; languages: string[] }): string {
  const w = storedWork(r);
  return groupingKey(w.title, w.authors, w.languages);
}

export function normaliseForGrouping(text: string): string {
  return foldText(text).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

export function groupingKey(title: string, authors: string[], languages: string[]): string {
  const parts = [
    normaliseForGrouping(title),
    [...new Set(authors.map(normaliseForGrouping).filter(Boolean))].sort().join(';'),
    [...new Set(languages.map((l) => l.toLowerCase()))].sort().join(','),
  ];
  return hash('sha1', parts.join('\u0001'), 'hex');
}

/** Language codes as stored: lower-case ISO 639 codes of 2 or 3 letters; anything else is dropped. */
export function normaliseLanguage(code: string): string | null {
  const c = code.trim().toLowerCase();
  return /^[a-z]{2,3}$/.test(c) ? c : null;
}

/** Author names as stored: trimmed, inner whitespace collapsed, leading commas removed. */
export function normaliseAuthorName(name: string): string {
  return name.replace(/^[\s,]+/, '').replace(/\s+/g, ' ').trim();
}
