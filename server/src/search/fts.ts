// Compiles the text parts of a query AST into SQLite FTS5 MATCH expressions.
import type { QueryNode, TextField } from './parser.ts';

/** FTS5 columns of entry_fts, in order, with their bm25 weights (title and author words weigh most). */
export const FTS_COLUMNS = ['title', 'authors', 'body', 'fulltext'] as const;
export const FTS_WEIGHTS = [10, 10, 3, 1] as const;

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
      const last = n.tokens.length - 1;
      // A wildcard on a word that folds to several tokens ("e-mai*"): a phrase whose last token is a prefix.
      const body = n.tokens.length === 1
        ? quote(n.tokens[0]) + (n.prefix ? '*' : '')
        : n.tokens.map((t, i) => quote(t) + (i === last && n.prefix ? '*' : '')).join(' + ');
      return withColumn(n.field, body);
    }
    case 'phrase':
      return withColumn(n.field, n.tokens.map(quote).join(' + '));
    case 'and':
      return `(${n.children.map(toFtsMatch).join(' AND ')})`;
    case 'or':
      return `(${n.children.map(toFtsMatch).join(' OR ')})`;
    default:
      throw new Error(`not a text node: ${n.type}`);
  }
}

function withColumn(field: TextField, expr: string): string {
  const col = COLUMN_OF[field];
  return col ? `${col} : ${expr}` : expr;
}
