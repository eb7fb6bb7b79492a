// Unqualified Dublin Core (`oai_dc:dc`) into catalogue fields (spec §5.4), done right: the second
// title is the subtitle, contributors are not authors, identifiers are sorted into links and ISBNs,
// relations that name a series or journal become aggregations.
import type { XmlElement } from '../xml.ts';
import type { AggregationRef, MappedRecord } from '../record.ts';
import { languageCodes } from '../../ingest/languages.ts';
import {
  authorList, clean, cleanTitle, dedupe, httpUrl, isbnOf, joinLines, joinList, looksLikeName, mergeAggregations, mimeType,
  yearsOf, type UriInfo,
} from './fields.ts';
import { uriFields, type MapOptions } from './marc21.ts';

const DC_NS = 'http://purl.org/dc/elements/1.1/';
const DCTERMS_NS = 'http://purl.org/dc/terms/';

/** An identifier that is an ISBN: "urn:isbn:…", "ISBN 978…", or a bare ISBN whose check digit is right. */
function isbnIdentifier(value: string): string | null {
  const v = clean(value);
  const labelled = /^(?:urn:isbn:|isbn[:\s]*)(.+)$/i.exec(v);
  if (labelled) return isbnOf(labelled[1]);
  return /^[\d\s-]{9,17}[\dXx]$/.test(v) ? isbnOf(v, { checked: true }) : null;
}

export function mapDublinCore(dc: XmlElement, opts: MapOptions = {}): MappedRecord {
  const values = (name: string) => dc.children
    .filter((c) => c.name === name && (c.ns === DC_NS || c.ns === DCTERMS_NS || c.ns === ''))
    .map((c) => clean(c.text))
    .filter(Boolean);

  const titles = dedupe(values('title').map(cleanTitle));
  const identifiers = values('identifier');
  const formats = values('format');
  const contentType = formats.map(mimeType).find(Boolean) ?? null;

  const links: UriInfo[] = identifiers.filter((v) => httpUrl(v)).map((uri) => ({ uri, label: 'URL' }));
  const isbns = identifiers.map(isbnIdentifier).filter((v): v is string => !!v);

  const aggregations: AggregationRef[] = mergeAggregations(
    [...values('relation'), ...values('isPartOf')].filter(looksLikeName).map((name) => ({ name: cleanTitle(name) })),
  );

  const uris = uriFields(links, [], opts.host);
  return {
    title: titles[0] ?? '',
    subtitle: titles[1] ?? null,
    authors: authorList(values('creator')),
    languages: dedupe(values('language').flatMap((v) => languageCodes(v))),
    ...yearsOf(values('date')),
    description: joinLines(values('description')),
    publisher: joinList(values('publisher')),
    isbn: joinList(isbns),
    ...uris,
    // dc:format describes the resource, which the chosen link stands for.
    content_type: uris.uri ? contentType : null,
    aggregations,
  };
}
