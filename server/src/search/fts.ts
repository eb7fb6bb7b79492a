// Compiles the text parts of a query AST into SQLite FTS5 MATCH expressions; `textSearch` gives each
// back end's form of entry_fts (PostgreSQL's: search/pg-fts.ts).
import type { Dialect } from '../db/connection.ts';
import { idList } from '../db/dialect.ts';
import type { QueryNode, TextField } from './parser.ts';
import { toTsQuery, TS_RANK_WEIGHTS, type Within } from './pg-fts.ts';

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

/** A `rankedRowsSql` answer: each matching row's rowid, rank and rank in the title-and-author tier (-1: outside it), ranks in millionths. */
export interface RankedRows { rowids: Float64Array; ranks: Float64Array; tier: Float64Array }

export function parseRankedRows(list: IdListAnswer): RankedRows {
  const bytes = asBytes(list);
  let fields = bytes.length ? 1 : 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 32) fields++;
  const n = Math.floor(fields / 3);
  const out: RankedRows = { rowids: new Float64Array(n), ranks: new Float64Array(n), tier: new Float64Array(n) };
  const columns = [out.rowids, out.ranks, out.tier];
  let f = 0;
  let v = 0;
  let negative = false;
  const put = () => {
    columns[f % 3][(f / 3) | 0] = negative ? -v : v;
    f++;
    v = 0;
    negative = false;
  };
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 32) put();
    else if (c === 45) negative = true;
    else v = v * 10 + (c - 48);
  }
  if (bytes.length) put();
  // The tier's rank is the row's own (`rankedRowsSql`); the third field says whether it is in the tier.
  for (let i = 0; i < n; i++) out.tier[i] = out.tier[i] ? out.ranks[i] : -1;
  return out;
}

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

/** entry_fts as one back end queries it: expressions are bound as a parameter, never spliced into SQL. */
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
  /**
   * A ranked search's text in one statement (parameters: the expression, its title-and-author tier
   * (`within` 'strong'), the rowid bound): one value, `rowid rank inTier` for each matching row
   * (`parseRankedRows`). Null where separate statements cost nothing more (FTS5, in this process).
   */
  rankedRowsSql: string | null;
}

const FTS5_SEARCH: TextSearch = {
  compile: (n, within) => {
    const match = toFtsMatch(n);
    if (within === 'strong') return inTitleOrAuthors(match);
    return within === 'fulltext' ? `fulltext : (${match})` : match;
  },
  idListSql: 'SELECT CAST(group_concat(rowid) AS BLOB) FROM entry_fts WHERE entry_fts MATCH ? AND rowid < ?',
  rankListSql: ftsRankList('entry_fts'),
  // One rowid lookup per id.
  matchingIdsSql: `SELECT value FROM json_each(?) WHERE EXISTS (SELECT 1 FROM entry_fts WHERE entry_fts MATCH ? AND rowid = json_each.value)`,
  rankedRowsSql: null,
};

// `rowid + 0 <`: a filter on the rows the GIN index finds, never an index condition. As a prepared
// statement's generic plan (PostgreSQL's choice after five runs) `rowid < $2` was ANDed with a scan of the
// primary key over every public row (100,000 index entries read for a word found in 1,000 rows).
const TSQUERY_SEARCH: TextSearch = {
  compile: toTsQuery,
  idListSql: `SELECT string_agg(rowid::text, ',') FROM entry_fts WHERE doc @@ ?::tsquery AND rowid + 0 < ?::bigint`,
  rankListSql: `SELECT string_agg(f.rowid || ' ' || (ts_rank(${TS_RANK_WEIGHTS}, f.doc, q.q) * ${RANK_SCALE})::bigint, ' ')
    FROM (SELECT ?::tsquery AS q, ?::bigint AS below) q JOIN entry_fts f ON f.doc @@ q.q AND f.rowid + 0 < q.below`,
  matchingIdsSql: `SELECT rowid FROM entry_fts WHERE rowid IN ${idList('postgres')} AND doc @@ ?::tsquery`,
  // Each matching row once, with its rank and whether the title-and-author tier holds it, read from the
  // row the GIN lookup fetched, as one string: a second statement or a second read by address cost more
  // than ranking rows that turn out too many. The tier's rank is the same number: ts_rank reads no
  // weight labels of the query (statements.test.ts checks it), so it is not computed twice; a title: or
  // author: expression is its own tier.
  rankedRowsSql: `SELECT string_agg(f.rowid || ' ' || (ts_rank(${TS_RANK_WEIGHTS}, f.doc, q.q) * ${RANK_SCALE})::bigint
      || CASE WHEN q.same OR f.doc @@ q.s THEN ' 1' ELSE ' 0' END, ' ')
    FROM (SELECT $1::tsquery AS q, $2::tsquery AS s, $1::text = $2::text AS same, $3::bigint AS below) q
    JOIN entry_fts f ON f.doc @@ q.q AND f.rowid + 0 < q.below`,
};

export function textSearch(dialect: Dialect): TextSearch {
  return dialect === 'postgres' ? TSQUERY_SEARCH : FTS5_SEARCH;
}
