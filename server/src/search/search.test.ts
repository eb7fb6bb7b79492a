import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchResponseSchema, type SearchResponse } from '@uc/shared';
import { entryId, fixtureLines, testApp, type TestApp } from '../test/fixture.ts';
import { APP_BACKENDS } from '../test/backends.ts';

describe.each(APP_BACKENDS)('search routes on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(undefined, {}, dialect);
  });
  afterAll(async () => t?.close());

  async function search(qs: string): Promise<SearchResponse> {
    const res = await t.app.inject(`/collector/api/search?${qs}`);
    expect(res.statusCode, res.body).toBe(200);
    return searchResponseSchema.parse(res.json());
  }
  const titles = (r: SearchResponse) => r.matches.map((m) => m.title[0].value);
  const facet = (r: SearchResponse, name: keyof SearchResponse['facets']) =>
    Object.fromEntries(r.facets[name].values.map((v) => [v.term, v.count]));

  describe('GET /search', () => {
    it('lists every visible entry, newest acquisition first, with the spec shape', async () => {
      const r = await search('page_size=100');
      // 12 file entries: one grouped into another, one private, one in an inactive library.
      expect(r.total_entries).toBe(9);
      expect(titles(r)).not.toContain('Secret Private Work');
      expect(titles(r)).not.toContain('Inactive Library Work');
      expect(r.sort_by).toBe('datestamp');
      expect(r.can_merge).toBe(false);
      expect(r.can_set_exclusions).toBe(false);
      expect(r.pager).toEqual([]);
      expect(Object.keys(r.facets)).toEqual(['language', 'creator', 'library', 'date', 'download', 'aggregate']);
    });

    it('hides private libraries from the data sources and the library facet', async () => {
      const r = await search('query=zapata');
      expect(r.matches[0].data_sources.map((d) => d.library_name)).toEqual(['Biblioteca Uno']);
      expect(Object.keys(facet(r, 'library'))).toEqual(['Biblioteca Uno']);
    });

    it('groups records with the same normalised title, authors and languages into one entry', async () => {
      const r = await search('query=%22mutual+aid%22');
      expect(r.total_entries).toBe(1);
      expect(r.matches[0].data_sources).toHaveLength(2);
    });

    it('folds case and diacritics both ways', async () => {
      expect(titles(await search('query=liberta'))).toEqual(['La libertà e il lavoro']);
      expect(titles(await search('query=LIBERTÀ'))).toEqual(['La libertà e il lavoro']);
      expect(titles(await search('query=entraide'))).toEqual(["L'Entraide"]);
    });

    it('supports the query language', async () => {
      expect(titles(await search('query=author:kropotkin&sort_by=title_asc'))).toEqual(['Fields, Factories and Workshops', "L'Entraide", 'Mutual Aid']);
      expect(titles(await search('query=kropotkin NOT aid&sort_by=title_asc'))).toEqual(['Fields, Factories and Workshops', "L'Entraide"]);
      expect(titles(await search('query=kropotkin -aid -entraide'))).toEqual(['Fields, Factories and Workshops']);
      expect(titles(await search('query=goldman OR cleyre&sort_by=title_asc'))).toEqual(['First Essay', 'Second Essay']);
      expect(titles(await search('query=title:essay*&sort_by=title_asc'))).toEqual(['Anthology of Essays', 'First Essay', 'Second Essay']);
      expect(titles(await search('query=title:kropotkin'))).toEqual([]);
      expect(titles(await search('query=(goldman OR cleyre) second'))).toEqual(['Second Essay']);
      expect(titles(await search('query=evolution'))).toEqual(['Mutual Aid']); // description
      expect(titles(await search('query=footnote'))).toEqual(['A Small Guide']); // full text
    });

    it('supports filter prefixes inside the query and shows their names in pretty_query', async () => {
      const r = await search('query=library:2 kropotkin&sort_by=title_asc');
      expect(titles(r)).toEqual(['Fields, Factories and Workshops', "L'Entraide", 'Mutual Aid']);
      expect(r.pretty_query).toBe('Archive Two (library:2) kropotkin');
      const agent = t.services.db.sqlite.prepare("SELECT id FROM agents WHERE name = 'Emma Goldman'").pluck().get();
      const c = await search(`query=creator:${agent}`);
      expect(titles(c)).toEqual(['First Essay']);
      expect(c.pretty_query).toBe(`Emma Goldman (creator:${agent})`);
      expect(titles(await search('query=language:fr'))).toEqual(["L'Entraide"]);
      expect(titles(await search('query=date:1899'))).toEqual(['Fields, Factories and Workshops']);
      expect(titles(await search('query=translate:translation'))).toEqual(["L'Entraide"]);
      expect(titles(await search('query=translate:translated'))).toEqual(['Mutual Aid']);
      expect(titles(await search(`query=aggregate:${entryId(t.services, 'Anthology of Essays')}&sort_by=title_asc`))).toEqual(['First Essay', 'Second Essay']);
      expect(titles(await search('query=aggregate:aggregation'))).toEqual(['Anthology of Essays']);
    });

    it('counts each facet over the other active filters, and ORs values within a facet', async () => {
      const all = await search('');
      expect(facet(all, 'language')).toEqual({ English: 6, Italian: 1, French: 1, Spanish: 1 });
      const en = await search('filter_language=en');
      expect(en.total_entries).toBe(6);
      // Language counts ignore the language filter itself, so other languages stay selectable...
      expect(facet(en, 'language')).toEqual(facet(all, 'language'));
      expect(en.facets.language.values.find((v) => v.id === 'en')!.active).toBe(true);
      // ...while the other facets count only English entries.
      expect(facet(en, 'library')).toEqual({ 'Biblioteca Uno': 5, 'Archive Two': 2 });
      const two = await search('filter_language=en&filter_language=fr');
      expect(two.total_entries).toBe(7);
      const both = await search('filter_language=en&filter_library=2');
      expect(both.total_entries).toBe(2);
      expect(facet(both, 'language')).toEqual({ English: 2, French: 1, Italian: 1 });
      expect(facet(both, 'library')).toEqual({ 'Biblioteca Uno': 5, 'Archive Two': 2 });
    });

    it('labels download types and keeps unknown active values with a zero count', async () => {
      const r = await search('filter_library=999');
      expect(r.total_entries).toBe(0);
      expect(r.facets.library.values).toContainEqual({ id: '999', key: 'library999', term: '999', count: 0, active: true });
      const all = await search('');
      expect(facet(all, 'download')).toMatchObject({ 'Editable and printable text': 2, 'Raw scan': 1, 'Bibliographical entry only': 6 });
    });

    it('sorts by relevance with a query, by acquisition date without one, and by title both ways', async () => {
      expect((await search('query=kropotkin')).sort_by).toBe('relevance');
      const asc = titles(await search('sort_by=title_asc&page_size=100'));
      expect(asc).toEqual([
        'A Small Guide', 'Anthology of Essays', 'Fields, Factories and Workshops', 'First Essay', "L'Entraide",
        'La libertà e il lavoro', 'Mutual Aid', 'Second Essay', 'Zapata and the Land',
      ]);
      expect(titles(await search('sort_by=title_desc&page_size=100'))).toEqual([...asc].reverse());
      // Title words weigh more than description words.
      const rel = titles(await search('query=aid OR evolution OR mutual'));
      expect(rel[0]).toBe('Mutual Aid');
    });

    it('pages with page_number and page_size', async () => {
      const p1 = await search('sort_by=title_asc&page_size=4');
      const p3 = await search('sort_by=title_asc&page_size=4&page_number=3');
      expect(p1.matches).toHaveLength(4);
      expect(p3.matches).toHaveLength(1);
      expect(p1.pager.map((p) => p.label)).toEqual(['1', '2', '3', 'Next']);
      expect(p3.pager.find((p) => p.current)!.page_id).toBe(3);
    });

    it('answers 400 with a message for an unparsable query or bad parameters', async () => {
      for (const qs of ['query=(foo', 'query=%22open', 'query=library:x', 'page_size=0', 'page_size=101', 'page_number=abc', 'sort_by=random']) {
        const res = await t.app.inject(`/collector/api/search?${qs}`);
        expect(res.statusCode, qs).toBe(400);
        expect(res.json().error, qs).toEqual(expect.any(String));
      }
    });

    it('sees new imports without a restart (incremental index)', async () => {
      const before = (await search('')).total_entries;
      const site = t.services.db.sqlite.prepare('SELECT id FROM sites WHERE library_id = 1').pluck().get() as number;
      const { touched } = t.services.ingest.store([{ siteId: site, identifier: 'new-1', title: 'Brand New Pamphlet', authors: ['New Author'], languages: ['en'] }]);
      t.services.ingest.reindex(touched);
      expect((await search('')).total_entries).toBe(before + 1);
      expect(titles(await search('query=pamphlet'))).toEqual(['Brand New Pamphlet']);
    });
  });

  // Filters naming what the viewer may not see (a private or inactive library, an author whose entries
  // only such libraries hold, an aggregation only they hold) answer exactly as a nonexistent id does.
  describe('GET /search with filters naming hidden things', () => {
    const MISSING = '99999';
    let h: TestApp;
    const cookies: Record<string, string> = {};
    beforeAll(async () => {
      h = await testApp([
        ...fixtureLines(),
        // Held by a public library and by the inactive one: `library:4` must not list it.
        { type: 'entry', id: 20, title: 'Shared With The Closed Library', authors: ['Errico Malatesta'], languages: ['it'], year: 1900,
          data_sources: [{ library_id: 2, identifier: 'b-20' }, { library_id: 4, identifier: 'd-20' }] },
        // An aggregation only the private library holds, with a part a public library holds.
        { type: 'entry', id: 21, title: 'Hidden Anthology', authors: [], languages: ['en'], year: 1900, data_sources: [{ library_id: 3, identifier: 'c-21' }] },
        { type: 'entry', id: 22, title: 'Visible Part', authors: ['Emma Goldman'], languages: ['en'], year: 1900,
          data_sources: [{ library_id: 1, identifier: 'a-22' }], aggregation_id: 21, aggregation_position: 1 },
      ], {}, dialect);
      const password = 'a long enough password';
      await h.services.accounts.createUser({ username: 'member3', email: 'm3@example.org', password, libraryIds: [3] });
      await h.services.accounts.createUser({ username: 'root', email: 'root@example.org', password, is_superuser: true });
      for (const u of ['member3', 'root']) cookies[u] = `sessionid=${((await h.services.accounts.login(u, password)) as { token: string }).token}`;
    });
    afterAll(async () => h?.close());

    const ask = async (qs: string, who?: string) => {
      const res = await h.app.inject({ url: `/collector/api/search?${qs}`, headers: who ? { cookie: cookies[who] } : {} });
      expect(res.statusCode, res.body).toBe(200);
      return searchResponseSchema.parse(res.json());
    };
    /** The answer with the asked id replaced, so answers for two ids can be compared. */
    const normalised = (r: SearchResponse, kind: 'library' | 'creator' | 'aggregate', id: string) => {
      const swap = (s: string) => s.split(`${kind}:${id}`).join(`${kind}:ID`);
      return {
        ...r, querystring: swap(r.querystring), pretty_query: swap(r.pretty_query),
        filters: { ...r.filters, [kind]: r.filters[kind]?.map((v) => (v === id ? 'ID' : v)) },
        facets: { ...r.facets, [kind]: { ...r.facets[kind], values: r.facets[kind].values.map((v) => (v.id === id ? { ...v, id: 'ID', key: `${kind}ID`, term: v.term === id ? 'ID' : v.term } : v)) } },
      };
    };
    const expectLikeMissing = async (kind: 'library' | 'creator' | 'aggregate', id: string, make: (id: string) => string, who?: string) => {
      const hidden = await ask(make(id), who);
      const missing = await ask(make(MISSING), who);
      expect(normalised(hidden, kind, id), make(id)).toEqual(normalised(missing, kind, MISSING));
      return hidden;
    };
    const agent = (name: string) => String(h.services.db.sqlite.prepare('SELECT id FROM agents WHERE name = ?').pluck().get(name));
    const hiddenAnthology = () => String(entryId(h.services, 'Hidden Anthology'));

    it('answers library:<private or inactive> like a nonexistent library (no name, no holdings)', async () => {
      // What the review saw: the name in pretty_query and the entries also held by a public library.
      for (const lib of ['3', '4']) {
        const r = await ask(`query=library:${lib}`);
        expect([r.pretty_query, r.total_entries, r.matches]).toEqual([`library:${lib}`, 0, []]);
        expect((await ask(`query=shared -library:${lib}`)).total_entries).toBe(1);
      }
      for (const lib of ['3', '4']) {
        for (const make of [(id: string) => `query=library:${id}`, (id: string) => `query=library:${id} zapata`, (id: string) => `query=shared -library:${id}`,
          (id: string) => `query=library:${id} OR mutual&sort_by=title_asc`, (id: string) => `filter_library=${id}`, (id: string) => `filter_library=${id}&filter_library=2`]) {
          expect(JSON.stringify(await expectLikeMissing('library', lib, make))).not.toMatch(/Private Three|Closed Four/);
        }
      }
    });

    it('answers creator:<author only hidden libraries hold> like a nonexistent author', async () => {
      const hiddenAuthor = agent('Hidden Author');
      for (const make of [(id: string) => `query=creator:${id}`, (id: string) => `filter_creator=${id}`, (id: string) => `query=creator:${id} OR essay`]) {
        const r = await expectLikeMissing('creator', hiddenAuthor, make);
        expect(JSON.stringify(r)).not.toMatch(/Hidden Author|Secret Private|Inactive Library/);
      }
    });

    it('answers aggregate:<aggregation only hidden libraries hold> like a nonexistent one', async () => {
      for (const make of [(id: string) => `query=aggregate:${id}`, (id: string) => `filter_aggregate=${id}`]) {
        const r = await expectLikeMissing('aggregate', hiddenAnthology(), make);
        expect(JSON.stringify(r)).not.toMatch(/Hidden Anthology|Visible Part/);
      }
      // Nor is it listed in the facet of a search finding its visible part.
      const part = await ask('query=visible');
      expect(titles(part)).toEqual(['Visible Part']);
      // It counts as part of no aggregation, as an entry without one does (no value missing tells of the hidden one).
      expect(part.facets.aggregate.values.map((v) => [v.id, v.count])).toEqual([['no_aggregations', 1]]);
      expect((await ask('query=visible', 'member3')).facets.aggregate.values).toEqual([{ id: hiddenAnthology(), key: `aggregate${hiddenAnthology()}`, term: 'Hidden Anthology', count: 1, active: false }]);
    });

    it('still names and lists them for those who may see them (the visibility rule)', async () => {
      const priv = await ask('query=library:3&sort_by=title_asc', 'member3');
      expect(priv.pretty_query).toBe('Private Three (library:3)');
      expect(titles(priv)).toEqual(['Hidden Anthology', 'Secret Private Work', 'Zapata and the Land']);
      const root = await ask('filter_library=3&sort_by=title_asc', 'root');
      expect(titles(root)).toEqual(['Hidden Anthology', 'Secret Private Work', 'Zapata and the Land']);
      expect(root.facets.library.values).toContainEqual({ id: '3', key: 'library3', term: 'Private Three', count: 3, active: true });
      const c = await ask(`query=creator:${agent('Hidden Author')}`, 'member3');
      expect(c.pretty_query).toBe(`Hidden Author (creator:${agent('Hidden Author')})`);
      expect(titles(c)).toEqual(['Secret Private Work']);
      const a = await ask(`filter_aggregate=${hiddenAnthology()}`, 'root');
      expect(titles(a)).toEqual(['Visible Part']);
      expect(a.facets.aggregate.values).toContainEqual({ id: hiddenAnthology(), key: `aggregate${hiddenAnthology()}`, term: 'Hidden Anthology', count: 1, active: true });
      // Inactive libraries are hidden from everyone, superusers included.
      await expectLikeMissing('library', '4', (id) => `query=library:${id}`, 'root');
      await expectLikeMissing('library', '4', (id) => `filter_library=${id}`, 'member3');
    });

    it('keeps public libraries and authors as they were', async () => {
      const r = await ask('query=library:2 shared');
      expect(r.pretty_query).toBe('Archive Two (library:2) shared');
      expect(titles(r)).toEqual(['Shared With The Closed Library']);
      expect(r.matches[0].data_sources.map((d) => d.library_name)).toEqual(['Archive Two']);
      expect((await ask(`query=creator:${agent('Emma Goldman')}`)).pretty_query).toBe(`Emma Goldman (creator:${agent('Emma Goldman')})`);
    });
  });

  describe('relevance past the exact-ranking limit', () => {
    const ids = (r: SearchResponse) => r.matches.map((m) => m.entry_id);
    afterAll(() => {
      t.services.search.exactRankLimit = 20_000;
    });

    it('puts the matches in titles and authors first, newest first in each tier, and ranks them exactly when they are few', async () => {
      const q = 'essay OR footnote'; // the texts' word is in the newest entry: it must still come after
      const strong = ids(await search(`query=${encodeURIComponent('title:essay OR author:essay OR title:footnote OR author:footnote')}&sort_by=datestamp&page_size=100`));
      const all = ids(await search(`query=${encodeURIComponent(q)}&sort_by=datestamp&page_size=100`));
      const weak = all.filter((id) => !strong.includes(id));
      expect(strong.length, 'the fixture has title/author matches').toBeGreaterThan(1);
      expect(weak.length, 'and matches found only in descriptions or texts').toBeGreaterThan(0);
      const exact = ids(await search(`query=${encodeURIComponent(q)}&page_size=100`));

      // Too many for bm25, and too many title/author matches as well: two tiers, each newest first.
      t.services.search.exactRankLimit = 1;
      expect(ids(await search(`query=${encodeURIComponent(q)}&page_size=100`))).toEqual([...strong, ...weak]);
      // Few enough title/author matches: those ranked by bm25 (as without the limit), the rest newest first.
      t.services.search.exactRankLimit = strong.length;
      const tiered = ids(await search(`query=${encodeURIComponent(q)}&page_size=100`));
      expect(tiered.slice(strong.length)).toEqual(weak);
      expect(new Set(tiered.slice(0, strong.length))).toEqual(new Set(strong));
      expect(tiered.slice(0, strong.length)).toEqual(exact.filter((id) => strong.includes(id)));
    });
  });

  describe('the whole catalogue, counted once per index change and viewer scope', () => {
    it('gives each viewer their own listing, and follows a change of the index', async () => {
      const { ANONYMOUS } = await import('../http/viewer.ts');
      const list = (viewer: typeof ANONYMOUS) => t.services.search.search({ query: '', filters: {}, page: 1, pageSize: 100 }, viewer);
      const privateLibrary = t.services.db.sqlite.prepare("SELECT id FROM libraries WHERE name = 'Private Three'").pluck().get() as number;
      const member = { ...ANONYMOUS, userId: 999, username: 'member', libraryIds: [privateLibrary] };
      const anonymous = list(ANONYMOUS);
      expect(anonymous.total_entries).toBe((await search('page_size=100')).total_entries);
      expect(list(member).total_entries, 'a member also sees the private library').toBe(anonymous.total_entries + 1);
      expect(list(member).facets.library.values.map((v) => v.term)).toContain('Private Three');
      expect(list(ANONYMOUS).facets.library.values.map((v) => v.term)).not.toContain('Private Three');
      expect(list(ANONYMOUS)).toEqual(anonymous);

      // A change reaches the index (Zapata's language): the next listing counts the new value.
      const zapata = entryId(t.services, 'Zapata and the Land');
      const setLanguage = (from: string, to: string) => {
        t.services.db.sqlite.prepare('UPDATE entry_languages SET language_code = ? WHERE entry_id = ? AND language_code = ?').run(to, zapata, from);
        t.services.indexer.reindex([zapata]);
      };
      const languages = () => Object.fromEntries(list(ANONYMOUS).facets.language.values.map((v) => [v.id, v.count]));
      expect(languages().es).toBe(1);
      setLanguage('es', 'it');
      try {
        expect(languages().es).toBeUndefined();
        expect(languages().it).toBe((anonymous.facets.language.values.find((v) => v.id === 'it')?.count ?? 0) + 1);
      } finally {
        setLanguage('it', 'es');
      }
      expect(languages().es).toBe(1);
    });

    it('follows another process\'s changes between requests, without waiting for a search', async () => {
      const { createServices } = await import('../app.ts');
      const { loadConfig } = await import('../config.ts');
      const path = await import('node:path');
      const other = await createServices({ ...loadConfig({}), dataDir: path.join(t.dir, 'data') }, t.target);
      try {
        const zapata = entryId(other, 'Zapata and the Land');
        other.db.sqlite.prepare("UPDATE entry_languages SET language_code = 'it' WHERE entry_id = ? AND language_code = 'es'").run(zapata);
        other.indexer.reindex([zapata]);
        const latest = other.db.sqlite.prepare('SELECT max(seq) FROM search_docs').pluck().get() as number;
        expect(t.services.search.indexedSeq).toBeLessThan(latest);
        const deadline = Date.now() + 3000;
        while (t.services.search.indexedSeq < latest && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(t.services.search.indexedSeq, 'caught up in the background').toBe(latest);
        expect(Object.keys(facet(await search('query=zapata'), 'language'))).toEqual(['Italian']);
      } finally {
        const zapata = entryId(other, 'Zapata and the Land');
        other.db.sqlite.prepare("UPDATE entry_languages SET language_code = 'es' WHERE entry_id = ? AND language_code = 'it'").run(zapata);
        other.indexer.reindex([zapata]);
        await other.db.close();
      }
    });
  });
});
