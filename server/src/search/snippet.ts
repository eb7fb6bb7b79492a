// Snippets: a short passage of a full text around the first word the query found there, the matched
// words marked. entry_fts holds folded tokens only (contentless FTS5, in the catalogue or in a
// PostgreSQL node's text mirror), so FTS5's snippet() cannot give the passage: the index tells which
// page rows matched inside a full text, the passage is cut here.
import { foldText, type Match, type SnippetPart } from '@uc/shared';
import type { Db } from '../db/index.ts';
import { idList } from '../db/dialect.ts';
import type { QueryNode } from './parser.ts';
import type { TextSearch } from './fts.ts';
import type { TextRanker } from './rank.ts';
import { layerRowid, splitRowid } from './layers.ts';
import { stemLanguages, stemOf } from './analysis.ts';

/** The words a snippet marks: folded tokens, prefixes of wildcard words, and stems by language (search/analysis.ts). */
export interface SnippetWords {
  tokens: Set<string>;
  prefixes: string[];
  stems?: Map<string, Set<string>>;
}

/** Text nodes of the query that can match inside a full text (not negated, not limited to title or author). */
function fullTextNodes(n: QueryNode, out: QueryNode[] = []): QueryNode[] {
  switch (n.type) {
    case 'term':
    case 'phrase':
      if (n.field === 'any') out.push(n);
      break;
    case 'and':
    case 'or':
      n.children.forEach((c) => fullTextNodes(c, out));
      break;
    default:
      break;
  }
  return out;
}

/** The expression finding the query's words inside the full texts, and the words to mark; null: none. */
export function snippetQuery(ast: QueryNode | null, text: TextSearch): { match: string; words: SnippetWords; prefix: boolean } | null {
  const nodes = ast ? fullTextNodes(ast) : [];
  if (nodes.length === 0) return null;
  const words: SnippetWords = { tokens: new Set(), prefixes: [] };
  for (const n of nodes) {
    if (n.type !== 'term' && n.type !== 'phrase') continue;
    // A stemmed word marks the forms sharing its stem ("organised" for organise): tags "00" + language + stem.
    if (n.type === 'term' && n.stems) {
      words.stems ??= new Map();
      for (const tagged of n.stems) {
        const lang = tagged.slice(2, 4);
        let set = words.stems.get(lang);
        if (!set) words.stems.set(lang, (set = new Set()));
        set.add(tagged.slice(4));
      }
    }
    for (const list of [n.tokens, n.alt ?? []]) {
      list.forEach((t, i) => {
        if (n.type === 'term' && n.prefix && i === list.length - 1) words.prefixes.push(t);
        else words.tokens.add(t);
      });
    }
  }
  const any: QueryNode = nodes.length === 1 ? nodes[0] : { type: 'or', children: nodes };
  return { match: text.compile(any, 'fulltext'), words, prefix: words.prefixes.length > 0 };
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const BEFORE = 60;
const AFTER = 180;
const CHUNK = 20_000;

function marks(word: string, words: SnippetWords): boolean {
  const f = foldText(word).trim();
  if (words.tokens.has(f)) return true;
  for (const p of words.prefixes) if (f.startsWith(p)) return true;
  if (stemMarks(f, words)) return true;
  // A word that folds to several tokens ("l'anarchie"): any of them, in any of its forms.
  if (/[^\p{L}\p{N}]/u.test(f)) return f.split(/[^\p{L}\p{N}]+/u).some((part) => part && (words.tokens.has(part) || words.prefixes.some((p) => part.startsWith(p)) || stemMarks(part, words)));
  return false;
}

/** A folded word is another form of a query word: the same stem in a language of the record (analysis.ts). */
function stemMarks(folded: string, words: SnippetWords): boolean {
  if (words.stems) for (const [lang, stems] of words.stems) if (stems.has(stemOf(lang, folded))) return true;
  return false;
}

/**
 * The words a record's snippet marks: a stem only in the record's own languages, as the index found
 * it ("arte" marks "arts" in no Italian text); a record with no stemming language marks exact forms.
 */
export function wordsOfRecord(words: SnippetWords, languages: readonly string[]): SnippetWords {
  if (!words.stems) return words;
  const langs = stemLanguages(languages);
  const stems = new Map([...words.stems].filter(([lang]) => langs.includes(lang)));
  return { ...words, stems: stems.size ? stems : undefined };
}

/** The snippet step of a search: a passage of a full text for the page's matches whose full text holds the query's words. */
export class SnippetFinder {
  private q;

  constructor(db: Db, private ranker: TextRanker) {
    const s = db.sqlite;
    const ids = idList(s.dialect);
    this.q = {
      // IS NOT NULL reads the record header only, not the text.
      withFullText: s.prepare(`SELECT id FROM data_sources WHERE id IN ${ids} AND full_text IS NOT NULL`).pluck(),
      fullTexts: s.prepare(`SELECT id, full_text FROM data_sources
        WHERE id IN ${ids} AND full_text IS NOT NULL AND full_text != ''`).raw(),
    };
  }

  /** Sets `snippet` on the matches (the page only) whose full text the query found; `layers`: the viewer's (layers.ts). */
  add(matches: Match[], ast: QueryNode | null, layers: ReadonlySet<number>): void {
    const q = snippetQuery(ast, this.ranker.text);
    if (!q) return;
    // Only matches with a full text are looked for (most records have none: no full-text query then).
    const withText = new Set(this.q.withFullText.all(JSON.stringify(matches.flatMap((m) => m.data_sources.map((d) => d.data_source_id)))) as number[]);
    const candidates = matches.filter((m) => m.data_sources.some((d) => withText.has(d.data_source_id)));
    if (candidates.length === 0) return;
    // A word's doclist is sought per row; a wildcard's terms would be merged again for each row, so
    // its matches are listed once instead.
    // The rows the viewer may search: each entry's own and its layers of the libraries they may see.
    const rowids = candidates.flatMap((m) => [m.entry_id, ...new Set(m.data_sources.filter((d) => layers.has(d.library_id)).map((d) => layerRowid(d.library_id, m.entry_id)))]);
    const ids = new Set(q.prefix
      ? this.ranker.matchingEntries(q.match, layers)
      : this.ranker.matchingRowids(rowids, q.match).map((rowid) => splitRowid(Number(rowid)).entryId));
    const wanted = candidates.filter((m) => ids.has(m.entry_id));
    if (wanted.length === 0) return;
    // Only the data sources the match shows (those of libraries the viewer may see).
    const texts = new Map(this.q.fullTexts.all(JSON.stringify(wanted.flatMap((m) => m.data_sources.map((d) => d.data_source_id)))) as [number, string][]);
    for (const m of wanted) {
      const words = wordsOfRecord(q.words, m.language.map((l) => l.id));
      for (const d of m.data_sources) {
        const text = texts.get(d.data_source_id);
        const parts = text ? cutSnippet(text, words) : null;
        if (parts) {
          m.snippet = { data_source_id: d.data_source_id, parts };
          break;
        }
      }
    }
  }
}

/** Muse markup that would show as noise in a plain passage (tags, emphasis, links, directives). */
function plain(text: string): string {
  return text
    .replace(/^#\w+.*$/gm, ' ')
    .replace(/\[\d+\]/g, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\[\[[^\]]*\]\[([^\]]*)\]\]/g, '$1')
    .replace(/\[\[([^\]]*)\]\]/g, '$1')
    .replace(/[*=]+/g, '')
    .replace(/\s+/g, ' ');
}

/**
 * The passage around the first marked word of `text`, as parts (a marked word is a part of its own);
 * null when no word is marked. Large texts are searched folded first, to start near the match.
 */
export function cutSnippet(text: string, words: SnippetWords): SnippetPart[] | null {
  let from = 0;
  // Stems are mostly the start of their words: they find the chunk to start in, `marks` decides.
  const stems = [...new Set([...(words.stems?.values() ?? [])].flatMap((set) => [...set]))].filter((x) => x.length > 1);
  const alternatives = [...words.tokens].map(escape).concat([...words.prefixes, ...stems].map((p) => `${escape(p)}[\\p{L}\\p{N}]*`));
  if (alternatives.length === 0) return null;
  if (text.length > CHUNK) {
    // Folded a chunk at a time (folding keeps lengths nearly), stopping at the first that holds a word.
    const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'u');
    let at = -1;
    for (let pos = 0; pos < text.length && at < 0; pos += CHUNK) {
      const hit = re.exec(foldText(text.slice(pos, pos + CHUNK + 100)));
      if (hit) at = pos + hit.index;
    }
    if (at < 0) return null;
    from = Math.max(0, at - 2_000);
  }
  for (const start of from > 0 ? [from, 0] : [0]) {
    // A word found in markup only (a #title directive, a tag) leaves no passage: try the next one.
    for (let at = start, tries = 0; tries < 20; tries++) {
      const found = firstMarked(text, at, words);
      if (found === null) break;
      const window = plain(text.slice(Math.max(0, found - 4 * BEFORE), found + 4 * AFTER));
      const parts = passage(window, words, found > 4 * BEFORE, found + 4 * AFTER < text.length);
      if (parts) return parts;
      at = found + 1;
    }
  }
  return null;
}

function firstMarked(text: string, start: number, words: SnippetWords): number | null {
  const re = new RegExp(WORD.source, 'gu');
  re.lastIndex = start;
  for (let m = re.exec(text); m; m = re.exec(text)) if (marks(m[0], words)) return m.index;
  return null;
}

function passage(window: string, words: SnippetWords, cutBefore: boolean, cutAfter: boolean): SnippetPart[] | null {
  const first = firstMarked(window, 0, words);
  if (first === null) return null;
  let start = Math.max(0, first - BEFORE);
  let end = Math.min(window.length, first + AFTER);
  // Whole words only: move the edges to the nearest space.
  if (start > 0) start = window.indexOf(' ', start) + 1 || start;
  if (end < window.length) end = window.lastIndexOf(' ', end) > first ? window.lastIndexOf(' ', end) : end;
  const text = window.slice(start, end).trim();
  const parts: SnippetPart[] = [];
  let last = 0;
  const push = (s: string, match: boolean) => {
    if (!s) return;
    const prev = parts[parts.length - 1];
    if (prev && !prev.match && !match) prev.text += s;
    else parts.push({ text: s, match });
  };
  if (start > 0 || cutBefore) push('… ', false);
  for (const m of text.matchAll(WORD)) {
    if (!marks(m[0], words)) continue;
    push(text.slice(last, m.index), false);
    push(m[0], true);
    last = m.index + m[0].length;
  }
  push(text.slice(last), false);
  if (end < window.length || cutAfter) push(' …', false);
  return parts;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
