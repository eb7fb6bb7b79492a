// The Atom feed and the OPDS catalogue as a feed reader and an e-book reader see them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryId, fixtureLines, testApp, type TestApp } from '../test/fixture.ts';
import { children, child, childText, parseXml, type XmlElement } from '../harvest/xml.ts';
import { ATOM_NS } from './feeds.ts';
import { OPDS_ACQ, OPDS_NAV } from './opds.ts';
import { BACKENDS } from '../test/backends.ts';

const BASE = 'https://catalogue.example.org';
const HOSTILE = 'Bread & Roses </script><b>bold</b> <![CDATA[x]]>';
const EXTRA_TEXTS = 52;

describe.each(BACKENDS)('feeds and OPDS on %s', (dialect) => {
  let t: TestApp;
  const ds = (library_id: number, identifier: string, extra: object = {}) => ({
    library_id, identifier, year_edition: 1912, publisher: null, isbn: null, description: null, shelf_location_code: null, downloads: [], ...extra,
  });
  const entry = (id: number, title: string, authors: string[], languages: string[], dss: object[]) => ({
    type: 'entry', id, title, subtitle: null, authors, languages, year: 1912, aggregation_id: null, translation_of: null, data_sources: dss, fulltext: null,
  });

  function dsId(identifier: string): number {
    return t.services.db.sqlite.prepare('SELECT id FROM data_sources WHERE identifier = ?').pluck().get(identifier) as number;
  }

  // The records name their formats (`downloads`), as harvested and imported records do; the files follow.
  beforeAll(async () => {
    t = await testApp([
      ...fixtureLines(),
      entry(20, HOSTILE, ['Ann & Bob <x>'], ['en'], [ds(1, 'h-20', { downloads: ['epub', 'txt'], datestamp: '2030-01-02T00:00:00Z', description: 'On <strikes> & wages', isbn: '978-0-00-000000-2' })]),
      entry(21, 'Private Epub', ['Hidden Author'], ['en'], [ds(3, 'p-21', { downloads: ['epub'], datestamp: '2030-01-03T00:00:00Z' })]),
      entry(22, 'Vieux Texte', ['Jean Grave'], ['fr'], [ds(2, 'v-22', { downloads: ['pdf'], datestamp: '2000-01-01T00:00:00Z' })]),
      ...Array.from({ length: EXTRA_TEXTS }, (_, i) =>
        entry(100 + i, `Pamphlet ${i}`, ['Many Hands'], ['en'], [ds(2, `m-${i}`, { downloads: ['txt'], datestamp: `2010-01-01T00:00:${String(i % 60).padStart(2, '0')}Z` })])),
    ], { publicUrl: BASE }, dialect);
    const files = t.services.files;
    files.put(dsId('h-20'), '.epub', Buffer.from('PK epub bytes'));
    files.put(dsId('h-20'), '.txt', Buffer.from('plain text'));
    files.put(dsId('p-21'), '.epub', Buffer.from('PK private'));
    files.put(dsId('v-22'), '.pdf', Buffer.from('%PDF-1.4 old'));
    for (let i = 0; i < EXTRA_TEXTS; i++) files.put(dsId(`m-${i}`), '.txt', Buffer.from(`text ${i}`));
  });
  afterAll(async () => t.close());

  async function xml(url: string): Promise<{ root: XmlElement; body: string; type: string }> {
    const res = await t.app.inject(url);
    expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
    return { root: parseXml(res.body), body: res.body, type: String(res.headers['content-type']) };
  }
  const entries = (feed: XmlElement) => children(feed, 'entry');
  const links = (el: XmlElement) => children(el, 'link').map((l) => l.attrs);
  const titles = (feed: XmlElement) => entries(feed).map((e) => childText(e, 'title'));
  const HIDDEN = ['Secret Private Work', 'Inactive Library Work', 'Private Epub'];

  describe('GET /feed.atom', () => {
    it('is an Atom feed of the 50 latest visible entries, newest first, with absolute links', async () => {
      const { root, type } = await xml('/feed.atom');
      expect(type).toMatch(/^application\/atom\+xml/);
      expect(root.name).toBe('feed');
      expect(root.ns).toBe(ATOM_NS);
      expect(childText(root, 'id')).toBe(`${BASE}/feed.atom`);
      expect(links(root)).toContainEqual(expect.objectContaining({ rel: 'self', href: `${BASE}/feed.atom` }));
      const list = entries(root);
      expect(list).toHaveLength(50);
      expect(titles(root)[0]).toBe(HOSTILE); // 2030, and the private 2030-01-03 one is not there
      for (const hidden of HIDDEN) expect(titles(root)).not.toContain(hidden);
      const updated = list.map((e) => childText(e, 'updated'));
      expect([...updated].sort().reverse()).toEqual(updated);
      for (const e of list) {
        expect(childText(e, 'updated')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
        expect(childText(e, 'id')).toMatch(new RegExp(`^${BASE}/entry/\\d+$`));
        expect(links(e)).toContainEqual({ rel: 'alternate', type: 'text/html', href: childText(e, 'id') });
      }
    });

    it('escapes hostile titles, authors and summaries (they come back intact from a parser)', async () => {
      const { root, body } = await xml('/feed.atom');
      expect(body).not.toContain('</script>');
      expect(body).not.toContain('<b>');
      const first = entries(root)[0];
      expect(childText(first, 'title')).toBe(HOSTILE);
      expect(childText(child(first, 'author'), 'name')).toBe('Ann & Bob <x>');
      expect(childText(first, 'summary')).toBe('On <strikes> & wages');
      expect(childText(first, 'id')).toBe(`${BASE}/entry/${entryId(t.services, HOSTILE)}`);
    });

    it('follows a search: only its matches, per author and per library, never a private library', async () => {
      const words = await xml(`/feed.atom?${new URLSearchParams({ query: 'kropotkin' })}`);
      expect(titles(words.root).sort()).toEqual(['Fields, Factories and Workshops', "L'Entraide", 'Mutual Aid']);
      expect(childText(words.root, 'id')).toBe(`${BASE}/feed.atom?query=kropotkin`);
      expect(links(words.root)).toContainEqual(expect.objectContaining({ rel: 'self', href: `${BASE}/feed.atom?query=kropotkin` }));
      expect(links(words.root)).toContainEqual(expect.objectContaining({ rel: 'alternate', href: `${BASE}/search?query=kropotkin&sort_by=datestamp` }));
      expect(childText(words.root, 'title')).toContain('“kropotkin”');
      const library = await xml('/feed.atom?query=library%3A2');
      expect(titles(library.root)).toHaveLength(50);
      expect(titles(library.root)).not.toContain(HOSTILE); // held by library 1 only
      // The same entries, in the same order, as the search newest first.
      const search = (await t.app.inject('/collector/api/search?query=library%3A2&sort_by=datestamp&page_size=50')).json();
      expect(titles(library.root)).toEqual(search.matches.map((m: { title: { value: string }[] }) => m.title[0].value));
      // A private library's feed is as empty as an unknown one's.
      expect(entries((await xml('/feed.atom?query=library%3A3')).root)).toEqual([]);
      expect(titles((await xml('/feed.atom?query=Hidden')).root)).toEqual([]);
      const res = await t.app.inject(`/feed.atom?query=${'x'.repeat(1001)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String) });
    });

    it('keeps the old /feed address working', async () => {
      const res = await t.app.inject('/feed');
      expect(res.statusCode).toBe(301);
      expect(res.headers.location).toBe('/feed.atom');
    });
  });

  describe('OPDS', () => {
    it('has a navigation root: latest, by library, by language', async () => {
      const { root, type } = await xml('/opds');
      expect(type).toBe(OPDS_NAV);
      expect(links(root)).toEqual(expect.arrayContaining([
        expect.objectContaining({ rel: 'self', href: `${BASE}/opds`, type: OPDS_NAV }),
        expect.objectContaining({ rel: 'start', href: `${BASE}/opds`, type: OPDS_NAV }),
      ]));
      expect(titles(root)).toEqual(['Latest', 'By library', 'By language']);
      const [latest, byLibrary, byLanguage] = entries(root).map((e) => links(e)[0]);
      expect(latest).toEqual({ rel: 'http://opds-spec.org/sort/new', type: OPDS_ACQ, href: `${BASE}/opds/latest` });
      expect(byLibrary).toMatchObject({ rel: 'subsection', type: OPDS_NAV, href: `${BASE}/opds/libraries` });
      expect(byLanguage).toMatchObject({ rel: 'subsection', type: OPDS_NAV, href: `${BASE}/opds/languages` });
    });

    it('lists only entries with downloadable files, with acquisition links that really download', async () => {
      const { root, type } = await xml('/opds/latest');
      expect(type).toBe(OPDS_ACQ);
      const list = entries(root);
      expect(list).toHaveLength(50);
      for (const hidden of HIDDEN) expect(titles(root)).not.toContain(hidden);
      // Records without files (Mutual Aid, the fixture's 'pdf' that was never stored) are not offered.
      expect(titles(root)).not.toContain('Mutual Aid');
      expect(titles(root)).not.toContain('La libertà e il lavoro');
      const first = list[0];
      expect(childText(first, 'title')).toBe(HOSTILE);
      expect(children(first, 'language').map((l) => l.text)).toEqual(['en']);
      expect(childText(first, 'identifier')).toBe('urn:isbn:9780000000002');
      for (const e of list) {
        const acq = links(e).filter((l) => l.rel === 'http://opds-spec.org/acquisition');
        expect(acq.length, childText(e, 'title')).toBeGreaterThan(0);
        for (const l of acq) {
          expect(l.href.startsWith(`${BASE}/collector/api/download/`)).toBe(true);
          const res = await t.app.inject(l.href.slice(BASE.length));
          expect(res.statusCode, l.href).toBe(200);
          expect(String(res.headers['content-type']).split(';')[0]).toBe(l.type);
        }
      }
      expect(links(first).filter((l) => l.rel === 'http://opds-spec.org/acquisition').map((l) => l.type).sort()).toEqual(['application/epub+zip', 'text/plain']);
    });

    it('pages with rel="next" and rel="previous" until every text was listed once', async () => {
      const seen: string[] = [];
      let url: string | undefined = '/opds/latest';
      let pages = 0;
      while (url) {
        const { root } = await xml(url);
        seen.push(...entries(root).map((e) => childText(e, 'id')));
        const next = links(root).find((l) => l.rel === 'next');
        if (pages > 0) expect(links(root).some((l) => l.rel === 'previous')).toBe(true);
        url = next ? next.href.slice(BASE.length) : undefined;
        pages++;
      }
      expect(pages).toBe(2);
      // The 52 pamphlets, the hostile one, the old French one and the fixture's guide (a real PDF).
      expect(seen).toHaveLength(EXTRA_TEXTS + 3);
      expect(new Set(seen).size).toBe(seen.length);
    });

    it('browses by library (visible ones only) and by language', async () => {
      const { root } = await xml('/opds/libraries');
      expect(titles(root)).toEqual(['Archive Two', 'Biblioteca Uno']);
      const { root: lib2 } = await xml('/opds/library/2?page=2');
      expect(titles(lib2)).toEqual(['Pamphlet 1', 'Pamphlet 0', 'Vieux Texte']); // 53 texts, oldest last
      expect(titles((await xml('/opds/library/1')).root)).toEqual([HOSTILE, 'A Small Guide']);
      expect((await t.app.inject('/opds/library/3')).statusCode).toBe(404);
      expect((await t.app.inject('/opds/library/3')).json()).toEqual({ error: 'No such library' });

      const { root: langs } = await xml('/opds/languages');
      expect(titles(langs)).toEqual(['English', 'French']);
      const { root: fr } = await xml('/opds/language/fr');
      expect(titles(fr)).toEqual(['Vieux Texte']);
      expect(childText(entries(fr)[0], 'issued')).toBe('1912');
    });

    it('has a feed per search, per author and per library: only the matches with files, as the Atom feed of the query', async () => {
      const acquisitionsOf = (e: XmlElement) => links(e).filter((l) => l.rel === 'http://opds-spec.org/acquisition');
      const words = await xml('/opds/search?query=vieux');
      expect(words.type).toBe(OPDS_ACQ);
      expect(titles(words.root)).toEqual(['Vieux Texte']);
      expect(links(words.root)).toContainEqual(expect.objectContaining({ rel: 'self', href: `${BASE}/opds/search?query=vieux` }));
      expect(acquisitionsOf(entries(words.root)[0])).toEqual([expect.objectContaining({ type: 'application/pdf' })]);
      // Kropotkin's three entries match the words but have no files: an e-book reader gets nothing to fetch.
      expect(titles((await xml('/opds/search?query=kropotkin')).root)).toEqual([]);

      const vieux = entryId(t.services, 'Vieux Texte');
      const author = (await t.app.inject(`/collector/api/entry/${vieux}`)).json().authors[0].id;
      const byAuthor = (await xml(`/opds/search?query=creator%3A${author}`)).root;
      expect(titles(byAuthor)).toEqual(['Vieux Texte']);
      // titled as the results page is headed: the author's name, not the filter's number
      expect(childText(byAuthor, 'title')).toContain('Jean Grave');
      expect(childText((await xml(`/feed.atom?query=creator%3A${author}`)).root, 'title')).toContain('Jean Grave');

      expect(titles((await xml('/opds/search?query=library%3A1')).root)).toEqual([HOSTILE, 'A Small Guide']);
      expect(titles((await xml('/opds/search?query=library%3A3')).root)).toEqual([]); // private: as empty as unknown

      // Paged like the other acquisition feeds; the first page is the Atom feed of the same query.
      const first = await xml('/opds/search?query=pamphlet');
      expect(titles(first.root)).toHaveLength(50);
      expect(titles(first.root)).toEqual(titles((await xml('/feed.atom?query=pamphlet')).root));
      for (const e of entries(first.root)) expect(acquisitionsOf(e).length).toBeGreaterThan(0);
      const next = links(first.root).find((l) => l.rel === 'next');
      expect(next?.href).toBe(`${BASE}/opds/search?query=pamphlet&page=2`);
      const second = await xml(next!.href.slice(BASE.length));
      expect(titles(second.root)).toEqual(['Pamphlet 1', 'Pamphlet 0']);
      for (const title of [...titles(first.root), ...titles(second.root)]) expect(title).toMatch(/^Pamphlet \d+$/);

      // Readers find the search from the root: an OpenSearch description whose template is this feed.
      const { root: nav } = await xml('/opds');
      const searchLink = links(nav).find((l) => l.rel === 'search');
      expect(searchLink).toEqual({ rel: 'search', type: 'application/opensearchdescription+xml', href: `${BASE}/opds/opensearch.xml` });
      const osd = await xml('/opds/opensearch.xml');
      expect(osd.type).toMatch(/^application\/opensearchdescription\+xml/);
      const template = child(osd.root, 'Url')!.attrs.template;
      expect(template).toBe(`${BASE}/opds/search?query={searchTerms}`);
      expect(titles((await xml(template.replace('{searchTerms}', 'vieux').slice(BASE.length))).root)).toEqual(['Vieux Texte']);

      for (const url of [`/opds/search?query=${'x'.repeat(1001)}`, '/opds/search?query=a&page=0']) {
        const res = await t.app.inject(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toEqual({ error: expect.any(String) });
      }
    });

    it('answers bad input with a JSON 400', async () => {
      for (const url of ['/opds/language/%3Cscript%3E', '/opds/latest?page=0', '/opds/latest?page=abc', '/opds/library/abc']) {
        const res = await t.app.inject(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().error).toEqual(expect.any(String));
      }
    });
  });
});
