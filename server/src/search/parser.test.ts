import { describe, expect, it } from 'vitest';
import { hasText, parseQuery, QuerySyntaxError, queryFilters, tokenize } from './parser.ts';
import { toFtsMatch } from './fts.ts';

describe('query parser', () => {
  it('treats an empty query as no query', () => {
    expect(parseQuery('')).toBeNull();
    expect(parseQuery('   ')).toBeNull();
  });

  it('ANDs plain words and folds case and diacritics', () => {
    expect(parseQuery('Libertà Lavoro')).toEqual({
      type: 'and',
      children: [
        { type: 'term', field: 'any', tokens: ['liberta'], prefix: false },
        { type: 'term', field: 'any', tokens: ['lavoro'], prefix: false },
      ],
    });
  });

  it('parses OR with lower precedence than AND, and explicit AND', () => {
    const ast = parseQuery('a b OR c AND d');
    expect(ast).toMatchObject({ type: 'or', children: [{ type: 'and' }, { type: 'and' }] });
    expect(toFtsMatch(ast!)).toBe('(("a" AND "b") OR ("c" AND "d"))');
  });

  it('parses NOT, -word and +word', () => {
    expect(parseQuery('a NOT b')).toMatchObject({ type: 'and', children: [{ type: 'term' }, { type: 'not', child: { tokens: ['b'] } }] });
    expect(parseQuery('a -b')).toMatchObject({ type: 'and', children: [{ type: 'term' }, { type: 'not' }] });
    expect(parseQuery('+a')).toMatchObject({ type: 'term', tokens: ['a'] });
  });

  it('parses parentheses', () => {
    expect(toFtsMatch(parseQuery('(a OR b) c')!)).toBe('(("a" OR "b") AND "c")');
  });

  it('parses quoted phrases and field prefixes', () => {
    expect(parseQuery('"mutual aid"')).toEqual({ type: 'phrase', field: 'any', tokens: ['mutual', 'aid'] });
    expect(toFtsMatch(parseQuery('title:"mutual aid"')!)).toBe('title : "mutual" + "aid"');
    expect(toFtsMatch(parseQuery('author:kropotkin')!)).toBe('authors : "kropotkin"');
  });

  it('parses trailing wildcards', () => {
    expect(parseQuery('anarch*')).toEqual({ type: 'term', field: 'any', tokens: ['anarch'], prefix: true });
    expect(toFtsMatch(parseQuery('title:lib*')!)).toBe('title : "lib"*');
  });

  it('parses filter prefixes and validates their values', () => {
    expect(parseQuery('library:3')).toEqual({ type: 'filter', name: 'library', value: '3' });
    expect(parseQuery('language:IT')).toEqual({ type: 'filter', name: 'language', value: 'it' });
    expect(queryFilters(parseQuery('x creator:12 date:1900 download:text aggregate:7 translate:translated'))).toHaveLength(5);
    expect(() => parseQuery('library:abc')).toThrow(QuerySyntaxError);
    expect(() => parseQuery('download:video')).toThrow(/Invalid value/);
  });

  it('keeps unknown prefixes as words', () => {
    expect(parseQuery('note:this')).toMatchObject({ type: 'phrase', tokens: ['note', 'this'] });
  });

  it('rejects what cannot be parsed with a message', () => {
    for (const bad of ['(a', 'a)', '"open', 'a OR', 'OR a', 'a AND', 'NOT', '()', 'title: x', '*', 'a*b']) {
      expect(() => parseQuery(bad), bad).toThrow(QuerySyntaxError);
    }
  });

  it('lower-case operators are words', () => {
    expect(parseQuery('war and peace')).toMatchObject({ type: 'and', children: [{}, { tokens: ['and'] }, {}] });
  });

  it('drops punctuation-only words beside real ones, and matches nothing with only those', () => {
    expect(parseQuery('a - b')).toMatchObject({ type: 'and', children: [{ tokens: ['a'] }, { tokens: ['b'] }] });
    expect(parseQuery('!!!')).toEqual({ type: 'empty' });
  });

  it('splits hyphenated words into a phrase, like the index tokenizer', () => {
    expect(tokenize("e-mail l'Entraide")).toEqual(['e', 'mail', 'l', 'entraide']);
    expect(parseQuery('e-mail')).toEqual({ type: 'phrase', field: 'any', tokens: ['e', 'mail'] });
  });

  it('knows whether a query has text to rank by', () => {
    expect(hasText(parseQuery('library:1'))).toBe(false);
    expect(hasText(parseQuery('library:1 anarchy'))).toBe(true);
  });

  it('escapes quotes inside FTS strings', () => {
    expect(toFtsMatch({ type: 'term', field: 'any', tokens: ['a"b'], prefix: false })).toBe('"a""b"');
  });
});
