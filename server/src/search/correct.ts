// The correct step of a search ("Did you mean …?"): the query with its misspelt words replaced by the
// closest words of the catalogue (vocabulary.ts), operators, fields, filters and wildcards kept.
import { FILTER_NAMES, foldedWords, foldText } from '@uc/shared';
import type { Vocabulary } from './vocabulary.ts';
import type { QueryNode } from './parser.ts';
import type { TextRanker } from './rank.ts';
import { isElidedArticle, queryStems } from './analysis.ts';

/**
 * Whether other forms of a folded word (its stems in the catalogue's stemming languages `langs`,
 * analysis.ts) find an entry the viewer may see that the word as typed does not: then it is no misspelling.
 */
export function formsMatcher(ranker: TextRanker, langs: readonly string[], layers: ReadonlySet<number>, visible: (id: number) => boolean): (word: string) => boolean {
  const term = (t: string): QueryNode => ({ type: 'term', field: 'any', tokens: [t], prefix: false });
  return (word) => {
    if (!langs.length) return false;
    const typed = new Set(ranker.matchingEntries(ranker.text.compile(term(word)), layers));
    const stems: QueryNode = { type: 'or', children: queryStems(word, langs).map(term) };
    return ranker.matchingEntries(ranker.text.compile(stems), layers).some((id) => !typed.has(id) && visible(id));
  };
}

/**
 * The query with each word that is no title or author word (not a filter value, an operator or a
 * wildcard) replaced by the closest one; null when nothing changed. A word found only inside texts
 * counts as unknown: the answer is only changed when the correction finds more. `formsMatch`: whether
 * another form of a word (its stems) finds an entry the viewer may see.
 */
export function correctQuery(query: string, vocabulary: Vocabulary, layers: ReadonlySet<number>, formsMatch: (word: string) => boolean = () => false): string | null {
  let out = '';
  let last = 0;
  for (const m of query.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = m[0];
    const at = m.index;
    const next = query[at + word.length];
    if (next === ':' || next === '*' || /\p{N}/u.test(word) || word === 'AND' || word === 'OR' || word === 'NOT') continue;
    // An elided article ("nell'arte", "quell'anno") is dropped from the query word (analysis.ts), not corrected.
    if (/^['’`´]\p{L}/u.test(query.slice(at + word.length, at + word.length + 2)) && isElidedArticle(foldText(word).trim())) continue;
    const prefix = /([a-z_]+):$/.exec(query.slice(Math.max(0, at - 20), at));
    if (prefix && (FILTER_NAMES as readonly string[]).includes(prefix[1])) continue;
    const tokens = foldedWords(foldText(word));
    if (tokens.length !== 1) continue;
    const token = tokens[0];
    // Known, or another form of it matches (search/analysis.ts: "libraries" where the titles say "library").
    if (vocabulary.has(token, layers) || formsMatch(token)) continue;
    const fix = vocabulary.closest(token, layers);
    if (fix === null) continue;
    out += query.slice(last, at) + fix;
    last = at + word.length;
  }
  return last === 0 ? null : out + query.slice(last);
}
