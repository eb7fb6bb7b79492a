// Spreadsheet reading (docs/spreadsheets.md): CSV (UTF-8 with or without BOM, comma or semicolon,
// RFC 4180 quoting; read by csv-parse) and XLSX (the first worksheet; read by read-excel-file), then the
// column mapping of the site's format (generic or Calibre's CSV export) into ingestion records, each row
// checked and reported with its line number (the row number the spreadsheet program shows). The server
// runs these in a thread of their own with a time and memory limit (sheet-parser.ts); the limits on
// rows, columns and unpacked size are checked here, as early as each can be.
import { createHash } from 'node:crypto';
import { parse as parseCsv, CsvError } from 'csv-parse/sync';
import { readSheet } from 'read-excel-file/node';
import { unzipSync, Unzip, UnzipInflate } from 'fflate';
import type { CsvType, RowError } from '@uc/shared';
import type { IngestRecord } from '../ingest/service.ts';
import { languageCode } from '../ingest/languages.ts';
import { MessageError } from '../http/messages.ts';

export const SPREADSHEET_MAX_BYTES = 10 * 1024 * 1024;
/** Data rows of one file: a library's catalogue is a few tens of thousands (SPREADSHEET_MAX_ROWS). */
export const SPREADSHEET_MAX_ROWS = 50_000;
/** Columns up to the last filled cell of a row (the generic format reads 17, Calibre's export about 20). */
export const SPREADSHEET_MAX_COLUMNS = 200;
/**
 * What the XML parts of an XLSX may unpack to (SPREADSHEET_MAX_UNPACKED_MB): a 10 MB upload could
 * otherwise unzip to gigabytes. 50,000 catalogue rows take about 30 MB of sheet and shared strings.
 */
export const XLSX_MAX_UNPACKED_BYTES = 50 * 1024 * 1024;

export interface SheetLimits {
  /** Data rows (the header row is not counted). */
  maxRows: number;
  maxColumns: number;
  maxUnpackedBytes: number;
}

export const DEFAULT_SHEET_LIMITS: SheetLimits = { maxRows: SPREADSHEET_MAX_ROWS, maxColumns: SPREADSHEET_MAX_COLUMNS, maxUnpackedBytes: XLSX_MAX_UNPACKED_BYTES };

/** A file that cannot be read as a spreadsheet; `message` is an English template filled from `values`. */
export class SpreadsheetError extends MessageError {}

export type SheetFormat = 'csv' | 'xlsx';
export interface Row { line: number; cells: string[] }

// ---------- file type ----------

/** Decides the format from the content (never from the name alone): XLSX is a zip, CSV must be UTF-8 text. */
export function detectFormat(buf: Uint8Array): SheetFormat {
  if (buf.length === 0) throw new SpreadsheetError('The file is empty');
  if (buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04) return 'xlsx';
  if (buf[0] === 0xd0 && buf[1] === 0xcf && buf[2] === 0x11 && buf[3] === 0xe0) {
    throw new SpreadsheetError('Old Excel (.xls) files are not supported: save the sheet as XLSX or as CSV (UTF-8)');
  }
  const probe = buf.subarray(0, 4096);
  if (probe.includes(0)) throw new SpreadsheetError('This is not a spreadsheet: upload a CSV file (UTF-8) or an XLSX workbook');
  return 'csv';
}

/** The rows of the file, empty rows left out; each keeps the line (CSV) or row number (XLSX) it starts on. */
export async function readRows(buf: Uint8Array, format: SheetFormat, limits: Partial<SheetLimits> = {}): Promise<Row[]> {
  return format === 'xlsx' ? readXlsx(buf, limits) : readCsv(buf, limits);
}

const tooManyRows = (max: number) => new SpreadsheetError('The file has more than {{max}} rows: split it', { max });
const tooManyColumns = (max: number) => new SpreadsheetError('The file has more than {{max}} columns: keep the columns to read and upload it again', { max });
const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);
const tooLargeUnpacked = (max: number) => new SpreadsheetError('The XLSX file unpacks to more than {{mb}} MB: split it or save it as CSV', { mb: megabytes(max) });

/** Refuses a row filled past the column limit (trailing empty cells, as an export writes them, are no columns). */
function checkWidth(cells: string[], maxColumns: number): string[] {
  if (cells.length <= maxColumns) return cells;
  for (let i = cells.length - 1; i >= maxColumns; i--) if (cells[i].trim() !== '') throw tooManyColumns(maxColumns);
  return cells;
}

// ---------- CSV ----------

/** The text after a UTF-8 BOM, checked to be UTF-8 (other encodings are refused, not guessed). */
function utf8Body(buf: Uint8Array): Buffer {
  const body = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.subarray(3) : buf;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new SpreadsheetError('The CSV file is not UTF-8 text: save it as "CSV UTF-8" and upload it again');
  }
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** The delimiter of the header line: semicolon when it has more semicolons than commas outside quotes. */
function delimiterOf(bytes: Uint8Array): string {
  let commas = 0;
  let semis = 0;
  let quoted = false;
  for (const b of bytes) {
    if (b === 0x22) quoted = !quoted;
    else if (!quoted && (b === 0x0a || b === 0x0d)) break;
    else if (!quoted && b === 0x2c) commas++;
    else if (!quoted && b === 0x3b) semis++;
  }
  return semis > commas ? ';' : ',';
}

/**
 * Line numbers of byte offsets, asked in increasing order: CR LF, CR and LF each end one line. (csv-parse's
 * own `info.lines` counts a CR LF inside a quoted cell as two lines, so the rows are placed from their
 * byte offsets instead.)
 */
function lineCounter(bytes: Uint8Array) {
  let pos = 0;
  let line = 1;
  return (offset: number) => {
    for (; pos < offset && pos < bytes.length; pos++) {
      const b = bytes[pos];
      if (b === 0x0a || (b === 0x0d && bytes[pos + 1] !== 0x0a)) line++;
    }
    return line;
  };
}

/**
 * RFC 4180 records (csv-parse); each row carries the line where it starts (a quoted cell may span
 * lines). Empty lines are skipped; ragged rows are kept as they are; a quote inside an unquoted cell is
 * an ordinary character.
 */
export function readCsv(input: Uint8Array | string, limits: Partial<SheetLimits> = {}): Row[] {
  const { maxRows, maxColumns } = { ...DEFAULT_SHEET_LIMITS, ...limits };
  const bytes = typeof input === 'string' ? Buffer.from(input.replace(/^\uFEFF/, '')) : utf8Body(input);
  const lineAt = lineCounter(bytes);
  let end = 0; // where the last record (with its line end) stops
  const startLine = () => {
    let start = end;
    while (bytes[start] === 0x0a || bytes[start] === 0x0d) start++; // skipped empty lines
    return lineAt(start);
  };
  const lines: number[] = [];
  let records: string[][];
  try {
    records = parseCsv(bytes, {
      delimiter: delimiterOf(bytes),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      to: maxRows + 2, // the header, the rows, and one more to know there are too many
      on_record: (record: string[], info) => {
        lines.push(startLine());
        end = info.bytes;
        return checkWidth(record, maxColumns);
      },
    });
  } catch (e) {
    if (!(e instanceof CsvError)) throw e;
    if (e.code === 'CSV_QUOTE_NOT_CLOSED') throw new SpreadsheetError('Line {{line}}: a quoted value is never closed', { line: startLine() });
    throw new SpreadsheetError('Line {{line}}: {{reason}}', { line: startLine(), reason: e.message });
  }
  const rows = records.map((cells, i) => ({ line: lines[i], cells }));
  if (rows.length > maxRows + 1) throw tooManyRows(maxRows);
  return rows;
}

// ---------- XLSX ----------

/** A number cell as the spreadsheet shows it: whole numbers in full (an ISBN 9780306406157 stays so), others to 15 digits. */
function numberText(raw: string): string {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) return raw.trim(); // not a number: kept, so the row reports it
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(15)));
}

/** A date cell (a serial number with a date format) as an ISO date, with the time when it has one. */
function dateText(d: Date): string {
  const t = d.getTime();
  if (Number.isNaN(t)) return '';
  const iso = new Date(Math.round(t / 1000) * 1000).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19);
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return dateText(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}

/** The parts read-excel-file unpacks (it leaves images and other binary parts packed). */
const xmlPart = (name: string) => name.endsWith('.xml') || name.endsWith('.rels');

/**
 * Refuses a workbook whose XML parts declare more than `max` bytes unpacked, from the zip's central
 * directory alone (nothing is inflated): cheap enough for the main thread, before any parsing starts.
 */
export function checkDeclaredSize(buf: Uint8Array, max: number): void {
  let total = 0;
  try {
    unzipSync(buf, {
      filter: (f) => {
        if (xmlPart(f.name)) total += f.originalSize;
        return false;
      },
    });
  } catch {
    throw new SpreadsheetError('The XLSX file cannot be read (damaged or not a workbook)');
  }
  if (total > max) throw tooLargeUnpacked(max);
}

/** The parts that say which sheet is first, and the sheets. */
const structurePart = (name: string) => /(^|\/)workbook\.xml(\.rels)?$/.test(name) || name.includes('worksheets/');

/**
 * Inflates the XML parts as the reader will (the local entries, in 16 KB steps), counting bytes and
 * stopping past `max`: a zip may declare small sizes and hold a bomb, which the directory check misses.
 * Returns the workbook's structure parts and sheets as text (all within `max`).
 */
function inflateCounted(buf: Uint8Array, max: number): Map<string, string> {
  let total = 0;
  let failure: Error | null = null;
  const kept = new Map<string, Buffer[]>();
  const unzip = new Unzip((file) => {
    if (!xmlPart(file.name)) return; // never started: its data is skipped, not inflated
    const chunks: Buffer[] | null = structurePart(file.name) ? [] : null;
    if (chunks) kept.set(file.name, chunks);
    file.ondata = (err, chunk) => {
      if (failure) return;
      if (err) failure = new SpreadsheetError('The XLSX file cannot be read (damaged or not a workbook)');
      else if ((total += chunk.length) > max) {
        failure = tooLargeUnpacked(max);
        file.terminate();
      } else chunks?.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  const STEP = 16 * 1024; // at most ~16 MB out per step (deflate's ratio is at most ~1,000:1)
  try {
    for (let i = 0; i < buf.length && !failure; i += STEP) unzip.push(buf.subarray(i, i + STEP), i + STEP >= buf.length);
  } catch {
    failure ??= new SpreadsheetError('The XLSX file cannot be read (damaged or not a workbook)');
  }
  if (failure) throw failure;
  return new Map([...kept].map(([name, chunks]) => [name, Buffer.concat(chunks).toString('latin1')]));
}

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** The text of the first sheet in tab order (as read-excel-file finds it), or undefined when that is unclear. */
function firstSheet(parts: Map<string, string>): string | undefined {
  const workbook = [...parts.keys()].find((n) => /(^|\/)workbook\.xml$/.test(n));
  if (workbook === undefined) return undefined;
  const dir = workbook.slice(0, workbook.lastIndexOf('/') + 1);
  const sheet = /<(?:\w+:)?sheet\b[^>]*>/.exec(parts.get(workbook)!)?.[0];
  const id = sheet && /\s\w+:id="([^"]*)"/.exec(sheet)?.[1];
  const rels = parts.get(`${dir}_rels/workbook.xml.rels`) ?? '';
  for (const [tag] of rels.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
    if (attribute(tag, 'Id') !== id) continue;
    const target = attribute(tag, 'Target') ?? '';
    return parts.get(target.startsWith('/') ? target.slice(1) : dir + target.replace(/^\.\//, ''));
  }
  return undefined;
}

/** A column's number from its letters (A = 1, XFD = 16384). */
function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/**
 * Refuses a sheet with a filled cell past the row or column limit, from the cell references alone: the
 * reader fills every row and column up to the last filled cell, so one cell at XFD1048576 would make
 * it build 17 billion empty cells. Cells without a value (formatting only) do not count.
 */
function checkExtent(xml: string, maxRows: number, maxColumns: number): void {
  for (const m of xml.matchAll(/<(?:\w+:)?c\b[^>]*?\sr="([A-Z]{1,7})(\d{1,10})"[^>]*>/g)) {
    if (m[0].endsWith('/>') || /^<\/(?:\w+:)?c>/.test(xml.slice(m.index + m[0].length, m.index + m[0].length + 12))) continue;
    if (columnNumber(m[1]) > maxColumns) throw tooManyColumns(maxColumns);
    if (Number(m[2]) > maxRows + 1) throw tooManyRows(maxRows);
  }
}

/**
 * The checks before the reader runs: the unpacked size, counted, and the first sheet's extent (a
 * function of its own, so the inflated text is garbage before the reader inflates the file again). A
 * workbook whose first sheet cannot be found here is still bounded by the thread's memory and time.
 */
function checkUnpacked(buf: Uint8Array, limits: SheetLimits): void {
  const sheet = firstSheet(inflateCounted(buf, limits.maxUnpackedBytes));
  if (sheet !== undefined) checkExtent(sheet, limits.maxRows, limits.maxColumns);
}

/**
 * The first worksheet (the first tab, in the workbook's order) with read-excel-file: shared and inline
 * strings, numbers as the sheet shows them, date cells as ISO dates, booleans as TRUE/FALSE, formula
 * cells as their stored result, error cells (#N/A…) empty. A merged range's value is in its top-left
 * cell; its other cells read empty. Rows keep their spreadsheet row number; empty rows are left out.
 */
export async function readXlsx(buf: Uint8Array, limits: Partial<SheetLimits> = {}): Promise<Row[]> {
  const { maxRows, maxColumns, maxUnpackedBytes } = { ...DEFAULT_SHEET_LIMITS, ...limits };
  let data: unknown[][];
  try {
    checkDeclaredSize(buf, maxUnpackedBytes);
    checkUnpacked(buf, { maxRows, maxColumns, maxUnpackedBytes });
    data = await readSheet(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength), 1, { trim: false, parseNumber: numberText }) as unknown[][];
  } catch (e) {
    if (e instanceof SpreadsheetError) throw e;
    if ((e as Error).name === 'SheetNotFoundError') throw new SpreadsheetError('The XLSX file has no worksheet');
    throw new SpreadsheetError('The XLSX file cannot be read (damaged or not a workbook)');
  }
  const rows: Row[] = [];
  for (let i = 0; i < data.length; i++) {
    const cells = checkWidth(data[i].map(cellText), maxColumns);
    if (cells.some((c) => c.trim() !== '')) rows.push({ line: i + 1, cells });
    if (rows.length > maxRows + 1) throw tooManyRows(maxRows);
  }
  return rows;
}

// ---------- column sets ----------

type Field = Exclude<keyof IngestRecord, 'siteId' | 'downloads' | 'full_text' | 'datestamp'>;
interface Column { field: Field; split?: RegExp; year?: boolean }

/** Generic columns: one per data-source field (spec §3); header names are case-insensitive. */
export const GENERIC_COLUMNS: Record<string, Column> = {
  identifier: { field: 'identifier' },
  title: { field: 'title' },
  subtitle: { field: 'subtitle' },
  authors: { field: 'authors', split: /;/ },
  languages: { field: 'languages', split: /[;,]/ },
  year_edition: { field: 'year_edition', year: true },
  year_first_edition: { field: 'year_first_edition', year: true },
  description: { field: 'description' },
  publisher: { field: 'publisher' },
  isbn: { field: 'isbn' },
  shelf_location_code: { field: 'shelf_location_code' },
  material_description: { field: 'material_description' },
  edition_statement: { field: 'edition_statement' },
  place_date_of_publication_distribution: { field: 'place_date_of_publication_distribution' },
  uri: { field: 'uri' },
  uri_label: { field: 'uri_label' },
  content_type: { field: 'content_type' },
};

/** Calibre's "Convert books → CSV export" columns (other Calibre columns are ignored). */
export const CALIBRE_COLUMNS: Record<string, Column> = {
  uuid: { field: 'identifier' },
  id: { field: 'identifier' },
  title: { field: 'title' },
  authors: { field: 'authors', split: /&/ },
  languages: { field: 'languages', split: /,/ },
  pubdate: { field: 'year_edition', year: true },
  publisher: { field: 'publisher' },
  comments: { field: 'description' },
  isbn: { field: 'isbn' },
};

export function columnsOf(csvType: string): Record<string, Column> {
  return csvType === 'calibre' ? CALIBRE_COLUMNS : GENERIC_COLUMNS;
}

/** The headers shown to the uploader. */
export function columnNames(csvType: string): string[] {
  return Object.keys(columnsOf(csvType));
}

const headerKey = (h: string) => h.trim().toLowerCase().replace(/[\s-]+/g, '_');

const FIELD_MAX: Partial<Record<Field, number>> = { identifier: 2048, title: 2000, subtitle: 2000, description: 50000, uri: 2048, uri_label: 2048, content_type: 128 };

export interface ParsedSheet {
  header: string[];
  /** Good rows, in file order, with their line numbers. */
  records: { line: number; record: IngestRecord }[];
  errors: RowError[];
  /** The first data row as the uploader wrote it (name/value pairs of the header). */
  sample: { name: string; value: string }[];
  /** Every column of the header row in file order, with the field it is read into (null: not read). */
  columns: { name: string; field: string | null }[];
}

/** The header row's columns with the field each is read into by this format (null when it is ignored). */
export function headerColumns(header: string[], csvType: string): { name: string; field: string | null }[] {
  const columns = columnsOf(csvType);
  return header.map((name) => ({ name, field: Object.hasOwn(columns, headerKey(name)) ? columns[headerKey(name)].field : null }));
}

/**
 * Maps the rows of a sheet to records of a site. Checks: a title column must exist (else the whole file
 * is refused); each row needs a title, years must be whole numbers, URIs http(s), identifiers unique.
 */
export function mapRows(rows: Row[], csvType: string, siteId: number): ParsedSheet {
  if (rows.length === 0) throw new SpreadsheetError('The file has no rows');
  const columns = columnsOf(csvType);
  const [head, ...data] = rows;
  const header = head.cells.map((h) => h.trim());
  const keys = header.map(headerKey);
  const columnList = headerColumns(header, csvType);
  if (!keys.includes('title')) {
    throw new SpreadsheetError('The first row must hold the column names, with a "title" column. Expected columns: {{columns}}', { columns: columnNames(csvType).join(', ') });
  }
  if (data.length === 0) throw new SpreadsheetError('The file has no records (only the header row)');
  const errors: RowError[] = [];
  const records: ParsedSheet['records'] = [];
  const seen = new Map<string, number>();
  for (const row of data) {
    const rec: IngestRecord = { siteId, identifier: '', title: '', authors: [], languages: [] };
    const problems: string[] = [];
    keys.forEach((k, i) => {
      const col = Object.hasOwn(columns, k) ? columns[k] : undefined; // a "constructor" column is not a field
      const raw = (row.cells[i] ?? '').trim();
      if (!col || raw === '') return;
      if (col.field === 'identifier' && rec.identifier) return; // Calibre: uuid wins over id
      const max = FIELD_MAX[col.field] ?? 5000;
      if (col.split) {
        const values = raw.split(col.split).map((v) => v.trim()).filter(Boolean);
        if (col.field === 'languages') rec.languages.push(...values.map((v) => languageCode(v, { names: false }) ?? v.toLowerCase())); // codes only: a name is reported, not guessed
        else rec.authors.push(...values.map((v) => v.slice(0, 500)));
        return;
      }
      if (raw.length > max) {
        problems.push(`${header[i]} is longer than ${max} characters`);
        return;
      }
      if (col.year) {
        // A whole number, or a date (an XLSX date cell reads as YYYY-MM-DD): its year.
        const m = csvType === 'calibre' ? /^(-?\d{1,4})(?:-\d\d-\d\d.*)?$/.exec(raw) : /^(-?\d{1,4})(?:\.0+|-\d\d-\d\d(?:T[\d:]+)?)?$/.exec(raw);
        const y = m ? Number(m[1]) : NaN;
        if (!Number.isInteger(y) || y < -3000 || y > 3000) problems.push(`${header[i]} "${raw.slice(0, 40)}" is not a year`);
        else if (!(csvType === 'calibre' && y === 101)) (rec as unknown as Record<string, unknown>)[col.field] = y; // 0101-01-01 is Calibre's "no date"
        return;
      }
      if (col.field === 'uri' && !/^https?:\/\/\S+$/i.test(raw)) {
        problems.push(`uri "${raw.slice(0, 60)}" is not an http(s) address`);
        return;
      }
      (rec as unknown as Record<string, unknown>)[col.field] = raw;
    });
    if (row.cells.every((c) => c.trim() === '')) continue;
    if (!rec.title) problems.unshift('the title is empty');
    for (const l of rec.languages) if (!/^[a-z]{2,3}$/.test(l)) problems.push(`language "${l.slice(0, 20)}" is not a 2 or 3 letter code`);
    if (!rec.identifier && rec.title) {
      // No identifier column: a stable one from the content, so an unchanged row is the same record.
      rec.identifier = 'sha1-' + createHash('sha1').update(JSON.stringify([rec.title, rec.authors, rec.year_edition ?? null])).digest('hex');
    }
    if (rec.identifier) {
      const prev = seen.get(rec.identifier);
      if (prev !== undefined) problems.push(`the identifier "${rec.identifier.slice(0, 60)}" is already used on line ${prev}`);
      else seen.set(rec.identifier, row.line);
    }
    if (problems.length) errors.push({ line: row.line, message: problems.join('; ') });
    else records.push({ line: row.line, record: rec });
  }
  const first = data[0];
  return { header, records, errors, sample: header.map((name, i) => ({ name, value: first.cells[i] ?? '' })), columns: columnList };
}
