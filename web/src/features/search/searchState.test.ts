import { describe, expect, it } from 'vitest';
import { effectiveSort, parseSearch, singleFilterIds, toSearchString, toggleFilter, withQuery } from './searchState';

describe('search state', () => {
  it('round-trips the URL, omitting empty values and page 1', () => {
    const s = parseSearch('?query=x&sort_by=title_asc&page_number=1&filter_language=en&filter_language=it&filter_date=');
    expect(s).toEqual({ query: 'x', sort_by: 'title_asc', page: 1, filters: { language: ['en', 'it'] } });
    expect(toSearchString(s)).toBe('?query=x&sort_by=title_asc&filter_language=en&filter_language=it');
    expect(parseSearch('?sort_by=bogus&page_number=-3')).toEqual({ query: '', sort_by: undefined, page: 1, filters: {} });
  });

  it('swaps acquisition date and relevance with the query', () => {
    expect(effectiveSort('')).toBe('datestamp');
    expect(effectiveSort('x')).toBe('relevance');
    expect(effectiveSort('', 'relevance')).toBe('datestamp');
    expect(effectiveSort('x', 'datestamp')).toBe('relevance');
    expect(effectiveSort('x', 'title_desc')).toBe('title_desc');
  });

  it('a new search and a filter toggle go back to page 1', () => {
    const s = parseSearch('?query=x&page_number=5&filter_language=en');
    expect(withQuery(s, 'y')).toMatchObject({ query: 'y', page: 1, sort_by: 'relevance', filters: { language: ['en'] } });
    expect(toggleFilter(s, 'language', 'en')).toMatchObject({ page: 1, filters: {} });
  });

  it('finds library: and creator: ids', () => {
    expect(singleFilterIds('library:3 AND creator:12 foo library:3 xlibrary:9')).toEqual({ library: ['3'], creator: ['12'] });
  });
});
