// Issue 27, script links: a Muse text's javascript:/data:/vbscript: links come out of /full-text as text,
// and a library's url or a record's uri is never offered as a script link (forms refuse one; an old row
// holding one is served as null), replayed over HTTP through the whole app.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlsOf } from '../../../packages/muse/src/testing/html-urls.ts';
import { CSRF_HEADERS, fixtureLines, testApp, type TestApp } from '../test/fixture.ts';


const SCRIPT_TARGETS = [
  'javascript:alert(document.cookie)', 'JaVaScRiPt:alert(1)', '\u0001javascript:alert(1)', 'java\tscript:alert(1)',
  '&#106;avascript:alert(1)', 'javascript&colon;alert(1)', 'vbscript:msgbox(1)', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  '//evil.example/steal',
];
const MUSE = `#title Links\n#lang en\n\n${SCRIPT_TARGETS.map((t, i) => `Link ${i}: [[${t}][click ${i}]] and [[${t}]].`).join('\n\n')}\n\nA fine one: [[https://example.org/ok][ok]] and [[#top][up]].\n`;

let t: TestApp;
let dir: string;
let dsId: number;
let cookie: string;

async function login(username: string, password: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/collector/api/auth/login', headers: CSRF_HEADERS, payload: { username, password } });
  expect(res.statusCode).toBe(200);
  return `${CSRF_HEADERS.cookie}; sessionid=${res.cookies.find((c) => c.name === 'sessionid')!.value}`;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-links-'));
  fs.writeFileSync(path.join(dir, 'links.muse'), MUSE);
  const lines = fixtureLines();
  lines.push({
    type: 'entry', id: 900, title: 'A text with script links', authors: ['Mallory'], languages: ['en'], year: 2020,
    data_sources: [{ library_id: 1, identifier: 'links-1', year_edition: 2020, downloads: [], muse_file: path.join(dir, 'links.muse') }],
  });
  t = await testApp(lines);
  dsId = t.services.db.sqlite.prepare("SELECT id FROM data_sources WHERE identifier = 'links-1'").pluck().get() as number;
  await t.services.accounts.createUser({ username: 'libadmin', email: 'libadmin@example.org', password: 'libadmin password 1', library_admin: true, libraryIds: [1] });
  await t.services.accounts.createUser({ username: 'root', email: 'root@example.org', password: 'root password 1', is_superuser: true });
  cookie = await login('libadmin', 'libadmin password 1');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('script links', () => {
  it('/full-text serves a Muse text\'s script links as their text, its safe links as links', async () => {
    const res = await t.app.inject({ url: `/collector/api/full-text/${dsId}` });
    expect(res.statusCode).toBe(200);
    const html = res.json().html as string;
    const urls = urlsOf(html);
    expect(urls.filter((u) => !u.startsWith('#'))).toEqual(['https://example.org/ok']);
    for (const u of urls) expect(u.replace(/[\u0000-\u0020]/g, '')).toMatch(/^(https:\/\/example\.org\/ok|#)/);
    for (let i = 0; i < SCRIPT_TARGETS.length; i++) expect(html).toContain(`click ${i}`);
  });

  it('a library admin cannot set the library url to a script link; nor can a superuser', async () => {
    const current = (await t.app.inject({ url: '/collector/api/library/details/1', headers: { cookie } })).json();
    expect(current.library ?? current).toBeTruthy();
    for (const url of ['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'example.org']) {
      const res = await t.app.inject({
        method: 'POST', url: '/collector/api/library/details/1', headers: { cookie, 'x-csrftoken': CSRF_HEADERS['x-csrftoken'] },
        payload: { name: 'Biblioteca Uno', email_internal: 'uno@example.org', url },
      });
      // the spec answers a form's refusal with 200 and `error` (http/errors.ts)
      expect(res.json().error, url).toMatch(/url: Invalid URL/);
      expect(res.json().library).toBeUndefined();
    }
    const root = await login('root', 'root password 1');
    const admin = await t.app.inject({
      method: 'PUT', url: '/collector/api/admin/libraries/1', headers: { cookie: root, 'x-csrftoken': CSRF_HEADERS['x-csrftoken'] },
      payload: { name: 'Biblioteca Uno', url: 'javascript:alert(1)' },
    });
    expect(admin.statusCode).toBe(400);
    const stored = t.services.db.sqlite.prepare('SELECT url FROM libraries WHERE id = 1').pluck().get();
    expect(String(stored)).not.toMatch(/script/i);
    const ok = await t.app.inject({
      method: 'POST', url: '/collector/api/library/details/1', headers: { cookie, 'x-csrftoken': CSRF_HEADERS['x-csrftoken'] },
      payload: { name: 'Biblioteca Uno', email_internal: 'uno@example.org', url: 'https://uno.example.org/' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('an old row holding a script link is served without it (library url, record uri)', async () => {
    t.services.db.sqlite.prepare("UPDATE libraries SET url = 'javascript:alert(1)' WHERE id = 1").run();
    t.services.db.sqlite.prepare("UPDATE data_sources SET uri = ' JAVASCRIPT:alert(1)' WHERE id = ?").run(dsId);
    t.services.libraries.invalidate();
    const lib = (await t.app.inject({ url: '/collector/api/libraries/1' })).json();
    expect(JSON.stringify(lib)).not.toMatch(/javascript/i);
    const list = (await t.app.inject({ url: '/collector/api/libraries' })).body;
    expect(list).not.toMatch(/javascript/i);
    const entryId = t.services.db.sqlite.prepare('SELECT entry_id FROM data_sources WHERE id = ?').pluck().get(dsId) as number;
    const entry = (await t.app.inject({ url: `/collector/api/entry/${entryId}` })).json();
    expect(entry.data_sources[0].uri).toBeNull();
    expect(JSON.stringify(entry)).not.toMatch(/javascript/i);
  });
});
