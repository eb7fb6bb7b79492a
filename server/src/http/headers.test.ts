// Security headers on what the server answers: web app pages (static and entry pages), API JSON, file
// downloads, the inline PDF viewer (framable by our own pages only), HSTS and Secure cookies over https.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/fixture.ts';
import { cspDirectives, HSTS, ImageOrigins, MAX_NAMED_IMAGE_ORIGINS, PDF_CSP, tileSource } from './headers.ts';

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Union catalogue</title>
    <script type="module" crossorigin src="/assets/index-test.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-test.css">
  </head>
  <body><div id="root"></div></body>
</html>
`;

/** The CSP header as a map of directive -> sources. */
function csp(header: unknown): Map<string, string[]> {
  expect(typeof header).toBe('string');
  return new Map((header as string).split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
    const [name, ...sources] = d.split(/\s+/);
    return [name, sources] as [string, string[]];
  }));
}

/** The headers every answer carries, whatever it is. */
function expectCommon(h: Record<string, unknown>) {
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(h['strict-transport-security']).toBeUndefined(); // plain http, no trusted proxy
}

/** The web app's policy, not framable at all. */
function expectAppPolicy(h: Record<string, unknown>) {
  expectCommon(h);
  const p = csp(h['content-security-policy']);
  expect(p.get('default-src')).toEqual(["'self'"]);
  expect(p.get('script-src')).toEqual(["'self'"]);
  expect(p.get('script-src-attr')).toEqual(["'none'"]);
  expect(p.get('style-src')).toEqual(["'self'"]);
  expect(p.get('style-src-elem')).toEqual(["'self'"]);
  expect(p.get('style-src-attr')).toEqual(["'unsafe-inline'"]);
  // The fixture has no logo and no page image: no other host.
  expect(p.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  expect(p.get('connect-src')).toEqual(["'self'"]);
  expect(p.get('frame-src')).toEqual(["'self'"]);
  expect(p.get('frame-ancestors')).toEqual(["'none'"]);
  expect(p.get('object-src')).toEqual(["'none'"]);
  expect(p.get('base-uri')).toEqual(["'self'"]);
  expect(p.get('form-action')).toEqual(["'self'"]);
  expect(p.has('upgrade-insecure-requests')).toBe(false);
  expect(h['x-frame-options']).toBe('DENY');
}

/** A PDF: framable by our own pages, no other restriction (Chrome's viewer needs its <embed> and styles). */
function expectPdfPolicy(h: Record<string, unknown>) {
  expectCommon(h);
  expect(h['content-security-policy']).toBe(PDF_CSP);
  expect(csp(h['content-security-policy']).get('frame-ancestors')).toEqual(["'self'"]);
  expect(h['x-frame-options']).toBe('SAMEORIGIN');
}

let t: TestApp;
let web: string;
let dsId: number;
let sid: string;
beforeAll(async () => {
  web = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-web-'));
  fs.writeFileSync(path.join(web, 'index.html'), INDEX);
  fs.mkdirSync(path.join(web, 'assets'));
  fs.writeFileSync(path.join(web, 'assets', 'index-test.js'), 'console.log(1);\n');
  t = await testApp(undefined, { webDist: web, publicUrl: 'https://catalogue.example.org' });
  dsId = t.services.db.sqlite.prepare("SELECT id FROM data_sources WHERE identifier = 'a-11'").pluck().get() as number;
  // A Book Builder session with a built PDF (no Typst run: the file is stored as a build would).
  const sessions = t.services.bookbuilder.sessions;
  sid = sessions.create('book');
  fs.mkdirSync(sessions.dir(sid), { recursive: true });
  fs.writeFileSync(path.join(sessions.dir(sid), 'out.pdf'), '%PDF-1.4\n% built\n');
  sessions.storeOutput(sid, 1, 'out.pdf', 1);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(web, { recursive: true, force: true });
});

describe('security headers', () => {
  it('on a web app page (client-side route) and its index.html', async () => {
    for (const url of ['/search?query=x', '/', '/index.html']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expectAppPolicy(res.headers);
      // The page itself has no inline script or style that the policy would block.
      expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/ld\+json")[^>]*>/);
      expect(res.body).not.toMatch(/<style|\sstyle=/);
    }
  });

  it('on an entry page: its only inline script is JSON-LD (data, not run; CSP does not apply)', async () => {
    const res = await t.app.inject('/entry/2');
    expect(res.statusCode).toBe(200);
    expectAppPolicy(res.headers);
    const inline = [...res.body.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]).filter((attrs) => !/\bsrc=/.test(attrs));
    expect(inline).toEqual([' type="application/ld+json"']);
  });

  it('on a static asset', async () => {
    const res = await t.app.inject('/assets/index-test.js');
    expect(res.statusCode).toBe(200);
    expectAppPolicy(res.headers);
  });

  it('on API JSON answers, errors and the CSRF refusal', async () => {
    const general = await t.app.inject('/collector/api/general');
    expect(general.statusCode).toBe(200);
    expectAppPolicy(general.headers);
    const missing = await t.app.inject('/collector/api/entry/999999');
    expect(missing.statusCode).toBe(404);
    expectAppPolicy(missing.headers);
    const refused = await t.app.inject({ method: 'POST', url: '/collector/api/report/bug', payload: {} });
    expect(refused.statusCode).toBe(403);
    expectAppPolicy(refused.headers);
  });

  it('on a file download (attachment) and on the same PDF shown inline, framable by our pages', async () => {
    const download = await t.app.inject(`/collector/api/download/${dsId}.pdf`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);
    expectPdfPolicy(download.headers);
    const inline = await t.app.inject(`/collector/api/download/${dsId}.pdf?inline=1`);
    expect(inline.headers['content-disposition']).toMatch(/^inline;/);
    expectPdfPolicy(inline.headers);
    // Other files keep the strict policy (an SVG or HTML file opened directly cannot run script).
    const muse = await t.app.inject(`/collector/api/download/${dsId}.muse`);
    expect(muse.statusCode).toBe(200);
    expectAppPolicy(muse.headers);
  });

  it('on the Book Builder PDF viewer (?inline=1): framable by self, not by others', async () => {
    const res = await t.app.inject(`/collector/api/bookbuilder/${sid}?inline=1&job=1`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^inline;/);
    expectPdfPolicy(res.headers);
    // The PDF's error answer (no PDF yet) is JSON with the strict policy.
    const none = await t.app.inject(`/collector/api/bookbuilder/${t.services.bookbuilder.sessions.create('book')}?inline=1`);
    expect(none.statusCode).toBe(404);
    expectAppPolicy(none.headers);
  });

  it('on feeds and robots.txt (outside the API)', async () => {
    for (const url of ['/robots.txt', '/feed.atom']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expectAppPolicy(res.headers);
    }
  });
});

describe('https: HSTS and Secure cookies', () => {
  const login = { username: 'hsts-user', password: 'a long enough password' };
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await testApp(undefined, { trustProxy: 1 });
    await proxied.services.accounts.createUser({ username: login.username, email: 'hsts@example.org', password: login.password });
  });
  afterAll(async () => {
    await proxied.close();
  });

  const loginOver = (app: TestApp, headers: Record<string, string>) => app.app.inject({
    method: 'POST', url: '/collector/api/auth/login',
    headers: { 'content-type': 'application/json', cookie: 'csrftoken=tok', 'x-csrftoken': 'tok', ...headers },
    payload: JSON.stringify(login),
  });
  const cookie = (res: { cookies: { name: string; secure?: boolean }[] }, name: string) => res.cookies.find((c) => c.name === name);

  it('a request that came over https (trusted proxy): HSTS, and both cookies are Secure', async () => {
    const get = await proxied.app.inject({ url: '/collector/api/general', headers: { 'x-forwarded-proto': 'https' } });
    expect(get.headers['strict-transport-security']).toBe(HSTS);
    expect(cookie(get, 'csrftoken')?.secure).toBe(true);
    const res = await loginOver(proxied, { 'x-forwarded-proto': 'https' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['strict-transport-security']).toBe(HSTS);
    expect(cookie(res, 'sessionid')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
  });

  it('plain http through the same proxy: no HSTS, no Secure', async () => {
    const get = await proxied.app.inject({ url: '/collector/api/general', headers: { 'x-forwarded-proto': 'http' } });
    expect(get.headers['strict-transport-security']).toBeUndefined();
    expect(cookie(get, 'csrftoken')?.secure).toBeFalsy();
    const res = await loginOver(proxied, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(cookie(res, 'sessionid')?.secure).toBeFalsy();
  });

  it('X-Forwarded-Proto is ignored without TRUST_PROXY', async () => {
    const get = await t.app.inject({ url: '/collector/api/general', headers: { 'x-forwarded-proto': 'https' } });
    expect(get.headers['strict-transport-security']).toBeUndefined();
    expect(cookie(get, 'csrftoken')?.secure).toBeFalsy();
  });
});

describe('policy pieces', () => {
  it('names the tile host (TILE_URL), with {s} as a wildcard; nothing for none or a same-origin path', () => {
    expect(tileSource('')).toBeNull();
    expect(tileSource('/tiles/{z}/{x}/{y}.png')).toBeNull();
    expect(tileSource('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://*.tile.openstreetmap.org');
    expect(tileSource('http://tiles.intranet:8080/{z}/{x}/{y}.png')).toBe('http://tiles.intranet:8080');
    expect(tileSource('https://tiles.{s}.example.org/{z}/{x}/{y}.png')).toBe('https:');
    expect(cspDirectives({ tileUrl: 'http://tiles.intranet/{z}/{x}/{y}.png' })['img-src'].slice(0, 4)).toEqual(["'self'", 'data:', 'blob:', 'http://tiles.intranet']);
  });

  it('names the hosts of the site logo and images in pages (never a library\'s logo host), follows changes, and allows any https image past the limit', async () => {
    const app = await testApp();
    try {
      const db = app.services.db.sqlite;
      db.prepare("UPDATE libraries SET logo_url = 'https://logos.example.org/a.png' WHERE id = 1").run();
      db.prepare("UPDATE libraries SET logo_url = 'http://intranet.lib:8080/logo.svg' WHERE id = 2").run();
      app.services.pages.setSettings({ site_logo: 'https://cdn.example.net/site.png' });
      app.services.pages.upsertPage({
        title: 'About', published: true, location: 'footer',
        content: '<p><img src="https://photos.example.com/x.jpg" alt=""><img src="/local.png" alt=""><img src="data:image/png;base64,AAAA" alt=""></p>',
      });
      const res = await app.app.inject('/collector/api/general');
      expect(csp(res.headers['content-security-policy']).get('img-src')).toEqual([
        "'self'", 'data:', 'blob:', 'https://cdn.example.net', 'https://photos.example.com',
      ]);

      // A change is seen after a few seconds (read again at most every 10 s), by every process.
      let now = 0;
      const origins = new ImageOrigins(app.services.db, () => now);
      expect(origins.current()).toContain('https://cdn.example.net');
      app.services.pages.setSettings({ site_logo: 'https://new-cdn.example.net/site.png' });
      expect(origins.current()).toContain('https://cdn.example.net');
      now += 10_000;
      expect(origins.current()).toContain('https://new-cdn.example.net');
      expect(origins.current()).not.toContain('https://cdn.example.net');

      // Too many hosts to name in a header a proxy still passes: any https image instead.
      const many = Array.from({ length: MAX_NAMED_IMAGE_ORIGINS + 1 }, (_, i) => `<img src="https://h${i}.example.org/i.png" alt="">`).join('');
      app.services.pages.upsertPage({ title: 'Gallery', content: many });
      now += 10_000;
      expect(origins.current()).toBeNull();
      const directive = cspDirectives({ tileUrl: '' }, () => origins.current())['img-src'];
      expect(directive.map((v) => (typeof v === 'function' ? v() : v))).toEqual(["'self'", 'data:', 'blob:', 'https:']);
    } finally {
      await app.close();
    }
  });

  it('the configured tile host reaches the header', async () => {
    const tiles = await testApp(undefined, { tileUrl: 'http://tiles.intranet/{z}/{x}/{y}.png' });
    try {
      const res = await tiles.app.inject('/collector/api/general');
      expect(csp(res.headers['content-security-policy']).get('img-src')).toContain('http://tiles.intranet');
    } finally {
      await tiles.close();
    }
  });
});
