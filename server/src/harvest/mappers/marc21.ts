// MARC21 (MARCXML) records — amusewiki's and Koha's — into catalogue fields (spec §5.4), with the
// anchor's bugs fixed: added authors (700/710) kept, 260 $c years used, the statement of responsibility
// (245 $c) never glued to the title, 546 prose never guessed into a language.
import type { XmlElement } from '../xml.ts';
import type { AggregationRef, MappedRecord } from '../record.ts';
import { languageCode, languageCodes } from '../../ingest/languages.ts';
import {
  amusewikiText, authorList, chooseUri, clean, cleanTitle, dedupe, httpUrl, isbnOf, isPlaceholder, joinLines, joinList, mergeAggregations,
  mimeType, placeDateOfPublication, publicationLine, titleOf, trimIsbd, wholeNumber, yearsOf, type UriInfo,
} from './fields.ts';

export interface MarcSubfield {
  code: string;
  value: string;
}

export interface MarcField {
  /** Position in the record (fields of several tags are returned in record order). */
  index: number;
  tag: string;
  ind1: string;
  ind2: string;
  subfields: MarcSubfield[];
}

/** A MARCXML record as plain data (MARC21 and UNIMARC share the envelope). */
export interface MarcRecord {
  leader: string;
  /** Control fields by tag, their text untouched (positions matter). */
  control: Map<string, string>;
  fields: MarcField[];
  byTag: Map<string, MarcField[]>;
}

export interface MapOptions {
  /** The harvested site's host: its links are preferred when a record has several. */
  host?: string;
}

/** Reads `<record>` (namespace http://www.loc.gov/MARC21/slim, with or without prefix, or none). */
export function readMarc(record: XmlElement): MarcRecord {
  const out: MarcRecord = { leader: '', control: new Map(), fields: [], byTag: new Map() };
  for (const el of record.children) {
    if (el.name === 'leader') out.leader = el.text;
    else if (el.name === 'controlfield') {
      const tag = (el.attrs.tag ?? '').trim();
      if (tag && !out.control.has(tag)) out.control.set(tag, el.text);
    } else if (el.name === 'datafield') {
      const subfields: MarcSubfield[] = [];
      for (const s of el.children) {
        if (s.name !== 'subfield') continue;
        const value = clean(s.text);
        if (value) subfields.push({ code: (s.attrs.code ?? '').trim(), value });
      }
      const field: MarcField = { index: out.fields.length, tag: (el.attrs.tag ?? '').trim(), ind1: el.attrs.ind1 ?? ' ', ind2: el.attrs.ind2 ?? ' ', subfields };
      out.fields.push(field);
      const same = out.byTag.get(field.tag);
      if (same) same.push(field);
      else out.byTag.set(field.tag, [field]);
    }
  }
  return out;
}

/** The fields with these tags, in record order. */
export function fieldsOf(m: MarcRecord, ...tags: string[]): MarcField[] {
  if (tags.length === 1) return m.byTag.get(tags[0]) ?? [];
  return m.fields.filter((f) => tags.includes(f.tag));
}

/** Values of the subfields whose code is one of `codes` ("abc"), in field order. */
export function sub(f: MarcField, codes: string): string[] {
  return f.subfields.filter((s) => s.code.length === 1 && codes.includes(s.code)).map((s) => s.value);
}

/** The first value of a subfield ('' when absent). */
export function first(f: MarcField, code: string): string {
  return f.subfields.find((s) => s.code === code)?.value ?? '';
}

/** Every value of these subfields across these fields. */
export function all(m: MarcRecord, tags: string[], codes: string): string[] {
  return fieldsOf(m, ...tags).flatMap((f) => sub(f, codes));
}

/** MARC language codes, including several written together ("engfre" in 041 $a). */
export function marcLanguages(values: string[]): string[] {
  const out: string[] = [];
  for (const raw of values) {
    const v = clean(raw);
    const chunks = /^[a-z]{6,}$/i.test(v) && v.length % 3 === 0 ? v.match(/.{3}/g)! : [v];
    for (const c of chunks) {
      const code = languageCode(c, { names: false });
      if (code && !out.includes(code)) out.push(code);
    }
  }
  return out;
}

/**
 * Publication statements (260/264, UNIMARC 210/214), one line per field. A source that writes each part
 * in its own field (amusewiki: one 260 per $a, $b and $c) gets one statement from them all.
 */
export function publicationStatements(fields: MarcField[], placeCodes: string, publisherCodes: string, dateCodes: string): string | null {
  const codes = placeCodes + publisherCodes + dateCodes;
  const used = fields.filter((f) => sub(f, codes).length);
  const fragments = used.length > 1 && used.every((f) => f.subfields.filter((s) => codes.includes(s.code)).length === 1);
  const groups = fragments ? [used.flatMap((f) => f.subfields)] : used.map((f) => f.subfields);
  return placeDateOfPublication(groups.map((subs) => {
    const f: MarcField = { index: 0, tag: '', ind1: ' ', ind2: ' ', subfields: subs };
    return publicationLine(sub(f, placeCodes), sub(f, publisherCodes), sub(f, dateCodes));
  }));
}

/** 856-like links: $u with its label and content type. */
export function linksOf(fields: MarcField[], labelCode: string, typeCode: string | null): UriInfo[] {
  return fields.flatMap((f) => sub(f, 'u').map((uri) => ({
    uri,
    label: first(f, labelCode) || null,
    contentType: typeCode ? mimeType(first(f, typeCode)) : null,
  })));
}

/**
 * The record's URI: an amusewiki text's page (its format links become `downloads`), else the URI choice
 * among `links`, else the first http(s) fallback (Koha item URIs, then identifiers that are URLs).
 */
export function uriFields(links: UriInfo[], fallbacks: UriInfo[][], host?: string): Pick<MappedRecord, 'uri' | 'uri_label' | 'content_type' | 'downloads' | 'links' | 'linksLeftOut'> {
  const out = chooseUriFields(links, fallbacks, host);
  // A link with another scheme (javascript:, data:, ftp:...) is never stored; the harvest logs it.
  const leftOut = [...links, ...fallbacks.flat()].map((l) => clean(l.uri)).filter((u) => /^[a-z][a-z0-9+.-]*:/i.test(u) && !httpUrl(u));
  return leftOut.length ? { ...out, linksLeftOut: [...new Set(leftOut)] } : out;
}

function chooseUriFields(links: UriInfo[], fallbacks: UriInfo[][], host?: string): Pick<MappedRecord, 'uri' | 'uri_label' | 'content_type' | 'downloads' | 'links'> {
  const text = amusewikiText(links, host);
  const { chosen, others } = chooseUri(text ? [text.page, ...links.filter((l) => clean(l.uri) !== text.page.uri)] : links, host);
  const out: Pick<MappedRecord, 'uri' | 'uri_label' | 'content_type' | 'downloads' | 'links'> = { uri: null, uri_label: null, content_type: null };
  if (chosen) {
    Object.assign(out, chosen);
    if (text && chosen.uri === text.page.uri) {
      if (text.downloads.length) out.downloads = text.downloads;
      // The format files are the text's downloads, not other links.
      const formats = new Set(text.downloads.map((ext) => `${text.page.uri}.${ext}`));
      out.links = others.filter((o) => !formats.has(o.uri.replace(/\/$/, '')));
    } else {
      out.links = others;
    }
    if (!out.links?.length) delete out.links;
    return out;
  }
  for (const list of fallbacks) {
    const fb = chooseUri(list, host).chosen;
    if (fb) return { ...out, ...fb };
  }
  return out;
}

export function mapMarc21(record: XmlElement, opts: MapOptions = {}): MappedRecord {
  const m = readMarc(record);
  const f008 = m.control.get('008') ?? '';

  // Authors: main entries first, then added entries, each in record order; personal and corporate.
  const authors = authorList([...all(m, ['100', '110', '111'], 'a'), ...all(m, ['700', '710', '711'], 'a')]);

  // Title from 245 $a $n $p; the subtitle is $b. $c (statement of responsibility) is left out on purpose.
  const f245 = fieldsOf(m, '245')[0];
  let title = f245 ? titleOf(sub(f245, 'anp')) : '';
  if (!title) title = titleOf(all(m, ['246', '240', '130'], 'a').slice(0, 1)); // no 245: a varying or uniform title
  let subtitle = f245 ? titleOf(sub(f245, 'b'), ' : ') : '';
  // amusewiki writes the subtitle as an "other title" 246 (second indicator 3).
  if (!subtitle) subtitle = titleOf(fieldsOf(m, '246').filter((f) => f.ind2 === '3').flatMap((f) => sub(f, 'ab')).slice(0, 1));
  if (subtitle === title) subtitle = '';

  // Years: the publication statements and serial dates; the coded 008 dates only when they say nothing.
  let years = yearsOf([...all(m, ['260', '264'], 'c'), ...all(m, ['362'], 'a'), ...all(m, ['363'], 'i')]);
  if (years.year_edition === null && f008.length >= 11) {
    const dates = [f008.slice(7, 11)];
    if (f008[6] === 'r' && f008.length >= 15) dates.push(f008.slice(11, 15)); // reprint: original date in 11-14
    years = yearsOf(dates);
  }

  const languages = marcLanguages([...all(m, ['041'], 'a'), f008.length >= 38 ? f008.slice(35, 38) : '']);
  for (const note of all(m, ['546'], 'a')) for (const code of languageCodes(note)) if (!languages.includes(code)) languages.push(code);

  const items = fieldsOf(m, '952');
  const uris = uriFields(
    linksOf(fieldsOf(m, '856'), 'y', 'q'),
    [
      items.flatMap((f) => sub(f, 'u')).map((uri) => ({ uri })),
      [...all(m, ['024'], 'a'), m.control.get('001') ?? ''].filter((v) => httpUrl(v)).map((uri) => ({ uri, label: 'URL' })),
    ],
    opts.host,
  );

  const out: MappedRecord = {
    title,
    subtitle: subtitle || null,
    authors,
    languages,
    ...years,
    description: joinLines(all(m, ['500', '520'], 'a')),
    publisher: joinList(all(m, ['260', '264'], 'b').map(trimIsbd).filter((v) => !isPlaceholder(v))),
    isbn: joinList(all(m, ['020'], 'a').map((v) => isbnOf(v) ?? trimIsbd(v))),
    // Per item: the call number ($o), then the volume or issue it is ($h).
    shelf_location_code: joinLines([...items.map((f) => [...sub(f, 'o'), ...sub(f, 'h')].join(' ')), ...all(m, ['852'], 'c')]),
    material_description: joinLines(fieldsOf(m, '300').map((f) => trimIsbd(sub(f, 'abce').join(' ')))),
    edition_statement: joinLines(all(m, ['250'], 'a').map(trimIsbd)),
    // A copyright notice (264 second indicator 4) is a date, not a publication statement.
    place_date_of_publication_distribution: publicationStatements(fieldsOf(m, '260', '264').filter((f) => !(f.tag === '264' && f.ind2 === '4')), 'a', 'b', 'c'),
    ...uris,
    aggregations: marc21Aggregations(m),
    // "Is a translation of" (765 original language entry): the original's record identifier ($o, or $w).
    originalIdentifier: fieldsOf(m, '765').map((f) => first(f, 'o') || first(f, 'w')).find(Boolean) || null,
  };
  const branches = dedupe(items.flatMap((f) => sub(f, 'ab')));
  if (branches.length) out.internal_library_codes = branches;
  return out;
}

/** "Is part of": host items (773) and series (490, 830, 440), each once. */
function marc21Aggregations(m: MarcRecord): AggregationRef[] {
  const list: AggregationRef[] = [];
  for (const f of fieldsOf(m, '773')) {
    const name = cleanTitle(first(f, 't'));
    if (!name) continue;
    const z = first(f, 'z');
    const link = first(f, '6');
    // $o is the host's record identifier (amusewiki); Koha links a host by its biblionumber in $0.
    const zero = first(f, '0');
    list.push({
      name,
      issue: trimIsbd(first(f, 'g')) || null,
      isbn: z ? isbnOf(z) ?? trimIsbd(z) : null,
      order: wholeNumber(first(f, 'q')),
      placeDatePublisher: trimIsbd(first(f, 'd')) || null,
      itemIdentifier: clean(first(f, 'o')) || (/^\d+$/.test(zero) ? zero : null),
      uri: httpUrl(link) ? clean(link) : null,
    });
  }
  for (const f of fieldsOf(m, '490', '830', '440')) {
    const name = cleanTitle(first(f, 'a'));
    if (name) list.push({ name, order: wholeNumber(first(f, 'v')) });
  }
  return mergeAggregations(list);
}
