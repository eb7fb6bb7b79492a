import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseXml, type XmlElement } from '../xml.ts';
import { mapMarc21 } from './marc21.ts';

const fixture = (name: string) => parseXml(fs.readFileSync(new URL(`../test-fixtures/${name}`, import.meta.url), 'utf8'));
const records = (collection: XmlElement) => collection.children.filter((c) => c.name === 'record');

/** A MARCXML record with the `marc:` prefix, from [tag, ind1ind2, [[code, value]...]] or [tag, control text]. */
function marc(fields: ([string, string] | [string, string, [string, string][]])[]): XmlElement {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const body = fields.map((f) => f.length === 2
    ? `<marc:controlfield tag="${f[0]}">${esc(f[1])}</marc:controlfield>`
    : `<marc:datafield tag="${f[0]}" ind1="${f[1][0]}" ind2="${f[1][1]}">${f[2].map(([c, v]) => `<marc:subfield code="${c}">${esc(v)}</marc:subfield>`).join('')}</marc:datafield>`);
  return parseXml(`<marc:record xmlns:marc="http://www.loc.gov/MARC21/slim"><marc:leader>00000nam a2200000 a 4500</marc:leader>${body.join('')}</marc:record>`);
}

describe('MARC21 as amusewiki writes it', () => {
  const rec = mapMarc21(fixture('marc21-amusewiki.xml'), { host: 'lantern.example.org' });

  it('keeps every author (one 100 each), the title and the subtitle from 246', () => {
    expect(rec.authors).toEqual(['Mara Lindqvist', 'Okafor, Chidi']);
    expect(rec.title).toBe('Lanterns on the Common');
    expect(rec.subtitle).toBe('Notes from a Neighbourhood Tool Library');
  });

  it('points to the text page and lists the formats the text is offered in', () => {
    expect(rec.uri).toBe('https://lantern.example.org/library/lanterns-on-the-common');
    expect(rec.content_type).toBe('text/html');
    expect(rec.downloads).toEqual(['muse', 'zip', 'pdf', 'epub']);
    expect(rec.links).toBeUndefined();
  });

  it('reads the language code of 546, years from 260 $c and 363 $i, one publication statement from the split 260s', () => {
    expect(rec.languages).toEqual(['en']);
    expect(rec.year_edition).toBe(2019);
    expect(rec.year_first_edition).toBe(2017);
    expect(rec.place_date_of_publication_distribution).toBe('Malmö : Lantern Press, Spring 2017');
    expect(rec.publisher).toBe('Lantern Press');
    expect(rec.isbn).toBe('9788899123451');
    expect(rec.shelf_location_code).toBe('LP-A-12');
  });

  it('makes the anthology of 773 an aggregation with its identifier, page and position', () => {
    expect(rec.aggregations).toEqual([{
      name: 'Commons Quarterly',
      issue: 'No. 3',
      isbn: null,
      order: 4,
      placeDatePublisher: 'Malmö, Lantern Press, 2019',
      itemIdentifier: 'oai:lantern.example.org:/aggregation/commons-quarterly-3',
      uri: 'https://lantern.example.org/aggregation/commons-quarterly-3',
    }]);
  });

  it('does not take the contributor of 720 as an author', () => {
    expect(rec.authors).not.toContain('Ines Barros');
  });
});

describe('MARC21 as Koha writes it, with items', () => {
  const [book, article] = records(fixture('marc21-koha.xml')).map((r) => mapMarc21(r, { host: 'opac.harbour.example.net' }));

  it('keeps the 700 and 710 authors after the 100, once each, without relator terms or punctuation', () => {
    expect(book.authors).toEqual(['Ferrer, Lucia', 'Vidal, Tomas', 'Adriatic Labour Archive']);
  });

  it('never glues the statement of responsibility into the title', () => {
    expect(book.title).toBe('The commons of the sea');
    expect(book.subtitle).toBe('fishing cooperatives on the Adriatic, 1890-1930');
    expect(article.title).toBe('Reti da pesca e reti di mutuo soccorso');
    expect(`${book.title} ${book.subtitle}`).not.toMatch(/\/|Ferrer|afterword/);
  });

  it('takes years from 264 $c and from 260 $c', () => {
    expect(book.year_edition).toBe(2021);
    expect(book.year_first_edition).toBe(2019);
    expect(article.year_edition).toBe(1987);
  });

  it('splits concatenated 041 codes and leaves the 546 sentence alone', () => {
    expect(book.languages).toEqual(['en', 'fr']);
    expect(article.languages).toEqual(['it']);
  });

  it('fills the descriptive fields without ISBD debris', () => {
    expect(book).toMatchObject({
      publisher: 'Molo Press',
      isbn: '9781950001231',
      edition_statement: 'Second edition',
      material_description: '312 pages : illustrations, maps ; 23 cm',
      place_date_of_publication_distribution: 'Trieste : Molo Press, 2021',
      description: 'Translated from the Italian.\nA history of the fishing cooperatives of the northern Adriatic between 1890 and 1930.',
    });
  });

  it('chooses the link on the catalogue\'s own host, keeps the other http(s) one and drops ftp', () => {
    expect(book).toMatchObject({ uri: 'https://opac.harbour.example.net/files/commons-of-the-sea.pdf', uri_label: 'Full text (PDF)', content_type: 'application/pdf' });
    expect(book.links).toEqual([{ uri: 'https://molo.example.com/books/commons-of-the-sea', uri_label: "Publisher's page", content_type: null }]);
  });

  it('reads the items: call numbers per copy, branches once each (one record, not one per branch)', () => {
    expect(book.shelf_location_code).toBe('HD1541 .F47 2021\nHD1541 .F47 2021 c.2');
    expect(book.internal_library_codes).toEqual(['MAIN', 'PORT']);
    expect(article.shelf_location_code).toBe('PER QUA 1987 n. 2');
  });

  it('falls back to the item URI when there is no 856', () => {
    expect(article.uri).toBe('https://opac.harbour.example.net/scans/quaderni-1987-2.pdf');
  });

  it('makes the series (490 and 830, the same one) a single aggregation with its volume as position', () => {
    expect(book.aggregations).toEqual([{ name: 'Maritime histories', order: 7 }]);
  });

  it('makes the host item of an article an aggregation, linked by the host\'s biblionumber', () => {
    expect(article.aggregations).toEqual([{
      name: 'Quaderni della laguna',
      issue: 'Anno 3, n. 2 (1987)',
      isbn: null,
      order: null,
      placeDatePublisher: 'Chioggia : Circolo dei pescatori, 1987',
      itemIdentifier: '4301',
      uri: null,
    }]);
  });
});

describe('MARC21 edge cases', () => {
  it('reads records with the marc: prefix and without any namespace alike', () => {
    const prefixed = mapMarc21(marc([['245', '00', [['a', 'Same title']]]]));
    const bare = mapMarc21(parseXml('<record><datafield tag="245" ind1="0" ind2="0"><subfield code="a">Same title</subfield></datafield></record>'));
    expect(prefixed.title).toBe('Same title');
    expect(bare.title).toBe('Same title');
  });

  it('joins the part number and name to the title', () => {
    const r = mapMarc21(marc([['245', '10', [['a', 'Collected works.'], ['n', 'Volume 3,'], ['p', 'Letters /'], ['c', 'A. Writer.']]]]));
    expect(r.title).toBe('Collected works. Volume 3. Letters');
  });

  it('uses the 008 date only when no date field has a year, and the 008 language', () => {
    const r = mapMarc21(marc([
      ['008', '850101s1984    it            000 0 ita d'],
      ['245', '00', [['a', 'Senza data']]],
      ['260', '  ', [['a', 'Roma :'], ['b', '[s.n.],'], ['c', '[s.d.]']]],
    ]));
    expect(r.year_edition).toBe(1984);
    expect(r.languages).toEqual(['it']);
    expect(r.publisher).toBeNull();
  });

  it('takes 546 only when it is a language name or code', () => {
    expect(mapMarc21(marc([['245', '00', [['a', 'T']]], ['546', '  ', [['a', 'Italiano']]]])).languages).toEqual(['it']);
    expect(mapMarc21(marc([['245', '00', [['a', 'T']]], ['546', '  ', [['a', 'Mostly in Engl. with Fren. notes']]]])).languages).toEqual([]);
  });

  it('keeps corporate main entries and drops an http(s)-less 773 $6', () => {
    const r = mapMarc21(marc([
      ['110', '2 ', [['a', 'Seed Savers Network.']]],
      ['245', '10', [['a', 'Annual report']]],
      ['773', '0 ', [['t', 'Reports'], ['6', '880-01'], ['q', '2']]],
    ]));
    expect(r.authors).toEqual(['Seed Savers Network']);
    expect(r.aggregations).toEqual([{ name: 'Reports', issue: null, isbn: null, order: 2, placeDatePublisher: null, itemIdentifier: null, uri: null }]);
  });

  it('leaves the title empty when the record has none (the run reports it)', () => {
    expect(mapMarc21(marc([['100', '1 ', [['a', 'Nobody']]]])).title).toBe('');
  });
});
