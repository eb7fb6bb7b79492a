// Snippets: a passage of the full text where the query's words matched inside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchResponseSchema, type SearchResponse } from '@uc/shared';
import { fixtureLines, testApp, type TestApp } from '../test/fixture.ts';
import { APP_BACKENDS } from '../test/backends.ts';
import { cutSnippet, wordsOfRecord } from './snippet.ts';

const LONG = `${'Lorem ipsum dolor sit amet. '.repeat(2000)}The <em>Communards</em> met at the Hôtel de Ville. ${'Sed do eiusmod. '.repeat(50)}`;

describe.each(APP_BACKENDS)('snippets on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    const entry = (id: number, title: string, extra: object = {}) => ({
      type: 'entry', id, title, subtitle: null, authors: ['Anonymous'], languages: ['fr'], year: 1900,
      data_sources: [{ library_id: 1, identifier: `x-${id}` }], ...extra,
    });
    t = await testApp([
      ...fixtureLines(),
      entry(40, 'Notes from Lyon', { fulltext: 'Une lettre de Pierre Kropotkine, écrite à Clairvaux. Les prisonniers de Clairvaux lisaient.' }),
      entry(41, 'Clairvaux Prison Diary'),
      entry(42, 'A Long Chronicle', { fulltext: LONG }),
    ], {}, dialect);
  });
  afterAll(async () => t?.close());

  async function search(query: string): Promise<SearchResponse> {
    const res = await t.app.inject(`/collector/api/search?query=${encodeURIComponent(query)}`);
    expect(res.statusCode, res.body).toBe(200);
    return searchResponseSchema.parse(res.json());
  }
  const byTitle = (r: SearchResponse, title: string) => r.matches.find((m) => m.title[0].value === title);
  const marked = (m: SearchResponse['matches'][number] | undefined) => m?.snippet?.parts.filter((p) => p.match).map((p) => p.text);

  describe('snippets', () => {
    it('answers a passage of the full text with the matched words marked, as plain text parts', async () => {
      const r = await search('clairvaux');
      const notes = byTitle(r, 'Notes from Lyon');
      expect(notes?.snippet?.parts.map((p) => p.text).join('')).toBe('Une lettre de Pierre Kropotkine, écrite à Clairvaux. Les prisonniers de Clairvaux lisaient.');
      expect(marked(notes)).toEqual(['Clairvaux', 'Clairvaux']);
      expect(typeof notes?.snippet?.data_source_id).toBe('number');
    });

    it('answers no snippet for a title match', async () => {
      const r = await search('clairvaux');
      expect(byTitle(r, 'Clairvaux Prison Diary')).toBeDefined();
      expect(byTitle(r, 'Clairvaux Prison Diary')?.snippet).toBeUndefined();
      expect(byTitle(await search('title:clairvaux'), 'Clairvaux Prison Diary')?.snippet).toBeUndefined();
      expect((await search('title:clairvaux')).matches.every((m) => !m.snippet)).toBe(true);
    });

    it('folds accents and case, marks wildcard words and leaves markup out', async () => {
      expect(marked(byTitle(await search('ecrite'), 'Notes from Lyon'))).toEqual(['écrite']);
      expect(marked(byTitle(await search('kropotk*'), 'Notes from Lyon'))).toEqual(['Kropotkine']);
      const long = byTitle(await search('hotel communards'), 'A Long Chronicle');
      expect(marked(long)).toEqual(['Communards', 'Hôtel']);
      const text = long!.snippet!.parts.map((p) => p.text).join('');
      expect(text).not.toContain('<em>');
      expect(text.startsWith('… ')).toBe(true);
      expect(text.length).toBeLessThan(300);
    });

    it('answers no snippet for an empty query or filters only', async () => {
      const all = await search('');
      expect(all.matches.every((m) => !m.snippet)).toBe(true);
    });

    it('passes over a word found only in Muse markup (a #title line) to the next one in the text', () => {
      const parts = cutSnippet('#title From Cards to Commons\n#lang en\n\n** Cards on the table\n\nText.', { tokens: new Set(['cards']), prefixes: [] });
      expect(parts?.map((p) => p.text).join('')).toBe('Cards on the table Text.');
      expect(parts?.filter((p) => p.match)).toEqual([{ text: 'Cards', match: true }]);
    });

    it('cuts nothing when no word is found', () => {
      expect(cutSnippet('nothing here', { tokens: new Set(['absent']), prefixes: [] })).toBeNull();
    });
  });
});

describe('the forms a snippet marks (search/analysis.ts)', () => {
  // The stems a query word looks for in every language, as the parser gives them: "arte" is "art" in English.
  const words = { tokens: new Set(['arte']), prefixes: [], stems: new Map([['en', new Set(['art'])], ['it', new Set(['arte'])]]) };
  const marked = (text: string, languages: string[]) => cutSnippet(text, wordsOfRecord(words, languages))?.filter((p) => p.match).map((p) => p.text) ?? [];

  it('marks another form only by the stems of the record\'s own languages', () => {
    expect(marked('The arts of the street', ['en'])).toEqual(['arts']);
    // An Italian text: "arts" is no form of "arte" there.
    expect(marked('Arts e mestieri, arte povera', ['it'])).toEqual(['arte']);
    expect(marked('The arts of the street', [])).toEqual([]);
  });

  it('marks the form after an elided article', () => {
    const fr = { tokens: new Set(['organiser']), prefixes: [], stems: new Map([['fr', new Set(['organis'])]]) };
    expect(cutSnippet("Le rôle de l'organisation ouvrière", wordsOfRecord(fr, ['fra']))?.filter((p) => p.match).map((p) => p.text)).toEqual(['organisation']);
  });
});
