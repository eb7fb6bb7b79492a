// XML of the OAI-PMH provider: the response envelope, record headers, and the two metadata formats
// (Dublin Core and MARCXML). A small streaming writer rather than a DOM builder: a page of 100 MARC
// records is thousands of elements, and building a tree for them cost more than reading the database.
// Every value is escaped by the writer; element and attribute names are constants of this file.

export const OAI_NS = 'http://www.openarchives.org/OAI/2.0/';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const OAI_DC_NS = 'http://www.openarchives.org/OAI/2.0/oai_dc/';
const DC_NS = 'http://purl.org/dc/elements/1.1/';
export const MARC_NS = 'http://www.loc.gov/MARC21/slim';
const OAI_ID_NS = 'http://www.openarchives.org/OAI/2.0/oai-identifier';

/** The formats we disseminate, for ListMetadataFormats and the prefix check. */
export const METADATA_FORMATS = [
  { prefix: 'oai_dc', schema: 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd', namespace: OAI_DC_NS },
  { prefix: 'marc21', schema: 'http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd', namespace: MARC_NS },
] as const;
export type MetadataPrefix = (typeof METADATA_FORMATS)[number]['prefix'];

// Characters XML 1.0 cannot carry (controls, lone surrogates, U+FFFE/FFFF): dropped from every value.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
export function xmlText(value: string): string {
  return value.replace(NOT_XML, '');
}

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
// In attributes, quotes and whitespace other than spaces are escaped too (parsers normalise raw tabs and newlines).
const ATTR_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };
export const escapeText = (v: string) => xmlText(v).replace(/[&<>]/g, (c) => TEXT_ESCAPES[c]);
export const escapeAttr = (v: string) => xmlText(v).replace(/[&<>"\t\n\r]/g, (c) => ATTR_ESCAPES[c]);

/** Attributes in writing order; null and undefined ones are left out. */
type Attrs = Record<string, string | null | undefined>;

/** Writes one document front to back; `end()` closes what is still open. */
export class XmlWriter {
  private parts: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  private stack: string[] = [];

  private tag(name: string, attrs?: Attrs): string {
    let out = `<${name}`;
    for (const [k, v] of Object.entries(attrs ?? {})) if (v !== null && v !== undefined) out += ` ${k}="${escapeAttr(v)}"`;
    return out;
  }

  open(name: string, attrs?: Attrs): this {
    this.parts.push(`${this.tag(name, attrs)}>`);
    this.stack.push(name);
    return this;
  }

  close(): this {
    const name = this.stack.pop();
    if (name === undefined) throw new Error('XmlWriter: nothing to close');
    this.parts.push(`</${name}>`);
    return this;
  }

  /** An element with text content (empty when the text is ''). */
  leaf(name: string, text: string, attrs?: Attrs): this {
    const t = escapeText(text);
    this.parts.push(t ? `${this.tag(name, attrs)}>${t}</${name}>` : `${this.tag(name, attrs)}/>`);
    return this;
  }

  end(): string {
    while (this.stack.length) this.close();
    return this.parts.join('');
  }
}

export interface OaiHeader {
  identifier: string;
  datestamp: string;
  setSpecs: string[];
  deleted: boolean;
}

/** A related entry (aggregation parent, original, translation) as a link. */
export interface RelatedEntry { title: string; identifier: string; url: string; position?: number | null }

/** What a record says about one visible entry (values already restricted to what visitors may see). */
export interface RecordData {
  entryId: number;
  url: string;
  title: string;
  subtitle: string | null;
  authors: string[];
  /** Stored language codes (ISO 639-1, or 639-2 when there is no 639-1 code). */
  languages: string[];
  years: number[];
  publishers: string[];
  isbns: string[];
  descriptions: string[];
  materials: string[];
  editions: string[];
  parents: RelatedEntry[];
  original: RelatedEntry | null;
  translations: RelatedEntry[];
}

/**
 * The envelope, left open inside OAI-PMH: responseDate and the request element (its attributes only
 * when the request was valid, as the protocol asks for badVerb and badArgument answers).
 */
export function oaiDocument(responseDate: string, baseUrl: string, request: [string, string][] | null): XmlWriter {
  const w = new XmlWriter().open('OAI-PMH', {
    xmlns: OAI_NS, 'xmlns:xsi': XSI_NS, 'xsi:schemaLocation': `${OAI_NS} http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd`,
  });
  w.leaf('responseDate', responseDate);
  return w.leaf('request', baseUrl, Object.fromEntries(request ?? []));
}

export function writeErrors(w: XmlWriter, errors: { code: string; message: string }[]) {
  for (const e of errors) w.leaf('error', e.message, { code: e.code });
}

export function writeHeader(w: XmlWriter, h: OaiHeader) {
  w.open('header', { status: h.deleted ? 'deleted' : null });
  w.leaf('identifier', h.identifier).leaf('datestamp', h.datestamp);
  for (const spec of h.setSpecs) w.leaf('setSpec', spec);
  w.close();
}

/** The oai-identifier description of Identify (only when the host is a domain name, as its schema requires). */
export function writeIdentifierDescription(w: XmlWriter, host: string, sample: string) {
  w.open('description').open('oai-identifier', {
    xmlns: OAI_ID_NS, 'xsi:schemaLocation': `${OAI_ID_NS} http://www.openarchives.org/OAI/2.0/oai-identifier.xsd`,
  });
  w.leaf('scheme', 'oai').leaf('repositoryIdentifier', host).leaf('delimiter', ':').leaf('sampleIdentifier', sample);
  w.close().close();
}

const isbnUrn = (isbn: string) => {
  const compact = isbn.replace(/[^0-9Xx]/g, '').toUpperCase();
  return compact.length === 10 || compact.length === 13 ? `urn:isbn:${compact}` : null;
};

export function writeDublinCore(w: XmlWriter, r: RecordData) {
  w.open('oai_dc:dc', {
    'xmlns:oai_dc': OAI_DC_NS, 'xmlns:dc': DC_NS, 'xsi:schemaLocation': `${OAI_DC_NS} http://www.openarchives.org/OAI/2.0/oai_dc.xsd`,
  });
  const put = (name: string, value: string) => {
    const v = xmlText(value).trim();
    if (v) w.leaf(`dc:${name}`, v);
  };
  // Title, then the subtitle as a second title (what DC harvesters, ours included, read as the subtitle).
  put('title', r.title);
  if (r.subtitle) put('title', r.subtitle);
  for (const a of r.authors) put('creator', a);
  for (const l of r.languages) put('language', l);
  for (const y of r.years) put('date', String(y));
  for (const d of r.descriptions) put('description', d);
  for (const p of r.publishers) put('publisher', p);
  for (const m of r.materials) put('format', m);
  put('type', 'Text');
  put('identifier', r.url);
  for (const i of r.isbns) put('identifier', isbnUrn(i) ?? i);
  for (const rel of [...r.parents, ...(r.original ? [r.original] : []), ...r.translations]) put('relation', rel.url);
  w.close();
}

type Subfields = [string, string | null | undefined][];

/** MARC21 as MARCXML: the fields a MARC harvester maps (245, 100/700, 041, 020, 260, 520, 773...). */
export function writeMarc(w: XmlWriter, r: RecordData, datestamp: string) {
  w.open('marc:record', {
    'xmlns:marc': MARC_NS, 'xsi:schemaLocation': `${MARC_NS} http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd`, type: 'Bibliographic',
  });
  // Language material, monograph, Unicode; lengths are left zero (no ISO 2709 here).
  w.leaf('marc:leader', '00000nam a2200000 i 4500');
  w.leaf('marc:controlfield', String(r.entryId), { tag: '001' });
  const stamp = datestamp.replace(/\D/g, '');
  w.leaf('marc:controlfield', `${stamp}.0`, { tag: '005' });
  w.leaf('marc:controlfield', field008(stamp, r), { tag: '008' });
  const field = (tag: string, ind: string, subs: Subfields) => {
    const kept = subs.map(([c, v]) => [c, v ? xmlText(v).trim() : ''] as const).filter(([, v]) => v);
    if (kept.length === 0) return;
    w.open('marc:datafield', { tag, ind1: ind[0], ind2: ind[1] });
    for (const [code, v] of kept) w.leaf('marc:subfield', v, { code });
    w.close();
  };
  for (const i of r.isbns) field('020', '  ', [['a', i]]);
  if (r.languages.length) field('041', r.original ? '1 ' : '0 ', r.languages.map((l) => ['a', marcLanguage(l)]));
  const nameInd = (n: string) => (n.includes(',') ? '1 ' : '0 ');
  if (r.authors[0]) field('100', nameInd(r.authors[0]), [['a', r.authors[0]]]);
  field('245', `${r.authors.length ? '1' : '0'}0`, [['a', r.title], ['b', r.subtitle]]);
  for (const e of r.editions) field('250', '  ', [['a', e]]);
  if (r.publishers.length || r.years.length) {
    field('260', '  ', [...r.publishers.map((p) => ['b', p] as [string, string]), ...r.years.map((y) => ['c', String(y)] as [string, string])]);
  }
  for (const m of r.materials) field('300', '  ', [['a', m]]);
  for (const d of r.descriptions) field('520', '  ', [['a', d]]);
  for (const a of r.authors.slice(1)) field('700', nameInd(a), [['a', a]]);
  if (r.original) field('765', '0 ', [['t', r.original.title], ['o', r.original.identifier]]);
  for (const t of r.translations) field('767', '0 ', [['t', t.title], ['o', t.identifier]]);
  for (const p of r.parents) field('773', '0 ', [['t', p.title], ['q', p.position != null ? String(p.position) : null], ['o', p.identifier]]);
  field('856', '40', [['u', r.url], ['q', 'text/html'], ['y', 'Catalogue entry']]);
  w.close();
}

/** 008 for books: entry date, date type and years, no place, coded values left blank, language. */
function field008(stamp: string, r: RecordData): string {
  const four = r.years.filter((y) => y >= 1000 && y <= 9999);
  const dates = four.length === 0 ? 'nuuuu    ' : four.length === 1 ? `s${four[0]}    ` : `m${four[0]}${four[four.length - 1]}`;
  const lang = r.languages[0] ? marcLanguage(r.languages[0]) : 'und';
  return `${stamp.slice(2, 8)}${dates}xx ${' '.repeat(17)}${lang.length === 3 ? lang : 'und'} d`;
}

// ISO 639-1 codes and their MARC (639-2/B) codes; a stored 3-letter code is already one.
const MARC_LANGUAGES = new Map(
  ('aa:aar ab:abk ae:ave af:afr ak:aka am:amh an:arg ar:ara as:asm av:ava ay:aym az:aze ba:bak be:bel bg:bul bh:bih bi:bis '
  + 'bm:bam bn:ben bo:tib br:bre bs:bos ca:cat ce:che ch:cha co:cos cr:cre cs:cze cu:chu cv:chv cy:wel da:dan de:ger dv:div '
  + 'dz:dzo ee:ewe el:gre en:eng eo:epo es:spa et:est eu:baq fa:per ff:ful fi:fin fj:fij fo:fao fr:fre fy:fry ga:gle gd:gla '
  + 'gl:glg gn:grn gu:guj gv:glv ha:hau he:heb hi:hin ho:hmo hr:hrv ht:hat hu:hun hy:arm hz:her ia:ina id:ind ie:ile ig:ibo '
  + 'ii:iii ik:ipk io:ido is:ice it:ita iu:iku ja:jpn jv:jav ka:geo kg:kon ki:kik kj:kua kk:kaz kl:kal km:khm kn:kan ko:kor '
  + 'kr:kau ks:kas ku:kur kv:kom kw:cor ky:kir la:lat lb:ltz lg:lug li:lim ln:lin lo:lao lt:lit lu:lub lv:lav mg:mlg mh:mah '
  + 'mi:mao mk:mac ml:mal mn:mon mr:mar ms:may mt:mlt my:bur na:nau nb:nob nd:nde ne:nep ng:ndo nl:dut nn:nno no:nor nr:nbl '
  + 'nv:nav ny:nya oc:oci oj:oji om:orm or:ori os:oss pa:pan pi:pli pl:pol ps:pus pt:por qu:que rm:roh rn:run ro:rum ru:rus '
  + 'rw:kin sa:san sc:srd sd:snd se:sme sg:sag si:sin sk:slo sl:slv sm:smo sn:sna so:som sq:alb sr:srp ss:ssw st:sot su:sun '
  + 'sv:swe sw:swa ta:tam te:tel tg:tgk th:tha ti:tir tk:tuk tl:tgl tn:tsn to:ton tr:tur ts:tso tt:tat tw:twi ty:tah ug:uig '
  + 'uk:ukr ur:urd uz:uzb ve:ven vi:vie vo:vol wa:wln wo:wol xh:xho yi:yid yo:yor za:zha zh:chi zu:zul')
    .split(' ').map((p) => p.split(':') as [string, string]),
);

export function marcLanguage(code: string): string {
  return MARC_LANGUAGES.get(code) ?? code;
}
