// The spreadsheet readers as a spreadsheet user expects them to read: row numbers as the program shows
// them, values as the cells show them (docs/spreadsheets.md).
import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { mapRows, readCsv, readRows, readXlsx, SPREADSHEET_MAX_ROWS } from './spreadsheet.ts';
import { excelSerial, STYLE, xlsxWorkbook } from './xlsx-fixture.ts';

const cells = (rows: { line: number; cells: string[] }[]) => rows.map((r) => [r.line, ...r.cells]);
const inline = (ref: string, text: string, style?: number) =>
  `<c r="${ref}" t="inlineStr"${style !== undefined ? ` s="${style}"` : ''}><is><t xml:space="preserve">${text}</t></is></c>`;
const num = (ref: string, v: number | string, style?: number) => `<c r="${ref}"${style !== undefined ? ` s="${style}"` : ''}><v>${v}</v></c>`;
const str = (ref: string, index: number) => `<c r="${ref}" t="s"><v>${index}</v></c>`;
const row = (r: number, ...cs: string[]) => `<row r="${r}">${cs.join('')}</row>`;

describe('CSV', () => {
  it('skips empty lines but keeps the line numbers of the file', () => {
    expect(cells(readCsv('title,authors\n\nA,x\n\n\nB,y\n'))).toEqual([[1, 'title', 'authors'], [3, 'A', 'x'], [6, 'B', 'y']]);
    expect(cells(readCsv('title\r\n\r\nA\r\nB'))).toEqual([[1, 'title'], [3, 'A'], [4, 'B']]);
    expect(cells(readCsv('title\r\rA\rB\r'))).toEqual([[1, 'title'], [3, 'A'], [4, 'B']]);
  });

  it('reads quoted cells over several lines and doubled quotes; the next rows keep their lines (LF and CR LF)', () => {
    for (const nl of ['\n', '\r\n']) {
      const text = ['title,description', 'A,"first', 'second ""quoted""', 'third"', '', 'B,"a, b"', 'C,plain'].join(nl) + nl;
      expect(cells(readCsv(text))).toEqual([
        [1, 'title', 'description'],
        [2, 'A', `first${nl}second "quoted"${nl}third`],
        [6, 'B', 'a, b'],
        [7, 'C', 'plain'],
      ]);
    }
  });

  it('reads a UTF-8 BOM and semicolons (chosen from the header line), commas in cells staying text', async () => {
    const bytes = Buffer.from('\uFEFFtitle;authors;publisher\nLettere, scritti;"Rossi; Bianchi";Città Nuova\n');
    expect(cells(await readRows(bytes, 'csv'))).toEqual([[1, 'title', 'authors', 'publisher'], [2, 'Lettere, scritti', 'Rossi; Bianchi', 'Città Nuova']]);
  });

  it('keeps ragged rows, quotes inside unquoted cells and leading zeros as written', () => {
    expect(cells(readCsv('identifier,title,x\n00123,5" floppy\n2,T,1,extra\n'))).toEqual([
      [1, 'identifier', 'title', 'x'], [2, '00123', '5" floppy'], [3, '2', 'T', '1', 'extra'],
    ]);
  });

  it('reports an unclosed quote on the line where it starts', () => {
    expect(() => readCsv('title,description\r\nA,ok\r\n\r\nB,"never\r\nclosed\r\n')).toThrow(/^Line 4: a quoted value is never closed$/);
  });

  it('refuses text that is not UTF-8, and more rows than the limit', () => {
    expect(() => readCsv(Buffer.from('title\nCaf\xe9\n', 'latin1'))).toThrow(/not UTF-8/);
    expect(() => readCsv('title\n' + 'x\n'.repeat(SPREADSHEET_MAX_ROWS + 1))).toThrow(`more than ${SPREADSHEET_MAX_ROWS} rows`);
  });

  it('row errors name the line of the file', () => {
    const text = 'title,year_edition\r\n"Two\r\nlines",1999\r\n\r\nBad,MCM\r\n,2000\r\n';
    const parsed = mapRows(readCsv(text), 'generic', 1);
    expect(parsed.records.map((r) => r.line)).toEqual([2]);
    expect(parsed.errors).toEqual([
      { line: 5, message: 'year_edition "MCM" is not a year' },
      { line: 6, message: 'the title is empty' },
    ]);
  });
});

describe('XLSX', () => {
  it('reads shared strings (with rich text runs and entities) and inline strings', async () => {
    const shared = ['<t>title</t>', '<t>authors</t>', '<r><rPr><b/></rPr><t xml:space="preserve">Mutual Aid: </t></r><r><t>A Factor</t></r>', '<t>Kropotkin &amp; co &lt;ed.&gt;</t>'];
    const xlsx = xlsxWorkbook([{ name: 'Records', rows: row(1, str('A1', 0), str('B1', 1)) + row(2, str('A2', 2), str('B2', 3)) + row(3, inline('A3', 'Inline &amp; title'), inline('B3', 'Emma')) }], shared);
    expect(cells(await readXlsx(xlsx))).toEqual([
      [1, 'title', 'authors'],
      [2, 'Mutual Aid: A Factor', 'Kropotkin & co <ed.>'],
      [3, 'Inline & title', 'Emma'],
    ]);
  });

  it('reads date cells as ISO dates: a year column stored as a date gives its year', async () => {
    const xlsx = xlsxWorkbook([{
      name: 'Sheet1',
      rows: row(1, inline('A1', 'title'), inline('B1', 'year_edition'), inline('C1', 'year_first_edition'), inline('D1', 'place_date_of_publication_distribution'))
        + row(2, inline('A2', 'Dated'), num('B2', excelSerial(1948, 1, 1), STYLE.date), num('C2', excelSerial(1927, 6, 15), STYLE.year), num('D2', excelSerial(2024, 3, 5, 14, 30), STYLE.dateTime))
        + row(3, inline('A3', 'Serial typed as a number'), num('B3', 1975)),
    }]);
    const rows = await readXlsx(xlsx);
    expect(cells(rows)).toEqual([
      [1, 'title', 'year_edition', 'year_first_edition', 'place_date_of_publication_distribution'],
      [2, 'Dated', '1948-01-01', '1927-06-15', '2024-03-05T14:30:00'],
      [3, 'Serial typed as a number', '1975', '', ''],
    ]);
    const parsed = mapRows(rows, 'generic', 1);
    expect(parsed.errors).toEqual([]);
    expect(parsed.records.map((r) => [r.record.year_edition, r.record.year_first_edition])).toEqual([[1948, 1927], [1975, undefined]]);
    expect(parsed.records[0].record.place_date_of_publication_distribution).toBe('2024-03-05T14:30:00');
  });

  it('reads numbers as the sheet shows them; numbers stored as text keep their zeros', async () => {
    const shared = ['<t>00123</t>'];
    const xlsx = xlsxWorkbook([{
      name: 'Sheet1',
      rows: row(1, inline('A1', 'identifier'), inline('B1', 'title'), inline('C1', 'isbn'), inline('D1', 'description'))
        + row(2, str('A2', 0), inline('B2', 'ISBN as a number'), num('C2', '9780306406157'), num('D2', '0.30000000000000004'))
        + row(3, inline('A3', '00456', STYLE.text), inline('B3', 'ISBN as text'), inline('C3', '978-0-306-40615-7'), num('D3', '1.5E+3'))
        + row(4, num('A4', 789), inline('B4', 'Scientific ISBN'), num('C4', '9.780306406157E+12'), num('D4', '-12.25')),
    }], shared);
    const rows = await readXlsx(xlsx);
    expect(cells(rows).slice(1)).toEqual([
      [2, '00123', 'ISBN as a number', '9780306406157', '0.3'],
      [3, '00456', 'ISBN as text', '978-0-306-40615-7', '1500'],
      [4, '789', 'Scientific ISBN', '9780306406157', '-12.25'],
    ]);
    expect(mapRows(rows, 'generic', 1).records.map((r) => [r.record.identifier, r.record.isbn])).toEqual([
      ['00123', '9780306406157'], ['00456', '978-0-306-40615-7'], ['789', '9780306406157'],
    ]);
  });

  it('merged cells: the value belongs to the first (top-left) cell, the others read empty', async () => {
    const xlsx = xlsxWorkbook([{
      name: 'Sheet1',
      rows: row(1, inline('A1', 'title'), inline('B1', 'publisher'), inline('C1', 'description'))
        + row(2, inline('A2', 'First'), inline('B2', 'Einaudi'), inline('C2', 'One note over two columns'))
        + row(3, inline('A3', 'Second')),
      after: '<mergeCells count="2"><mergeCell ref="B2:B3"/><mergeCell ref="C2:D2"/></mergeCells>',
    }]);
    const rows = await readXlsx(xlsx);
    expect(cells(rows)).toEqual([[1, 'title', 'publisher', 'description'], [2, 'First', 'Einaudi', 'One note over two columns'], [3, 'Second', '', '']]);
    expect(mapRows(rows, 'generic', 1).records.map((r) => r.record.publisher)).toEqual(['Einaudi', undefined]);
  });

  it('reads the first sheet in tab order, whatever its file is called; the other sheets are ignored', async () => {
    const xlsx = xlsxWorkbook([
      { name: 'Records', file: 2, rows: row(1, inline('A1', 'title')) + row(2, inline('A2', 'From the first tab')) },
      { name: 'Notes', file: 1, rows: row(1, inline('A1', 'not a record')) },
      { name: 'More', rows: row(1, inline('A1', 'title')) + row(2, inline('A2', 'From the third tab')) },
    ]);
    expect(cells(await readXlsx(xlsx))).toEqual([[1, 'title'], [2, 'From the first tab']]);
  });

  it('skips empty rows (missing, blank or only spaces) but keeps the spreadsheet row numbers', async () => {
    const xlsx = xlsxWorkbook([{
      name: 'Sheet1',
      rows: row(3, inline('A3', 'title'), inline('B3', 'year_edition'))
        + row(4, inline('A4', 'Row four'), num('B4', 1901))
        + row(5) + row(6, inline('A6', '   '))
        + row(9, inline('A9', 'Row nine'), inline('B9', 'soon'))
        + row(12, inline('B12', '1902')),
    }]);
    const rows = await readXlsx(xlsx);
    expect(cells(rows)).toEqual([[3, 'title', 'year_edition'], [4, 'Row four', '1901'], [9, 'Row nine', 'soon'], [12, '', '1902']]);
    const parsed = mapRows(rows, 'generic', 1);
    expect(parsed.records.map((r) => r.line)).toEqual([4]);
    expect(parsed.errors).toEqual([{ line: 9, message: 'year_edition "soon" is not a year' }, { line: 12, message: 'the title is empty' }]);
  });

  it('reads booleans, formula results and error cells as the sheet shows them', async () => {
    const xlsx = xlsxWorkbook([{
      name: 'Sheet1',
      rows: row(1, inline('A1', 'title'), inline('B1', 'a'), inline('C1', 'b'), inline('D1', 'c'))
        + row(2, '<c r="A2" t="str"><f>CONCATENATE("Fo","rmula")</f><v>Formula</v></c>', '<c r="B2" t="b"><v>1</v></c>', '<c r="C2" t="b"><v>0</v></c>', '<c r="D2" t="e"><f>1/0</f><v>#DIV/0!</v></c>'),
    }]);
    expect(cells(await readXlsx(xlsx))).toEqual([[1, 'title', 'a', 'b', 'c'], [2, 'Formula', 'TRUE', 'FALSE', '']]);
  });

  it('refuses damaged workbooks, workbooks without a sheet, and XML that unpacks too large', async () => {
    await expect(readXlsx(zipSync({ 'xl/worksheets/sheet1.xml': strToU8('<worksheet/>') }))).rejects.toThrow(/cannot be read/);
    await expect(readXlsx(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).rejects.toThrow(/cannot be read/);
    await expect(readXlsx(xlsxWorkbook([]))).rejects.toThrow(/no worksheet/);
    const big = xlsxWorkbook([{ name: 'Sheet1', rows: row(1, inline('A1', 'title')) + row(2, inline('A2', 'x'.repeat(5000))) }]);
    await expect(readXlsx(big, { maxUnpackedBytes: 4000 })).rejects.toThrow(/unpacks to more than 0 MB/);
    expect(await readXlsx(big, { maxUnpackedBytes: 100_000 })).toHaveLength(2);
  });
});

describe('columns of the header row', () => {
  it('CSV: each column in file order with the field it is read into, null for the ones not read', () => {
    const text = 'Author,Title,year,Year Edition,language,place-date-of-publication-distribution\nKropotkin,Mutual Aid,1902,1902,en,London 1902\n';
    const parsed = mapRows(readCsv(text), 'generic', 1);
    expect(parsed.columns).toEqual([
      { name: 'Author', field: null },
      { name: 'Title', field: 'title' },
      { name: 'year', field: null },
      { name: 'Year Edition', field: 'year_edition' },
      { name: 'language', field: null },
      { name: 'place-date-of-publication-distribution', field: 'place_date_of_publication_distribution' },
    ]);
    expect(parsed.records[0].record).toMatchObject({ title: 'Mutual Aid', year_edition: 1902, authors: [], languages: [] });
    // Calibre's names map to fields of their own: uuid and id are both the identifier, comments the description.
    expect(mapRows(readCsv('uuid,id,title,comments,tags,constructor\nu-1,7,T,C,x,y\n'), 'calibre', 1).columns).toEqual([
      { name: 'uuid', field: 'identifier' },
      { name: 'id', field: 'identifier' },
      { name: 'title', field: 'title' },
      { name: 'comments', field: 'description' },
      { name: 'tags', field: null },
      { name: 'constructor', field: null },
    ]);
  });

  it('XLSX: recognised and ignored columns of the first row', async () => {
    const xlsx = xlsxWorkbook([{
      name: 'Sheet1',
      rows: row(1, inline('A1', 'title'), inline('B1', 'author'), inline('C1', 'authors'), inline('D1', 'language'), inline('E1', 'ISBN'))
        + row(2, inline('A2', 'Dated'), inline('B2', 'X'), inline('C2', 'Y'), inline('D2', 'it'), num('E2', '9780306406157')),
    }]);
    const parsed = mapRows(await readXlsx(xlsx), 'generic', 1);
    expect(parsed.columns).toEqual([
      { name: 'title', field: 'title' },
      { name: 'author', field: null },
      { name: 'authors', field: 'authors' },
      { name: 'language', field: null },
      { name: 'ISBN', field: 'isbn' },
    ]);
  });
});
