// The PostgreSQL form of entry_fts built from the project's own tokens (backends.test.ts runs the queries).
import { describe, expect, it } from 'vitest';
import { parseQuery } from './parser.ts';
import { toTsQuery, toTsVector } from './pg-fts.ts';

const tsq = (q: string, within?: 'strong' | 'fulltext') => toTsQuery(parseQuery(q)!, within);

describe('toTsVector', () => {
  it('weighs the columns A to D and leaves a gap between them, so a phrase stays inside one', () => {
    expect(toTsVector(['mutual aid', 'peter kropotkin', '', 'aid'])).toBe(`'mutual':2A 'aid':3A,9D 'peter':5B 'kropotkin':6B`);
  });

  it('splits on what is not a letter or digit, as the FTS5 tokenizer does', () => {
    expect(toTsVector(['e-mail 3.14 x.org/a', '', '', ''])).toBe(`'e':2A 'mail':3A '3':4A '14':5A 'x':6A 'org':7A 'a':8A`);
  });

  it('keeps to PostgreSQL limits: positions up to 16383, 256 per word, a vector under 1 MiB', () => {
    const v = toTsVector(['', '', '', `${'the '.repeat(20_000)}end`]);
    expect(v.split(',').length).toBe(256);
    expect(v).toContain(`'end':16383D`);
    const big = toTsVector(['', '', '', Array.from({ length: 150_000 }, (_, i) => `w${i}`).join(' ')]);
    expect(big.length).toBeLessThan(1_048_575);
    expect(big).toContain(`'w0':`);
    expect(big).not.toContain(`'w149999':`);
  });
});

describe('toTsQuery', () => {
  it('compiles words, AND, OR, phrases and prefixes', () => {
    expect(tsq('(a OR b) c')).toBe(`(('a' | 'b') & 'c')`);
    expect(tsq('"mutual aid"')).toBe(`('mutual' <-> 'aid')`);
    expect(tsq('kropotk*')).toBe(`'kropotk':*`);
    expect(tsq('e-mai*')).toBe(`('e' <-> 'mai':*)`);
  });

  it('turns title: and author: into weights, and limits an expression to titles and authors or to full texts', () => {
    expect(tsq('title:"mutual aid"')).toBe(`('mutual':A <-> 'aid':A)`);
    expect(tsq('author:kropotk*')).toBe(`'kropotk':*B`);
    expect(tsq('kropotkin title:aid', 'strong')).toBe(`('kropotkin':AB & 'aid':A)`);
    expect(tsq('kropotkin', 'fulltext')).toBe(`'kropotkin':D`);
    // A title word inside the full text only: a lexeme the index never holds.
    expect(tsq('title:aid', 'fulltext')).toBe(`'-'`);
  });

  it('searches a Cyrillic or Greek word as written and in Latin letters', () => {
    expect(tsq('Кропоткин')).toBe(`('кропоткин' | 'kropotkin')`);
  });

  it('quotes lexemes, so nothing a reader types can change the syntax', () => {
    expect(toTsQuery({ type: 'term', field: 'any', tokens: [`a'b\\c`, ], prefix: false })).toBe(`'a''b\\\\c'`);
    expect(toTsQuery({ type: 'phrase', field: 'any', tokens: ['x', '&', '!'] })).toBe(`('x' <-> '&' <-> '!')`);
  });
});
