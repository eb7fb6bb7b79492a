import { describe, expect, it } from 'vitest';
import {
  amusewikiText, chooseUri, cleanTitle, dedupe, isbnOf, isPlaceholder, looksLikeName, mergeAggregations, mimeType,
  placeDateOfPublication, publicationLine, trimIsbd, wholeNumber, yearsOf,
} from './fields.ts';

describe('years from date values', () => {
  it('one distinct year is the edition year; several give the latest edition and the earliest first edition', () => {
    expect(yearsOf(['2019.'])).toEqual({ year_edition: 2019, year_first_edition: null });
    expect(yearsOf(['2019', 'c2019', '[2019?]'])).toEqual({ year_edition: 2019, year_first_edition: null });
    expect(yearsOf(['2021.', '©2019'])).toEqual({ year_edition: 2021, year_first_edition: 2019 });
    expect(yearsOf(['1906, reprinted 1972 and 2004'])).toEqual({ year_edition: 2004, year_first_edition: 1906 });
  });

  it('takes only four-digit years from 1000 to 2999, never pieces of longer numbers', () => {
    expect(yearsOf(['9781950001231', '0101-01-01', '19uu', '345 p.', '3000'])).toEqual({ year_edition: null, year_first_edition: null });
    expect(yearsOf([null, undefined, ''])).toEqual({ year_edition: null, year_first_edition: null });
  });
});

describe('ISBD punctuation', () => {
  it('trims the separators cataloguers end subfields with', () => {
    expect(trimIsbd('The commons of the sea :')).toBe('The commons of the sea');
    expect(trimIsbd('fishing cooperatives /')).toBe('fishing cooperatives');
    expect(trimIsbd('Molo Press,')).toBe('Molo Press');
    expect(trimIsbd('Maritime histories ;')).toBe('Maritime histories');
    expect(trimIsbd('Title =')).toBe('Title');
    expect(trimIsbd('2021.')).toBe('2021');
    expect(trimIsbd('Second edition.')).toBe('Second edition');
  });

  it('keeps the period of an initial, an abbreviation or a dotted form', () => {
    expect(trimIsbd('Tolkien, J. R. R.')).toBe('Tolkien, J. R. R.');
    expect(trimIsbd('Kropotkin, Peter A.')).toBe('Kropotkin, Peter A.');
    expect(trimIsbd('24 cm.')).toBe('24 cm.');
    expect(trimIsbd('2e éd.')).toBe('2e éd.');
    expect(trimIsbd('[s.n.]')).toBe('[s.n.]');
    expect(trimIsbd('Washington, D.C.')).toBe('Washington, D.C.');
    expect(trimIsbd('And so on...')).toBe('And so on...');
  });

  it('cleans titles: brackets of a supplied title and non-sorting marks go', () => {
    expect(cleanTitle('[Untitled pamphlet] /')).toBe('Untitled pamphlet');
    expect(cleanTitle('<<The>> commons')).toBe('The commons');
    expect(cleanTitle('\u0088L\'\u0089anarchie')).toBe("L'anarchie");
  });

  it('rebuilds a publication statement in ISBD order', () => {
    expect(publicationLine(['Trieste :'], ['Molo Press,'], ['2021.'])).toBe('Trieste : Molo Press, 2021');
    expect(publicationLine(['Lyon', 'Paris'], [], ['1975'])).toBe('Lyon ; Paris, 1975');
    expect(placeDateOfPublication(['A : B, 1990', 'A : B, 1994', 'A : C, 1998', 'D : C, 2001', 'D : E, 2004'])).toBe('1990-2004');
    expect(placeDateOfPublication(['A : B, 1990', 'a : b, 1990'])).toBe('A : B, 1990');
  });
});

describe('the URI choice', () => {
  const candidates = [
    { uri: 'mailto:someone@example.org' },
    { uri: 'https://publisher.example.com/book', label: 'Publisher' },
    { uri: 'https://opac.example.net/files/book.pdf', label: 'Full text', contentType: 'application/pdf' },
  ];

  it('takes http(s) links only, the first on the record\'s own host, with its label and content type', () => {
    const { chosen, others } = chooseUri(candidates, 'opac.example.net');
    expect(chosen).toEqual({ uri: 'https://opac.example.net/files/book.pdf', uri_label: 'Full text', content_type: 'application/pdf' });
    expect(others.map((o) => o.uri)).toEqual(['https://publisher.example.com/book']);
  });

  it('takes the first http(s) link when none is on the host, and nothing when none is http(s)', () => {
    expect(chooseUri(candidates, 'elsewhere.org').chosen?.uri).toBe('https://publisher.example.com/book');
    expect(chooseUri(candidates).chosen?.uri).toBe('https://publisher.example.com/book');
    expect(chooseUri([{ uri: 'ftp://x.org/a' }, { uri: 'javascript:alert(1)' }, { uri: 'not a url' }]).chosen).toBeNull();
  });

  it('sees an amusewiki text page with its formats', () => {
    const base = 'https://lantern.example.org/library/on-the-common';
    const text = amusewikiText([{ uri: `${base}.pdf` }, { uri: base, label: 'HTML' }, { uri: `${base}.a4.pdf` }, { uri: `${base}.muse` }], 'lantern.example.org');
    expect(text).toEqual({ page: { uri: base, label: 'HTML' }, downloads: ['pdf', 'a4.pdf', 'muse'] });
    expect(amusewikiText([{ uri: 'https://x.org/library/report.pdf' }])).toBeNull();
    expect(amusewikiText([{ uri: 'https://lantern.example.org/aggregation/quarterly' }])).toBeNull();
  });
});

describe('small value helpers', () => {
  it('finds ISBNs, checking the check digit when asked', () => {
    expect(isbnOf('978-1-950001-23-1 (paperback) :')).toBe('9781950001231');
    expect(isbnOf('urn:isbn:0-306-40615-2')).toBe('0306406152');
    expect(isbnOf('0-306-40615-3', { checked: true })).toBeNull();
    expect(isbnOf('2004/7')).toBeNull();
  });

  it('reads whole numbers only', () => {
    expect(['3', 'v. 7', 'v. 7.', 'no. 12', '#4', '2.0', '1.5', '3a', '2-3', '3:45<61', ''].map((v) => wholeNumber(v)))
      .toEqual([3, 7, 7, 12, 4, 2, null, null, null, null, null]);
  });

  it('de-duplicates ignoring case and spacing, keeping the first spelling', () => {
    expect(dedupe(['Molo Press', ' molo  press', '', null, 'Other'])).toEqual(['Molo Press', 'Other']);
  });

  it('tells names from links, MIME types from prose and placeholders from publishers', () => {
    expect(looksLikeName('Quaderni di studi rurali')).toBe(true);
    expect(looksLikeName('https://repo.example.org/handle/1')).toBe(false);
    expect(looksLikeName('info:eu-repo/grantAgreement/1')).toBe(false);
    expect(mimeType('application/epub+zip')).toBe('application/epub+zip');
    expect(mimeType('48 p.')).toBeNull();
    expect(isPlaceholder('[s.n.]')).toBe(true);
    expect(isPlaceholder('Sansoni')).toBe(false);
  });

  it('merges aggregations named twice (490 and 830), keeping an order found in either', () => {
    expect(mergeAggregations([{ name: 'Maritime histories', order: null }, { name: 'Maritime Histories.', order: 7 }, { name: '', order: 1 }]))
      .toEqual([{ name: 'Maritime histories', order: 7 }]);
  });
});
