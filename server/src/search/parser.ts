// The query language of the search box (spec §2, BRIEF "Search"), parsed into an AST.
// Words are AND-ed; OR, AND, NOT (upper case), parentheses, +word/-word, "quoted phrases",
// trailing * wildcards, field prefixes title:/author:, and filter prefixes such as library:ID.
import { foldedWords, foldText, FILTER_NAMES, hasOtherScript, transliterate, type FilterName } from '@uc/shared';
import { MessageError } from '../http/messages.ts';
import { queryStems, withoutElision } from './analysis.ts';

export type TextField = 'any' | 'title' | 'author';

export type QueryNode =
  | { type: 'and'; children: QueryNode[] }
  | { type: 'or'; children: QueryNode[] }
  | { type: 'not'; child: QueryNode }
  /**
   * `alt`: the tokens of a Cyrillic or Greek word in Latin letters, searched as well; `stems`: the
   * tagged stems of a single unquoted word in every stemming language (search/analysis.ts), searched as well.
   */
  | { type: 'term'; field: TextField; tokens: string[]; prefix: boolean; alt?: string[]; stems?: string[] }
  | { type: 'phrase'; field: TextField; tokens: string[]; alt?: string[] }
  | { type: 'filter'; name: FilterName; value: string }
  /** A word with nothing searchable in it (only punctuation): matches nothing. */
  | { type: 'empty' };

/** A query that cannot be parsed; `message` is an English template filled from `values`. */
export class QuerySyntaxError extends MessageError {}

const FILTER_VALUE_RULES: Record<FilterName, RegExp> = {
  library: /^\d{1,10}$/,
  creator: /^\d{1,10}$/,
  aggregate: /^(\d{1,10}|aggregation|no_aggregations)$/,
  translate: /^(translated|translation|unknown)$/,
  date: /^-?\d{1,4}$/,
  language: /^[a-z]{2,3}$/,
  download: /^(text|raw|none)$/,
};

/** Checks a filter value (from the query or a filter_<facet> parameter); returns the normalised value. */
export function normaliseFilterValue(name: FilterName, raw: string): string | null {
  const v = raw.trim().toLowerCase();
  return FILTER_VALUE_RULES[name].test(v) ? v : null;
}

/** Splits folded text into index tokens, the same way the FTS5 unicode61 tokenizer does. */
export function tokenize(text: string): string[] {
  return foldedWords(foldText(text));
}

/** The Latin-letter tokens of text in another script (null when the text has none or they are the same). */
function altTokens(text: string, tokens: string[]): string[] | null {
  if (!hasOtherScript(text)) return null;
  const alt = foldedWords(transliterate(text));
  return alt.length && alt.join(' ') !== tokens.join(' ') ? alt : null;
}

type Tok =
  | { kind: 'lparen' }
  | { kind: 'rparen' }
  | { kind: 'op'; op: 'AND' | 'OR' | 'NOT' }
  | { kind: 'word'; text: string; sign: '' | '+' | '-'; field: string | null; quoted: boolean };

const FIELD_RE = /^([a-z_]+):/;
const KNOWN_PREFIXES = new Set<string>(['title', 'author', ...FILTER_NAMES]);

function lex(input: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  const n = input.length;
  while (i < n) {
    const c = input[i];
    if (/\s/.test(c)) { i++; continue; }
    if (c === '(') { toks.push({ kind: 'lparen' }); i++; continue; }
    if (c === ')') { toks.push({ kind: 'rparen' }); i++; continue; }
    let sign: '' | '+' | '-' = '';
    if ((c === '+' || c === '-') && i + 1 < n && !/\s/.test(input[i + 1])) {
      sign = c;
      i++;
    }
    // Optional field prefix, then a quoted phrase or a bare word.
    let field: string | null = null;
    const m = FIELD_RE.exec(input.slice(i, i + 20));
    if (m && i + m[0].length < n && !/\s/.test(input[i + m[0].length])) {
      field = m[1];
      i += m[0].length;
    } else if (m && KNOWN_PREFIXES.has(m[1])) {
      throw new QuerySyntaxError('Nothing to search after “{{prefix}}:” (no space after the prefix)', { prefix: m[1] });
    }
    if (input[i] === '"') {
      const end = input.indexOf('"', i + 1);
      if (end < 0) throw new QuerySyntaxError('Unterminated quoted phrase');
      toks.push({ kind: 'word', text: input.slice(i + 1, end), sign, field, quoted: true });
      i = end + 1;
      continue;
    }
    let j = i;
    while (j < n && !/[\s()"]/.test(input[j])) j++;
    const text = input.slice(i, j);
    i = j;
    if (!sign && !field && (text === 'AND' || text === 'OR' || text === 'NOT')) {
      toks.push({ kind: 'op', op: text });
      continue;
    }
    if (text === '' && sign) throw new QuerySyntaxError('“{{sign}}” must be followed by a word', { sign });
    toks.push({ kind: 'word', text, sign, field, quoted: false });
  }
  return toks;
}

const TEXT_FIELDS: Record<string, TextField> = { title: 'title', author: 'author' };

function wordNode(t: Extract<Tok, { kind: 'word' }>, stemLangs: readonly string[]): QueryNode {
  if (t.field && (FILTER_NAMES as readonly string[]).includes(t.field)) {
    const name = t.field as FilterName;
    const value = normaliseFilterValue(name, t.text);
    if (value === null) throw new QuerySyntaxError('Invalid value “{{value}}” for {{name}}:', { value: t.text, name });
    return { type: 'filter', name, value };
  }
  let field: TextField = 'any';
  let text = t.text;
  if (t.field) {
    if (TEXT_FIELDS[t.field]) field = TEXT_FIELDS[t.field];
    else text = `${t.field} ${text}`; // unknown prefix: plain words, as a reader would expect
  }
  if (t.quoted) {
    const tokens = tokenize(text);
    if (tokens.length === 0) return { type: 'empty' };
    return withAlt({ type: 'phrase', field, tokens }, text);
  }
  let prefix = false;
  if (text.endsWith('*')) {
    prefix = true;
    text = text.replace(/\*+$/, '');
    if (text === '') throw new QuerySyntaxError('A wildcard needs at least one letter before “*”');
  }
  if (text.includes('*')) throw new QuerySyntaxError('The wildcard “*” is allowed only at the end of a word');
  let tokens = tokenize(text);
  if (tokens.length === 0) return { type: 'empty' };
  // "l'école", "dell'arte": the word without its elided article, as any other word.
  const elided = prefix ? null : withoutElision(text, tokens);
  if (elided) tokens = [elided];
  if (tokens.length > 1 && !prefix) return withAlt({ type: 'phrase', field, tokens }, text);
  const node = withAlt({ type: 'term', field, tokens, prefix }, elided ?? text);
  // Author names are not stemmed (analysis.ts); nor are wildcards.
  return prefix || field === 'author' || !stemLangs.length ? node : { ...node, stems: queryStems(tokens[0]!, stemLangs) };
}

function withAlt<T extends Extract<QueryNode, { type: 'term' | 'phrase' }>>(node: T, text: string): T {
  const alt = altTokens(text, node.tokens);
  return alt ? { ...node, alt } : node;
}

/** Words with nothing searchable (a lone "-", "!!!") are dropped beside real terms. */
function combine(type: 'and' | 'or', children: QueryNode[]): QueryNode {
  const real = children.filter((c) => c.type !== 'empty');
  if (real.length === 0) return { type: 'empty' };
  return real.length === 1 ? real[0] : { type, children: real };
}

class Parser {
  private pos = 0;
  constructor(private toks: Tok[], private stemLangs: readonly string[]) {}

  parse(): QueryNode | null {
    if (this.toks.length === 0) return null;
    const node = this.orExpr();
    if (this.pos < this.toks.length) {
      const t = this.toks[this.pos];
      throw new QuerySyntaxError(t.kind === 'rparen' ? 'Unbalanced parenthesis “)”' : 'Unexpected input');
    }
    return node;
  }

  private peek(): Tok | undefined {
    return this.toks[this.pos];
  }

  private orExpr(): QueryNode {
    const children = [this.andExpr()];
    while (this.peek()?.kind === 'op' && (this.peek() as { op: string }).op === 'OR') {
      this.pos++;
      if (!this.startsOperand()) throw new QuerySyntaxError('“OR” must be followed by a term');
      children.push(this.andExpr());
    }
    return combine('or', children);
  }

  private startsOperand(): boolean {
    const t = this.peek();
    if (!t) return false;
    return t.kind === 'word' || t.kind === 'lparen' || (t.kind === 'op' && t.op === 'NOT');
  }

  private andExpr(): QueryNode {
    if (!this.startsOperand()) {
      const t = this.peek();
      if (!t) throw new QuerySyntaxError('The query ends where a term was expected');
      if (t.kind === 'rparen') throw new QuerySyntaxError('Empty parentheses or unbalanced “)”');
      throw new QuerySyntaxError('“{{operator}}” must be preceded by a term', { operator: (t as { op: string }).op });
    }
    const children = [this.unary()];
    for (;;) {
      const t = this.peek();
      if (t?.kind === 'op' && t.op === 'AND') {
        this.pos++;
        if (!this.startsOperand()) throw new QuerySyntaxError('“AND” must be followed by a term');
        children.push(this.unary());
      } else if (t && this.startsOperand()) {
        children.push(this.unary()); // implicit AND, also "a NOT b"
      } else break;
    }
    return combine('and', children);
  }

  private unary(): QueryNode {
    const t = this.peek()!;
    if (t.kind === 'op' && t.op === 'NOT') {
      this.pos++;
      if (!this.startsOperand()) throw new QuerySyntaxError('“NOT” must be followed by a term');
      return { type: 'not', child: this.unary() };
    }
    return this.primary();
  }

  private primary(): QueryNode {
    const t = this.toks[this.pos++];
    if (t.kind === 'lparen') {
      if (this.peek()?.kind === 'rparen') throw new QuerySyntaxError('Empty parentheses');
      const inner = this.orExpr();
      if (this.peek()?.kind !== 'rparen') throw new QuerySyntaxError('Missing closing parenthesis “)”');
      this.pos++;
      return inner;
    }
    if (t.kind !== 'word') throw new QuerySyntaxError('Unexpected operator');
    const node = wordNode(t, this.stemLangs);
    return t.sign === '-' ? { type: 'not', child: node } : node;
  }
}

/** Parses a query; null for an empty query. Throws QuerySyntaxError with a reader-facing message. */
/**
 * `stemLangs`: the stemming languages whose stems a word also looks for (search/analysis.ts; the
 * catalogue's own, `catalogueStemLanguages`); none: words match as written.
 */
export function parseQuery(input: string, stemLangs: readonly string[] = []): QueryNode | null {
  if (input.length > 1000) throw new QuerySyntaxError('The query is too long');
  const toks = lex(input.trim());
  const ast = new Parser(toks, stemLangs).parse();
  if (ast && depth(ast) > 32) throw new QuerySyntaxError('The query is nested too deeply');
  return ast;
}

function depth(n: QueryNode): number {
  switch (n.type) {
    case 'and':
    case 'or':
      return 1 + Math.max(...n.children.map(depth));
    case 'not':
      return 1 + depth(n.child);
    default:
      return 1;
  }
}

/** True when the query contains some text to rank by (relevance makes sense). */
export function hasText(n: QueryNode | null): boolean {
  if (!n) return false;
  switch (n.type) {
    case 'and':
    case 'or':
      return n.children.some(hasText);
    case 'not':
      return false;
    case 'term':
    case 'phrase':
      return true;
    default:
      return false;
  }
}

/** Collects the filter nodes of a query (for pretty_query and the single-filter boxes). */
export function queryFilters(n: QueryNode | null, out: { name: FilterName; value: string }[] = []) {
  if (!n) return out;
  if (n.type === 'filter') out.push({ name: n.name, value: n.value });
  else if (n.type === 'and' || n.type === 'or') n.children.forEach((c) => queryFilters(c, out));
  else if (n.type === 'not') queryFilters(n.child, out);
  return out;
}
