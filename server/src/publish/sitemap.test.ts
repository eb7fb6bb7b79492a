// Sitemaps and robots.txt as a crawler reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryId, fixtureLines, testApp, type TestApp } from '../test/fixture.ts';
import { children, childText, parseXml, type XmlElement } from '../harvest/xml.ts';
import { SITEMAP_NS, Sitemaps, escapeXml, splitSitemap } from './sitemap.ts';
import { BACKENDS } from '../test/backends.ts';

const BASE = 'https://catalogue.example.org';
describe.each(BACKENDS)('sitemaps on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp([
      ...fixtureLines(),
      { type: 'page', id: 1, title: 'About', content: '<p>About us</p>', language: 'ALL', location: 'footer', published: true },
      { type: 'page', id: 2, title: 'Draft', content: '<p>not yet</p>', location: 'footer', published: false },
    ], { publicUrl: BASE }, dialect);
  });
  afterAll(async () => t.close());

  async function xml(url: string): Promise<XmlElement> {
    const res = await t.app.inject(url);
    expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    return parseXml(res.body);
  }
  const locs = (urlset: XmlElement) => children(urlset, 'url').map((u) => childText(u, 'loc'));
  const W3C_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

  describe('splitSitemap', () => {
    it('cuts the list into files of at most `limit` URLs, in order, and always gives one file', () => {
      expect(splitSitemap([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
      expect(splitSitemap([1, 2, 3, 4], 2)).toEqual([[1, 2], [3, 4]]);
      expect(splitSitemap([1, 2], 50_000)).toEqual([[1, 2]]);
      expect(splitSitemap([], 2)).toEqual([[]]);
      expect(() => splitSitemap([1], 0)).toThrow();
      const big = Array.from({ length: 100_001 }, (_, i) => i);
      expect(splitSitemap(big).map((f) => f.length)).toEqual([50_000, 50_000, 1]);
    });
  });

  describe('GET /sitemap.xml and /sitemap-N.xml', () => {
    it('lists the static pages, visible libraries, their authors and visible entries, with lastmod', async () => {
      const index = await xml('/sitemap.xml');
      expect(index.name).toBe('sitemapindex');
      expect(index.ns).toBe(SITEMAP_NS);
      const files = children(index, 'sitemap');
      expect(files.map((f) => childText(f, 'loc'))).toEqual([`${BASE}/sitemap-1.xml`]);
      expect(childText(files[0], 'lastmod')).toMatch(W3C_TIME);

      const urlset = await xml('/sitemap-1.xml');
      expect(urlset.name).toBe('urlset');
      expect(urlset.ns).toBe(SITEMAP_NS);
      const all = locs(urlset);
      expect(new Set(all).size).toBe(all.length);
      expect(all).toEqual(expect.arrayContaining([`${BASE}/map`, `${BASE}/page/1`, `${BASE}/library/details/1`, `${BASE}/library/details/2`]));
      expect(all).not.toContain(`${BASE}/page/2`);
      expect(all).not.toContain(`${BASE}/library/details/3`); // private, digital
      expect(all).not.toContain(`${BASE}/library/details/4`); // inactive
      for (const title of ['La libertà e il lavoro', 'Mutual Aid', 'Anthology of Essays', 'Zapata and the Land']) {
        expect(all).toContain(`${BASE}/entry/${entryId(t.services, title)}`);
      }
      for (const title of ['Secret Private Work', 'Inactive Library Work']) {
        expect(all).not.toContain(`${BASE}/entry/${entryId(t.services, title)}`);
      }
      const agent = (name: string) => t.services.db.sqlite.prepare('SELECT id FROM agents WHERE name = ?').pluck().get(name) as number;
      expect(all).toContain(`${BASE}/library/author/${agent('Errico Malatesta')}`);
      expect(all).not.toContain(`${BASE}/library/author/${agent('Hidden Author')}`);
      for (const u of children(urlset, 'url')) {
        const lastmod = childText(u, 'lastmod');
        if (childText(u, 'loc').includes('/entry/')) expect(lastmod).toMatch(W3C_TIME);
        if (lastmod) expect(lastmod).toMatch(W3C_TIME);
      }
    });

    it('answers files that do not exist with 404 and malformed names with 400', async () => {
      expect((await t.app.inject('/sitemap-2.xml')).statusCode).toBe(404);
      expect((await t.app.inject('/sitemap-2.xml')).json()).toEqual({ error: 'No such sitemap file' });
      expect((await t.app.inject('/sitemap-0.xml')).statusCode).toBe(400);
    });

    it('splits into files of the limit, every URL in exactly one file', async () => {
      const s = t.services;
      const all = (await new Sitemaps(s.db, s.catalogue, s.search, s.libraries, s.pages).urls()).map((u) => `${BASE}${u.path}`);
      const small = new Sitemaps(s.db, s.catalogue, s.search, s.libraries, s.pages, 4);
      const index = parseXml(await small.index(BASE));
      const names = children(index, 'sitemap').map((f) => childText(f, 'loc'));
      expect(names).toHaveLength(Math.ceil(all.length / 4));
      expect(names.at(-1)).toBe(`${BASE}/sitemap-${names.length}.xml`);
      const seen: string[] = [];
      for (let n = 1; n <= names.length; n++) {
        const file = locs(parseXml((await small.file(n, BASE))!));
        expect(file.length).toBeLessThanOrEqual(4);
        expect(file.length).toBeGreaterThan(0);
        seen.push(...file);
      }
      expect(seen).toEqual(all);
      expect(await small.file(names.length + 1, BASE)).toBeNull();
    });

    it('escapes what it writes', async () => {
      expect(escapeXml(`a&b<c>"d'\u0001e`)).toBe('a&amp;b&lt;c&gt;&quot;d&apos;e');
      const s = t.services;
      const odd = (await new Sitemaps(s.db, s.catalogue, s.search, s.libraries, s.pages).file(1, 'https://x.example/?a=1&b=<2>'))!;
      expect(locs(parseXml(odd))[0]).toBe('https://x.example/?a=1&b=<2>/map');
    });
  });

  describe('GET /robots.txt', () => {
    it('points crawlers at the sitemap and away from the JSON API (downloads stay allowed)', async () => {
      const res = await t.app.inject('/robots.txt');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toContain(`Sitemap: ${BASE}/sitemap.xml`);
      expect(res.body).toMatch(/^Disallow: \/collector\/api\/$/m);
      expect(res.body).toMatch(/^Allow: \/collector\/api\/download\/$/m);
    });
  });
});
