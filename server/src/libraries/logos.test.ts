// Issue 27: a library admin's logo_url widened the site-wide CSP img-src to a host of the library's
// choosing. Logos are now uploaded files (or an address fetched once by the server), checked by their
// first bytes and served from our own origin; the policy never names a library's host.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody, testApp, type TestApp } from '../test/fixture.ts';
import { BACKENDS } from '../test/backends.ts';
import { loginCookie, TEST_PASSWORD } from '../libraryadmin/test-helpers.ts';
import { LOGO_MAX_BYTES, logoType } from './logos.ts';

const PNG = fs.readFileSync(new URL('../../../demo/logo.png', import.meta.url));
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"><script>alert(1)</script></svg>');
const HTML = Buffer.from('<!doctype html><html><body><script>fetch("/collector/api/auth/user")</script></body></html>');

/** A web server on 127.0.0.1 standing for a library's site: its logo, or something else under an image's name. */
async function logoHost(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (req.url === '/logo.svg.png') res.writeHead(200, { 'content-type': 'image/png' }).end(SVG);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

const imgSrc = (header: unknown) => String(header).split(';').map((d) => d.trim()).find((d) => d.startsWith('img-src')) ?? '';

describe('logoType', () => {
  it('knows PNG, JPEG, GIF and WebP by their bytes, and nothing else', () => {
    expect(logoType(PNG)).toBe('image/png');
    expect(logoType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(logoType(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBe('image/gif');
    expect(logoType(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    for (const other of [SVG, HTML, Buffer.from('%PDF-1.7'), Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(0)]) expect(logoType(other)).toBeNull();
  });
});

describe.each(BACKENDS)('library logos on %s', (dialect) => {
  let t: TestApp;
  let host: Awaited<ReturnType<typeof logoHost>>;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    // HARVEST_ALLOW_PRIVATE as on a LAN: the stand-in library site is on 127.0.0.1.
    t = await testApp(undefined, { harvestAllowPrivate: true }, dialect);
    host = await logoHost();
    const a = t.services.accounts;
    await a.createUser({ username: 'admin1', email: 'admin1@example.org', password: TEST_PASSWORD, library_admin: true, libraryIds: [1] });
    await a.createUser({ username: 'admin2', email: 'admin2@example.org', password: TEST_PASSWORD, library_admin: true, libraryIds: [2] });
    for (const u of ['admin1', 'admin2']) cookies[u] = await loginCookie(t, u);
  });
  afterAll(async () => {
    await host.close();
    await t.close();
  });

  const upload = (who: string, name: string, content: Uint8Array, type = 'image/png', lib = 1) => {
    const { payload, contentType } = multipartBody({}, { field: 'logo', name, content, type });
    return t.app.inject({ method: 'POST', url: `/collector/api/library/logo/${lib}`, headers: { cookie: cookies[who] ?? 'csrftoken=test-csrf-token', 'x-csrftoken': 'test-csrf-token', 'content-type': contentType }, payload });
  };
  const edit = (who: string, body: object, lib = 1) => t.app.inject({
    method: 'POST', url: `/collector/api/library/details/${lib}`,
    headers: { cookie: cookies[who], 'x-csrftoken': 'test-csrf-token', 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'Biblioteca Uno', email_internal: 'staff@uno.example.org', ...body }),
  });
  const logoUrl = async (lib = 1) => (await t.app.inject(`/collector/api/libraries/${lib}`)).json().library.logo_url as string | null;
  const policy = async () => imgSrc((await t.app.inject('/collector/api/libraries')).headers['content-security-policy']);

  it('an address typed by a library admin no longer reaches the site-wide CSP: it is fetched once and served by us', async () => {
    const res = await edit('admin1', { logo_url: `${host.url}/logo.png` });
    expect(res.json().error).toBeUndefined();
    const url = res.json().library.logo_url as string;
    expect(url).toMatch(/^\/collector\/api\/libraries\/1\/logo\?v=[0-9a-f]+$/);
    expect(await logoUrl()).toBe(url);
    expect(await policy()).not.toContain('127.0.0.1');
    const served = await t.app.inject(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(served.rawPayload, PNG)).toBe(0);
    // The form sent back as it came (our own address) keeps the logo and fetches nothing.
    expect((await edit('admin1', { logo_url: url, description: 'again' })).json().library.logo_url).toBe(url);
  });

  it('refuses an address whose answer is not an image (an SVG under a .png name), and one that cannot be fetched', async () => {
    const before = await logoUrl();
    const svg = await edit('admin1', { logo_url: `${host.url}/logo.svg.png` });
    expect(svg.json().error).toBe('The logo must be a PNG, JPEG, WebP or GIF image');
    const gone = await edit('admin1', { logo_url: 'https://logo-host.invalid/logo.png' });
    expect(gone.json().error).toBe('The logo could not be fetched from this address: upload the image file instead');
    expect(await logoUrl()).toBe(before);
    expect(await policy()).not.toContain('logo-host.invalid');
  });

  it('takes an uploaded PNG and refuses an SVG or HTML page disguised as an image, an oversized file and other libraries\' admins', async () => {
    const ok = await upload('admin1', 'logo.png', PNG);
    expect(ok.statusCode, ok.body).toBe(200);
    const url = ok.json().library.logo_url as string;
    expect(url).toMatch(/^\/collector\/api\/libraries\/1\/logo\?v=/);
    for (const [name, content, type] of [['logo.png', SVG, 'image/png'], ['logo.svg', SVG, 'image/svg+xml'], ['logo.gif', HTML, 'image/gif']] as const) {
      const res = await upload('admin1', name, content, type);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error).toBe('The logo must be a PNG, JPEG, WebP or GIF image');
    }
    const big = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)]);
    expect((await upload('admin1', 'big.png', big)).statusCode).toBe(413);
    expect((await upload('admin2', 'logo.png', PNG)).statusCode).toBe(403);
    expect((await upload('anonymous', 'logo.png', PNG)).statusCode).toBe(401);
    // Nothing refused replaced the logo.
    expect(await logoUrl()).toBe(url);
    const served = await t.app.inject(url);
    expect(served.headers['content-type']).toBe('image/png');
    expect(String(served.headers['content-security-policy'])).toContain('sandbox');
  });

  it('an empty address removes the logo', async () => {
    expect((await edit('admin1', { logo_url: '' })).json().library.logo_url).toBeNull();
    expect((await t.app.inject('/collector/api/libraries/1/logo')).statusCode).toBe(404);
  });
});

describe('logo addresses on private networks', () => {
  let t: TestApp;
  let host: Awaited<ReturnType<typeof logoHost>>;
  beforeAll(async () => {
    t = await testApp();
    host = await logoHost();
    await t.services.accounts.createUser({ username: 'admin1', email: 'a@example.org', password: TEST_PASSWORD, library_admin: true, libraryIds: [1] });
  });
  afterAll(async () => {
    await host.close();
    await t.close();
  });

  it('are not fetched (the harvest\'s SSRF block), and the refusal names no address', async () => {
    const cookie = await loginCookie(t, 'admin1');
    const res = await t.app.inject({
      method: 'POST', url: '/collector/api/library/details/1', headers: { cookie, 'x-csrftoken': 'test-csrf-token', 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Biblioteca Uno', email_internal: 'staff@uno.example.org', logo_url: `${host.url}/logo.png` }),
    });
    expect(res.json().error).toBe('The logo could not be fetched from this address: upload the image file instead');
    expect(res.body).not.toContain('127.0.0.1');
    expect((await t.app.inject('/collector/api/libraries/1')).json().library.logo_url).toBeNull();
  });
});
