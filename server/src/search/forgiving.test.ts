// Search that forgives: other scripts (transliteration both ways), typos, translations of a work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchResponseSchema, type SearchResponse } from '@uc/shared';
import { fixtureLines, testApp, type TestApp } from '../test/fixture.ts';

let t: TestApp;
beforeAll(async () => {
  const entry = (id: number, title: string, authors: string[], languages: string[], extra: object = {}) => ({
    type: 'entry', id, title, subtitle: null, authors, languages, year: 1900, data_sources: [{ library_id: 1, identifier: `x-${id}` }], ...extra,
  });
  t = await testApp([
    ...fixtureLines(),
    entry(30, 'Взаимопомощь как фактор эволюции', ['Пётр Кропоткин'], ['ru'], { translation_of: 2 }),
    entry(31, 'Бесы', ['Фёдор Достоевский'], ['ru']),
    entry(32, 'Война и мир', ['Лев Толстой'], ['ru']),
    entry(33, 'Θεός και κράτος', ['Μιχαήλ Μπακούνιν'], ['el']),
    entry(34, 'Η φαντασιακή θέσμιση της κοινωνίας', ['Κορνήλιος Καστοριάδης'], ['el']),
    entry(35, 'Il mutuo appoggio', ['Pietro Kropotkin'], ['it'], { translation_of: 2 }),
    entry(36, 'God and the State', ['Michael Bakunin'], ['en']),
  ]);
});
afterAll(async () => t.close());

async function search(qs: string): Promise<SearchResponse> {
  const res = await t.app.inject(`/collector/api/search?${qs}`);
  expect(res.statusCode, res.body).toBe(200);
  return searchResponseSchema.parse(res.json());
}
const titles = (r: SearchResponse) => r.matches.map((m) => m.title[0].value);
const q = (query: string, more = '') => search(`query=${encodeURIComponent(query)}${more}`);

describe('other scripts', () => {
  it('finds Cyrillic titles and authors from Latin letters', async () => {
    expect(titles(await q('kropotkin'))).toContain('Взаимопомощь как фактор эволюции');
    expect(titles(await q('vzaimopomoshch'))).toEqual(['Взаимопомощь как фактор эволюции']);
    expect(titles(await q('dostoevsky'))).toEqual(['Бесы']);
    expect(titles(await q('author:tolstoy'))).toEqual(['Война и мир']);
    expect(titles(await q('"voyna i mir"'))).toEqual(['Война и мир']);
  });

  it('finds Latin titles and authors from Cyrillic and Greek letters', async () => {
    const r = titles(await q('Кропоткин'));
    expect(r).toEqual(expect.arrayContaining(['Mutual Aid', "L'Entraide", 'Fields, Factories and Workshops', 'Взаимопомощь как фактор эволюции']));
    // The entry written in the reader's script ranks first.
    expect(r[0]).toBe('Взаимопомощь как фактор эволюции');
    expect(titles(await q('author:Κροπότκιν'))).toContain('Mutual Aid');
  });

  it('finds Greek titles and authors from Latin letters, and ranks the exact script first', async () => {
    expect(titles(await q('kastoriadis'))).toEqual(['Η φαντασιακή θέσμιση της κοινωνίας']);
    expect(titles(await q('Καστοριάδης'))).toEqual(['Η φαντασιακή θέσμιση της κοινωνίας']);
    expect(titles(await q('kratos'))).toEqual(['Θεός και κράτος']);
    expect(titles(await q('koinonias'))).toEqual(['Η φαντασιακή θέσμιση της κοινωνίας']);
    const bakunin = titles(await q('bakounin'));
    expect(bakunin).toEqual(['Θεός και κράτος']);
  });

  it('keeps accents and case folded as before, in every script', async () => {
    expect(titles(await q('КРОПОТКИН'))).toContain('Взаимопомощь как фактор эволюции');
    expect(titles(await q('Кропоткін'))).toContain('Mutual Aid'); // the Ukrainian spelling
    expect(titles(await q('θεος'))).toEqual(['Θεός και κράτος']);
    expect(titles(await q('liberta'))).toEqual(['La libertà e il lavoro']);
  });

  it('ranks the title in the query\'s own script before a transliterated one', async () => {
    const r = titles(await q('mir'));
    expect(r).toEqual(['Война и мир']);
    const both = titles(await q('kropotkin', '&page_size=20'));
    expect(both.indexOf('Взаимопомощь как фактор эволюции')).toBeGreaterThan(both.indexOf('Mutual Aid'));
  });
});
