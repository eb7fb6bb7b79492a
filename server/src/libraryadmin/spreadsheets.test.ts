import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody, testApp, type TestApp } from '../test/fixture.ts';
import { loginCookie } from './test-helpers.ts';
import { SPREADSHEET_JOB } from './spreadsheets.ts';
import { readCsv } from './spreadsheet.ts';
import { xlsxWorkbook } from './xlsx-fixture.ts';
import { BACKENDS } from '../test/backends.ts';

describe.each(BACKENDS)('spreadsheet uploads on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let siteId: number;
  let calibreSiteId: number;

  beforeAll(async () => {
    t = await testApp(undefined, {}, dialect);
    await t.services.accounts.createUser({ username: 'admin1', email: 'a1@example.org', password: 'a long test password', library_admin: true, libraryIds: [1] });
    cookie = await loginCookie(t, 'admin1');
    const ins = t.services.db.sqlite.prepare("INSERT INTO sites (library_id, title, site_type, csv_type) VALUES (1, ?, 'csv', ?)");
    siteId = Number(ins.run('Shelf list', 'generic').lastInsertRowid);
    calibreSiteId = Number(ins.run('Calibre export', 'calibre').lastInsertRowid);
  });
  afterAll(() => t.close());

  function multipart(fields: Record<string, string>, file?: { name: string; content: Uint8Array | string }) {
    return multipartBody(fields, file && { field: 'spreadsheet', ...file });
  }

  async function upload(content: Uint8Array | string, fields: Record<string, string> = {}, name = 'sheet.csv') {
    const { payload, contentType } = multipart({ site_id: String(siteId), comment: 'test', ...fields }, { name, content });
    return t.app.inject({ method: 'POST', url: '/collector/api/spreadsheet/1', headers: { cookie, 'x-csrftoken': 'test-csrf-token', 'content-type': contentType }, payload });
  }

  const post = (url: string, body: unknown = {}) => t.app.inject({
    method: 'POST', url: `/collector/api${url}`, headers: { cookie, 'x-csrftoken': 'test-csrf-token', 'content-type': 'application/json' }, payload: JSON.stringify(body),
  });

  /** Runs the queued spreadsheet jobs as the worker would. */
  async function runJobs() {
    const handler = t.services.spreadsheets.jobHandler();
    for (;;) {
      const job = t.services.jobs.claim('test-worker', [SPREADSHEET_JOB]);
      if (!job) return;
      try {
        t.services.jobs.finish(job.id, await handler.run(job.payload, { jobId: job.id, signal: new AbortController().signal }));
      } catch (e) {
        t.services.jobs.fail(job.id, (e as Error).message);
      }
    }
  }

  async function uploadAndProcess(content: Uint8Array | string, fields: Record<string, string> = {}) {
    const up = await upload(content, fields);
    expect(up.statusCode, up.body).toBe(200);
    const res = await post(`/spreadsheet/process/${up.json().uploaded}`);
    expect(res.statusCode, res.body).toBe(200);
    await runJobs();
    return (await t.app.inject({ method: 'GET', url: `/collector/api/spreadsheet/status/${up.json().uploaded}`, headers: { cookie } })).json();
  }

  const dsOfSite = (id = siteId) => t.services.db.sqlite.prepare('SELECT identifier, title, datestamp, authors, languages, year_edition FROM data_sources WHERE site_id = ? ORDER BY identifier').all(id) as { identifier: string; title: string; datestamp: string; authors: string; languages: string; year_edition: number | null }[];
  const searchTotal = async (query: string) => (await t.app.inject({ method: 'GET', url: `/collector/api/search?query=${encodeURIComponent(query)}` })).json().total_entries as number;

  const GOOD = 'identifier,title,subtitle,authors,languages,year_edition,publisher,uri\n' +
    'sh-1,Quaderni del carcere,,Antonio Gramsci,it,1948,Einaudi,https://example.org/q\n' +
    'sh-2,"Lettere, scritti e frammenti","con note","Maria Rossi; Luigi Bianchi",it;en,1975,,\n';

  describe('spreadsheet sites', () => {
    it('lists the csv sites of the library with the expected column names', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/collector/api/spreadsheet/1', headers: { cookie } });
      const sites = res.json().sites;
      expect(sites.map((s: { id: number }) => s.id)).toEqual([calibreSiteId, siteId]);
      expect(sites[1].expected_headers).toEqual(expect.arrayContaining(['title', 'authors', 'place_date_of_publication_distribution', 'identifier']));
      expect(sites[0].expected_headers).toEqual(expect.arrayContaining(['uuid', 'title', 'authors', 'pubdate', 'comments']));
      // The spec's form shows column_names as text: the same headers joined with ", ".
      for (const s of sites) expect(s.column_names).toBe(s.expected_headers.join(', '));
    });
  });

  describe('upload and process', () => {
    it('answers a sample and the count, stores nothing until processed, then ingests through the one path', async () => {
      const up = await upload(GOOD);
      expect(up.statusCode, up.body).toBe(200);
      const body = up.json();
      expect(body).toMatchObject({ success: 'Spreadsheet uploaded', number_of_records: 2, bad_rows: [] });
      expect(body.sample).toContainEqual({ name: 'title', value: 'Quaderni del carcere' });
      expect(dsOfSite()).toEqual([]);
      expect(await searchTotal('Gramsci')).toBe(0);

      const proc = await post(`/spreadsheet/process/${body.uploaded}`);
      expect(proc.json()).toMatchObject({ success: 'Processing started', status: 'queued', total: 2 });
      // The spec's client reads a refusal from a 200 answer's `error`.
      expect((await post(`/spreadsheet/process/${body.uploaded}`)).json()).toEqual({ error: 'This upload is already processed or being processed' });
      await runJobs();
      const st = (await t.app.inject({ method: 'GET', url: `/collector/api/spreadsheet/status/${body.uploaded}`, headers: { cookie } })).json();
      expect(st).toMatchObject({ status: 'finished', done: 2, stored: 2, removed: 0, error: null });
      const rows = dsOfSite();
      expect(rows.map((r) => r.title)).toEqual(['Quaderni del carcere', 'Lettere, scritti e frammenti']);
      expect(JSON.parse(rows[1].authors)).toEqual(['Maria Rossi', 'Luigi Bianchi']);
      expect(JSON.parse(rows[1].languages)).toEqual(['it', 'en']);
      expect(await searchTotal('Gramsci')).toBe(1);
      expect(await searchTotal('frammenti')).toBe(1);
    });

    it('re-uploading an unchanged file changes nothing (no datestamp bump, no reindex)', async () => {
      const before = dsOfSite();
      const seq = t.services.db.sqlite.prepare('SELECT max(seq) FROM search_docs').pluck().get();
      await new Promise((r) => setTimeout(r, 5));
      const st = await uploadAndProcess(GOOD);
      expect(st.status).toBe('finished');
      expect(dsOfSite()).toEqual(before);
      expect(t.services.db.sqlite.prepare('SELECT max(seq) FROM search_docs').pluck().get()).toBe(seq);
    });

    it('a changed row keeps its acquisition datestamp', async () => {
      const before = dsOfSite();
      await uploadAndProcess(GOOD.replace('Einaudi', 'Einaudi Editore'));
      const after = dsOfSite();
      expect(after[0].datestamp).toBe(before[0].datestamp);
      expect(t.services.db.sqlite.prepare("SELECT publisher FROM data_sources WHERE identifier = 'sh-1'").pluck().get()).toBe('Einaudi Editore');
    });

    it('replace_all removes the site records that are not in the file and drops them from the search', async () => {
      const only = 'identifier;title;authors\nsh-2;Lettere, scritti e frammenti;Maria Rossi; Luigi Bianchi\n'.replace('Maria Rossi; Luigi Bianchi', '"Maria Rossi; Luigi Bianchi"');
      // Without replace_all, nothing goes.
      await uploadAndProcess(only);
      expect(dsOfSite().map((r) => r.identifier)).toEqual(['sh-1', 'sh-2']);
      const st = await uploadAndProcess(only, { replace_all: 'on' });
      expect(st).toMatchObject({ status: 'finished', removed: 1 });
      expect(dsOfSite().map((r) => r.identifier)).toEqual(['sh-2']);
      expect(await searchTotal('Gramsci')).toBe(0);
      // Records of other sites are untouched.
      expect(await searchTotal('Kropotkin')).toBeGreaterThan(0);
    });

    it('reads semicolons, a BOM, CRLF line ends and quoted cells over several lines', async () => {
      const text = '\uFEFFtitle;authors;description\r\n"Multi\r\nline title";Ada Author;"say ""hi"""\r\n';
      const up = await upload(text);
      expect(up.statusCode, up.body).toBe(200);
      expect(up.json().sample).toEqual([{ name: 'title', value: 'Multi\r\nline title' }, { name: 'authors', value: 'Ada Author' }, { name: 'description', value: 'say "hi"' }]);
      expect(readCsv('a,b\n1,2\n\n3,4').map((r) => r.line)).toEqual([1, 2, 4]);
    });

    it('answers the columns of the header row: the recognised ones with their field, the others with null', async () => {
      const up = await upload('author,title,year,language,year_edition\nGramsci,Quaderni,1948,it,1948\n');
      expect(up.statusCode, up.body).toBe(200);
      expect(up.json().columns).toEqual([
        { name: 'author', field: null },
        { name: 'title', field: 'title' },
        { name: 'year', field: null },
        { name: 'language', field: null },
        { name: 'year_edition', field: 'year_edition' },
      ]);
    });

    it('reads XLSX workbooks (shared and inline strings, numbers)', async () => {
      const rows = `
        <row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>year_edition</t></is></c></row>
        <row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="inlineStr"><is><t>Emma &amp; Co</t></is></c><c r="C2"><v>1911</v></c></row>
        <row r="3"><c r="C3"><v>19x</v></c></row>`;
      const shared = ['<t>title</t>', '<t>authors</t>', '<r><t>Anarchism and </t></r><r><t>Other Essays</t></r>'];
      const xlsx = xlsxWorkbook([{ name: 'Sheet1', rows }], shared);
      const up = await upload(xlsx, {}, 'sheet.xlsx');
      expect(up.statusCode, up.body).toBe(200);
      expect(up.json()).toMatchObject({ number_of_records: 1, bad_rows: [{ line: 3 }] });
      expect(up.json().sample).toEqual([{ name: 'title', value: 'Anarchism and Other Essays' }, { name: 'authors', value: 'Emma & Co' }, { name: 'year_edition', value: '1911' }]);
    });

    it("reads Calibre's CSV export", async () => {
      const calibre = 'title,authors,publisher,pubdate,isbn,languages,comments,tags,uuid,id\n' +
        'The Conquest of Bread,Peter Kropotkin & Someone Else,Chapman,1906-01-01T00:00:00+00:00,9781234567890,"eng,fra",<p>A classic</p>,"history, economy",9f1c-uuid,12\n' +
        'No Date Book,Anon,,0101-01-01T00:00:00+00:00,,ita,,,,13\n';
      const { payload, contentType } = multipart({ site_id: String(calibreSiteId) }, { name: 'calibre.csv', content: calibre });
      const up = await t.app.inject({ method: 'POST', url: '/collector/api/spreadsheet/1', headers: { cookie, 'x-csrftoken': 'test-csrf-token', 'content-type': contentType }, payload });
      expect(up.statusCode, up.body).toBe(200);
      await post(`/spreadsheet/process/${up.json().uploaded}`);
      await runJobs();
      const rows = dsOfSite(calibreSiteId);
      expect(rows).toMatchObject([
        { identifier: '13', title: 'No Date Book', year_edition: null, languages: '["it"]' },
        { identifier: '9f1c-uuid', title: 'The Conquest of Bread', year_edition: 1906, languages: '["en","fr"]', authors: '["Peter Kropotkin","Someone Else"]' },
      ]);
    });
  });

  describe('bad, huge and wrongly typed files', () => {
    it('reports each bad row with its line number, and processes the good ones only when asked', async () => {
      const bad = 'identifier,title,year_edition,uri,languages\n' +
        'b-1,Good one,1999,,\n' +
        'b-2,,2000,,\n' +
        'b-3,Bad year,MCMXC,,\n' +
        'b-1,Duplicate,2001,,\n' +
        'b-5,Bad uri,,ftp://x,\n' +
        'b-6,Bad language,,,english\n';
      const up = await upload(bad);
      expect(up.statusCode, up.body).toBe(200);
      const body = up.json();
      expect(body.number_of_records).toBe(1);
      expect(body.bad_rows.map((e: { line: number }) => e.line)).toEqual([3, 4, 5, 6, 7]);
      expect(body.bad_row_count).toBe(5);
      expect(body.bad_rows[0].message).toMatch(/title is empty/);
      expect(body.bad_rows[2].message).toMatch(/line 2/);
      const refused = await post(`/spreadsheet/process/${body.uploaded}`);
      expect(refused.statusCode).toBe(200);
      expect(refused.json().error).toMatch(/5 row\(s\) with errors/);
      expect(t.services.db.sqlite.prepare("SELECT count(*) FROM data_sources WHERE identifier LIKE 'b-%' AND site_id = ?").pluck().get(siteId)).toBe(0);
      const ok = await post(`/spreadsheet/process/${body.uploaded}`, { skip_bad_rows: true });
      expect(ok.statusCode).toBe(200);
      await runJobs();
      expect(t.services.db.sqlite.prepare("SELECT identifier FROM data_sources WHERE identifier LIKE 'b-%' AND site_id = ?").pluck().all(siteId)).toEqual(['b-1']);
    });

    it('refuses a file where no row is good, with the line numbers (200 with error, the spec\'s way)', async () => {
      const res = await upload('title,year_edition\n,1\nX,abc\n');
      expect(res.statusCode).toBe(200);
      expect(res.json().uploaded).toBeUndefined();
      expect(res.json().error).toMatch(/No row can be stored/);
      expect(res.json().bad_rows.map((e: { line: number }) => e.line)).toEqual([2, 3]);
    });

    it('refuses files without a title column, empty, not UTF-8, binary or old Excel', async () => {
      const cases: [Uint8Array | string, RegExp][] = [
        ['name,author\nx,y\n', /"title" column/],
        ['', /empty/],
        ['title\n', /no records/],
        [Buffer.from('title\nCaf\xe9\n', 'latin1'), /not UTF-8/],
        [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), /not a spreadsheet/],
        [Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), /\.xls/],
        [Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), /XLSX file cannot be read/],
      ];
      for (const [content, msg] of cases) {
        const res = await upload(content);
        expect(res.statusCode, String(content)).toBe(200);
        expect(res.json().error).toMatch(msg);
        expect(res.json().uploaded).toBeUndefined();
      }
      expect(t.services.db.sqlite.prepare("SELECT count(*) FROM spreadsheet_uploads WHERE status = 'uploaded' AND bad_rows = 0 AND number_of_records = 0").pluck().get()).toBe(0);
    });

    it('refuses a file over the size limit with 413', async () => {
      const huge = 'title\n' + 'A fairly long title for a record\n'.repeat(340_000); // > 10 MB
      const res = await upload(huge);
      expect(res.statusCode).toBe(413);
      expect(res.json().error).toMatch(/too large/);
    });

    it('refuses a site of another library, a missing file, and a cancelled upload', async () => {
      const other = Number(t.services.db.sqlite.prepare("INSERT INTO sites (library_id, title, site_type) VALUES (2, 'Other', 'csv')").run().lastInsertRowid);
      const refused = await upload(GOOD, { site_id: String(other) });
      expect(refused.statusCode).toBe(200);
      expect(refused.json()).toEqual({ error: 'Please choose one of the spreadsheet sites of this library' });
      const { payload, contentType } = multipart({ site_id: String(siteId) });
      const none = await t.app.inject({ method: 'POST', url: '/collector/api/spreadsheet/1', headers: { cookie, 'x-csrftoken': 'test-csrf-token', 'content-type': contentType }, payload });
      expect(none.json().error).toMatch(/choose a file/);
      const up = await upload(GOOD);
      expect((await post(`/spreadsheet/cancel/${up.json().uploaded}`)).statusCode).toBe(200);
      expect((await post(`/spreadsheet/process/${up.json().uploaded}`)).json()).toEqual({ error: 'This upload was cancelled' });
    });

    it('lets the library admin add a spreadsheet site to their library only', async () => {
      const res = await post('/spreadsheet/site/1', { title: 'More uploads', csv_type: 'calibre' });
      expect(res.json().site).toMatchObject({ title: 'More uploads', csv_type: 'calibre' });
      expect((await post('/spreadsheet/site/2', { title: 'Not mine' })).statusCode).toBe(403);
      expect((await post('/spreadsheet/site/1', { title: '' })).statusCode).toBe(400);
    });

    it('keeps uploads and their status to the library admins', async () => {
      const up = await upload(GOOD);
      await t.services.accounts.createUser({ username: 'admin2', email: 'a2@example.org', password: 'a long test password', library_admin: true, libraryIds: [2] });
      const other = await loginCookie(t, 'admin2');
      const res = await t.app.inject({ method: 'GET', url: `/collector/api/spreadsheet/status/${up.json().uploaded}`, headers: { cookie: other } });
      expect(res.statusCode).toBe(403);
      const anon = await t.app.inject({ method: 'GET', url: `/collector/api/spreadsheet/status/${up.json().uploaded}` });
      expect(anon.statusCode).toBe(401);
    });
  });
});
