// Contract: the smaller calls as the spec's client (the anchor's front end) sends them, and the fields
// it reads from their answers. Payloads written down from reading that client: the library admin's users
// table (a DashboardTable on /library/list-users), the CSV upload form and its "Process File" button (a
// POST without a body), the home page's latest additions, the author box's Wikidata card, the entry
// page's full-text reader, the library page, and the description links it checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLines, multipartBody, testApp, type TestApp } from '../fixture.ts';
import { loginCookie } from '../../libraryadmin/test-helpers.ts';

let t: TestApp;
let admin: string;
let siteId: number;
const CSRF = 'test-csrf-token';

const NEW_URI = 'https://texts.example.org/library/the-newest-text';
const PRIVATE_URI = 'https://private.example.org/library/secret';

beforeAll(async () => {
  const extra = [
    { type: 'entry', id: 40, title: 'The Newest Text', subtitle: 'Anarchism today', authors: ['Recent Writer'], languages: ['en'], year: 2020, aggregation_id: null, translation_of: null, fulltext: null,
      data_sources: [{ library_id: 1, identifier: 'a-40', year_edition: 2020, publisher: null, isbn: null, description: null, shelf_location_code: null, downloads: [], uri: NEW_URI, datestamp: '2030-01-02T00:00:00Z' }] },
    { type: 'entry', id: 41, title: 'Private Newest', subtitle: null, authors: ['Recent Writer'], languages: ['en'], year: 2021, aggregation_id: null, translation_of: null, fulltext: null,
      data_sources: [{ library_id: 3, identifier: 'c-41', year_edition: 2021, publisher: null, isbn: null, description: null, shelf_location_code: null, downloads: [], uri: PRIVATE_URI, datestamp: '2030-01-03T00:00:00Z' }] },
  ];
  t = await testApp([...fixtureLines(), ...extra]);
  await t.services.accounts.createUser({ username: 'libadmin', email: 'libadmin@example.org', password: 'a long test password', library_admin: true, libraryIds: [1] });
  admin = await loginCookie(t, 'libadmin');
  // The library creates the account itself (its "Add user" form), so its admin may see the e-mail it gave.
  const created = await t.app.inject({
    method: 'POST', url: '/collector/api/library/create-user/1',
    headers: { cookie: admin, 'x-csrftoken': CSRF, 'content-type': 'application/json' },
    payload: JSON.stringify({ username: 'helper', email: 'helper@example.org', can_merge: true }),
  });
  if (created.json().status !== 'created') throw new Error(`create-user: ${created.body}`);
  siteId = Number(t.services.db.sqlite.prepare("INSERT INTO sites (library_id, title, site_type, csv_type) VALUES (1, 'Shelf list', 'csv', 'generic')").run().lastInsertRowid);
});
afterAll(() => t.close());

/** A GET as the client's axios sends it (the session cookie rides along). */
const get = (url: string, cookie = '') => t.app.inject({ method: 'GET', url: `/collector/api${url}`, headers: cookie ? { cookie } : {} });

describe('GET /library/list-users/{id} (the users table: a DashboardTable)', () => {
  it('answers fields (name, label) and records holding every field, each record with the id the trash button posts', async () => {
    const res = await get('/library/list-users/1', admin);
    expect(res.statusCode).toBe(200);
    const { fields, records } = res.json() as { fields: { name: string; label: string }[]; records: Record<string, unknown>[] };
    expect(fields.map((f) => f.label)).toEqual(['Id', 'Username', 'Email', 'Name', 'Last Login', 'Expires', 'Can Merge']);
    const helper = records.find((r) => r.username === 'helper')!;
    expect(helper).toBeDefined();
    for (const f of fields) expect(helper).toHaveProperty(f.name);
    expect(helper).toMatchObject({ email: 'helper@example.org', can_merge: true });
    // The table's trash button: POST remove-user {id}, then the list again.
    const removed = await t.app.inject({
      method: 'POST', url: '/collector/api/library/remove-user/1',
      headers: { cookie: admin, 'x-csrftoken': CSRF, 'content-type': 'application/json' }, payload: JSON.stringify({ id: helper.id }),
    });
    expect(removed.json()).toMatchObject({ success: expect.any(String) });
    expect(((await get('/library/list-users/1', admin)).json().records as { username: string }[]).map((r) => r.username)).not.toContain('helper');
  });
});

describe('the CSV upload form (GET /spreadsheet/{library}, POST multipart, POST /spreadsheet/process/{id} without a body)', () => {
  it('lists the sites with column_names as the text shown under "Expected headers"', async () => {
    const { sites } = (await get('/spreadsheet/1', admin)).json() as { sites: { id: number; title: string; column_names: unknown }[] };
    const site = sites.find((s) => s.id === siteId)!;
    expect(site.title).toBe('Shelf list');
    expect(typeof site.column_names).toBe('string');
    expect(site.column_names).toMatch(/^identifier, title, subtitle, authors, /);
  });

  async function upload(title: string) {
    // What the form appends: spreadsheet, site_id, comment, replace_all ("1" or "").
    const { payload, contentType } = multipartBody(
      { site_id: String(siteId), comment: '', replace_all: '' },
      { field: 'spreadsheet', name: 'sheet.csv', content: `identifier,title,authors\nrow-1,${title},Someone\n` },
    );
    const res = await t.app.inject({ method: 'POST', url: '/collector/api/spreadsheet/1', headers: { cookie: admin, 'x-csrftoken': CSRF, 'content-type': contentType }, payload });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { success: string; sample: { name: string; value: string }[]; uploaded: number; error?: string };
    expect(body.error).toBeUndefined();
    expect(body.sample).toContainEqual({ name: 'title', value: title });
    return body.uploaded;
  }

  it('"Process File": axios posts no data (no body, no content type); the answer carries success', async () => {
    const id = await upload('A sheet title');
    const res = await t.app.inject({ method: 'POST', url: `/collector/api/spreadsheet/process/${id}`, headers: { cookie: admin, 'x-csrftoken': CSRF } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: expect.any(String) });
  });

  it('a refused file is answered 200 with the error the form shows (no uploaded id, no Process File button)', async () => {
    const { payload, contentType } = multipartBody(
      { site_id: String(siteId), comment: '', replace_all: '1' },
      { field: 'spreadsheet', name: 'sheet.csv', content: 'name,author\nx,y\n' },
    );
    const res = await t.app.inject({ method: 'POST', url: '/collector/api/spreadsheet/1', headers: { cookie: admin, 'x-csrftoken': CSRF, 'content-type': contentType }, payload });
    expect(res.statusCode).toBe(200);
    expect(res.json().error).toMatch(/"title" column/);
    expect(res.json().uploaded).toBeUndefined();
  });

  it('a JSON null or empty object body is accepted too', async () => {
    for (const payload of ['null', '{}']) {
      const id = await upload(`Sheet ${payload}`);
      const res = await t.app.inject({
        method: 'POST', url: `/collector/api/spreadsheet/process/${id}`,
        headers: { cookie: admin, 'x-csrftoken': CSRF, 'content-type': 'application/json' }, payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().success).toEqual(expect.any(String));
    }
  });
});

describe('GET /latest?query= (the home page: latest additions, searched as the visitor types)', () => {
  it('answers entries, newest first, as search matches', async () => {
    const res = await get('/latest?query=');
    expect(res.statusCode).toBe(200);
    const { entries } = res.json() as { entries: { entry_id: number; title: unknown[]; data_sources: { library_id: number }[] }[] };
    expect(entries.length).toBeGreaterThan(1);
    expect(entries.length).toBeLessThanOrEqual(10);
    const newest = entries[0];
    expect(newest.entry_id).toBe(t.services.db.sqlite.prepare("SELECT id FROM entries WHERE title = 'The Newest Text'").pluck().get());
    expect(newest.data_sources[0].library_id).toBe(1);
    // The private library's text is not shown to a visitor.
    const titles = JSON.stringify(entries.map((e) => e.title));
    expect(titles).toContain('The Newest Text');
    expect(titles).not.toContain('Private Newest');
  });

  it('matches the last word as it is being typed', async () => {
    const { entries } = (await get('/latest?query=newe')).json() as { entries: { entry_id: number }[] };
    expect(entries).toHaveLength(1);
    const { entries: two } = (await get(`/latest?query=${encodeURIComponent('Kropotkin mutu')}`)).json() as { entries: unknown[] };
    expect(two.length).toBeGreaterThan(0);
  });

  it('refuses a malformed query with a JSON error', async () => {
    const res = await get(`/latest?page_size=${1000}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('error');
  });
});

describe('GET /agents/{id}/wikidata/{language} (the author box)', () => {
  it('an author without a Wikidata id: the card is named after the author, statements [] and link null', async () => {
    const id = t.services.db.sqlite.prepare("SELECT id FROM agents WHERE name = 'Errico Malatesta'").pluck().get();
    const res = await get(`/agents/${id}/wikidata/en`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Errico Malatesta', link: null, statements: [] });
  });
});

describe('GET /full-text/{data_source} (the entry page reader: table of contents beside the text)', () => {
  it('answers html in the Text::Amuse layout: div.table-of-contents, then div#thework', async () => {
    const ds = t.services.db.sqlite.prepare("SELECT id FROM data_sources WHERE identifier = 'a-11'").pluck().get() as number;
    const res = await get(`/full-text/${ds}`);
    expect(res.statusCode).toBe(200);
    const { html } = res.json() as { html: string };
    expect(html).toMatch(/^<div class="table-of-contents" dir="ltr">\n<p class="tableofcontentline toclevel1"><span class="tocprefix">&#160;&#160;<\/span><a href="#toc1">First chapter<\/a><\/p>\n<\/div>\n<div id="thework" dir="ltr">\n/);
    expect(html).toContain('id="toc1"');
    expect(html.trimEnd()).toMatch(/<\/div>$/);
    expect(html).toContain(`src="/collector/api/file/${ds}/picture.png"`);
  });
});

describe('GET /libraries/{id} (the library page checks `library`)', () => {
  it('an unknown or hidden library answers library null, which the page shows as no library', async () => {
    for (const id of [3, 999]) {
      const res = await get(`/libraries/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().library).toBeNull();
    }
    expect((await get('/libraries/1')).json().library).toMatchObject({ id: 1, name: 'Biblioteca Uno' });
  });
});

describe('GET /check-internal-url?url= (links in descriptions turned into entry links)', () => {
  it('answers entry_id for a catalogued address, {} otherwise', async () => {
    const id = t.services.db.sqlite.prepare("SELECT id FROM entries WHERE title = 'The Newest Text'").pluck().get();
    expect((await get(`/check-internal-url?url=${encodeURIComponent(NEW_URI)}`)).json()).toEqual({ entry_id: id });
    expect((await get(`/check-internal-url?url=${encodeURIComponent('https://elsewhere.example.org/')}`)).json()).toEqual({});
    // A text of a library the visitor may not see is not revealed.
    expect((await get(`/check-internal-url?url=${encodeURIComponent(PRIVATE_URI)}`)).json()).toEqual({});
  });

  it('refuses what is not an http(s) address, or is too long, with a JSON error', async () => {
    for (const url of ['', 'javascript:alert(1)', `https://example.org/${'a'.repeat(3000)}`]) {
      const res = await get(`/check-internal-url?url=${encodeURIComponent(url)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toHaveProperty('error');
    }
  });
});

describe('GET /entry/{id}: the "Part of:" / "Contains:" boxes (EntryShortBox)', () => {
  // The client links each box to record.entry_id, lists record.authors (id, value), prints every
  // record.title[i].value as a heading and every record.subtitle[i].value under it, and
  // record.languages (id, value) as badges.
  it('answers the short entries with title and subtitle as lists of {id, value}', async () => {
    const anthologyId = (await get('/search?query=Anthology')).json().matches[0].entry_id as number;
    const anthology = (await get(`/entry/${anthologyId}`)).json();
    expect(anthology.aggregated.length).toBe(2);
    for (const part of anthology.aggregated) {
      expect(part).toMatchObject({ entry_id: expect.any(Number), id: part.entry_id, subtitle: [] });
      expect(part.title).toEqual([{ id: part.entry_id, value: expect.stringMatching(/Essay$/) }]);
      for (const a of part.authors) expect(a).toEqual({ id: expect.any(Number), value: expect.any(String) });
      expect(part.languages).toEqual([{ id: 'en', value: 'English' }]);
    }
    const part = (await get(`/entry/${anthology.aggregated[0].entry_id}`)).json();
    expect(part.aggregations).toEqual([expect.objectContaining({ entry_id: anthologyId, title: [{ id: anthologyId, value: 'Anthology of Essays' }] })]);
  });
});
