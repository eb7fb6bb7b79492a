// Data out on the real build and server (issue 10): what a crawler, a feed reader, an e-book reader and an
// OAI-PMH harvester get at their addresses (not the web app's fallback page), and the entry page's
// Cite menu downloading a citation in the browser.
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baseUrl, hasChromium, useBrowserSessions, waitForH1 } from './lib/browser.ts';
import type { Entry, SearchResponse } from '@uc/shared';
import { api, textEntries } from './lib/demo.ts';

/** The entry's h1 starts with its title. */
const titlePattern = (title: string) => new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`);

describe('data out', () => {
  it('a crawler reads the entry page\'s title and JSON-LD in the HTML the server sends, and the app\'s script is still there', async () => {
    const [{ entry }] = await textEntries();
    const res = await fetch(`${baseUrl}/entry/${entry.id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.match(/<title>/g), 'one <title> (the build\'s own one replaced)').toHaveLength(1);
    const start = html.indexOf('<script type="application/ld+json">');
    expect(start, 'a JSON-LD block in the head').toBeGreaterThan(0);
    expect(start).toBeLessThan(html.indexOf('</head>'));
    const body = html.slice(start + '<script type="application/ld+json">'.length);
    const ld = JSON.parse(body.slice(0, body.search(/<\/script/i))) as { '@type': string; name: string };
    expect(ld.name).toBe(entry.title);
    expect(['Book', 'CreativeWork']).toContain(ld['@type']);
    expect(html, 'the built app is loaded as usual').toMatch(/<script type="module"[^>]*src="\/assets\/[^"]+\.js"/);
  });

  it('the feed, the OPDS catalogue, the sitemap, robots.txt and /oai answer in their own formats', async () => {
    const cases: [string, string, RegExp][] = [
      ['/feed.atom', 'application/atom+xml', /<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom"[\s\S]*<entry>/],
      ['/opds', 'application/atom+xml;profile=opds-catalog', /<feed [\s\S]*href="[^"]*\/opds\/latest"/],
      ['/opds/latest', 'kind=acquisition', /rel="http:\/\/opds-spec\.org\/acquisition"/],
      ['/sitemap.xml', 'application/xml', /<sitemapindex [\s\S]*<loc>[^<]+\/sitemap-1\.xml<\/loc>/],
      ['/robots.txt', 'text/plain', /Sitemap: \S+\/sitemap\.xml/],
      ['/oai?verb=Identify', 'text/xml', /<Identify>[\s\S]*<deletedRecord>persistent<\/deletedRecord>/],
      ['/oai?verb=ListRecords&metadataPrefix=oai_dc', 'text/xml', /<ListRecords>[\s\S]*<oai_dc:dc /],
    ];
    for (const [path, type, body] of cases) {
      const res = await fetch(`${baseUrl}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain(type);
      const text = await res.text();
      expect(text, path).not.toMatch(/^<!doctype html/i);
      expect(text, path).toMatch(body);
    }
  });

  describe.skipIf(!hasChromium)('in the browser', () => {
    const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

    it('the entry page served with its head runs the app, and Cite downloads its BibTeX', async () => {
      const { page } = session();
      const [{ entry }] = await textEntries();
      await page.goto(`/entry/${entry.id}`);
      await waitForH1(page, titlePattern(entry.title));
      expect(await page.title()).toContain(entry.title);

      await page.getByRole('button', { name: 'Cite', exact: true }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: 'Download BibTeX' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.bib$/);
      const bib = fs.readFileSync((await download.path())!, 'utf8');
      expect(bib).toMatch(/^@\w+\{[^,\s]+,/);
      // The title field holds the title's words (TeX specials escaped, so only letters are compared).
      const word = entry.title.split(/[^\p{L}]+/u).sort((a, b) => b.length - a.length)[0];
      expect(bib).toMatch(new RegExp(`title = \\{\\{[^\\n]*${word}`));
    });

    it('each copy of an entry held twice cites itself, and a readable style is copied', async () => {
      const { page, context } = session();
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      // An entry with copies in two libraries (the demo's edition mix of issue 32).
      let match: SearchResponse['matches'][number] | undefined;
      for (let p = 1; p <= 20 && !match; p++) {
        const found = await api<SearchResponse>(`/search?page=${p}`);
        match = found.matches.find((m) => new Set(m.data_sources.map((d) => d.library_id)).size > 1);
      }
      expect(match, 'an entry held by two libraries').toBeTruthy();
      const entry = await api<Entry>(`/entry/${match!.entry_id}`);
      await page.goto(`/entry/${entry.id}`);
      await waitForH1(page, titlePattern(entry.title));
      const second = entry.data_sources[1];
      const box = page.getByRole('article', { name: second.library_name, exact: true }).first();
      await box.getByRole('button', { name: 'Cite this copy' }).click();
      const ris = await page.getByRole('menuitem', { name: 'Download RIS' }).getAttribute('href');
      expect(ris).toBe(`/collector/api/entry/${entry.id}/cite?format=ris&data_source=${second.data_source_id}`);
      await page.getByRole('menuitem', { name: 'Copy APA' }).click();
      await box.getByText('APA copied to the clipboard').waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      const expected = await (await fetch(`${baseUrl}${ris!.replace('format=ris', 'format=apa')}`)).text();
      expect(copied).toBe(expected.trim());
      if (second.year_edition) expect(copied).toContain(`(${second.year_edition})`);
    });
  });
});
