// A Calibre book's metadata.opf (`<package>`, OPF 2 as Calibre writes it, OPF 3 tolerated) into
// catalogue fields (spec §5.4). Calibre's description is HTML: it is read with an HTML parser (parse5)
// and turned into plain text, never cut with patterns.
import { parseFragment, type DefaultTreeAdapterTypes } from 'parse5';
import { child, type XmlElement } from '../xml.ts';
import type { AggregationRef, MappedRecord } from '../record.ts';
import { languageCodes } from '../../ingest/languages.ts';
import { authorList, clean, cleanTitle, dedupe, isbnOf, joinList, yearsOf } from './fields.ts';
import type { MapOptions } from './marc21.ts';

export interface OpfBook {
  record: MappedRecord;
  /** Calibre's uuid of the book ('' → null). */
  uuid: string | null;
  /** The book's identifiers in document order (ISBN, calibre id, uuid, ASIN...), as scheme and value. */
  identifiers: { scheme: string | null; value: string }[];
}

type Node = DefaultTreeAdapterTypes.Node;

const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'tr', 'ul',
]);
const SKIPPED = new Set(['script', 'style', 'template', 'noscript', 'head', 'title', 'iframe', 'object', 'svg', 'math']);

/** HTML (as Calibre stores comments) → plain text: one line per block, inner whitespace collapsed. */
export function htmlToText(html: string): string {
  const lines: string[] = [];
  let current = '';
  const breakLine = () => {
    const line = current.replace(/\s+/g, ' ').trim();
    if (line) lines.push(line);
    current = '';
  };
  const walk = (node: Node) => {
    if (node.nodeName === '#text') {
      current += (node as DefaultTreeAdapterTypes.TextNode).value;
      return;
    }
    if (!('childNodes' in node)) return;
    const tag = 'tagName' in node ? node.tagName : '';
    if (SKIPPED.has(tag)) return;
    const block = BLOCKS.has(tag);
    if (block) breakLine();
    for (const c of node.childNodes) walk(c);
    if (block) breakLine();
  };
  walk(parseFragment(html));
  breakLine();
  return lines.join('\n');
}

/** The `<metadata>` children, with their OPF attributes read by local name (opf:scheme → scheme). */
export function mapOpf(pkg: XmlElement, _opts: MapOptions = {}): OpfBook {
  const metadata = child(pkg, 'metadata') ?? pkg;
  // Calibre 0.x wrapped the elements in <dc-metadata>/<x-metadata>; both are read.
  const elements = metadata.children.flatMap((c) => (c.name === 'dc-metadata' || c.name === 'x-metadata' ? c.children : [c]));
  const dc = (name: string) => elements.filter((e) => e.name === name);
  const texts = (name: string) => dc(name).map((e) => clean(e.text)).filter(Boolean);

  const identifiers = dc('identifier')
    .map((e) => ({ scheme: clean(e.attrs.scheme) || null, value: clean(e.text), id: e.attrs.id ?? '' }))
    .filter((i) => i.value);
  const uuidOf = (v: string) => v.replace(/^urn:uuid:/i, '');
  const uuidEntry = identifiers.find((i) => i.scheme?.toLowerCase() === 'uuid' || i.id === 'uuid_id' || /^urn:uuid:/i.test(i.value));
  const isbns = identifiers
    .filter((i) => i.scheme?.toLowerCase() === 'isbn' || /^urn:isbn:/i.test(i.value))
    .map((i) => isbnOf(i.value) ?? i.value);

  // Authors: creators without a role or with the author role (Calibre writes opf:role="aut").
  const authors = authorList(dc('creator').filter((e) => !e.attrs.role || e.attrs.role === 'aut').map((e) => e.text));

  const metas = elements.filter((e) => e.name === 'meta');
  const metaContent = (name: string) => clean(metas.find((e) => e.attrs.name === name)?.attrs.content);

  const aggregations: AggregationRef[] = [];
  const series = metaContent('calibre:series');
  if (series) aggregations.push({ name: series, order: seriesOrder(metaContent('calibre:series_index')) });
  // OPF 3: <meta property="belongs-to-collection" id="c1">Name</meta> refined by group-position.
  for (const c of metas.filter((e) => e.attrs.property === 'belongs-to-collection')) {
    const name = clean(c.text);
    if (!name || aggregations.some((a) => a.name === name)) continue;
    const position = metas.find((e) => e.attrs.refines === `#${c.attrs.id}` && e.attrs.property === 'group-position');
    aggregations.push({ name, order: seriesOrder(clean(position?.text)) });
  }

  const descriptions = texts('description').map(htmlToText).filter(Boolean);
  const titles = texts('title').map(cleanTitle).filter(Boolean);
  const record: MappedRecord = {
    title: titles[0] ?? '',
    subtitle: null,
    authors,
    languages: dedupe(texts('language').flatMap((v) => languageCodes(v))),
    // Calibre's "no date" is 0101-01-01, outside the years taken.
    ...yearsOf(texts('date')),
    description: descriptions.length ? descriptions.join('\n') : null,
    publisher: joinList(texts('publisher')),
    isbn: joinList(isbns),
    aggregations,
  };
  return {
    record,
    uuid: uuidEntry ? uuidOf(uuidEntry.value) : null,
    identifiers: identifiers.map(({ scheme, value }) => ({ scheme, value })),
  };
}

/** Calibre's series index is a float: "2", "2.0" → 2; "1.5" is not a position (null). */
export function seriesOrder(index: string | null | undefined): number | null {
  const v = clean(index);
  if (!/^\d+(?:\.0+)?$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : null;
}
