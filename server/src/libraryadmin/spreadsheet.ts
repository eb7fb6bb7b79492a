// Spreadsheet reading (docs/spreadsheets.md): CSV (UTF-8 with or without BOM, comma or semicolon,
// RFC 4180 quoting) and XLSX (read with fflate: shared strings + the first worksheet), then the column
// mapping of the site's format (generic or Calibre's CSV export) into ingestion records, each row checked
// and reported with its line number.
import { createHash } from 'node:crypto';
import { unzipSync, strFromU8 } from 'fflate';
import type { CsvType, RowError } from '@uc/shared';
import type { IngestRecord } from '../ingest/service.ts';
import { languageCode } from '../ingest/languages.ts';

export const SPREADSHEET_MAX_BYTES = 10 * 1024 * 1024;
export const SPREADSHEET_MAX_ROWS = 100_000;

export class SpreadsheetError extends Error {}

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

export function readRows(buf: Uint8Array, format: SheetFormat): Row[] {
  return format === 'xlsx' ? readXlsx(buf) : readCsv(decodeUtf8(buf));
}

function decodeUtf8(buf: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf).replace(/^\uFEFF/, '');
  } catch {
    throw new SpreadsheetError('The CSV file is not UTF-8 text: save it as "CSV UTF-8" and upload it again');
  }
}

// ---------- CSV ----------

/** The delimiter of the header line: semicolon when it has more semicolons than commas outside quotes. */
function delimiterOf(text: string): string {
  let commas = 0;
  let semis = 0;
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch === ',') commas++;
    else if (!quoted && ch === ';') semis++;
  }
  return semis > commas ? ';' : ',';
}

/** RFC 4180 records; each row carries the line number where it starts (a quoted cell may span lines). */
export function readCsv(text: string): Row[] {
  const delim = delimiterOf(text);
  const rows: Row[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = 0;
  const endRow = () => {
    cells.push(cell);
    cell = '';
    if (!(cells.length === 1 && cells[0] === '')) rows.push({ line: start, cells });
    if (rows.length > SPREADSHEET_MAX_ROWS + 1) throw new SpreadsheetError(`The file has more than ${SPREADSHEET_MAX_ROWS} rows: split it`);
    cells = [];
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
      i++;
      continue;
    }
    if (ch === '"' && cell === '') quoted = true;
    else if (ch === delim) {
      cells.push(cell);
      cell = '';
    } else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      start = line;
    } else cell += ch;
    i++;
  }
  if (quoted) throw new SpreadsheetError(`Line ${start}: a quoted value is never closed`);
  if (cell !== '' || cells.length) endRow();
  return rows;
}

// ---------- XLSX ----------

const decodeXml = (s: string) =>
  s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (m, e: string) => {
    const k = e.toLowerCase();
    if (k === 'lt') return '<';
    if (k === 'gt') return '>';
    if (k === 'amp') return '&';
    if (k === 'quot') return '"';
    if (k === 'apos') return "'";
    const code = k.startsWith('#x') ? parseInt(k.slice(2), 16) : parseInt(k.slice(1), 10);
    return Number.isFinite(code) ? String.fromCodePoint(code) : m;
  });

/** The text of every <t> element inside a fragment (rich text runs joined). */
const textOf = (xml: string) => [...xml.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)].map((m) => decodeXml(m[1])).join('');

function columnIndex(ref: string): number {
  const letters = /^[A-Z]+/.exec(ref)?.[0] ?? 'A';
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

export function readXlsx(buf: Uint8Array): Row[] {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(buf, { filter: (f) => f.name.startsWith('xl/') && f.name.endsWith('.xml') });
  } catch {
    throw new SpreadsheetError('The XLSX file cannot be read (damaged or not a workbook)');
  }
  const sheetName = Object.keys(files).filter((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n))
    .sort((a, b) => Number(/\d+/.exec(a.slice(14))![0]) - Number(/\d+/.exec(b.slice(14))![0]))[0];
  if (!sheetName) throw new SpreadsheetError('The XLSX file has no worksheet');
  const shared = files['xl/sharedStrings.xml'] ? [...strFromU8(files['xl/sharedStrings.xml']).matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) => textOf(m[1])) : [];
  const xml = strFromU8(files[sheetName]);
  const rows: Row[] = [];
  for (const rm of xml.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    const line = Number(/\br="(\d+)"/.exec(rm[1])?.[1] ?? rows.length + 1);
    const cells: string[] = [];
    for (const cm of (rm[2] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = cm[1];
      const body = cm[2] ?? '';
      const ref = /\br="([A-Z]+)\d*"/.exec(attrs)?.[1];
      const col = ref ? columnIndex(ref) : cells.length;
      const type = /\bt="(\w+)"/.exec(attrs)?.[1];
      const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
      let value = '';
      if (type === 's') value = shared[Number(v)] ?? '';
      else if (type === 'inlineStr') value = textOf(body);
      else if (type === 'b') value = v === '1' ? 'TRUE' : 'FALSE';
      else value = v !== undefined ? decodeXml(v) : '';
      while (cells.length < col) cells.push('');
      cells[col] = value;
    }
    if (cells.some((c) => c.trim() !== '')) rows.push({ line, cells });
    if (rows.length > SPREADSHEET_MAX_ROWS + 1) throw new SpreadsheetError(`The file has more than ${SPREADSHEET_MAX_ROWS} rows: split it`);
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
  if (!keys.includes('title')) {
    throw new SpreadsheetError(`The first row must hold the column names, with a "title" column. Expected columns: ${columnNames(csvType).join(', ')}`);
  }
  if (data.length === 0) throw new SpreadsheetError('The file has no records (only the header row)');
  const errors: RowError[] = [];
  const records: ParsedSheet['records'] = [];
  const seen = new Map<string, number>();
  for (const row of data) {
    const rec: IngestRecord = { siteId, identifier: '', title: '', authors: [], languages: [] };
    const problems: string[] = [];
    keys.forEach((k, i) => {
      const col = columns[k];
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
        const m = csvType === 'calibre' ? /^(-?\d{1,4})(?:-\d\d-\d\d.*)?$/.exec(raw) : /^(-?\d{1,4})(?:\.0+)?$/.exec(raw);
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
  return { header, records, errors, sample: header.map((name, i) => ({ name, value: first.cells[i] ?? '' })) };
}
