import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseXml } from '../xml.ts';
import { mapDublinCore } from './dc.ts';

const dc = parseXml(fs.readFileSync(new URL('../test-fixtures/oai-dc.xml', import.meta.url), 'utf8'));
const rec = mapDublinCore(dc, { host: 'repository.rurali.example.it' });

describe('oai_dc', () => {
  it('takes the first title as title and the second as subtitle', () => {
    expect(rec.title).toBe('Seed libraries in the Po valley');
    expect(rec.subtitle).toBe('A survey of twelve exchanges');
  });

  it('takes creators as authors and leaves contributors out', () => {
    expect(rec.authors).toEqual(['Galli, Marta', 'Nowak, Piotr']);
  });

  it('reads years from every date, languages from codes and names (not from prose)', () => {
    expect(rec.year_edition).toBe(2004);
    expect(rec.year_first_edition).toBe(1999);
    expect(rec.languages).toEqual(['en', 'it']);
  });

  it('sorts identifiers: the repository\'s own page is the URI, other links are kept, ISBNs found', () => {
    expect(rec.uri).toBe('https://repository.rurali.example.it/handle/123/45');
    expect(rec.content_type).toBe('application/pdf');
    expect(rec.links?.map((l) => l.uri)).toEqual(['https://doi.example.org/10.5555/isr.2004.7']);
    expect(rec.isbn).toBe('9788899123451; 0306406152');
  });

  it('makes a relation that names a series an aggregation, not one that is a link', () => {
    expect(rec.aggregations).toEqual([{ name: 'Quaderni di studi rurali' }]);
  });

  it('joins descriptions and keeps the publisher', () => {
    expect(rec.description).toBe('Twelve seed exchanges visited between 1999 and 2003.\nWorking paper.');
    expect(rec.publisher).toBe('Istituto di Studi Rurali');
  });

  it('maps an amusewiki text served as oai_dc to its page', () => {
    const r = mapDublinCore(parseXml(`<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <dc:title>A text</dc:title><dc:creator>Someone</dc:creator><dc:format>text/html</dc:format>
      <dc:identifier>https://lantern.example.org/library/a-text</dc:identifier><dc:language>en</dc:language></oai_dc:dc>`), { host: 'lantern.example.org' });
    expect(r).toMatchObject({ title: 'A text', uri: 'https://lantern.example.org/library/a-text', content_type: 'text/html', languages: ['en'] });
  });

  it('ignores elements outside the Dublin Core namespaces', () => {
    const r = mapDublinCore(parseXml(`<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:x="urn:other">
      <x:title>Not this</x:title><dc:title>This</dc:title></oai_dc:dc>`));
    expect(r.title).toBe('This');
    expect(r.subtitle).toBeNull();
  });
});
