// Workbook bombs (issue 27, item 2): a library admin's spreadsheet that unpacks to hundreds of MB, or
// that the reader would blow up in memory or time, is refused with the limit named and changes
// nothing; a large allowed file is read off the main thread, so /healthz and searches answer meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody, testApp, type TestApp } from '../test/fixture.ts';
import { BACKENDS } from '../test/backends.ts';
import { loginCookie } from './test-helpers.ts';
import { catalogueWorkbook, declareSize, xlsxWorkbook } from './xlsx-fixture.ts';
import { SheetParser } from './sheet-parser.ts';
import { SPREADSHEET_MAX_COLUMNS, SPREADSHEET_MAX_ROWS, XLSX_MAX_UNPACKED_BYTES } from './spreadsheet.ts';

const LIMIT_MB = XLSX_MAX_UNPACKED_BYTES / 1024 / 1024;

async function adminApp(dialect: Parameters<typeof testApp>[2], settings: Parameters<typeof testApp>[1] = {}) {
  const t = await testApp(undefined, settings, dialect);
  await t.services.accounts.createUser({ username: 'admin1', email: 'a1@example.org', password: 'a long test password', library_admin: true, libraryIds: [1] });
  const cookie = await loginCookie(t, 'admin1');
  const siteId = Number(t.services.db.sqlite.prepare("INSERT INTO sites (library_id, title, site_type, csv_type) VALUES (1, 'Shelf list', 'csv', 'generic')").run().lastInsertRowid);
  return { t, cookie, siteId };
}

function uploadRequest(cookie: string, siteId: number, content: Uint8Array | string, name: string) {
  const { payload, contentType } = multipartBody({ site_id: String(siteId), comment: '' }, { field: 'spreadsheet', name, content });
  return { headers: { cookie, 'x-csrftoken': 'test-csrf-token', 'content-type': contentType }, payload };
}

describe.each(BACKENDS)('workbook bombs on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let siteId: number;
  // The bomb: a small upload whose one sheet unpacks to more than 60 MB of XML.
  const bomb = catalogueWorkbook(20_000, 3_400);

  beforeAll(async () => {
    ({ t, cookie, siteId } = await adminApp(dialect));
  });
  afterAll(() => t.close());

  const upload = (content: Uint8Array | string, name = 'catalogue.xlsx') => {
    const r = uploadRequest(cookie, siteId, content, name);
    return t.app.inject({ method: 'POST', url: '/collector/api/spreadsheet/1', ...r });
  };
  const uploads = () => t.services.db.sqlite.prepare('SELECT count(*) FROM spreadsheet_uploads').pluck().get() as number;
  const records = () => t.services.db.sqlite.prepare('SELECT count(*) FROM data_sources WHERE site_id = ?').pluck().get(siteId) as number;

  it('refuses a workbook whose sheet unpacks past the limit, from the zip directory, with the limit named, storing nothing', async () => {
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const before = { uploads: uploads(), records: records() };
    const started = Date.now();
    const res = await upload(bomb);
    expect(res.statusCode).toBe(200);
    expect(res.json().error).toBe(`The XLSX file unpacks to more than ${LIMIT_MB} MB: split it or save it as CSV`);
    expect(res.json().uploaded).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2_000); // nothing was inflated
    expect({ uploads: uploads(), records: records() }).toEqual(before);
    // In the uploader's language.
    const de = uploadRequest(cookie, siteId, bomb, 'catalogue.xlsx');
    const res2 = await t.app.inject({ method: 'POST', url: '/collector/api/spreadsheet/1', headers: { ...de.headers, 'accept-language': 'de' }, payload: de.payload });
    expect(res2.json().error).toBe(`Die XLSX-Datei ist entpackt größer als ${LIMIT_MB} MB: Teilen Sie sie auf oder speichern Sie sie als CSV`);
  });

  it('refuses the same bomb when its zip declares small sizes (counted while inflating, in the thread)', async () => {
    const liar = declareSize(bomb, 'xl/worksheets/sheet1.xml', 1000);
    const res = await upload(liar);
    expect(res.json().error).toBe(`The XLSX file unpacks to more than ${LIMIT_MB} MB: split it or save it as CSV`);
    expect(uploads()).toBe(0);
  });

  it('refuses files past the row and column limits, the limit named', async () => {
    const rows = await upload('title\n' + 'A title\n'.repeat(SPREADSHEET_MAX_ROWS + 1), 'rows.csv');
    expect(rows.json().error).toBe(`The file has more than ${SPREADSHEET_MAX_ROWS} rows: split it`);
    const wide = Array.from({ length: SPREADSHEET_MAX_COLUMNS + 1 }, (_, i) => `c${i}`);
    const cols = await upload(`title,${wide.join(',')}\nA,${wide.join(',')}\n`, 'wide.csv');
    expect(cols.json().error).toBe(`The file has more than ${SPREADSHEET_MAX_COLUMNS} columns: keep the columns to read and upload it again`);
    // Trailing empty cells (an export's used range) are no columns.
    const padded = await upload(`title${','.repeat(300)}\nA${','.repeat(300)}\n`, 'padded.csv');
    expect(padded.json().number_of_records).toBe(1);
    await t.app.inject({ method: 'POST', url: `/collector/api/spreadsheet/cancel/${padded.json().uploaded}`, headers: { cookie, 'x-csrftoken': 'test-csrf-token' } });
    expect(records()).toBe(0);
  });

  it('refuses a tiny workbook whose one far cell would make the reader fill 17 billion cells, before reading it', async () => {
    const far = (ref: string, row: number) => xlsxWorkbook([{ name: 'S', rows: `<row r="1"><c r="A1" t="inlineStr"><is><t>title</t></is></c></row><row r="${row}"><c r="${ref}"><v>1</v></c></row>` }]);
    const started = Date.now();
    const res = await upload(far('XFD1048576', 1048576));
    expect(res.json().error).toBe(`The file has more than ${SPREADSHEET_MAX_COLUMNS} columns: keep the columns to read and upload it again`);
    const deep = await upload(far('A1048576', 1048576));
    expect(deep.json().error).toBe(`The file has more than ${SPREADSHEET_MAX_ROWS} rows: split it`);
    expect(Date.now() - started).toBeLessThan(10_000);
    // Formatting far away (cells without a value) is no row or column of the file.
    const formatted = xlsxWorkbook([{ name: 'S', rows: '<row r="1"><c r="A1" t="inlineStr"><is><t>title</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>A</t></is></c></row><row r="60000"><c r="XFD60000" s="1"/></row>' }]);
    const ok = await upload(formatted);
    expect(ok.json().number_of_records).toBe(1);
    await t.app.inject({ method: 'POST', url: `/collector/api/spreadsheet/cancel/${ok.json().uploaded}`, headers: { cookie, 'x-csrftoken': 'test-csrf-token' } });
    expect(records()).toBe(0);
  });
});

describe('a large allowed workbook', () => {
  let t: TestApp;
  let cookie: string;
  let siteId: number;
  let base: string;

  beforeAll(async () => {
    // No time limit in the way on a busy test machine: this measures the main thread, not the reader.
    ({ t, cookie, siteId } = await adminApp('sqlite', { spreadsheetParseSeconds: 600 }));
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const addr = t.app.server.address() as { port: number };
    base = `http://127.0.0.1:${addr.port}`;
  });
  afterAll(() => t.close());

  it('is read off the main thread: /healthz and a search answer promptly while it is parsed', async () => {
    // 45,000 records in about 38 MB of sheet XML: under the limits, seconds of parsing.
    const big = catalogueWorkbook(45_000, 700);
    const r = uploadRequest(cookie, siteId, big, 'catalogue.xlsx');
    let done = false;
    const uploaded = fetch(`${base}/collector/api/spreadsheet/1`, { method: 'POST', headers: r.headers, body: r.payload }).then(async (res) => {
      done = true;
      return res.json() as Promise<{ number_of_records?: number; error?: string }>;
    });
    let longest = 0;
    let asked = 0;
    let searchMs = 0;
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${base}/healthz`);
      await res.arrayBuffer();
      longest = Math.max(longest, performance.now() - started);
      asked++;
      if (asked === 20) {
        const s = performance.now();
        const found = await fetch(`${base}/collector/api/search?query=the`);
        expect(found.status).toBe(200);
        await found.arrayBuffer();
        searchMs = performance.now() - s;
      }
    }
    const body = await uploaded;
    expect(body.error).toBeUndefined();
    expect(body.number_of_records).toBe(45_000);
    expect(asked).toBeGreaterThan(20);
    expect(longest).toBeLessThan(1_000);
    expect(searchMs).toBeLessThan(1_000);
  }, 600_000);
});

describe('the reading thread\'s limits', () => {
  it('ends a read past its time limit, naming it, and reads the next file in a new thread', async () => {
    const parser = new SheetParser({ parseSeconds: 1 });
    try {
      await expect(parser.preview(catalogueWorkbook(45_000, 700), 'xlsx', 'generic', 1)).rejects.toThrow('Reading the file took more than 1 s: split it or save it as CSV');
      expect((await parser.preview(Buffer.from('title\nA\n'), 'csv', 'generic', 1)).recordCount).toBe(1);
    } finally {
      await parser.close();
    }
  }, 60_000);

  it('ends a read that needs more than its heap, naming the limit', async () => {
    const parser = new SheetParser({ heapMb: 128 });
    try {
      await expect(parser.preview(catalogueWorkbook(45_000, 700), 'xlsx', 'generic', 1)).rejects.toThrow('Reading the file needs more than 128 MB of memory: split it or save it as CSV');
    } finally {
      await parser.close();
    }
  }, 60_000);
});
