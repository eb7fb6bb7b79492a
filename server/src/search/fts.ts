// Compiles the text parts of a query AST into SQLite FTS5 MATCH expressions, and the statements that
// ask entry_fts (the catalogue's on SQLite, each app node's text mirror on PostgreSQL: text-mirror.ts).
import type { QueryNode, TextField } from './parser.ts';

/** A text part only in titles and authors (the strongly weighted columns), or only in full texts. */
export type Within = 'strong' | 'fulltext';

/** FTS5 columns of entry_fts, in order, with their bm25 weights (title and author words weigh most). */
export const FTS_COLUMNS = ['title', 'authors', 'body', 'fulltext'] as const;
export const FTS_WEIGHTS = [10, 10, 3, 1] as const;

/** FTS5's rank configuration for the same weights (the `rank` column, usable inside an aggregate). */
export const FTS_RANK = `bm25(${FTS_WEIGHTS.map((w) => w.toFixed(1)).join(', ')})`;

/**
 * Each match's relevance as `rowid score` pairs in one string: the score is -bm25 (bm25 is negative) in
 * millionths, an integer, because turning a double into text cost SQLite a quarter of the ranking.
 */
export const ftsRankList = (table: string) =>
  `SELECT CAST(group_concat(rowid || ' ' || CAST(-rank * ${RANK_SCALE} AS INTEGER), ' ') AS BLOB) FROM ${table} WHERE ${table} MATCH ? AND rowid < ? AND rank MATCH '${FTS_RANK}'`;
export const RANK_SCALE = 1_000_000;

/** Adds the scores of an `ftsRankList` answer to `scores` (ids past its end are not yet synced). */
export function addRankList(list: IdListAnswer, scores: Float64Array): void {
  const bytes = asBytes(list);
  if (!bytes.length) return;
  const n = scores.length;
  let id = -1;
  let v = 0;
  let negative = false;
  const flush = () => {
    if (id < 0) id = v;
    else {
      if (id < n) scores[id] += (negative ? -v : v) / RANK_SCALE;
      id = -1;
    }
    v = 0;
    negative = false;
  };
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 32) flush();
    else if (c === 45) negative = true;
    else v = v * 10 + (c - 48);
  }
  flush();
}

/**
 * A list of numbers as the database gives it: bytes (SQLite, `CAST(... AS BLOB)`: copied as they are,
 * where a string is decoded from UTF-8 first, about a third of the cost of a large list) or text.
 */
export type IdListAnswer = Uint8Array | string | null;

const asBytes = (list: IdListAnswer): Uint8Array => (list === null ? EMPTY : typeof list === 'string' ? Buffer.from(list, 'latin1') : list);
const EMPTY = new Uint8Array(0);

/** The same expression restricted to the title and author columns (the strongly weighted ones). */
export const inTitleOrAuthors = (match: string) => `{title authors} : (${match})`;

/**
 * Reads the rowids of `SELECT group_concat(rowid)` (one value: a row per match through the driver
 * costs about four times as much as the match itself at 100,000 matches).
 */
export function parseIdList(list: IdListAnswer): Int32Array {
  const bytes = asBytes(list);
  if (!bytes.length) return new Int32Array(0);
  let n = 1;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 44) n++;
  const out = new Int32Array(n);
  let k = 0;
  let v = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 44) {
      out[k++] = v;
      v = 0;
    } else v = v * 10 + (c - 48);
  }
  out[k] = v;
  return out;
}

const COLUMN_OF: Record<TextField, string | null> = { any: null, title: 'title', author: 'authors' };

const quote = (token: string) => `"${token.replace(/"/g, '""')}"`;

/** True for nodes made only of words, phrases, AND and OR: FTS5 evaluates them in one statement. */
export function isPureText(n: QueryNode): boolean {
  switch (n.type) {
    case 'term':
    case 'phrase':
      return true;
    case 'and':
    case 'or':
      return n.children.every(isPureText);
    default:
      return false;
  }
}

export function toFtsMatch(n: QueryNode): string {
  switch (n.type) {
    case 'term': {
      // A wildcard on a word that folds to several tokens ("e-mai*"): a phrase whose last token is a prefix.
      const body = (tokens: string[]) => {
        const last = tokens.length - 1;
        return tokens.length === 1
          ? quote(tokens[0]) + (n.prefix ? '*' : '')
          : tokens.map((t, i) => quote(t) + (i === last && n.prefix ? '*' : '')).join(' + ');
      };
      const own = withAlt(n.field, n.tokens, n.alt, body);
      // The word's stems in each language (search/analysis.ts): the exact form matches both and ranks first.
      return n.stems?.length ? `(${own} OR ${withColumn(n.field, `(${n.stems.map(quote).join(' OR ')})`)})` : own;
    }
    case 'phrase':
      return withAlt(n.field, n.tokens, n.alt, (tokens) => tokens.map(quote).join(' + '));
    case 'and':
      return `(${n.children.map(toFtsMatch).join(' AND ')})`;
    case 'or':
      return `(${n.children.map(toFtsMatch).join(' OR ')})`;
    default:
      throw new Error(`not a text node: ${n.type}`);
  }
}

/** A word in Cyrillic or Greek is searched as written and in Latin letters (the index holds both forms). */
function withAlt(field: TextField, tokens: string[], alt: string[] | undefined, body: (t: string[]) => string): string {
  const own = withColumn(field, body(tokens));
  return alt ? `(${own} OR ${withColumn(field, body(alt))})` : own;
}

function withColumn(field: TextField, expr: string): string {
  const col = COLUMN_OF[field];
  return col ? `${col} : ${expr}` : expr;
}

/** entry_fts's statements: expressions are bound as a parameter, never spliced into SQL. */
export interface TextSearch {
  /** The expression of a pure text subtree (`isPureText`); `within`: only in titles and authors, or only in full texts. */
  compile(n: QueryNode, within?: Within): string;
  /**
   * The rowids matching an expression (first parameter) below a rowid (second: LAYER_STRIDE for the
   * public rows only, search/layers.ts) as one comma-separated list (`parseIdList`).
   */
  idListSql: string;
  /** Each match's `rowid score` pairs, scores in millionths, higher = better (`addRankList`); parameters as `idListSql`'s. */
  rankListSql: string;
  /** Which of the rowids of a JSON list (first parameter) match an expression (second). */
  matchingIdsSql: string;
}

export const FTS5_SEARCH: TextSearch = {
  compile: (n, within) => {
    const match = toFtsMatch(n);
    if (within === 'strong') return inTitleOrAuthors(match);
    return within === 'fulltext' ? `fulltext : (${match})` : match;
  },
  idListSql: 'SELECT CAST(group_concat(rowid) AS BLOB) FROM entry_fts WHERE entry_fts MATCH ? AND rowid < ?',
  rankListSql: ftsRankList('entry_fts'),
  // One rowid lookup per id.
  matchingIdsSql: `SELECT value FROM json_each(?) WHERE EXISTS (SELECT 1 FROM entry_fts WHERE entry_fts MATCH ? AND rowid = json_each.value)`,
};
