// Issue 27, item 7, the relation flags: a search's `translate` and `aggregate` values (the match's
// `translate` list, filter_translate, filter_aggregate and the aggregate facet) and the entry page count
// only the related entries the viewer may see. A public entry was "translated" because a private
// library's copy translates it, "an aggregation" of parts only a private library holds, and not
// "no_aggregations" when its only aggregation was private: each told what a private library holds.
// Replayed over HTTP through the full app, with a translation set through the curation API by a
// curator of the private library, and with the library's flags changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADERS, entryId, fixtureLines, testApp, type TestApp } from '../test/fixture.ts';
import { loginCookie, TEST_PASSWORD } from '../libraryadmin/test-helpers.ts';
import { BACKENDS } from '../test/backends.ts';

const ds = (library_id: number, identifier: string) => ({ library_id, identifier, year_edition: 1900, downloads: [] });
const entry = (id: number, title: string, data_sources: object[], extra: object = {}) => ({
  type: 'entry', id, title, subtitle: null, authors: ['Some Writer'], languages: ['en'], year: 1900, aggregation_id: null, translation_of: null, data_sources, fulltext: null, ...extra,
});
// Library 3 of the fixture is private.
const lines = () => [
  ...fixtureLines(),
  entry(30, 'Hidden Translation', [ds(3, 'c-30')]),
  entry(31, 'Hidden Original', [ds(3, 'c-31')]),
  entry(32, 'Public Translation', [ds(1, 'a-32')], { translation_of: 31 }),
  entry(33, 'Public Bundle', [ds(1, 'a-33')]),
  entry(34, 'Hidden Part One', [ds(3, 'c-34')], { aggregation_id: 33, aggregation_position: 1 }),
  entry(35, 'Hidden Part Two', [ds(3, 'c-35')], { aggregation_id: 33, aggregation_position: 2 }),
  entry(36, 'Hidden Bundle', [ds(3, 'c-36')]),
  entry(37, 'Public Part', [ds(1, 'a-37')], { aggregation_id: 36, aggregation_position: 1 }),
];

interface Answer {
  total_entries: number;
  matches: { entry_id: number; translate: { id: string }[] }[];
  facets: { aggregate: { values: { id: string; count: number }[] } };
}

describe.each(BACKENDS)('translation and aggregation flags count only what the viewer may see (%s)', (dialect) => {
  let t: TestApp;
  const cookie: Record<string, string> = {};
  const id: Record<string, number> = {};
  type Who = 'anonymous' | 'outsider' | 'insider' | 'root';

  beforeAll(async () => {
    t = await testApp(lines(), {}, dialect);
    const a = t.services.accounts;
    await a.createUser({ username: 'outsider', email: 'out@example.org', password: TEST_PASSWORD, libraryIds: [1] });
    await a.createUser({ username: 'insider', email: 'in@example.org', password: TEST_PASSWORD, can_merge: true, libraryIds: [3] });
    await a.createUser({ username: 'root', email: 'root@example.org', password: TEST_PASSWORD, is_superuser: true });
    for (const u of ['outsider', 'insider', 'root']) cookie[u] = await loginCookie(t, u);
    for (const [k, title] of Object.entries({
      fields: 'Fields, Factories and Workshops', hiddenTranslation: 'Hidden Translation', hiddenOriginal: 'Hidden Original',
      publicTranslation: 'Public Translation', bundle: 'Public Bundle', hiddenBundle: 'Hidden Bundle', part: 'Public Part',
      mutualAid: 'Mutual Aid',
    })) id[k] = entryId(t.services, title);
    // A curator of the private library makes its private-only entry a translation of a public one.
    const res = await t.app.inject({
      method: 'POST', url: '/collector/api/set-translations',
      headers: { ...CSRF_HEADERS, 'content-type': 'application/json', cookie: cookie.insider },
      payload: [{ id: id.fields }, { id: id.hiddenTranslation }],
    });
    expect(res.statusCode, res.body).toBe(200);
  }, 60_000);
  afterAll(async () => t?.close());

  const search = async (params: string, who: Who): Promise<Answer> => {
    const res = await t.app.inject({ url: `/collector/api/search?page_size=100&${params}`, headers: who === 'anonymous' ? {} : { cookie: cookie[who] } });
    expect(res.statusCode, res.body).toBe(200);
    return JSON.parse(res.body) as Answer;
  };
  const flags = async (entry: number, who: Who) => {
    const title = (await t.app.inject({ url: `/collector/api/entry/${entry}` })).json() as { title: string };
    const answer = await search(`query=${encodeURIComponent(`"${title.title}"`)}`, who);
    const m = answer.matches.find((x) => x.entry_id === entry);
    expect(m, `entry ${entry} found by ${who}`).toBeDefined();
    return m!.translate.map((x) => x.id).sort();
  };
  const found = async (filter: string, who: Who) => (await search(filter, who)).matches.map((m) => m.entry_id);
  const page = async (entry: number, who: Who) => {
    const res = await t.app.inject({ url: `/collector/api/entry/${entry}`, headers: who === 'anonymous' ? {} : { cookie: cookie[who] } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { translations: { id: number }[]; original_entry: { id: number } | null; aggregations: { id: number }[]; aggregated: { id: number }[]; data_sources: { aggregated: boolean }[] };
  };

  it('a public entry translated only by a private copy is no "translated" entry for those who may not see it', async () => {
    for (const who of ['anonymous', 'outsider'] as const) {
      expect(await flags(id.fields, who), who).toEqual([]);
      expect(await found('filter_translate=translated', who), who).not.toContain(id.fields);
      expect(await found('filter_translate=unknown', who), who).toContain(id.fields);
      expect(await found('query=translate:translated', who), who).not.toContain(id.fields);
      expect((await page(id.fields, who)).translations, who).toEqual([]);
      // A public translation of a public original keeps its flags.
      expect(await flags(id.mutualAid, who), who).toEqual(['translated']);
    }
    for (const who of ['insider', 'root'] as const) {
      expect(await flags(id.fields, who), who).toEqual(['translated']);
      expect(await found('filter_translate=translated', who), who).toContain(id.fields);
      expect(await found('filter_translate=unknown', who), who).not.toContain(id.fields);
      expect((await page(id.fields, who)).translations.map((x) => x.id), who).toEqual([id.hiddenTranslation]);
    }
  });

  it('a public translation of a private-only original is no "translation" for those who may not see it', async () => {
    for (const who of ['anonymous', 'outsider'] as const) {
      expect(await flags(id.publicTranslation, who), who).toEqual([]);
      expect(await found('filter_translate=translation', who), who).not.toContain(id.publicTranslation);
      expect((await page(id.publicTranslation, who)).original_entry, who).toBeNull();
    }
    for (const who of ['insider', 'root'] as const) {
      expect(await flags(id.publicTranslation, who), who).toEqual(['translation']);
      expect(await found('filter_translate=translation', who), who).toContain(id.publicTranslation);
    }
  });

  it('an aggregation of private parts only, and a part of a private aggregation only, show as such only to those who may see them', async () => {
    for (const who of ['anonymous', 'outsider'] as const) {
      const aggregations = await found('filter_aggregate=aggregation', who);
      expect(aggregations, who).not.toContain(id.bundle);
      expect(aggregations, who).toContain(entryId(t.services, 'Anthology of Essays')); // public parts: still one
      const alone = await found('filter_aggregate=no_aggregations', who);
      expect(alone, who).toContain(id.part);
      expect(await found(`filter_aggregate=${id.hiddenBundle}`, who), who).toEqual([]);
      const facet = (await search('query=Public', who)).facets.aggregate.values;
      expect(facet.find((v) => v.id === 'aggregation'), who).toBeUndefined();
      expect(facet.find((v) => v.id === String(id.hiddenBundle)), who).toBeUndefined();
      expect(facet.find((v) => v.id === 'no_aggregations')?.count, who).toBe(3);
      const bundle = await page(id.bundle, who);
      expect(bundle.aggregated, who).toEqual([]);
      expect(bundle.data_sources.map((d) => d.aggregated), who).toEqual([false]);
      expect((await page(id.part, who)).aggregations, who).toEqual([]);
    }
    for (const who of ['insider', 'root'] as const) {
      expect(await found('filter_aggregate=aggregation', who), who).toContain(id.bundle);
      expect(await found('filter_aggregate=no_aggregations', who), who).not.toContain(id.part);
      expect(await found(`filter_aggregate=${id.hiddenBundle}`, who), who).toEqual([id.part]);
      const facet = (await search('query=Public', who)).facets.aggregate.values;
      expect(facet.find((v) => v.id === 'aggregation')?.count, who).toBe(1);
      expect((await page(id.bundle, who)).data_sources.map((d) => d.aggregated), who).toEqual([true]);
    }
  });

  it('the flags follow the library\'s flags: made public, anyone sees them; private again, they are hidden again', async () => {
    const s = t.services.db.sqlite;
    s.prepare('UPDATE libraries SET public = 1 WHERE id = 3').run();
    t.services.libraries.invalidate();
    expect(await flags(id.fields, 'anonymous')).toEqual(['translated']);
    expect(await found('filter_aggregate=aggregation', 'anonymous')).toContain(id.bundle);
    expect(await found('filter_aggregate=no_aggregations', 'anonymous')).not.toContain(id.part);
    s.prepare('UPDATE libraries SET public = 0 WHERE id = 3').run();
    t.services.libraries.invalidate();
    expect(await flags(id.fields, 'anonymous')).toEqual([]);
    expect(await found('filter_aggregate=aggregation', 'anonymous')).not.toContain(id.bundle);
    expect(await found('filter_aggregate=no_aggregations', 'anonymous')).toContain(id.part);
    // Deactivated: hidden from its own members too.
    s.prepare('UPDATE libraries SET active = 0 WHERE id = 3').run();
    t.services.libraries.invalidate();
    expect(await flags(id.fields, 'insider')).toEqual([]);
    s.prepare('UPDATE libraries SET active = 1 WHERE id = 3').run();
    t.services.libraries.invalidate();
    expect(await flags(id.fields, 'insider')).toEqual(['translated']);
  });
});
