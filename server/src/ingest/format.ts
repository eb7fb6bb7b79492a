// The lines of the catalogue import format (docs/import-format.md), each parsed and checked on its
// own: what can be told from one line. The import (jsonl.ts) gets them from a reader thread (reader.ts).
import fs from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import { z } from 'zod';
import { LIBRARY_TYPES, REGIONS, SITE_TYPES, isHttpUrl } from '@uc/shared';
import { recordGroupingKey } from './grouping.ts';

const str = (max: number) => z.string().max(max);
const optStr = (max: number) => z.string().max(max).nullable().optional();
/** A web address shown as a link (a library's url, a record's uri): http(s) only; empty is none. */
const optUrl = (max: number) => z.string().max(max).refine((s) => s === '' || isHttpUrl(s), 'Invalid URL (http or https)').nullable().optional();
const year = z.number().int().min(-3000).max(3000).nullable().optional();

const settingsLine = z.object({
  type: z.literal('settings'),
  site_name: optStr(200), site_logo: optStr(500), description: optStr(5000), contact_email: optStr(200),
  /** The description in other interface languages, by code. */
  descriptions: z.object({ de: optStr(5000), el: optStr(5000), fr: optStr(5000), hr: optStr(5000), it: optStr(5000) }).strict().optional(),
});

const libraryLine = z.object({
  type: z.literal('library'),
  id: z.number().int().min(1),
  name: str(255).min(1),
  country: optStr(64), city: optStr(64),
  latitude: z.number().min(-90).max(90).nullable().optional(),
  longitude: z.number().min(-180).max(180).nullable().optional(),
  library_type: z.enum(LIBRARY_TYPES).optional(),
  public: z.boolean().optional(),
  active: z.boolean().optional(),
  languages: z.array(str(8)).max(50).optional(),
  url: optUrl(255), logo_url: optStr(255), email_public: optStr(255), email_internal: optStr(255),
  opening_hours: optStr(5000), description: optStr(20000), short_desc: optStr(2000), pgp_public_key: optStr(20000),
  address_line_1: optStr(255), address_line_2: optStr(255), address_zip: optStr(16), address_state: optStr(64),
  year_established: z.string().regex(/^\d{4}(-\d{2}-\d{2})?$/).nullable().optional(),
  region: z.enum(REGIONS).nullable().optional(),
  // 'koha' is the import format's older name of koha-marc21.
  site_type: z.enum([...SITE_TYPES, 'koha']).optional().transform((t) => (t === 'koha' ? 'koha-marc21' : t)),
  site_url: optUrl(255),
  // Further sites of the library beside the one above, e.g. a spreadsheet source for its uploads.
  sites: z.array(z.object({ site_type: z.enum(SITE_TYPES), title: str(255).min(1), url: optUrl(255) })).max(20).optional(),
});

const dataSourceItem = z.object({
  library_id: z.number().int().min(1),
  identifier: str(2048).min(1),
  year_edition: year,
  year_first_edition: year,
  publisher: optStr(1000), isbn: optStr(1000), description: optStr(50000), shelf_location_code: optStr(1000),
  material_description: optStr(2000), edition_statement: optStr(2000), place_date_of_publication_distribution: optStr(2000),
  uri: optUrl(2048), uri_label: optStr(2048), content_type: optStr(128),
  downloads: z.array(str(16)).max(20).optional(),
  datestamp: z.string().datetime().nullable().optional(),
  muse_file: optStr(500),
  pdf_file: optStr(500),
});

const entryLine = z.object({
  type: z.literal('entry'),
  id: z.number().int(),
  title: str(2000).min(1),
  subtitle: optStr(2000),
  authors: z.array(str(500)).max(100),
  languages: z.array(str(16)).max(20),
  year: year,
  aggregation_id: z.number().int().nullable().optional(),
  aggregation_position: z.number().int().nullable().optional(),
  translation_of: z.number().int().nullable().optional(),
  data_sources: z.array(dataSourceItem).min(1).max(200),
  fulltext: z.string().max(5_000_000).nullable().optional(),
});

const pageLine = z.object({
  type: z.literal('page'),
  id: z.number().int().min(1).optional(),
  title: str(255).min(1),
  summary: optStr(2000),
  content: z.string().max(500000),
  language: optStr(4),
  location: z.enum(['footer', 'user_menu', 'draft']).optional(),
  sorting: z.number().int().optional(),
  published: z.boolean().optional(),
});

const line = z.discriminatedUnion('type', [settingsLine, libraryLine, entryLine, pageLine]);
export type Line = z.infer<typeof line>;
/** An entry line; `groupingKey`: its recordGroupingKey, made by the reader thread (pure work, on the other core). */
export type EntryLine = z.infer<typeof entryLine> & { groupingKey?: string };

/** Line breaks as readline counts them (crlfDelay: Infinity): CRLF, LF or a lone CR. */
const BREAK = /\r\n|\n|\r/;

/**
 * The file's non-blank lines with their numbers; `read.bytes` follows what was read. Split by hand on
 * bytes (an LF byte is never inside a UTF-8 character): readline and its string decoder took most of
 * the reading thread's time. `keep(index)` (index: the line's place among the non-blank lines) picks
 * the lines wanted; the others are counted but never decoded (each reader thread decodes its share only).
 */
export async function* readLines(file: string, read: { bytes: number }, chunkBytes = 1 << 20, keep: (index: number) => boolean = () => true): AsyncGenerator<[number, string]> {
  let n = 0;
  let index = 0;
  let carry: Buffer | null = null;
  /** Lines of decoded text (a chunk holding a CR: CRLF or a lone CR breaks a line as readline does). */
  function* numbered(text: string, last: boolean): Generator<[number, string]> {
    const lines = text.split(BREAK);
    // Text cut after an LF ends with an empty piece; so does a last line ending in a break.
    if (!last || lines.at(-1) === '') lines.pop();
    for (const line of lines) {
      n++;
      if (line.trim() && keep(index++)) yield [n, line];
    }
  }
  /** Lines of bytes 0..end (end: an LF) of a chunk without a CR. */
  function* byLf(buf: Buffer, end: number): Generator<[number, string]> {
    for (let from = 0; from <= end;) {
      const lf = buf.indexOf(10, from);
      n++;
      if (!blank(buf, from, lf) && keep(index++)) yield [n, buf.toString('utf8', from, lf)];
      from = lf + 1;
    }
  }
  for await (const chunk of fs.createReadStream(file, { highWaterMark: chunkBytes }) as AsyncIterable<Buffer>) {
    read.bytes += chunk.length;
    const buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    // Up to the last LF only: a CR at the end of a chunk may be the first half of a CRLF.
    const end = buf.lastIndexOf(10);
    if (end < 0) {
      carry = buf;
      continue;
    }
    carry = end + 1 < buf.length ? Buffer.from(buf.subarray(end + 1)) : null;
    const cr = buf.indexOf(13);
    if (cr >= 0 && cr < end) yield* numbered(buf.toString('utf8', 0, end + 1), false);
    else yield* byLf(buf, end);
  }
  if (carry) yield* numbered(carry.toString('utf8'), true);
}

/** Whether bytes from..to are a blank line as String#trim sees it (a line with other than ASCII spaces is decoded to tell). */
function blank(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const b = buf[i]!;
    if (b === 32 || (b >= 9 && b <= 13)) continue;
    return b < 128 ? false : buf.toString('utf8', from, to).trim() === '';
  }
  return true;
}

/** The line checked, or its problem. */
export function parseLine(n: number, text: string): Line | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return `line ${n}: not valid JSON`;
  }
  const res = line.safeParse(json);
  if (!res.success) return `line ${n}: ${res.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'record'}: ${i.message}`).join('; ')}`;
  return res.data;
}

/** A line's number and the line checked, or its problem. */
export type CheckedLine = [number, Line | string];
/**
 * What a reader thread sends: the next lines of its share, the bytes read so far, and whether the file
 * ended (a last message with no lines).
 */
export interface LinesMessage { lines: CheckedLine[]; bytes: number; done: boolean }
/** Lines per message; the readers take turns by these blocks of the file's non-blank lines. */
export const LINES_PER_MESSAGE = 1000;
/** Messages the reader thread may send before the import has taken them (memory stays bounded). */
export const MESSAGES_AHEAD = 8;

/**
 * A reader thread: reads every line and parses and checks those of its share (block `part` of every
 * `parts` blocks of LINES_PER_MESSAGE lines), one message per block, in order; each message taken is
 * acknowledged.
 */
export async function sendCheckedLines(port: MessagePort, file: string, part = 0, parts = 1): Promise<void> {
  let credits = MESSAGES_AHEAD;
  let wake: (() => void) | null = null;
  port.on('message', () => {
    credits++;
    wake?.();
  });
  const read = { bytes: 0 };
  let lines: CheckedLine[] = [];
  const send = async () => {
    while (credits === 0) await new Promise<void>((r) => (wake = r));
    credits--;
    port.postMessage({ lines, bytes: read.bytes, done: false } satisfies LinesMessage);
    lines = [];
  };
  const mine = (index: number) => Math.floor(index / LINES_PER_MESSAGE) % parts === part;
  for await (const [n, text] of readLines(file, read, undefined, mine)) {
    const checked = parseLine(n, text);
    if (typeof checked !== 'string' && checked.type === 'entry') (checked as EntryLine).groupingKey = recordGroupingKey(checked);
    lines.push([n, checked]);
    if (lines.length === LINES_PER_MESSAGE) await send();
  }
  if (lines.length) await send();
  port.postMessage({ lines: [], bytes: read.bytes, done: true } satisfies LinesMessage);
}
