// Contract: the reader's calls not covered elsewhere, as the spec's client (the anchor's front end)
// reads them, written down from its source:
// - the entry page (GET /entry/{id}) prints `title` and `subtitle` as text, links each of `authors`
//   ({id, value}) to /library/author/{id}, shows `languages` ({id, value}) and builds "Other languages"
//   from `original_entry.languages` and `translations[i].languages` (ids); each of `data_sources` is a
//   box reading library_id, library_name, title, subtitle, authors (strings), year_edition, languages
//   (strings), the labelled fields, uri/uri_label, identifier and `downloads` ({code, ext, desc}, `ext`
//   with its dot): a download link is /collector/api/download/{data_source_id}{ext}; the Book Builder
//   button needs both a `.muse` and a `.zip` download, the PDF reader a `.pdf` one; report_error shows
//   the report button;
// - the library overview (GET /libraries) lists `libraries` by id, name and library_type and filters
//   on every string field;
// - the author overview (GET /agents?search=) lists `agents` (id, name, canonical) and reads can_merge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MUSE_TEXT, testApp, type TestApp } from '../fixture.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url: `/collector/api${url}` });
const entryIdOf = async (query: string) => (await get(`/search?query=${encodeURIComponent(query)}`)).json().matches[0].entry_id as number;

describe('GET /entry/{id} (the entry page and its data source boxes)', () => {
  it('answers title and subtitle as text, authors and languages as {id, value}, and the other languages', async () => {
    const res = await get(`/entry/${await entryIdOf('Entraide')}`);
    expect(res.statusCode).toBe(200);
    const e = res.json();
    expect(e).toMatchObject({ id: expect.any(Number), title: "L'Entraide", subtitle: null });
    expect(e.authors).toEqual([{ id: expect.any(Number), value: 'Peter Kropotkin' }]);
    expect(e.languages).toEqual([{ id: 'fr', value: expect.any(String) }]);
    // "Other languages": the original's language ids.
    expect(e.original_entry).toEqual({ id: expect.any(Number), languages: [{ id: 'en', value: expect.any(String) }] });
    const original = (await get(`/entry/${e.original_entry.id}`)).json();
    expect(original.translations).toEqual([{ id: e.id, languages: [{ id: 'fr', value: expect.any(String) }] }]);
  });

  it('gives each data source box its fields, downloads with their extension, and the Book Builder pair', async () => {
    const e = (await get(`/entry/${await entryIdOf('Small Guide')}`)).json();
    const ds = e.data_sources[0];
    expect(ds).toMatchObject({
      data_source_id: expect.any(Number), library_id: 1, library_name: 'Biblioteca Uno', title: 'A Small Guide',
      authors: ['Test Writer'], languages: ['en'], identifier: 'a-11', report_error: expect.any(Boolean), public: true,
    });
    for (const d of ds.downloads) expect(d).toEqual({ code: expect.any(String), ext: expect.stringMatching(/^\.[a-z0-9]+$/), desc: expect.any(String) });
    const exts = ds.downloads.map((d: { ext: string }) => d.ext);
    // The client offers the Book Builder for a .muse with a .zip, and its PDF reader for a .pdf.
    expect(exts).toEqual(expect.arrayContaining(['.muse', '.zip', '.pdf']));
    // Each download link the client builds answers the file.
    const muse = await get(`/download/${ds.data_source_id}.muse`);
    expect(muse.statusCode).toBe(200);
    expect(muse.body).toContain(MUSE_TEXT.split('\n')[0]);
    const pdf = await get(`/download/${ds.data_source_id}.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.body.startsWith('%PDF-')).toBe(true);
    // And the client's "Add to the Book Builder" posts that data source id.
    const added = await t.app.inject({
      method: 'POST', url: '/collector/api/bookbuilder', payload: { action: 'add', add: ds.data_source_id, session_id: null },
      headers: { cookie: 'csrftoken=test-csrf-token', 'x-csrftoken': 'test-csrf-token' },
    });
    expect(added.json().session_id).toEqual(expect.any(String));
  });
});

describe('GET /libraries (the library overview)', () => {
  it('lists libraries by id, name and type, public and active ones only', async () => {
    const { libraries } = (await get('/libraries')).json() as { libraries: Record<string, unknown>[] };
    expect(libraries.map((l) => l.name).sort()).toEqual(['Archive Two', 'Biblioteca Uno']);
    for (const l of libraries) expect(l).toMatchObject({ id: expect.any(Number), name: expect.any(String), library_type: 'digital' });
  });
});

describe('GET /agents?search= (the author overview)', () => {
  it('answers agents with id, name and canonical, can_merge, and Please search without a term', async () => {
    const found = (await get('/agents?search=kropotkin')).json();
    expect(found).toMatchObject({ can_merge: false, warning: null, matches: 3 });
    expect(found.agents).toEqual([expect.objectContaining({ id: expect.any(Number), name: 'Peter Kropotkin', canonical: null })]);
    const none = (await get('/agents')).json();
    expect(none).toMatchObject({ agents: [], warning: 'Please search' });
  });
});
