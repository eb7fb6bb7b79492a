import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseXml } from '../xml.ts';
import { htmlToText, mapOpf, seriesOrder } from './opf.ts';

const opf = (rel: string) => parseXml(fs.readFileSync(new URL(`../test-fixtures/calibre/${rel}/metadata.opf`, import.meta.url), 'utf8'));

describe('Calibre metadata.opf', () => {
  const book = mapOpf(opf('Lucia Ferrer/The Commons of the Sea (1)'));

  it('reads title, authors, date, publisher, language and the ISBN identifier', () => {
    expect(book.record).toMatchObject({
      title: 'The Commons of the Sea',
      authors: ['Lucia Ferrer', 'Tomas Vidal'],
      year_edition: 2021,
      publisher: 'Molo Press',
      languages: ['en'],
      isbn: '9781950001231',
    });
  });

  it('returns the uuid and the identifiers for the record identifier', () => {
    expect(book.uuid).toBe('6d1f4c2a-93b7-4e0e-a8f1-0c5b7e2d9a11');
    expect(book.identifiers[0]).toEqual({ scheme: 'calibre', value: '1' });
  });

  it('turns the HTML description into plain text (paragraphs and breaks as lines, scripts dropped)', () => {
    expect(book.record.description).toBe('A history of the fishing cooperatives of the northern Adriatic.\nSecond edition\nwith maps & an index.');
  });

  it('makes the series an aggregation, with a whole index as position and a fractional one as none', () => {
    expect(book.record.aggregations).toEqual([{ name: 'Harbour Cycle', order: 2 }]);
    expect(mapOpf(opf('Lucia Ferrer/Harbour Songs (2)')).record.aggregations).toEqual([{ name: 'Harbour Cycle', order: null }]);
  });

  it('takes Calibre\'s "no date" for none, and one language written twice once', () => {
    const songs = mapOpf(opf('Lucia Ferrer/Harbour Songs (2)')).record;
    expect(songs.year_edition).toBeNull();
    expect(songs.languages).toEqual(['it']);
  });

  it('reads an OPF 3 package: collection with group position, urn:isbn identifier', () => {
    const v = mapOpf(opf('Jeanne Morel/Les vallees libres (4)'));
    expect(v.uuid).toBeNull();
    expect(v.record).toMatchObject({ title: 'Les vallées libres', isbn: '207036822X', year_edition: 1975, aggregations: [{ name: 'Mémoires sociales', order: 12 }] });
  });

  it('reads series indexes as Calibre writes them', () => {
    expect(['1', '1.0', '2.00', '1.5', '', 'x'].map(seriesOrder)).toEqual([1, 1, 2, null, null, null]);
  });
});

describe('htmlToText', () => {
  it('reads markup with a real HTML parser: entities, unclosed tags, comments', () => {
    expect(htmlToText('<p>One &amp; two<p>Three<br>four <!-- hidden --> five</p><ul><li>a</li><li>b</ul>')).toBe('One & two\nThree\nfour five\na\nb');
    expect(htmlToText('<style>p{}</style>Plain &lt;not a tag&gt;')).toBe('Plain <not a tag>');
    expect(htmlToText('')).toBe('');
  });
});
