// Issue 27 item 6, and the logo remark: a library admin learned any account's e-mail by attaching its
// username with create-user (the superuser's included; /auth/user-check says which names exist) and
// reading list-users; and a library's logo_url widened the site-wide CSP img-src to a host of its choosing.
// Now: a superuser is never attached, an attached account's e-mail, name and last login stay hidden from
// the library that attached it, and logos are kept and served by us (uploaded, or fetched once through the
// harvest fetch and its SSRF block), checked by their bytes.
import fs from 'node:fs';
import type { Attack } from './types.ts';

const LIBRARY = 3;
const PNG = fs.readFileSync(new URL('../../demo/logo.png', import.meta.url));
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"/>');

const imgSrc = (csp: string | null) => (csp ?? '').split(';').map((d) => d.trim()).find((d) => d.startsWith('img-src')) ?? '';

export const attack: Attack = {
  name: 'accounts',
  async run(ctx) {
    const root = await ctx.account({ superuser: true });
    const reader = await ctx.account();
    const admin = await ctx.account({ libraryAdmin: LIBRARY });
    await ctx.login(reader); // a last login the attacker would like to read
    const c = await ctx.login(admin);
    const api = '/collector/api';

    // 1. Enumeration: the name exists (the spec's user-check), but the superuser is not attached.
    const check = await c.call('GET', `${api}/auth/user-check/${encodeURIComponent(root.username)}`);
    ctx.log(`user-check says ${JSON.stringify(check.json)}`);
    const attachRoot = await c.call('POST', `${api}/library/create-user/${LIBRARY}`, { username: root.username, email: 'guess@example.org' });
    ctx.check(!attachRoot.json?.success && !!attachRoot.json?.error, `attaching the superuser is refused (got ${attachRoot.status} ${JSON.stringify(attachRoot.json)})`);
    let users = await c.call('GET', `${api}/library/list-users/${LIBRARY}`);
    const listed = users.bytes.toString('utf8');
    ctx.check(!listed.includes(root.email) && !listed.includes(`"${root.username}"`), 'list-users shows neither the superuser nor their e-mail');

    // 2. An attached reader: listed by username, without e-mail, name or login date.
    const attachReader = await c.call('POST', `${api}/library/create-user/${LIBRARY}`, { username: reader.username, email: 'other@example.org', can_merge: true });
    ctx.check(attachReader.json?.status === 'added', `a reader can still be attached, the spec's way (got ${JSON.stringify(attachReader.json)})`);
    users = await c.call('GET', `${api}/library/list-users/${LIBRARY}`);
    const row = (users.json?.records ?? []).find((r: { username: string }) => r.username === reader.username);
    ctx.check(!!row && row.email === '' && row.last_login === null, `the attached reader is listed without e-mail or last login (got ${JSON.stringify(row)})`);
    const details = await c.call('GET', `${api}/library/details/${LIBRARY}`);
    ctx.check(!users.bytes.toString('utf8').includes(reader.email) && !details.bytes.toString('utf8').includes(reader.email), 'the reader\'s e-mail appears in neither list-users nor details');
    const removed = await c.call('POST', `${api}/library/remove-user/${LIBRARY}`, { id: root.id });
    ctx.check(removed.status === 404, `the superuser cannot be detached from a library it is not in (got ${removed.status})`);

    // 3. Logos: an address of the library's choosing never reaches the CSP.
    const lib = details.json.library;
    const body = { name: lib.name, email_internal: lib.email_internal || 'staff@canuts.example.org' };
    const foreign = await c.call('POST', `${api}/library/details/${LIBRARY}`, { ...body, logo_url: 'https://tracker.attacker.invalid/pixel.png' });
    ctx.check(!!foreign.json?.error, `an external logo that cannot be fetched is refused (got ${JSON.stringify(foreign.json)})`);
    const internal = await c.call('POST', `${api}/library/details/${LIBRARY}`, { ...body, logo_url: `${ctx.base}/healthz` });
    ctx.check(!!internal.json?.error && !internal.bytes.toString('utf8').includes('127.0.0.1'), `a logo address on the server's own network is not fetched, nor named back (got ${JSON.stringify(internal.json)})`);

    const upload = (bytes: Buffer, name: string, type: string) => {
      const form = new FormData();
      form.append('logo', new Blob([new Uint8Array(bytes)], { type }), name);
      return c.call('POST', `${api}/library/logo/${LIBRARY}`, form);
    };
    const disguised = await upload(SVG, 'logo.png', 'image/png');
    ctx.check(disguised.status === 400, `an SVG named logo.png is refused (got ${disguised.status} ${JSON.stringify(disguised.json)})`);
    const html = await upload(Buffer.from('<html><script>alert(1)</script></html>'), 'logo.gif', 'image/gif');
    ctx.check(html.status === 400, `an HTML page named logo.gif is refused (got ${html.status})`);
    const ok = await upload(PNG, 'logo.png', 'image/png');
    const logoUrl: string = ok.json?.library?.logo_url ?? '';
    ctx.check(ok.status === 200 && logoUrl.startsWith(`/collector/api/libraries/${LIBRARY}/logo`), `a PNG logo is stored and served from our origin (got ${ok.status} ${logoUrl})`);
    const served = await fetch(`${ctx.base}${logoUrl}`);
    ctx.check(served.headers.get('content-type') === 'image/png' && served.headers.get('x-content-type-options') === 'nosniff', 'the logo is served as image/png with nosniff');
    const page = await fetch(`${ctx.base}/libraries`);
    const policy = imgSrc(page.headers.get('content-security-policy'));
    ctx.check(!policy.includes('attacker') && !/127\.0\.0\.1/.test(policy), `the CSP img-src names no library's host (${policy})`);
  },
};
