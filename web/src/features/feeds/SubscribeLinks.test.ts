// The feed of a results page asks for what the page shows: its words and its filters, in the search
// language the feeds read (a facet's values OR-ed, facets AND-ed).
import { describe, expect, it } from 'vitest';
import { atomFeedUrl, feedQuery, opdsFeedUrl } from './SubscribeLinks';

describe('feedQuery', () => {
  it('keeps a query without filters as it is, author and library queries included', () => {
    expect(feedQuery('kropotkin')).toBe('kropotkin');
    expect(feedQuery(' creator:12 ')).toBe('creator:12');
    expect(feedQuery('', {})).toBe('');
  });

  it('adds the filters: one value as a prefix, several OR-ed, the words grouped so an OR in them stays theirs', () => {
    expect(feedQuery('bread OR roses', { library: ['3'], language: ['fr', 'it'] })).toBe('(bread OR roses) library:3 (language:fr OR language:it)');
    expect(feedQuery('', { date: ['1902'], download: [] })).toBe('date:1902');
  });

  it('makes the feeds\' addresses', () => {
    expect(atomFeedUrl('')).toBe('/feed.atom');
    expect(atomFeedUrl('library:3')).toBe('/feed.atom?query=library%3A3');
    expect(opdsFeedUrl('creator:12')).toBe('/opds/search?query=creator%3A12');
  });
});
