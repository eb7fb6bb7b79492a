// /entry/{id} as a crawler fetches it: the web app's page with the entry's own head, before any script runs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryId, fixtureLines, testApp, type TestApp } from '../test/fixture.ts';
import { escapeHtml, injectHead, scriptJson } from './entry-html.ts';
import { BACKENDS } from '../test/backends.ts';

const BASE = 'https://catalogue.example.org';
const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="A union catalogue of independent libraries and archives" />
    <title>Union catalogue</title>
    <script type="module" crossorigin src="/assets/index-test.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;
const HOSTILE = '</script><script>alert(1)</script> <!-- & "quoted"';

describe.each(BACKENDS)('entry pages for crawlers on %s', (dialect) => {
  let t: TestApp;
  let web: string;
  beforeAll(async () => {
    web = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-web-'));
    fs.writeFileSync(path.join(web, 'index.html'), TEMPLATE);
    const ds = (library_id: number, identifier: string, extra: object = {}) => ({ library_id, identifier, year_edition: 1970, downloads: [], ...extra });
    t = await testApp([
      ...fixtureLines(),
      { type: 'entry', id: 30, title: HOSTILE, subtitle: 'Sub </SCRIPT > title', authors: ['O\'Brien & <Sons>'], languages: ['en'], year: 1970,
        data_sources: [ds(1, 'x-30', { description: 'Hostile <!-- description --> </script>', isbn: '978-1-23-456789-7', shelf_location_code: 'A/1' })] },
      { type: 'entry', id: 31, title: 'Street Posters', subtitle: null, authors: [], languages: ['it'], year: 1977,
        data_sources: [ds(1, 'x-31', { content_type: 'still image' })] },
    ], { publicUrl: BASE, webDist: web }, dialect);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(web, { recursive: true, force: true });
  });

  const page = (id: number | string) => t.app.inject(`/entry/${id}`);
  const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');
  const head = (html: string) => html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
  const titleOf = (html: string) => unescape(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
  const meta = (html: string, key: string) => {
    const m = new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html);
    return m ? unescape(m[1]) : null;
  };
  /** The JSON-LD block as an HTML parser delimits it: up to the first '</script' whatever follows. */
  function jsonLd(html: string): Record<string, any> {
    const start = html.indexOf('<script type="application/ld+json">');
    expect(start).toBeGreaterThan(0);
    const body = html.slice(start + '<script type="application/ld+json">'.length);
    return JSON.parse(body.slice(0, body.search(/<\/script/i)));
  }

  describe('GET /entry/{id} (served HTML)', () => {
    it('carries the title, description, canonical link, Open Graph tags and a schema.org Book', async () => {
      const id = entryId(t.services, 'La libertà e il lavoro');
      const res = await page(id);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const html = res.body;
      expect(titleOf(html)).toBe('La libertà e il lavoro — Errico Malatesta');
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(html.match(/<meta name="description"/g)).toHaveLength(1);
      expect(meta(html, 'description')).toContain('Errico Malatesta');
      expect(head(html)).toContain(`<link rel="canonical" href="${BASE}/entry/${id}" />`);
      expect(meta(html, 'og:type')).toBe('book');
      expect(meta(html, 'og:url')).toBe(`${BASE}/entry/${id}`);
      expect(meta(html, 'og:site_name')).toBe('Test Catalogue');
      // The app still loads after the head (its script tag kept).
      expect(html).toContain('<script type="module" crossorigin src="/assets/index-test.js"></script>');
      expect(html).toContain('<div id="root"></div>');
      const ld = jsonLd(html);
      expect(ld).toMatchObject({
        '@context': 'https://schema.org', '@type': 'Book', '@id': `${BASE}/entry/${id}`, name: 'La libertà e il lavoro',
        author: [{ '@type': 'Person', name: 'Errico Malatesta' }], inLanguage: 'it', datePublished: '1890', // the first edition's year
      });
      expect(ld.offers.map((o: any) => o.offeredBy.name).sort()).toEqual(['Archive Two', 'Biblioteca Uno']);
    });

    it('links translations both ways and aggregations with their parts', async () => {
      const original = entryId(t.services, 'Mutual Aid');
      const translation = entryId(t.services, "L'Entraide");
      expect(jsonLd((await page(original)).body).workTranslation).toEqual([
        { '@type': 'CreativeWork', '@id': `${BASE}/entry/${translation}`, url: `${BASE}/entry/${translation}`, inLanguage: ['fr'] },
      ]);
      expect(jsonLd((await page(translation)).body).translationOfWork['@id']).toBe(`${BASE}/entry/${original}`);
      const anthology = jsonLd((await page(entryId(t.services, 'Anthology of Essays'))).body);
      expect(anthology.hasPart.map((p: any) => p.name)).toEqual(['Second Essay', 'First Essay']);
      const part = jsonLd((await page(entryId(t.services, 'First Essay'))).body);
      expect(part.isPartOf).toEqual([expect.objectContaining({ '@id': `${BASE}/entry/${entryId(t.services, 'Anthology of Essays')}`, name: 'Anthology of Essays' })]);
    });

    it('lists only visible holdings, and downloadable files as encodings', async () => {
      const zapata = jsonLd((await page(entryId(t.services, 'Zapata and the Land'))).body);
      expect(zapata.offers.map((o: any) => o.offeredBy.name)).toEqual(['Biblioteca Uno']);
      expect(JSON.stringify(zapata)).not.toContain('Private Three');
      const guide = jsonLd((await page(entryId(t.services, 'A Small Guide'))).body);
      // the stored PDF and the EPUB made from the Muse source (issue 31)
      expect(guide.encoding).toHaveLength(2);
      expect(guide.encoding).toEqual(expect.arrayContaining([
        expect.objectContaining({ encodingFormat: 'application/pdf', contentUrl: expect.stringMatching(new RegExp(`^${BASE}/collector/api/download/\\d+\\.pdf$`)) }),
        expect.objectContaining({ encodingFormat: 'application/epub+zip', contentUrl: expect.stringMatching(new RegExp(`^${BASE}/collector/api/download/\\d+\\.epub$`)) }),
      ]));
    });

    it('calls a still image a CreativeWork', async () => {
      const html = (await page(entryId(t.services, 'Street Posters'))).body;
      expect(jsonLd(html)['@type']).toBe('CreativeWork');
      expect(meta(html, 'og:type')).toBe('website');
      expect(titleOf(html)).toBe('Street Posters');
    });

    it('neutralises hostile text: one ld+json script, intact values, nothing breaks out', async () => {
      const id = entryId(t.services, HOSTILE);
      const html = (await page(id)).body;
      const h = head(html);
      // Only the template's module script and ours open; nothing the data carried.
      expect(h.match(/<script/gi)).toHaveLength(2);
      expect(h.match(/<\/script/gi)).toHaveLength(2);
      expect(h).not.toContain('<!--');
      expect(h).not.toContain('alert(1)</script>');
      expect(titleOf(html)).toBe(`${HOSTILE}: Sub </SCRIPT > title — O'Brien & <Sons>`);
      expect(meta(html, 'og:title')).toBe(`${HOSTILE}: Sub </SCRIPT > title`);
      const ld = jsonLd(html);
      expect(ld.name).toBe(HOSTILE);
      expect(ld.alternativeHeadline).toBe('Sub </SCRIPT > title');
      expect(ld.description).toBe('Hostile <!-- description --> </script>');
      expect(ld.author).toEqual([expect.objectContaining({ name: 'O\'Brien & <Sons>' })]);
      expect(ld.isbn).toBe('978-1-23-456789-7');
      expect(ld.offers[0].sku).toBe('A/1');
    });

    it('answers unknown, private, inactive and malformed ids with the bare app and 404, leaking nothing', async () => {
      for (const id of [999999, entryId(t.services, 'Secret Private Work'), entryId(t.services, 'Inactive Library Work'), 'abc', '0', '99999999999']) {
        const res = await page(id);
        expect(res.statusCode, String(id)).toBe(404);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(titleOf(res.body)).toBe('Union catalogue');
        expect(res.body).toContain('<meta name="robots" content="noindex" />');
        expect(res.body).not.toContain('application/ld+json');
        expect(res.body).not.toMatch(/Secret Private|Inactive Library|Hidden Author/);
      }
    });

    it('points a merged entry at the entry it was merged into', async () => {
      const canonical = entryId(t.services, 'Fields, Factories and Workshops');
      const merged = entryId(t.services, 'Zapata and the Land');
      t.services.db.sqlite.prepare('UPDATE entries SET canonical_entry_id = ? WHERE id = ?').run(canonical, merged);
      try {
        const html = (await page(merged)).body;
        expect(head(html)).toContain(`<link rel="canonical" href="${BASE}/entry/${canonical}" />`);
      } finally {
        t.services.db.sqlite.prepare('UPDATE entries SET canonical_entry_id = NULL WHERE id = ?').run(merged);
      }
    });

    it('gives a text\'s own page (/entry/{id}/text) the entry\'s head with its own canonical address, and hides what is hidden', async () => {
      const id = entryId(t.services, 'A Small Guide');
      const res = await t.app.inject(`/entry/${id}/text?data_source=1`);
      expect(res.statusCode).toBe(200);
      expect(titleOf(res.body)).toBe('A Small Guide — Test Writer');
      expect(head(res.body)).toContain(`<link rel="canonical" href="${BASE}/entry/${id}/text" />`);
      expect(meta(res.body, 'og:url')).toBe(`${BASE}/entry/${id}/text`);
      expect(jsonLd(res.body)['@id']).toBe(`${BASE}/entry/${id}`); // the work is the entry
      const hidden = await t.app.inject(`/entry/${entryId(t.services, 'Secret Private Work')}/text`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.body).not.toContain('Secret Private');
      expect((await t.app.inject(`/entry/${id}/elsewhere`)).body).toBe(TEMPLATE);
    });

    it('leaves other app routes as they were', async () => {
      const res = await t.app.inject('/search?query=x');
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(TEMPLATE);
    });
  });

  describe('escaping helpers', () => {
    it('keeps JSON values while hiding every markup character from the HTML parser', () => {
      const value = { a: '</script><!--x-->&\u2028' };
      const out = scriptJson(value);
      expect(out).not.toMatch(/[<>&\u2028]/);
      expect(JSON.parse(out)).toEqual(value);
      expect(escapeHtml(`<a href="x" title='y'>&`)).toBe('&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;');
    });

    it('injects before </head> and drops the template title and description', () => {
      const out = injectHead(TEMPLATE, '    <title>X</title>\n');
      expect(out.match(/<title>/g)).toHaveLength(1);
      expect(out).not.toContain('A union catalogue of independent');
      expect(out.indexOf('<title>X</title>')).toBeLessThan(out.indexOf('</head>'));
    });
  });
});
