// Citations as a reference manager imports them: BibTeX read back by an independent parser (Citation.js),
// RIS tags, CSL-JSON items; hostile and non-ASCII text kept intact; hidden entries not cited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import { entryId, fixtureLines, testApp, type TestApp } from '../test/fixture.ts';
import { cslName, texEscape } from './cite.ts';
import { BACKENDS } from '../test/backends.ts';

const BASE = 'https://catalogue.example.org';
const HOSTILE = 'Profits & {Wages} 100% $5 #1 under_score ~tilde^ \\back </script>';

describe.each(BACKENDS)('citations on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    const ds = (library_id: number, identifier: string, extra: object = {}) => ({ library_id, identifier, year_edition: 1910, downloads: [], ...extra });
    t = await testApp([
      ...fixtureLines(),
      { type: 'entry', id: 40, title: HOSTILE, subtitle: 'A study\nTY  - JOUR', authors: ['Smith & Sons {Ltd}', 'Flores Magón, Ricardo', 'Πέτρος Κροπότκιν'], languages: ['el'], year: 1905,
        data_sources: [ds(1, 'c-40', { publisher: 'Éditions "Libres" & Cie', isbn: '978-1-23-456789-7', description: 'Line one\nER  - \nTY  - BOOK', shelf_location_code: 'X/9' })] },
      // Two editions held by two libraries: a 1937 copy with a shelf mark, a 2023 reprint with publisher and ISBN.
      { type: 'entry', id: 41, title: 'Edition Mix', subtitle: null, authors: ['Anna Author'], languages: ['ru'], year: null,
        data_sources: [ds(1, 'c-41', { year_edition: 1937, shelf_location_code: 'OLD/1' }),
          ds(2, 'd-41', { year_edition: 2023, publisher: 'Left Bank', isbn: '978-1-23-456789-7' })] },
    ], { publicUrl: BASE }, dialect);
  });
  afterAll(async () => t.close());

  const cite = (id: number | string, format: string) => t.app.inject(`/collector/api/entry/${id}/cite?format=${format}`);

  describe('GET /collector/api/entry/{id}/cite', () => {
    it('gives BibTeX that parses back to the same title, authors, year and publisher', async () => {
      const id = entryId(t.services, HOSTILE);
      const res = await cite(id, 'bibtex');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-bibtex; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="profits-wages-100-5-1-under-score-tilde-back-script\.bib"$/);
      const body = res.body;
      expect(body).toMatch(/^@book\{[a-z0-9]+,\n/);
      // Braces balance (an unescaped one would swallow the rest of the file).
      let depth = 0;
      for (const [i, c] of [...body].entries()) {
        if (c === '{' && body[i - 1] !== '\\') depth++;
        if (c === '}' && body[i - 1] !== '\\') depth--;
        expect(depth).toBeGreaterThanOrEqual(0);
      }
      expect(depth).toBe(0);
      const [item] = new Cite(body).data as Record<string, any>[];
      expect(item.type).toBe('book');
      expect(item.title).toBe(`${HOSTILE}: A study TY - JOUR`);
      expect(item.author).toEqual([
        { family: 'Smith & Sons {Ltd}' }, // an organisation: kept whole (BibTeX reads a braced name as a family name)
        { family: 'Flores Magón', given: 'Ricardo' },
        { family: 'Κροπότκιν', given: 'Πέτρος' },
      ]);
      expect(item.issued).toEqual({ 'date-parts': [[1910]] });
      expect(item.publisher).toBe('Éditions "Libres" & Cie');
      expect(item.ISBN).toBe('978-1-23-456789-7');
      expect(item.URL).toBe(`${BASE}/entry/${id}`);
    });

    it('gives RIS with one record whose tags no value can forge, read back by a RIS parser', async () => {
      const id = entryId(t.services, HOSTILE);
      const res = await cite(id, 'ris');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-research-info-systems; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/\.ris"$/);
      expect(res.body.endsWith('ER  - \r\n')).toBe(true);
      const lines = res.body.split('\r\n').slice(0, -1);
      for (const l of lines) expect(l).toMatch(/^[A-Z][A-Z0-9]  - /);
      const tags = (tag: string) => lines.filter((l) => l.startsWith(`${tag}  - `)).map((l) => l.slice(6));
      expect(tags('TY')).toEqual(['BOOK']);
      expect(tags('ER')).toEqual(['']);
      expect(tags('TI')).toEqual([`${HOSTILE}: A study TY - JOUR`]);
      expect(tags('AU')).toEqual(['Smith & Sons {Ltd}', 'Flores Magón, Ricardo', 'Κροπότκιν, Πέτρος']);
      expect(tags('PY')).toEqual(['1910']);
      expect(tags('PB')).toEqual(['Éditions "Libres" & Cie']);
      expect(tags('SN')).toEqual(['978-1-23-456789-7']);
      expect(tags('AB')).toEqual(['Line one ER - TY - BOOK']);
      expect(tags('CN')).toEqual(['X/9']);
      expect(tags('UR')).toEqual([`${BASE}/entry/${id}`]);
      expect(tags('LA')).toEqual(['el']);
      const [item] = new Cite(res.body).data as Record<string, any>[];
      expect(item).toMatchObject({ type: 'book', title: `${HOSTILE}: A study TY - JOUR`, publisher: 'Éditions "Libres" & Cie', ISBN: '978-1-23-456789-7' });
      expect(item.author[1]).toEqual({ family: 'Flores Magón', given: 'Ricardo' });
    });

    it('gives a CSL-JSON list of one item', async () => {
      const id = entryId(t.services, 'Second Essay');
      const res = await cite(id, 'csl-json');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/vnd.citationstyles.csl+json; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="second-essay.json"');
      expect(res.json()).toEqual([{
        id: `entry-${id}`, type: 'chapter', title: 'Second Essay', 'container-title': 'Anthology of Essays',
        author: [{ family: 'Cleyre', given: 'Voltairine', 'non-dropping-particle': 'de' }],
        issued: { 'date-parts': [[1911]] }, 'original-date': { 'date-parts': [[1890]] }, language: 'en',
        archive: 'Biblioteca Uno', URL: `${BASE}/entry/${id}`,
      }]);
      // A part of an anthology is a chapter in BibTeX terms too.
      const bib = (await cite(id, 'bibtex')).body;
      expect(bib).toMatch(/^@incollection\{cleyre1911second\d+,/);
      expect(bib).toContain('  author = {de Cleyre, Voltairine}');
      expect(bib).toContain('  booktitle = {{Anthology of Essays}}');
    });

    it('cites only what the viewer may see: hidden entries are the entry route\'s 404', async () => {
      const message = (await t.app.inject('/collector/api/entry/999999')).json().error;
      for (const id of [999999, entryId(t.services, 'Secret Private Work'), entryId(t.services, 'Inactive Library Work')]) {
        const res = await cite(id, 'bibtex');
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: message });
      }
      // Zapata is held by a public and a private library: only the public one is named.
      const zapata = await cite(entryId(t.services, 'Zapata and the Land'), 'csl-json');
      expect(zapata.json()[0].archive).toBe('Biblioteca Uno');
    });

    it('cites one copy: the first by default, the one asked for with data_source, never a mix', async () => {
      const id = entryId(t.services, 'Edition Mix');
      const entry = (await t.app.inject(`/collector/api/entry/${id}`)).json();
      const copies = entry.data_sources as { data_source_id: number; library_name: string }[];
      const one = copies.find((d) => d.library_name === 'Biblioteca Uno')!;
      const two = copies.find((d) => d.library_name === 'Archive Two')!;
      const item = async (extra = '') => (await cite(id, `csl-json${extra}`)).json()[0];
      const fields = (i: Record<string, unknown>) => [i.issued, i.publisher, i.ISBN, i.archive, i['call-number']];
      const old = [{ 'date-parts': [[1937]] }, undefined, undefined, 'Biblioteca Uno', 'OLD/1'];
      const reprint = [{ 'date-parts': [[2023]] }, 'Left Bank', '978-1-23-456789-7', 'Archive Two', undefined];
      expect(fields(await item(`&data_source=${one.data_source_id}`))).toEqual(old);
      expect(fields(await item(`&data_source=${two.data_source_id}`))).toEqual(reprint);
      // Without data_source: the first holding the entry page shows.
      expect(fields(await item())).toEqual(copies[0] === one ? old : reprint);
      const bib = (await cite(id, `bibtex&data_source=${one.data_source_id}`)).body;
      expect(bib).toContain('year = {1937}');
      expect(bib).not.toContain('Left Bank');
      // Another entry's copy, or a private library's copy, is the entry route's 404.
      const message = (await t.app.inject('/collector/api/entry/999999')).json().error;
      const other = (await t.app.inject(`/collector/api/entry/${entryId(t.services, HOSTILE)}`)).json().data_sources[0].data_source_id;
      for (const ds of [other, 999999, two.data_source_id + 1000]) {
        const res = await cite(id, `ris&data_source=${ds}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: message });
      }
      expect((await cite(id, 'ris&data_source=abc')).statusCode).toBe(400);
    });

    it('gives readable APA, Chicago and MLA citations of one copy as text', async () => {
      const id = entryId(t.services, 'Edition Mix');
      const copies = (await t.app.inject(`/collector/api/entry/${id}`)).json().data_sources as { data_source_id: number; library_name: string }[];
      const reprint = copies.find((d) => d.library_name === 'Archive Two')!.data_source_id;
      const style = async (format: string) => {
        const res = await cite(id, `${format}&data_source=${reprint}`);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(res.headers['content-disposition']).toMatch(/^inline; /);
        return res.body;
      };
      const url = `${BASE}/entry/${id}`;
      expect(await style('apa')).toBe(`Author, A. (2023). Edition Mix. Left Bank. ${url}\n`);
      expect(await style('chicago')).toBe(`Author, Anna. Edition Mix. Left Bank, 2023. ${url}.\n`);
      expect(await style('mla')).toBe(`Author, Anna. Edition Mix. Left Bank, 2023, ${url}.\n`);
      // A part of an aggregation: its title quoted, the aggregation's named (Chicago "In", MLA after the title).
      const part = entryId(t.services, 'Second Essay');
      expect((await cite(part, 'chicago')).body).toBe(`de Cleyre, Voltairine. “Second Essay.” In Anthology of Essays. 1911. ${BASE}/entry/${part}.\n`);
      expect((await cite(part, 'mla')).body).toBe(`de Cleyre, Voltairine. “Second Essay.” Anthology of Essays, 1911, ${BASE}/entry/${part}.\n`);
    });

    it('refuses unknown formats and bad ids with a JSON 400', async () => {
      for (const url of ['/collector/api/entry/1/cite?format=endnote', '/collector/api/entry/1/cite', '/collector/api/entry/abc/cite?format=ris']) {
        const res = await t.app.inject(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toEqual({ error: expect.any(String) });
      }
      expect((await t.app.inject('/collector/api/entry/1/cite?format=endnote')).json().error).toContain('bibtex, ris, csl-json, apa, chicago, mla');
    });
  });

  describe('BibTeX pieces', () => {
    it('escapes every TeX special character once', () => {
      expect(texEscape('\\{}&%$#_~^<>')).toBe('\\textbackslash{}\\{\\}\\&\\%\\$\\#\\_\\textasciitilde{}\\textasciicircum{}\\textless{}\\textgreater{}');
      expect(texEscape('Ἀναρχία ÆØÅ 無政府')).toBe('Ἀναρχία ÆØÅ 無政府');
      expect(texEscape('two\nlines\ttab')).toBe('two lines tab');
    });

    it('splits person names and keeps names with "and" whole', () => {
      expect(cslName('Errico Malatesta')).toEqual({ family: 'Malatesta', given: 'Errico' });
      expect(cslName('Kropotkin, Peter')).toEqual({ family: 'Kropotkin', given: 'Peter' });
      expect(cslName('Freedom and Bread Collective')).toEqual({ literal: 'Freedom and Bread Collective' });
      expect(cslName('Smith & Sons')).toEqual({ literal: 'Smith & Sons' });
      expect(cslName('Comité 1905')).toEqual({ literal: 'Comité 1905' });
    });
  });
});
