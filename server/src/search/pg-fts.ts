// entry_fts on PostgreSQL (docs/architecture.md, "Database back ends"): one tsvector per entry whose
// weights are the FTS5 table's columns (A title, B authors, C body, D full text), and the tsquery
// compiler for the same query AST as search/fts.ts. Both sides are built here from the project's own
// tokens (foldedWords over folded text, as FTS5's unicode61 splits them), never by PostgreSQL's text
// parser: its parser keeps "e-mail", "3.14" or "x.org/a" as tokens of their own and unaccent folds
// some letters differently, so the two back ends would find different entries.
import { foldedWords } from '@uc/shared';
import type { QueryNode, TextField } from './parser.ts';

/** tsvector weights of entry_fts's columns, in FTS_COLUMNS order. */
const COLUMN_WEIGHTS = ['A', 'B', 'C', 'D'] as const;

/**
 * ts_rank's weights {D, C, B, A} for bm25's column weights 1, 3, 10, 10 (FTS_WEIGHTS): ts_rank wants
 * values up to 1, so the same ratios divided by 10.
 */
export const TS_RANK_WEIGHTS = `'{0.1,0.3,1,1}'`;

/** PostgreSQL's limits: positions above 16383 are stored as 16383, at most 256 per lexeme, lexemes up to 2046 bytes, a tsvector under 1 MiB. */
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;
const MAX_LEXEME_BYTES = 2046;
/** Bytes of a tsvector beyond which no more lexemes or positions are added (1 MiB is the hard limit). */
const MAX_VECTOR_BYTES = 1_000_000;

/** A lexeme in tsvector/tsquery input syntax (quotes and backslashes escaped; folded words have neither). */
function lexeme(token: string): string {
  return /['\\]/.test(token) ? `'${token.replace(/\\/g, '\\\\').replace(/'/g, "''")}'` : `'${token}'`;
}

/**
 * The tsvector (input syntax, cast with `::tsvector`) of an entry's four column texts, already folded
 * as the FTS5 row is. Positions run on across the columns with a gap, so a phrase never spans two of
 * them (an FTS5 phrase stays within a column).
 */
export function toTsVector(columns: readonly string[]): string {
  const positions = new Map<string, number[]>(); // position * 4 + weight index
  let bytes = 0;
  let pos = 0;
  columns.forEach((text, c) => {
    pos++;
    for (const token of foldedWords(text)) {
      const p = Math.min(++pos, MAX_POSITION);
      let list = positions.get(token);
      if (!list) {
        const size = Buffer.byteLength(token);
        if (size > MAX_LEXEME_BYTES || bytes + size + 8 > MAX_VECTOR_BYTES) continue;
        bytes += size + 8;
        list = [];
        positions.set(token, list);
      }
      if (list.length >= MAX_POSITIONS || (list.length && list[list.length - 1] >> 2 === p) || bytes + 2 > MAX_VECTOR_BYTES) continue;
      bytes += 2;
      list.push(p * 4 + c);
    }
  });
  let out = '';
  for (const [token, list] of positions) {
    out += `${out ? ' ' : ''}${lexeme(token)}:`;
    for (let i = 0; i < list.length; i++) out += `${i ? ',' : ''}${list[i] >> 2}${COLUMN_WEIGHTS[list[i] & 3]}`;
  }
  return out;
}

/** Which columns a compiled expression may match in: the title and authors (two-tier ranking), or the full text (snippets). */
export type Within = 'strong' | 'fulltext';

const FIELD_WEIGHTS: Record<TextField, string> = { any: 'ABCD', title: 'A', author: 'B' };
const WITHIN_WEIGHTS: Record<Within, string> = { strong: 'AB', fulltext: 'D' };

/**
 * A lexeme that is never in the index (every indexed lexeme is letters and digits): what a word too
 * long to be indexed, or a field outside `within`, compiles to.
 */
const NOTHING = `'-'`;

/**
 * The tsquery (input syntax, bound as a parameter and cast with `::tsquery`) of a pure text subtree
 * (`isPureText`): words, prefixes (`:*`), phrases (`<->`), AND (`&`), OR (`|`), `title:`/`author:` as
 * weights (`:A`, `:B`), Cyrillic and Greek words also in Latin letters, as `toFtsMatch` does for FTS5.
 */
export function toTsQuery(n: QueryNode, within?: Within): string {
  switch (n.type) {
    case 'term':
    case 'phrase': {
      let weights = FIELD_WEIGHTS[n.field];
      if (within) weights = [...weights].filter((w) => WITHIN_WEIGHTS[within].includes(w)).join('');
      if (!weights) return NOTHING;
      const suffix = weights === 'ABCD' ? '' : weights;
      const prefix = n.type === 'term' && n.prefix;
      const body = (tokens: string[]) => {
        if (tokens.some((t) => Buffer.byteLength(t) > MAX_LEXEME_BYTES)) return NOTHING;
        const last = tokens.length - 1;
        const parts = tokens.map((t, i) => {
          const flags = (i === last && prefix ? '*' : '') + suffix;
          return flags ? `${lexeme(t)}:${flags}` : lexeme(t);
        });
        return parts.length === 1 ? parts[0] : `(${parts.join(' <-> ')})`;
      };
      const forms = n.alt ? [body(n.tokens), body(n.alt)] : [body(n.tokens)];
      // The word's stems in each language (search/analysis.ts), in the tsvector beside the exact forms.
      if (n.type === 'term' && n.stems) for (const stem of n.stems) forms.push(body([stem]));
      return forms.length > 1 ? `(${forms.join(' | ')})` : forms[0]!;
    }
    case 'and':
      return `(${n.children.map((c) => toTsQuery(c, within)).join(' & ')})`;
    case 'or':
      return `(${n.children.map((c) => toTsQuery(c, within)).join(' | ')})`;
    default:
      throw new Error(`not a text node: ${n.type}`);
  }
}
