// XML of the OAI-PMH provider: the response envelope, record headers, and the two metadata formats
// (Dublin Core and MARCXML), written with xmlbuilder2 so every value is escaped by the builder.
import { create } from 'xmlbuilder2';

type XMLBuilder = ReturnType<typeof create>;

export const OAI_NS = 'http://www.openarchives.org/OAI/2.0/';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
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

/** A response document under construction: the envelope is written, the verb's element is `body`. */
export interface OaiDocument { root: XMLBuilder; end(): string }

/**
 * The envelope: responseDate and the request element (its attributes only when the request was
 * valid, as the protocol asks for badVerb and badArgument answers).
 */
export function oaiDocument(responseDate: string, baseUrl: string, request: [string, string][] | null): OaiDocument {
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const root = doc.ele(OAI_NS, 'OAI-PMH')
    .att(XMLNS_NS, 'xmlns:xsi', XSI_NS)
    .att(XSI_NS, 'xsi:schemaLocation', `${OAI_NS} http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd`);
  root.ele('responseDate').txt(responseDate);
  const req = root.ele('request');
  for (const [k, v] of request ?? []) req.att(k, xmlText(v));
  req.txt(xmlText(baseUrl));
  return { root, end: () => doc.end({ prettyPrint: false }) };
}

export function writeErrors(doc: OaiDocument, errors: { code: string; message: string }[]) {
  for (const e of errors) doc.root.ele('error', { code: e.code }).txt(xmlText(e.message));
}

export function writeHeader(parent: XMLBuilder, h: OaiHeader) {
  const el = parent.ele('header');
  if (h.deleted) el.att('status', 'deleted');
  el.ele('identifier').txt(xmlText(h.identifier));
  el.ele('datestamp').txt(h.datestamp);
  for (const s of h.setSpecs) el.ele('setSpec').txt(s);
}

/** The oai-identifier description of Identify (only when the host is a domain name, as its schema requires). */
export function writeIdentifierDescription(parent: XMLBuilder, host: string, sample: string) {
  parent.ele('description').ele(OAI_ID_NS, 'oai-identifier')
    .att(XMLNS_NS, 'xmlns:xsi', XSI_NS)
    .att(XSI_NS, 'xsi:schemaLocation', `${OAI_ID_NS} http://www.openarchives.org/OAI/2.0/oai-identifier.xsd`)
    .ele('scheme').txt('oai').up()
    .ele('repositoryIdentifier').txt(host).up()
    .ele('delimiter').txt(':').up()
    .ele('sampleIdentifier').txt(sample);
}

const isbnUrn = (isbn: string) => {
  const compact = isbn.replace(/[^0-9Xx]/g, '').toUpperCase();
  return compact.length === 10 || compact.length === 13 ? `urn:isbn:${compact}` : null;
};

export function writeDublinCore(parent: XMLBuilder, r: RecordData) {
  const dc = parent.ele(OAI_DC_NS, 'oai_dc:dc')
    .att(XMLNS_NS, 'xmlns:dc', DC_NS)
    .att(XMLNS_NS, 'xmlns:xsi', XSI_NS)
    .att(XSI_NS, 'xsi:schemaLocation', `${OAI_DC_NS} http://www.openarchives.org/OAI/2.0/oai_dc.xsd`);
  const put = (name: string, value: string) => {
    const v = xmlText(value).trim();
    if (v) dc.ele(DC_NS, `dc:${name}`).txt(v);
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
}

type Subfields = [string, string | null | undefined][];

/** MARC21 as MARCXML: the fields a MARC harvester maps (245, 100/700, 041, 020, 260, 520, 773...). */
export function writeMarc(parent: XMLBuilder, r: RecordData, datestamp: string) {
  const rec = parent.ele(MARC_NS, 'marc:record')
    .att(XMLNS_NS, 'xmlns:xsi', XSI_NS)
    .att(XSI_NS, 'xsi:schemaLocation', `${MARC_NS} http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd`)
    .att('type', 'Bibliographic');
  // Language material, monograph, Unicode; lengths are left zero (no ISO 2709 here).
  rec.ele('leader').txt('00000nam a2200000 i 4500');
  rec.ele('controlfield', { tag: '001' }).txt(String(r.entryId));
  const stamp = datestamp.replace(/\D/g, '');
  rec.ele('controlfield', { tag: '005' }).txt(`${stamp}.0`);
  rec.ele('controlfield', { tag: '008' }).txt(field008(stamp, r));
  const field = (tag: string, ind: string, subs: Subfields) => {
    const kept = subs.map(([c, v]) => [c, v ? xmlText(v).trim() : ''] as const).filter(([, v]) => v);
    if (kept.length === 0) return;
    const df = rec.ele('datafield', { tag, ind1: ind[0], ind2: ind[1] });
    for (const [code, v] of kept) df.ele('subfield', { code }).txt(v);
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
