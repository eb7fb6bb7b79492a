import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseXml } from '../xml.ts';
import { mapUnimarc } from './unimarc.ts';

const collection = parseXml(fs.readFileSync(new URL('../test-fixtures/unimarc-koha.xml', import.meta.url), 'utf8'));
const [book, leaflet] = collection.children.filter((c) => c.name === 'record').map((r) => mapUnimarc(r, { host: 'catalogue.vallees.example.fr' }));

describe('UNIMARC as a Koha union catalogue serves it', () => {
  it('takes authors from the 7XX access points as "surname, forenames", not from 200 $f', () => {
    expect(book.authors).toEqual(['Morel, Jeanne', 'Ricci, Paolo']);
  });

  it('falls back to the 200 $f statement only when there is no access point', () => {
    expect(leaflet.authors).toEqual(['Anselmo Greco', 'Rosa Tanzi']);
  });

  it('reads the title without its non-sorting marks, and the other title information as subtitle', () => {
    expect(book.title).toBe("L'anarchie dans les vallées");
    expect(book.subtitle).toBe("chroniques d'une commune alpine");
  });

  it('takes years from 210 $d, else from the coded dates of 100', () => {
    expect(book.year_edition).toBe(1975);
    expect(leaflet.year_edition).toBe(1932);
  });

  it('maps 101 language codes (the original language of a translation is not the text\'s)', () => {
    expect(book.languages).toEqual(['fr']);
    expect(leaflet.languages).toEqual(['it']);
  });

  it('fills publication, physical description, edition, ISBN and descriptions', () => {
    expect(book).toMatchObject({
      publisher: 'Éditions du Col',
      place_date_of_publication_distribution: 'Lyon : Éditions du Col, 1975',
      material_description: '245 p. : ill. ; 21 cm',
      edition_statement: '2e éd.',
      isbn: '207036822X',
      description: "Chronique de la commune libre d'une vallée alpine, de 1919 à 1923.\nIndex",
    });
    expect(leaflet.publisher).toBeNull();
  });

  it('keeps call numbers of every item and each holding library once (one record for all branches)', () => {
    expect(book.shelf_location_code).toBe('335.8 MOR\nHIS MOR\n335.8');
    expect(book.internal_library_codes).toEqual(['VAL', 'CRA']);
  });

  it('makes the set (461) and the series (225 and its 410 link, once) aggregations', () => {
    expect(book.aggregations).toEqual([
      { name: 'Histoires des Alpes', issue: 'Tome 2', order: 3, placeDatePublisher: 'Lyon, 1975', itemIdentifier: '1200' },
      { name: 'Mémoires sociales', order: 12 },
    ]);
  });

  it('links the record: 856, else its persistent identifier when that is a URL', () => {
    expect(leaflet).toMatchObject({ uri: 'https://www.miniere.example.it/canti.pdf', uri_label: 'Scansione' });
    expect(book).toMatchObject({ uri: 'https://catalogue.vallees.example.fr/ark:/99999/b1234', uri_label: 'URL' });
  });
});
