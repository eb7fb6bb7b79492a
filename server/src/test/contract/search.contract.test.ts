// Contract: GET /search as the spec's existing client (the anchor's Vue front end) asks for it and reads it.
// The client turns its route query into URLSearchParams: list values repeat the parameter, empty values are
// left out, and it sends `sort_direction` beside `sort_by`. From the answer it reads, per match,
// title[0].value, title[1].value, creator[i].id/value, language[i].id/value, translate[i].id,
// data_sources[i].library_id, entry_id; per facet, name and values with id, key, term, count, active;
// pager items with key, page_id, label, current; total_entries, can_merge, can_set_exclusions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLines, testApp, type TestApp } from '../fixture.ts';

type Query = Record<string, string | number | (string | number)[] | undefined>;

/** The request the anchor client builds from its route query (repeated names for lists, no empty values). */
function anchorRequest(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined && v !== '') params.append(name, String(v));
  }
  const qs = params.toString();
  return `/collector/api/search${qs ? `?${qs}` : ''}`;
}

interface IdValue { id: unknown; value: unknown }
interface AnchorMatch {
  entry_id: number;
  title: IdValue[];
  creator: IdValue[];
  language: IdValue[];
  translate: IdValue[];
  data_sources: { library_id: number }[];
}
interface AnchorFacetValue { id: unknown; key: string; term: string; count: number; active: boolean }
interface AnchorAnswer {
  matches: AnchorMatch[];
  facets: Record<string, { name: string; values: AnchorFacetValue[] }>;
  pager: { key: string; page_id: number; label: unknown; current: boolean }[];
  total_entries: number;
  can_merge: boolean;
  can_set_exclusions: boolean;
  pretty_query: string;
  querystring: string;
}

const SIX = ['Ada One', 'Bo Two', 'Cy Three', 'Di Four', 'Ed Five', 'Flo Six'];
/** Pamphlets enough for three pages of the client's default page size (10). */
const PAMPHLETS = 14;

let t: TestApp;
beforeAll(async () => {
  const lines = fixtureLines().map((l) =>
    (l as { type: string; title?: string }).title === 'Mutual Aid' ? { ...l, subtitle: 'A Factor of Evolution' } : l,
  );
  const entry = (id: number, title: string, authors: string[], year: number) => ({
    type: 'entry', id, title, subtitle: null, authors, languages: ['it'], year, aggregation_id: null, translation_of: null, fulltext: null,
    data_sources: [{ library_id: 1, identifier: `p-${id}`, year_edition: year, publisher: null, isbn: null, description: null, shelf_location_code: null, downloads: [] }],
  });
  for (let i = 0; i < PAMPHLETS; i++) lines.push(entry(100 + i, `Pamphlet ${String(i + 1).padStart(2, '0')}`, ['Pia Pamphleteer'], 1970 + i));
  lines.push(entry(200, 'Written by Six', SIX, 1999));
  t = await testApp(lines);
});
afterAll(async () => t.close());

async function ask(query: Query): Promise<AnchorAnswer> {
  const res = await t.app.inject(anchorRequest(query));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AnchorAnswer;
}
const titleOf = (m: AnchorMatch) => m.title[0].value;

describe('GET /search, as the anchor client asks and reads', () => {
  it('answers a match with title, subtitle, creators, languages and translation ids as lists of {id, value}', async () => {
    const r = await ask({ query: 'kropotkin', sort_by: 'title', sort_direction: 'asc', page_number: 1 });
    expect(r.matches.map(titleOf)).toEqual(['Fields, Factories and Workshops', "L'Entraide", 'Mutual Aid']);
    const aid = r.matches.find((m) => titleOf(m) === 'Mutual Aid')!;
    expect(aid.title).toEqual([
      { id: aid.entry_id, value: 'Mutual Aid' },
      { id: aid.entry_id, value: 'A Factor of Evolution' },
    ]);
    expect(aid.creator).toEqual([{ id: expect.any(Number), value: 'Peter Kropotkin' }]);
    expect(aid.language).toEqual([{ id: 'en', value: expect.any(String) }]);
    // The original is 'translated' (translations of it exist), the French text is a 'translation'.
    expect(aid.translate.map((x) => x.id)).toEqual(['translated']);
    const entraide = r.matches.find((m) => titleOf(m) === "L'Entraide")!;
    expect(entraide.translate.map((x) => x.id)).toEqual(['translation']);
    expect(entraide.language.map((l) => l.id)).toEqual(['fr']);
    // No subtitle: the second title value is there, empty (the client reads title[1].value).
    const fields = r.matches.find((m) => titleOf(m) === 'Fields, Factories and Workshops')!;
    expect(fields.title[1]).toEqual({ id: fields.entry_id, value: '' });
    expect(fields.translate).toEqual([]);
    for (const m of r.matches) {
      expect(m.title).toHaveLength(2);
      expect(m.data_sources.length).toBeGreaterThan(0);
      for (const ds of m.data_sources) expect(typeof ds.library_id).toBe('number');
    }
  });

  it('lists every author of a match in order, each with the id its entries are found by', async () => {
    const r = await ask({ query: 'six' });
    expect(r.matches).toHaveLength(1);
    const m = r.matches[0];
    expect(m.creator.map((c) => c.value)).toEqual(SIX);
    for (const c of m.creator) {
      expect(typeof c.id).toBe('number');
      const own = await ask({ query: `creator:${c.id as number}` });
      expect(own.matches.map((x) => x.entry_id)).toEqual([m.entry_id]);
    }
  });

  it('answers facets by name, values with id, key, term, count and active', async () => {
    const r = await ask({ query: 'kropotkin', sort_by: 'relevance', page_number: 1 });
    expect(Object.keys(r.facets)).toEqual(expect.arrayContaining(['language', 'creator', 'library', 'date', 'download', 'aggregate']));
    for (const [name, facet] of Object.entries(r.facets)) {
      expect(facet.name).toBe(name);
      const keys = facet.values.map((v) => v.key);
      expect(new Set(keys).size, `${name}: keys are unique`).toBe(keys.length);
      for (const v of facet.values) {
        expect(v.key).toBe(`${name}${String(v.id)}`);
        expect(typeof v.term).toBe('string');
        expect(typeof v.count).toBe('number');
        expect(v.active).toBe(false);
      }
    }
    expect(r.facets.language.values.map((v) => [v.id, v.count])).toEqual(expect.arrayContaining([['en', 2], ['fr', 1]]));
    expect(r.facets.creator.values).toEqual([expect.objectContaining({ term: 'Peter Kropotkin', count: 3 })]);
    expect(r.facets.library.values.map((v) => v.term).sort()).toEqual(['Archive Two', 'Biblioteca Uno']);
  });

  it('filters by repeated filter_<facet> values (OR within a facet), marks them active and keeps the other counts', async () => {
    const r = await ask({ query: 'kropotkin', sort_by: 'title', sort_direction: 'asc', page_number: 1, filter_language: ['en', 'fr'] });
    expect(r.total_entries).toBe(3);
    const active = r.facets.language.values.filter((v) => v.active).map((v) => v.id).sort();
    expect(active).toEqual(['en', 'fr']);
    const fr = await ask({ query: 'kropotkin', sort_by: 'title', sort_direction: 'asc', page_number: 1, filter_language: ['fr'] });
    expect(fr.matches.map(titleOf)).toEqual(["L'Entraide"]);
    // The language facet still counts the other languages (so the client can add one).
    expect(fr.facets.language.values.find((v) => v.id === 'en')).toMatchObject({ count: 2, active: false });
    const lib = fr.facets.library.values;
    expect(lib).toEqual([expect.objectContaining({ term: 'Archive Two', count: 1, key: `library${String(lib[0].id)}` })]);
    // A library id from the facet, sent back as the client does, filters by that library.
    const byLibrary = await ask({ filter_library: [String(lib[0].id)], sort_by: 'datestamp', sort_direction: 'desc' });
    expect(byLibrary.facets.library.values.filter((v) => v.active).map((v) => v.term)).toEqual(['Archive Two']);
    for (const m of byLibrary.matches) expect(m.data_sources.map((d) => d.library_id)).toContain(Number(lib[0].id));
  });

  it('pages with the default page size and answers pager items with key, page_id, label and current', async () => {
    const all = { query: 'pamphlet', sort_by: 'title', sort_direction: 'asc' };
    const p1 = await ask({ ...all, page_number: 1 });
    expect(p1.total_entries).toBe(PAMPHLETS);
    expect(p1.matches).toHaveLength(10);
    expect(p1.matches[0].title[0].value).toBe('Pamphlet 01');
    expect(p1.pager).toEqual([
      { key: 'p-link-1', page_id: 1, label: '1', current: true },
      { key: 'p-link-2', page_id: 2, label: '2', current: false },
      { key: 'p-next-2', page_id: 2, label: 'Next', current: false },
    ]);
    const p2 = await ask({ ...all, page_number: 2 });
    expect(p2.matches.map(titleOf)).toEqual(['Pamphlet 11', 'Pamphlet 12', 'Pamphlet 13', 'Pamphlet 14']);
    expect(p2.pager.map((p) => [p.key, p.page_id, p.current])).toEqual([
      ['p-previous-1', 1, false],
      ['p-link-1', 1, false],
      ['p-link-2', 2, true],
    ]);
    // Every item leads somewhere the client can ask for, and the keys are unique (its v-for key).
    expect(new Set(p2.pager.map((p) => p.key)).size).toBe(p2.pager.length);
    // One page: no pager at all (the client shows none).
    expect((await ask({ query: 'entraide' })).pager).toEqual([]);
  });

  it('sorts by title both ways through sort_by=title and sort_direction, and by acquisition date', async () => {
    const asc = await ask({ query: 'pamphlet', sort_by: 'title', sort_direction: 'asc', page_number: 1 });
    const desc = await ask({ query: 'pamphlet', sort_by: 'title', sort_direction: 'desc', page_number: 1 });
    expect(asc.matches.map(titleOf).slice(0, 2)).toEqual(['Pamphlet 01', 'Pamphlet 02']);
    expect(desc.matches.map(titleOf).slice(0, 2)).toEqual(['Pamphlet 14', 'Pamphlet 13']);
    // Our own names for the same sorts give the same answer.
    expect((await ask({ query: 'pamphlet', sort_by: 'title_desc' })).matches).toEqual(desc.matches);
    const newest = await ask({ sort_by: 'datestamp', sort_direction: 'desc', page_number: 1 });
    expect(newest.total_entries).toBeGreaterThan(PAMPHLETS);
    expect(newest.matches).toHaveLength(10);
  });

  it('answers the flags and the query echo the client reads', async () => {
    const r = await ask({ query: 'kropotkin' });
    expect(r).toMatchObject({ can_merge: false, can_set_exclusions: false, querystring: 'kropotkin', pretty_query: 'kropotkin' });
    expect(r.total_entries).toBe(3);
  });

  it('refuses a sort it does not know with a 4xx JSON error', async () => {
    const res = await t.app.inject(anchorRequest({ query: 'kropotkin', sort_by: 'colour' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String) });
  });
});
