import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { librariesResponseSchema, libraryResponseSchema, searchResponseSchema } from '@uc/shared';
import fs from 'node:fs';
import path from 'node:path';
import { fixtureLines, testApp, writeFixture, type TestApp } from '../test/fixture.ts';
import { importJsonl } from '../ingest/jsonl.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp([
    ...fixtureLines(),
    {
      type: 'library', id: 5, name: 'Reading Room Five', library_type: 'physical', public: false, country: 'Croatia', city: 'Zagreb',
      latitude: 45.81, longitude: 15.98, languages: ['hr', 'en'], year_established: '1968', url: 'https://five.example.org',
      email_public: 'desk@five.example.org', email_internal: 'staff@five.example.org', opening_hours: 'Tue-Sat 10-18',
      description: 'A reading room.', short_desc: 'Reading room', pgp_public_key: '-----BEGIN PGP PUBLIC KEY BLOCK-----',
      address_line_1: 'Ulica 1', address_zip: '10000', region: 'Europe',
    },
    { type: 'entry', id: 50, title: 'Only in the reading room', authors: ['Local Author'], languages: ['hr'], year: 1970, data_sources: [{ library_id: 5, identifier: 'e-50' }] },
  ]);
});
afterAll(async () => t.close());

const get = (url: string) => t.app.inject(`/collector/api${url}`);

describe('GET /libraries', () => {
  it('lists active libraries that are public or physical, by name, with every public field', async () => {
    const { libraries } = librariesResponseSchema.parse((await get('/libraries')).json());
    expect(libraries.map((l) => l.name)).toEqual(['Archive Two', 'Biblioteca Uno', 'Reading Room Five']);
    const five = libraries.find((l) => l.id === 5)!;
    expect(five).toEqual({
      id: 5, name: 'Reading Room Five', url: 'https://five.example.org', logo_url: null, library_type: 'physical',
      public: false, active: true, established: '1968', year_established: '1968-01-01', languages: 'hr, en',
      description: 'A reading room.', short_desc: 'Reading room', opening_hours: 'Tue-Sat 10-18', email_public: 'desk@five.example.org',
      address_line_1: 'Ulica 1', address_line_2: null, address_zip: '10000', address_city: 'Zagreb', address_state: null,
      address_country: 'Croatia', pgp_public_key: '-----BEGIN PGP PUBLIC KEY BLOCK-----', latitude: 45.81, longitude: 15.98,
      region: 'Europe', catalog_is_accessible: false, entries_count: null,
    });
    expect(JSON.stringify(libraries)).not.toContain('staff@five.example.org');
  });

  it('counts the visible entries of each accessible library, as a library: search finds them', async () => {
    const { libraries } = librariesResponseSchema.parse((await get('/libraries')).json());
    for (const lib of libraries.filter((l) => l.catalog_is_accessible)) {
      const s = searchResponseSchema.parse((await get(`/search?query=library:${lib.id}`)).json());
      expect(lib.entries_count, lib.name).toBe(s.total_entries);
    }
    expect(Object.fromEntries(libraries.map((l) => [l.id, l.entries_count]))).toEqual({ 1: 7, 2: 4, 5: null });
  });

  it('updates the counts after an import', async () => {
    const dir = path.join(t.dir, 'more');
    fs.mkdirSync(dir);
    await importJsonl(writeFixture(dir, [
      fixtureLines().find((l) => (l as { type: string; id?: number }).type === 'library' && (l as { id: number }).id === 2)!,
      { type: 'entry', id: 60, title: 'A New Arrival', authors: ['Someone New'], languages: ['en'], year: 2001, data_sources: [{ library_id: 2, identifier: 'b-60' }] },
    ]), t.services);
    const { library } = libraryResponseSchema.parse((await get('/libraries/2')).json());
    expect(library!.entries_count).toBe(5);
  });
});

describe('GET /libraries/:id', () => {
  it('returns a listed library, library null for hidden, inactive and unknown ones, 400 for a bad id', async () => {
    expect(libraryResponseSchema.parse((await get('/libraries/5')).json()).library!.catalog_is_accessible).toBe(false);
    expect(libraryResponseSchema.parse((await get('/libraries/1')).json()).library).toMatchObject({ name: 'Biblioteca Uno', catalog_is_accessible: true });
    for (const id of [3, 4, 999]) {
      const res = await get(`/libraries/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ library: null });
    }
    expect((await get('/libraries/abc')).statusCode).toBe(400);
  });
});
