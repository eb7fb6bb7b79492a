import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entrySchema, librariesResponseSchema, pagesResponseSchema } from '@uc/shared';
import { entryId, fixtureLines, testApp, type TestApp } from '../test/fixture.ts';
import { BACKENDS } from '../test/backends.ts';

describe.each(BACKENDS)('catalogue routes on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp([
      ...fixtureLines(),
      { type: 'page', id: 1, title: 'About', summary: 'What this is', content: '<p>Hello <script>alert(1)</script><a href="javascript:x">x</a></p>', language: 'ALL', location: 'footer', published: true },
      { type: 'page', id: 2, title: 'Draft', content: '<p>not yet</p>', location: 'footer', published: false },
    ], {}, dialect);
  });
  afterAll(async () => t.close());

  const get = (url: string) => t.app.inject(`/collector/api${url}`);

  describe('GET /entry/:id', () => {
    it('returns the entry with its data sources, authors and languages', async () => {
      const res = await get(`/entry/${entryId(t.services, 'La libertà e il lavoro')}`);
      expect(res.statusCode).toBe(200);
      const e = entrySchema.parse(res.json());
      expect(e.authors.map((a) => a.value)).toEqual(['Errico Malatesta']);
      expect(e.languages).toEqual([{ id: 'it', value: 'Italian' }]);
      expect(e.data_sources.map((d) => d.library_name).sort()).toEqual(['Archive Two', 'Biblioteca Uno']);
    });

    it('links an original and its translations both ways', async () => {
      const original = entryId(t.services, 'Mutual Aid');
      const translation = entryId(t.services, "L'Entraide");
      const o = entrySchema.parse((await get(`/entry/${original}`)).json());
      expect(o.translations).toEqual([{ id: translation, languages: [{ id: 'fr', value: 'French' }] }]);
      expect(o.original_entry).toBeNull();
      const tr = entrySchema.parse((await get(`/entry/${translation}`)).json());
      expect(tr.original_entry).toEqual({ id: original, languages: [{ id: 'en', value: 'English' }] });
    });

    it('lists the parts of an aggregation in order, and the aggregation of a part', async () => {
      const anthology = entrySchema.parse((await get(`/entry/${entryId(t.services, 'Anthology of Essays')}`)).json());
      expect(anthology.aggregated.map((a) => a.title[0].value)).toEqual(['Second Essay', 'First Essay']);
      expect(anthology.data_sources[0].aggregated).toBe(true);
      const part = entrySchema.parse((await get(`/entry/${entryId(t.services, 'First Essay')}`)).json());
      expect(part.aggregations.map((a) => a.title[0].value)).toEqual(['Anthology of Essays']);
    });

    it('answers a merged entry with the entry it was merged into', async () => {
      const canonical = entryId(t.services, 'Fields, Factories and Workshops');
      const merged = entryId(t.services, 'Zapata and the Land');
      t.services.db.sqlite.prepare('UPDATE entries SET canonical_entry_id = ? WHERE id = ?').run(canonical, merged);
      t.services.indexer.reindex([merged]);
      const e = entrySchema.parse((await get(`/entry/${merged}`)).json());
      expect(e.id).toBe(canonical);
      expect(e.data_sources.map((d) => d.identifier).sort()).toEqual(['a-12', 'b-4']);
      t.services.db.sqlite.prepare('UPDATE entries SET canonical_entry_id = NULL WHERE id = ?').run(merged);
      t.services.indexer.reindex([merged, canonical]);
    });

    it('gives 404 for unknown, private-only and inactive-only entries without leaking them', async () => {
      for (const id of [999999, entryId(t.services, 'Secret Private Work'), entryId(t.services, 'Inactive Library Work')]) {
        const res = await get(`/entry/${id}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'The entry does not exist, it was deleted or it is not public any more' });
      }
    });

    it('rejects malformed ids with 400', async () => {
      for (const id of ['abc', '-1', '0', '1.5', '99999999999999']) expect((await get(`/entry/${id}`)).statusCode, id).toBe(400);
    });

    it('offers full text, PDF and the book builder only where the files exist', async () => {
      const e = entrySchema.parse((await get(`/entry/${entryId(t.services, 'A Small Guide')}`)).json());
      const ds = e.data_sources[0];
      // with the EPUB made from the Muse source (issue 31)
      expect(ds.downloads.map((d) => d.ext).sort()).toEqual(['.epub', '.muse', '.pdf', '.zip']);
      // desc is the English source label; the web app translates it by code.
      expect(ds.downloads.find((d) => d.code === 'zip')).toEqual({ code: 'zip', ext: '.zip', desc: 'Source and images (zip)' });
      expect(ds).toMatchObject({ has_full_text: true, has_pdf: true, can_add_to_bookbuilder: true });
      const plain = entrySchema.parse((await get(`/entry/${entryId(t.services, 'Mutual Aid')}`)).json());
      expect(plain.data_sources[0]).toMatchObject({ has_full_text: false, has_pdf: false, can_add_to_bookbuilder: false, downloads: [] });
    });
  });

  describe('full text, files and downloads', () => {
    const dsId = async () => entrySchema.parse((await get(`/entry/${entryId(t.services, 'A Small Guide')}`)).json()).data_sources[0].data_source_id;

    it('renders the Muse text to HTML with its images served by the API', async () => {
      const id = await dsId();
      const res = await get(`/full-text/${id}`);
      expect(res.statusCode).toBe(200);
      const { html } = res.json() as { html: string };
      expect(html).toContain('First chapter');
      expect(html).toContain(`/collector/api/file/${id}/picture.png`);
      const img = await get(`/file/${id}/picture.png`);
      expect(img.statusCode).toBe(200);
      expect(img.headers['content-type']).toBe('image/png');
      expect((await get(`/file/${id}/..%2Fsecret.png`)).statusCode).toBe(404);
    });

    it('answers 404 for a data source without full text or unknown ids', async () => {
      const plain = entrySchema.parse((await get(`/entry/${entryId(t.services, 'Mutual Aid')}`)).json()).data_sources[0].data_source_id;
      expect((await get(`/full-text/${plain}`)).statusCode).toBe(404);
      expect((await get('/full-text/987654')).statusCode).toBe(404);
    });

    it('downloads stored files, inline on request', async () => {
      const id = await dsId();
      const pdf = await get(`/download/${id}.pdf`);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toBe('attachment; filename="a-small-guide.pdf"');
      expect(pdf.body.startsWith('%PDF')).toBe(true);
      expect((await get(`/download/${id}.pdf?inline=1`)).headers['content-disposition']).toMatch(/^inline/);
      const muse = await get(`/download/${id}.muse`);
      expect(muse.body).toContain('#title A Small Guide');
      // a format neither stored nor made from the text
      expect((await get(`/download/${id}.txt`)).statusCode).toBe(404);
      expect((await get('/download/nonsense')).statusCode).toBe(400);
    });

    it('does not serve files of private libraries', async () => {
      const ds = t.services.db.sqlite.prepare("SELECT id FROM data_sources WHERE identifier = 'c-5'").pluck().get();
      expect((await get(`/full-text/${ds}`)).statusCode).toBe(404);
      expect((await get(`/download/${ds}.pdf`)).statusCode).toBe(404);
    });
  });

  describe('libraries, agents and pages', () => {
    it('lists active visible libraries only', async () => {
      const { libraries } = librariesResponseSchema.parse((await get('/libraries')).json());
      expect(libraries.map((l) => l.name)).toEqual(['Archive Two', 'Biblioteca Uno']);
      expect((await get('/libraries/3')).json()).toEqual({ library: null });
      expect((await get('/libraries/1')).json().library.catalog_is_accessible).toBe(true);
    });

    it('returns an agent', async () => {
      const id = t.services.db.sqlite.prepare("SELECT id FROM agents WHERE name = 'Emma Goldman'").pluck().get();
      expect((await get(`/agents/${id}`)).json().agent).toMatchObject({ name: 'Emma Goldman', canonical: null, search_link_id: id });
      expect((await get('/agents/999999')).statusCode).toBe(404);
    });

    it('serves published pages with sanitised HTML', async () => {
      const list = pagesResponseSchema.parse((await get('/pages/footer/en')).json());
      expect(list.pages).toEqual([{ id: 1, title: 'About', summary: 'What this is' }]);
      const page = (await get('/pages/1')).json().page;
      expect(page.content).toBe('<p>Hello <a>x</a></p>');
      expect((await get('/pages/2')).statusCode).toBe(404);
      expect((await get('/pages/footer/xx')).statusCode).toBe(400);
    });

    it('answers unknown API paths with a JSON 404', async () => {
      const res = await get('/nothing-here');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Not found' });
    });
  });

  describe('OpenAPI', () => {
    it('documents the routes from their schemas', async () => {
      const doc = (await get('/openapi.json')).json() as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toMatch(/^3\./);
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/collector/api/search', '/collector/api/entry/{id}']));
    });
  });
});
