// Citations of an entry for reference managers: one CSL-JSON item built from the entry as the viewer
// sees it, written as CSL-JSON, RIS and BibTeX. Names are split by Citation.js's name parser. The
// writers are our own: Citation.js's BibTeX writer leaves names unescaped (an unbalanced brace eats
// the file) and turns Greek or Cyrillic into broken math; its RIS writer cuts lines every 70
// characters, mid-word. Here BibTeX escapes TeX's special characters and keeps other text as UTF-8
// (biber, bibtex8, Zotero and JabRef read it); RIS keeps one line per value. The tests read both back
// with Citation.js's parsers.
import { z } from 'zod';
import anyAscii from 'any-ascii';
import { parse as parseName } from '@citation-js/name';
import { shortEntryText, type Entry } from '@uc/shared';
import { fullTitle } from './feeds.ts';
import { schemaType } from './entry-html.ts';
import { Cite, plugins } from '@citation-js/core';
import '@citation-js/plugin-csl';
import { CHICAGO_CSL, MLA_CSL } from './csl-styles.ts';

/** Files for reference managers, then readable styles (plain text, formatted by Citation.js's CSL engine). */
export const CITE_FORMATS = ['bibtex', 'ris', 'csl-json', 'apa', 'chicago', 'mla'] as const;
export type CiteFormat = (typeof CITE_FORMATS)[number];
export const citeQuerySchema = z.object({
  format: z.enum(CITE_FORMATS, { message: `format must be one of ${CITE_FORMATS.join(', ')}` }),
  /** The copy to cite (the one the reader is looking at); the first holding without it. */
  data_source: z.coerce.number().int().min(1).max(2 ** 31 - 1).optional(),
});

const FORMATS: Record<CiteFormat, { contentType: string; ext: string }> = {
  bibtex: { contentType: 'application/x-bibtex; charset=utf-8', ext: '.bib' },
  ris: { contentType: 'application/x-research-info-systems; charset=utf-8', ext: '.ris' },
  'csl-json': { contentType: 'application/vnd.citationstyles.csl+json; charset=utf-8', ext: '.json' },
  apa: { contentType: 'text/plain; charset=utf-8', ext: '.txt' },
  chicago: { contentType: 'text/plain; charset=utf-8', ext: '.txt' },
  mla: { contentType: 'text/plain; charset=utf-8', ext: '.txt' },
};
const STYLES: Partial<Record<CiteFormat, string>> = { apa: 'apa', chicago: 'uc-chicago', mla: 'uc-mla' };

let stylesAdded = false;
/** A readable citation of the item in one style, as one line of plain text. */
export function formatStyle(item: CslItem, format: CiteFormat): string {
  const csl = plugins.config.get('@csl') as { styles: { add(name: string, xml: string): void } };
  if (!stylesAdded) {
    csl.styles.add('uc-chicago', CHICAGO_CSL);
    csl.styles.add('uc-mla', MLA_CSL);
    stylesAdded = true;
  }
  // Which library holds the copy, and its shelf mark, are no part of the edition a reader cites.
  const { archive: _archive, 'call-number': _shelf, ...edition } = item;
  const text = new Cite([edition]).format('bibliography', { format: 'text', template: STYLES[format], lang: 'en-US' });
  return `${text.replace(/\s+/g, ' ').trim()}\n`;
}

export interface CslName { family?: string; given?: string; literal?: string; 'non-dropping-particle'?: string; 'dropping-particle'?: string; suffix?: string }
export interface CslItem {
  id: string;
  type: 'book' | 'chapter' | 'document';
  title: string;
  author?: CslName[];
  issued?: { 'date-parts': number[][] };
  'original-date'?: { 'date-parts': number[][] };
  publisher?: string;
  'container-title'?: string;
  ISBN?: string;
  language?: string;
  edition?: string;
  abstract?: string;
  archive?: string;
  'call-number'?: string;
  URL: string;
}

/** One line, no control characters: a value can never start a new RIS tag or break a BibTeX field. */
function flat(s: string | null | undefined): string {
  return (s ?? '').replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}

/** A name as CSL wants it: split into family and given when it reads as a person's name, else kept whole. */
export function cslName(name: string): CslName {
  const clean = flat(name);
  // "and", "&", digits or braces: an organisation or a statement, not a person's name.
  if (/\band\b|[&{}\d]/i.test(clean)) return { literal: clean };
  const parsed = parseName(clean);
  if (!parsed?.family) return { literal: clean };
  const out: CslName = { family: parsed.family };
  if (parsed.given) out.given = parsed.given;
  if (parsed['non-dropping-particle']) out['non-dropping-particle'] = parsed['non-dropping-particle'];
  if (parsed['dropping-particle']) out['dropping-particle'] = parsed['dropping-particle'];
  if (parsed.suffix) out.suffix = parsed.suffix;
  return out;
}

/**
 * One CSL item for one copy (data source): year, publisher, ISBN, edition and shelf mark all come from
 * it, so the citation names an edition that exists. No copy (a curated aggregation): the work alone.
 */
export function cslItem(entry: Entry, base: string, copy: Entry['data_sources'][number] | undefined = entry.data_sources[0]): CslItem {
  const first = <T>(pick: (d: Entry['data_sources'][number]) => T | null | undefined): T | undefined => {
    const v = copy ? pick(copy) : undefined;
    return v !== null && v !== undefined && v !== '' ? v : undefined;
  };
  const year = copy?.year_edition || copy?.year_first_edition || null;
  const original = copy?.year_first_edition || null;
  const partOf = entry.aggregations[0];
  const item: CslItem = {
    id: `entry-${entry.id}`,
    type: partOf ? 'chapter' : schemaType(entry) === 'Book' ? 'book' : 'document',
    title: flat(fullTitle(entry)),
    URL: `${base}/entry/${entry.id}`,
  };
  if (entry.authors.length) item.author = entry.authors.map((a) => cslName(a.value));
  if (year) item.issued = { 'date-parts': [[year]] };
  if (original && year && original < year) item['original-date'] = { 'date-parts': [[original]] };
  const publisher = first((d) => flat(d.publisher));
  if (publisher) item.publisher = publisher;
  if (partOf) item['container-title'] = flat(fullTitle(shortEntryText(partOf)));
  const isbn = first((d) => flat(d.isbn));
  if (isbn) item.ISBN = isbn;
  if (entry.languages[0]) item.language = entry.languages[0].id;
  const edition = first((d) => flat(d.edition_statement));
  if (edition) item.edition = edition;
  const abstract = first((d) => flat(d.description));
  if (abstract) item.abstract = abstract;
  const library = first((d) => flat(d.library_name));
  if (library) item.archive = library;
  const shelf = first((d) => flat(d.shelf_location_code));
  if (shelf) item['call-number'] = shelf;
  return item;
}

const TEX_SPECIALS: Record<string, string> = {
  '\\': '\\textbackslash{}', '{': '\\{', '}': '\\}', '&': '\\&', '%': '\\%', $: '\\$', '#': '\\#', _: '\\_',
  '~': '\\textasciitilde{}', '^': '\\textasciicircum{}', '<': '\\textless{}', '>': '\\textgreater{}',
};

/** A BibTeX field value: TeX's special characters escaped in one pass (so no escape is escaped again). */
export function texEscape(s: string): string {
  return flat(s).replace(/[\\{}&%$#_~^<>]/g, (c) => TEX_SPECIALS[c]);
}

function bibName(n: CslName): string {
  if (n.literal || !n.family) return `{${texEscape(n.literal ?? n.family ?? '')}}`;
  // "von Last, Jr, First": the form BibTeX splits without guessing.
  const last = [n['non-dropping-particle'], n.family].filter(Boolean).join(' ');
  const first = [n.given, n['dropping-particle']].filter(Boolean).join(' ');
  return [last, n.suffix, first].filter(Boolean).map((p) => texEscape(p!)).join(', ');
}

/** A citation key of ASCII letters and digits: first author's family name, year, first title word. */
export function citationKey(item: CslItem, entryId: number): string {
  const a = item.author?.[0];
  const word = (s: string | undefined) => anyAscii(s ?? '').replace(/[^A-Za-z0-9 ]/g, '').split(' ').find((w) => w.length > 3) ?? '';
  const key = `${word(a?.family ?? a?.literal)}${item.issued?.['date-parts'][0][0] ?? ''}${word(item.title)}`.toLowerCase();
  return /^[a-z]/.test(key) ? `${key}${entryId}` : `entry${entryId}`;
}

export function toBibtex(item: CslItem, entryId: number): string {
  const type = item.type === 'chapter' ? 'incollection' : item.type === 'book' ? 'book' : 'misc';
  const fields: [string, string][] = [];
  if (item.author?.length) fields.push(['author', item.author.map(bibName).join(' and ')]);
  // Braced twice so that styles keep the title's own capitals (titles here are in many languages).
  fields.push(['title', `{${texEscape(item.title)}}`]);
  if (item['container-title']) fields.push(['booktitle', `{${texEscape(item['container-title'])}}`]);
  if (item.issued) fields.push(['year', String(item.issued['date-parts'][0][0])]);
  if (item['original-date']) fields.push(['origdate', String(item['original-date']['date-parts'][0][0])]);
  if (item.edition) fields.push(['edition', texEscape(item.edition)]);
  if (item.publisher) fields.push(['publisher', texEscape(item.publisher)]);
  if (item.ISBN) fields.push(['isbn', texEscape(item.ISBN)]);
  if (item.language) fields.push(['language', texEscape(item.language)]);
  if (item.abstract) fields.push(['abstract', texEscape(item.abstract)]);
  if (item.archive) fields.push(['library', texEscape(item.archive)]);
  // url is read verbatim by url/hyperref: only braces and backslashes must not appear unbalanced.
  fields.push(['url', item.URL.replace(/[{}\\\s]/g, (c) => encodeURIComponent(c))]);
  return `@${type}{${citationKey(item, entryId)},\n${fields.map(([k, v]) => `  ${k} = {${v}}`).join(',\n')}\n}\n`;
}

const RIS_TYPES: Record<CslItem['type'], string> = { book: 'BOOK', chapter: 'CHAP', document: 'GEN' };

function risName(n: CslName): string {
  if (n.literal || !n.family) return n.literal ?? n.family ?? '';
  const last = [n['non-dropping-particle'], n.family].filter(Boolean).join(' ');
  const first = [n.given, n['dropping-particle']].filter(Boolean).join(' ');
  return [last, first, n.suffix].filter(Boolean).join(', ');
}

/** RIS: one "TAG  - value" line per value (values are single lines already), CRLF as the format wants. */
export function toRis(item: CslItem): string {
  const lines: [string, string | undefined][] = [
    ['TY', RIS_TYPES[item.type]],
    ['ID', item.id],
    ['TI', item.title],
    ...(item.author ?? []).map((a): [string, string] => ['AU', risName(a)]),
    ['T2', item['container-title']],
    ['PY', item.issued ? String(item.issued['date-parts'][0][0]) : undefined],
    ['ET', item.edition],
    ['PB', item.publisher],
    ['SN', item.ISBN],
    ['LA', item.language],
    ['AB', item.abstract],
    ['AV', item.archive],
    ['CN', item['call-number']],
    ['UR', item.URL],
  ];
  const body = lines.filter(([, v]) => v).map(([tag, v]) => `${tag}  - ${flat(v)}`);
  return [...body, 'ER  - ', ''].join('\r\n');
}

/** The copy to cite: the one asked for (undefined when the entry has no such copy the viewer may see), else the first. */
export function citedCopy(entry: Entry, dataSourceId: number | undefined): Entry['data_sources'][number] | undefined {
  return dataSourceId === undefined ? entry.data_sources[0] : entry.data_sources.find((d) => d.data_source_id === dataSourceId);
}

export function citation(entry: Entry, format: CiteFormat, base: string, copy = entry.data_sources[0]): { body: string; contentType: string; filename: string; attachment: boolean } {
  const item = cslItem(entry, base, copy);
  const body = format === 'bibtex' ? toBibtex(item, entry.id) : format === 'ris' ? toRis(item)
    : format === 'csl-json' ? `${JSON.stringify([item], null, 2)}\n` : formatStyle(item, format);
  const slug = anyAscii(entry.title).replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80).toLowerCase() || `entry-${entry.id}`;
  return { body, contentType: FORMATS[format].contentType, filename: `${slug}${FORMATS[format].ext}`, attachment: !STYLES[format] };
}
