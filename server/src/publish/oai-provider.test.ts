// The OAI-PMH provider as a harvester sees it: every verb and error code, selective harvesting by
// date and set, resumption tokens over several pages, deletions (merge, removed record, library made
// private), private libraries kept out, and well-formed XML (read back with the harvester's parser).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { fixtureLines, entryId, testApp, type TestApp } from '../test/fixture.ts';
import { child, children, parseXml, textOf, type XmlElement } from '../harvest/xml.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { AuthorResolver } from '../agents/resolve.ts';
import { OaiProvider, PAGE_SIZE } from './oai-provider.ts';
import { MARC_NS, OAI_NS, XmlWriter } from './oai-xml.ts';
import { mapMarc21 } from '../harvest/mappers/marc21.ts';
import { mapDublinCore } from '../harvest/mappers/dc.ts';
import { BACKENDS } from '../test/backends.ts';
import { PgConnection } from '../db/postgres.ts';

const ds = (library_id: number, identifier: string, extra: object = {}) => ({ library_id, identifier, year_edition: 1950, downloads: [], ...extra });
const entry = (id: number, title: string, authors: string[], languages: string[], data_sources: object[], extra: object = {}) => ({
  type: 'entry', id, title, subtitle: null, authors, languages, year: null, aggregation_id: null, translation_of: null, data_sources, fulltext: null, ...extra,
});
const BULK = 250;

function lines() {
  const out: object[] = [...fixtureLines()];
  out.splice(5, 0, { type: 'library', id: 5, name: 'Soon Private', public: true, library_type: 'digital' });
  for (let i = 0; i < BULK; i++) out.push(entry(100 + i, `Bulk pamphlet ${i}`, [`Writer ${i % 17}`], ['en'], [ds(1 + (i % 2), `bulk-${i}`)]));
  out.push(
    entry(400, 'Tags <b> & "quotes" \u0001bell', ['Odd Writer'], ['it'], [ds(1, 'odd-1')]),
    entry(401, 'Words of Revolt', ['Peter Kropotkin', 'Élisée Reclus'], ['fr'], [
      ds(1, 'rich-1', { isbn: '978-88-00000-00-2', publisher: 'Lantern Press', description: 'Essays from Le Révolté.', material_description: '350 p.', edition_statement: 'Second edition', year_first_edition: 1885 }),
      ds(3, 'rich-3', { description: 'PRIVATE NOTE of a hidden library', publisher: 'Hidden Publisher' }),
    ], { subtitle: 'Selected essays' }),
    entry(410, 'Kept Twin', ['Twin Writer'], ['en'], [ds(2, 'twin-1')]),
    entry(411, 'Merged Twin', ['Twin Writer'], ['en'], [ds(2, 'twin-2')]),
    entry(412, 'Withdrawn Pamphlet', ['Gone Writer'], ['en'], [ds(2, 'gone-1')]),
    entry(420, 'Only in Five A', ['Five Writer'], ['en'], [ds(5, 'five-a')]),
    entry(421, 'Only in Five B', ['Five Writer'], ['en'], [ds(5, 'five-b')]),
    entry(422, 'In Five and One', ['Five Writer'], ['en'], [ds(5, 'five-c'), ds(1, 'one-c')]),
  );
  return out;
}

describe.each(BACKENDS)('the OAI-PMH provider on %s', (dialect) => {
  let t: TestApp;
  let curatorId: number;
  beforeAll(async () => {
    t = await testApp(lines(), {}, dialect);
    curatorId = await t.services.accounts.createUser({ username: 'oai-curator', email: 'c@example.org', password: 'a long enough password', can_merge: true });
  });
  afterAll(async () => t.close());

  const ID = (title: string) => `oai:127.0.0.1:entry:${entryId(t.services, title)}`;
  const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

  async function oai(args: Record<string, string> | [string, string][] | string, method: 'GET' | 'POST' = 'GET'): Promise<XmlElement> {
    const query = typeof args === 'string' ? args : new URLSearchParams(args).toString();
    const res = method === 'GET'
      ? await t.app.inject({ url: `/oai?${query}` })
      : await t.app.inject({ method: 'POST', url: '/oai', payload: query, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    const root = parseXml(res.body);
    expect([root.name, root.ns]).toEqual(['OAI-PMH', OAI_NS]);
    expect(textOf(child(root, 'responseDate'))).toMatch(STAMP);
    expect(textOf(child(root, 'request'))).toBe('http://localhost:80/oai');
    return root;
  }
  const errors = (root: XmlElement) => children(root, 'error').map((e) => e.attrs.code);
  const requestAttrs = (root: XmlElement) => child(root, 'request')!.attrs;
  const identifiers = (headers: XmlElement[]) => headers.map((h) => textOf(child(h, 'identifier')));

  /** Follows resumption tokens to the end, as a harvester does; returns every page's list element. */
  async function harvest(verb: 'ListIdentifiers' | 'ListRecords', args: Record<string, string>): Promise<{ pages: XmlElement[]; headers: XmlElement[] }> {
    const pages: XmlElement[] = [];
    let root = await oai({ verb, ...args });
    for (;;) {
      if (errors(root).length) throw new Error(`error ${errors(root).join()}`);
      const list = child(root, verb)!;
      pages.push(list);
      const token = child(list, 'resumptionToken');
      if (!token || !textOf(token)) break;
      root = await oai({ verb, resumptionToken: textOf(token) });
      expect(requestAttrs(root)).toEqual({ verb, resumptionToken: textOf(token) });
    }
    const headers = pages.flatMap((p) => (verb === 'ListIdentifiers' ? children(p, 'header') : children(p, 'record').map((r) => child(r, 'header')!)));
    return { pages, headers };
  }

  /** Every entry an anonymous visitor can see, computed by the catalogue's own visibility rule. */
  function visibleIds(): string[] {
    const all = t.services.db.sqlite.prepare('SELECT id FROM entries WHERE canonical_entry_id IS NULL').pluck().all() as number[];
    return [...t.services.catalogue.visibleEntries(all, ANONYMOUS)].map((id) => `oai:127.0.0.1:entry:${id}`).sort();
  }

  function marc(record: XmlElement) {
    const rec = child(child(record, 'metadata'), 'record')!;
    expect(rec.ns).toBe(MARC_NS);
    const fields = (tag: string) => children(rec, 'datafield').filter((f) => f.attrs.tag === tag);
    const subs = (tag: string, code: string) => fields(tag).flatMap((f) => children(f, 'subfield').filter((s) => s.attrs.code === code).map(textOf));
    const control = (tag: string) => textOf(children(rec, 'controlfield').find((f) => f.attrs.tag === tag));
    return { rec, fields, subs, control };
  }
  function dc(record: XmlElement) {
    const el = child(child(record, 'metadata'), 'dc')!;
    expect(el.ns).toBe('http://www.openarchives.org/OAI/2.0/oai_dc/');
    return (name: string) => children(el, name).map(textOf);
  }

  describe('the XML writer', () => {
    it('escapes text and attributes, drops characters XML cannot carry, and closes what is open', () => {
      const nasty = 'a < b & c > d "q" \'s\' \u0000\u0008\uFFFE\uD800 tab\tline\nend \u{1F600}';
      const w = new XmlWriter().open('root', { a: nasty, skipped: null }).leaf('t', nasty).leaf('empty', '').open('inner');
      const xml = w.end();
      expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><root a="[^"]*"><t>.*<\/t><empty\/><inner><\/inner><\/root>$/s);
      const root = parseXml(xml);
      const clean = 'a < b & c > d "q" \'s\'  tab\tline\nend \u{1F600}';
      expect(root.attrs).toEqual({ a: clean });
      expect(child(root, 't')!.text).toBe(clean);
    });
  });

  describe('Identify, formats and sets', () => {
    it('describes the repository', async () => {
      const root = await oai({ verb: 'Identify' });
      expect(requestAttrs(root)).toEqual({ verb: 'Identify' });
      const id = child(root, 'Identify')!;
      expect(textOf(child(id, 'repositoryName'))).toBe('Test Catalogue');
      expect(textOf(child(id, 'baseURL'))).toBe('http://localhost:80/oai');
      expect(textOf(child(id, 'protocolVersion'))).toBe('2.0');
      expect(textOf(child(id, 'adminEmail'))).toBe('info@example.org');
      expect(textOf(child(id, 'earliestDatestamp'))).toMatch(STAMP);
      expect(textOf(child(id, 'deletedRecord'))).toBe('persistent');
      expect(textOf(child(id, 'granularity'))).toBe('YYYY-MM-DDThh:mm:ssZ');
      // The order of Identify's children is fixed by the schema.
      expect(id.children.map((c) => c.name)).toEqual(['repositoryName', 'baseURL', 'protocolVersion', 'adminEmail', 'earliestDatestamp', 'deletedRecord', 'granularity']);
    });

    it('lists both formats, for the repository and for one item', async () => {
      const requests: Record<string, string>[] = [{ verb: 'ListMetadataFormats' }, { verb: 'ListMetadataFormats', identifier: ID('Mutual Aid') }];
      for (const args of requests) {
        const root = await oai(args);
        expect(requestAttrs(root)).toEqual(args);
        const formats = children(child(root, 'ListMetadataFormats'), 'metadataFormat');
        expect(formats.map((f) => textOf(child(f, 'metadataPrefix')))).toEqual(['oai_dc', 'marc21']);
        expect(textOf(child(formats[1], 'metadataNamespace'))).toBe(MARC_NS);
      }
      expect(errors(await oai({ verb: 'ListMetadataFormats', identifier: 'oai:127.0.0.1:entry:999999' }))).toEqual(['idDoesNotExist']);
    });

    it('has one set per visible library, named after it', async () => {
      const sets = children(child(await oai({ verb: 'ListSets' }), 'ListSets'), 'set');
      expect(sets.map((s) => [textOf(child(s, 'setSpec')), textOf(child(s, 'setName'))])).toEqual([
        ['library:1', 'Biblioteca Uno'], ['library:2', 'Archive Two'], ['library:5', 'Soon Private'],
      ]);
      const root = await oai({ verb: 'ListSets', resumptionToken: 'abc' });
      expect(errors(root)).toEqual(['badResumptionToken']);
      expect(requestAttrs(root)).toEqual({ verb: 'ListSets', resumptionToken: 'abc' });
    });
  });

  describe('bad requests', () => {
    it('answers badVerb for a missing, unknown or repeated verb, with a bare request element', async () => {
      for (const q of ['', 'verb=Frobnicate', 'verb=Identify&verb=Identify', 'metadataPrefix=oai_dc']) {
        const root = await oai(q);
        expect(errors(root)).toEqual(['badVerb']);
        expect(requestAttrs(root)).toEqual({});
      }
    });

    it('answers badArgument for unknown, repeated, missing, empty, exclusive and malformed arguments', async () => {
      const cases: [string, string][][] = [
        [['verb', 'Identify'], ['extra', '1']],
        [['verb', 'ListRecords']],
        [['verb', 'ListRecords'], ['metadataPrefix', 'oai_dc'], ['metadataPrefix', 'marc21']],
        [['verb', 'ListIdentifiers'], ['metadataPrefix', 'oai_dc'], ['set', '']],
        [['verb', 'ListRecords'], ['metadataPrefix', 'oai_dc'], ['resumptionToken', 'x']],
        [['verb', 'GetRecord'], ['identifier', 'oai:127.0.0.1:entry:1']],
        [['verb', 'ListRecords'], ['metadataPrefix', 'oai_dc'], ['from', '2020-13-01']],
        [['verb', 'ListRecords'], ['metadataPrefix', 'oai_dc'], ['from', '2021-02-30']],
        [['verb', 'ListRecords'], ['metadataPrefix', 'oai_dc'], ['until', '2020-01-01T00:00:00.5Z']],
        [['verb', 'ListRecords'], ['metadataPrefix', 'oai_dc'], ['until', '2020-01-01 00:00:00']],
        [['verb', 'ListRecords'], ['metadataPrefix', 'oai_dc'], ['from', '2020-01-01'], ['until', '2020-01-02T00:00:00Z']],
        [['verb', 'ListRecords'], ['metadataPrefix', 'oai_dc'], ['from', '2020-01-02'], ['until', '2020-01-01']],
        [['verb', 'ListSets'], ['set', 'library:1']],
      ];
      for (const args of cases) {
        const root = await oai(args);
        expect(errors(root), JSON.stringify(args)).toContain('badArgument');
        expect(requestAttrs(root)).toEqual({});
      }
      // The same day as from and until is one whole day, not an empty range.
      expect(errors(await oai({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc', from: '2020-01-01', until: '2020-01-01' }))).toEqual(['noRecordsMatch']);
    });

    it('answers cannotDisseminateFormat and idDoesNotExist, echoing the valid request', async () => {
      let root = await oai({ verb: 'ListRecords', metadataPrefix: 'mods' });
      expect(errors(root)).toEqual(['cannotDisseminateFormat']);
      expect(requestAttrs(root)).toEqual({ verb: 'ListRecords', metadataPrefix: 'mods' });
      expect(errors(await oai({ verb: 'GetRecord', identifier: ID('Mutual Aid'), metadataPrefix: 'mods' }))).toEqual(['cannotDisseminateFormat']);
      for (const id of ['oai:127.0.0.1:entry:999999', 'oai:elsewhere.org:entry:1', 'oai:127.0.0.1:entry:01', 'nonsense']) {
        root = await oai({ verb: 'GetRecord', identifier: id, metadataPrefix: 'oai_dc' });
        expect(errors(root)).toEqual(['idDoesNotExist']);
        expect(requestAttrs(root)).toEqual({ verb: 'GetRecord', identifier: id, metadataPrefix: 'oai_dc' });
      }
    });

    it('answers noRecordsMatch for an unknown or never public set and an empty date range', async () => {
      for (const set of ['library:3', 'library:4', 'library:99', 'nonsense']) {
        expect(errors(await oai({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc', set }))).toEqual(['noRecordsMatch']);
      }
      expect(errors(await oai({ verb: 'ListRecords', metadataPrefix: 'oai_dc', until: '2000-01-01' }))).toEqual(['noRecordsMatch']);
    });

    it('answers POSTed forms like GETs, and a POST in another encoding with badVerb, never a JSON error', async () => {
      const root = await oai({ verb: 'GetRecord', identifier: ID('Mutual Aid'), metadataPrefix: 'oai_dc' }, 'POST');
      expect(dc(child(child(root, 'GetRecord'), 'record')!)('title')).toEqual(['Mutual Aid']);
      const res = await t.app.inject({ method: 'POST', url: '/oai', payload: '<verb>Identify</verb>', headers: { 'content-type': 'text/xml' } });
      expect(errors(parseXml(res.body))).toEqual(['badVerb']);
    });
  });

  describe('records', () => {
    it('lists every visible entry exactly once through resumption tokens, with cursors and sizes', async () => {
      const { pages, headers } = await harvest('ListIdentifiers', { metadataPrefix: 'oai_dc' });
      const ids = identifiers(headers);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort()).toEqual(visibleIds());
      expect(pages.length).toBe(Math.ceil(ids.length / PAGE_SIZE));
      const tokens = pages.map((p) => child(p, 'resumptionToken')!);
      expect(tokens.map((tk) => tk.attrs.cursor)).toEqual(pages.map((_, i) => String(i * PAGE_SIZE)));
      expect(new Set(tokens.map((tk) => tk.attrs.completeListSize))).toEqual(new Set([String(ids.length)]));
      expect(tokens.slice(0, -1).every((tk) => STAMP.test(tk.attrs.expirationDate) && textOf(tk))).toBe(true);
      // The last page carries an empty token, with no expiry.
      expect(textOf(tokens.at(-1))).toBe('');
      expect(tokens.at(-1)!.attrs.expirationDate).toBeUndefined();
      for (const h of headers) expect(textOf(child(h, 'datestamp'))).toMatch(STAMP);
    });

    it('lists full records in MARC21 through tokens, as many as the identifiers', async () => {
      const { pages, headers } = await harvest('ListRecords', { metadataPrefix: 'marc21' });
      expect([...identifiers(headers)].sort()).toEqual(visibleIds());
      expect(pages.flatMap((p) => children(p, 'record')).every((r) => child(child(r, 'metadata'), 'record'))).toBe(true);
    });

    it('keeps private and inactive libraries out: no records, no sets, no data of their holdings', async () => {
      const { headers } = await harvest('ListIdentifiers', { metadataPrefix: 'oai_dc' });
      const ids = identifiers(headers);
      expect(ids).not.toContain(ID('Secret Private Work'));
      expect(ids).not.toContain(ID('Inactive Library Work'));
      expect(errors(await oai({ verb: 'GetRecord', identifier: ID('Secret Private Work'), metadataPrefix: 'oai_dc' }))).toEqual(['idDoesNotExist']);
      const sets = headers.flatMap((h) => children(h, 'setSpec').map(textOf));
      expect(sets.filter((s) => s === 'library:3' || s === 'library:4')).toEqual([]);
      const rec = child(child(await oai({ verb: 'GetRecord', identifier: ID('Words of Revolt'), metadataPrefix: 'oai_dc' }), 'GetRecord'), 'record')!;
      expect(children(child(rec, 'header'), 'setSpec').map(textOf)).toEqual(['library:1']);
      expect(dc(rec)('description')).toEqual(['Essays from Le Révolté.']);
      expect(dc(rec)('publisher')).toEqual(['Lantern Press']);
    });

    it('writes Dublin Core: title, creators, language, years, publisher, entry URL and ISBN, relations', async () => {
      const get = async (title: string) => dc(child(child(await oai({ verb: 'GetRecord', identifier: ID(title), metadataPrefix: 'oai_dc' }), 'GetRecord'), 'record')!);
      const rich = await get('Words of Revolt');
      expect(rich('title')).toEqual(['Words of Revolt', 'Selected essays']);
      expect(rich('creator')).toEqual(['Peter Kropotkin', 'Élisée Reclus']);
      expect(rich('language')).toEqual(['fr']);
      expect(rich('date')).toEqual(['1885', '1950']);
      expect(rich('identifier')).toEqual([`http://localhost:80/entry/${entryId(t.services, 'Words of Revolt')}`, 'urn:isbn:9788800000002']);
      expect(rich('type')).toEqual(['Text']);
      const translation = await get("L'Entraide");
      expect(translation('relation')).toEqual([`http://localhost:80/entry/${entryId(t.services, 'Mutual Aid')}`]);
    });

    it('writes MARC21 a MARC harvester maps back to the same entry', async () => {
      const get = async (title: string) => marc(child(child(await oai({ verb: 'GetRecord', identifier: ID(title), metadataPrefix: 'marc21' }), 'GetRecord'), 'record')!);
      const m = await get('Words of Revolt');
      expect(textOf(child(m.rec, 'leader'))).toHaveLength(24);
      expect(m.control('001')).toBe(String(entryId(t.services, 'Words of Revolt')));
      expect(m.control('005')).toMatch(/^\d{14}\.0$/);
      const f008 = m.control('008');
      expect(f008).toHaveLength(40);
      expect(f008.slice(6, 15)).toBe('m18851950');
      expect(f008.slice(35, 38)).toBe('fre');
      expect(m.subs('020', 'a')).toEqual(['978-88-00000-00-2']);
      expect(m.subs('041', 'a')).toEqual(['fre']);
      expect(m.subs('100', 'a')).toEqual(['Peter Kropotkin']);
      expect(m.subs('700', 'a')).toEqual(['Élisée Reclus']);
      expect(m.subs('245', 'a')).toEqual(['Words of Revolt']);
      expect(m.subs('245', 'b')).toEqual(['Selected essays']);
      expect(m.subs('250', 'a')).toEqual(['Second edition']);
      expect(m.subs('260', 'b')).toEqual(['Lantern Press']);
      expect(m.subs('260', 'c')).toEqual(['1885', '1950']);
      expect(m.subs('300', 'a')).toEqual(['350 p.']);
      expect(m.subs('520', 'a')).toEqual(['Essays from Le Révolté.']);
      expect(m.subs('856', 'u')).toEqual([`http://localhost:80/entry/${entryId(t.services, 'Words of Revolt')}`]);
      // An anthology's part points to it (773 $t title, $o its identifier, $q position).
      const part = await get('First Essay');
      expect(part.subs('773', 't')).toEqual(['Anthology of Essays']);
      expect(part.subs('773', 'o')).toEqual([ID('Anthology of Essays')]);
      expect(part.subs('773', 'q')).toEqual(['2']);
      const original = await get('Mutual Aid');
      expect(original.subs('767', 'o')).toEqual([ID("L'Entraide")]);
    });

    it('round-trips through our own harvester\'s mappers to the same entry fields', async () => {
      const record = async (prefix: string) => child(child(await oai({ verb: 'GetRecord', identifier: ID('Words of Revolt'), metadataPrefix: prefix }), 'GetRecord'), 'record')!;
      const fromMarc = mapMarc21(marc(await record('marc21')).rec);
      expect(fromMarc).toMatchObject({
        title: 'Words of Revolt', subtitle: 'Selected essays', authors: ['Peter Kropotkin', 'Élisée Reclus'], languages: ['fr'],
        year_edition: 1950, year_first_edition: 1885, publisher: 'Lantern Press', description: 'Essays from Le Révolté.',
        material_description: '350 p.', edition_statement: 'Second edition',
      });
      expect(fromMarc.isbn?.replace(/-/g, '')).toBe('9788800000002');
      const part = mapMarc21(marc(child(child(await oai({ verb: 'GetRecord', identifier: ID('First Essay'), metadataPrefix: 'marc21' }), 'GetRecord'), 'record')!).rec);
      expect(part.aggregations).toMatchObject([{ name: 'Anthology of Essays', order: 2, itemIdentifier: ID('Anthology of Essays') }]);
      const fromDc = mapDublinCore(child(child(await record('oai_dc'), 'metadata'), 'dc')!);
      expect(fromDc).toMatchObject({ title: 'Words of Revolt', subtitle: 'Selected essays', authors: ['Peter Kropotkin', 'Élisée Reclus'], languages: ['fr'], year_edition: 1950, year_first_edition: 1885 });
    });

    it('escapes markup and drops characters XML cannot carry', async () => {
      const id = `oai:127.0.0.1:entry:${entryId(t.services, 'Tags <b> & "quotes" \u0001bell')}`;
      const root = await oai({ verb: 'GetRecord', identifier: id, metadataPrefix: 'marc21' });
      expect(marc(child(child(root, 'GetRecord'), 'record')!).subs('245', 'a')).toEqual(['Tags <b> & "quotes" bell']);
    });
  });

  describe('tokens', () => {
    async function firstToken(verb = 'ListIdentifiers', args: Record<string, string> = { metadataPrefix: 'oai_dc' }) {
      return textOf(child(child(await oai({ verb, ...args }), verb), 'resumptionToken'));
    }

    it('refuses a tampered, foreign, truncated or other-verb token with badResumptionToken', async () => {
      const token = await firstToken();
      const [body, sig] = token.split('.');
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
      const forged = Buffer.from(JSON.stringify({ ...payload, c: 0, i: 0 })).toString('base64url');
      for (const bad of [`${forged}.${sig}`, token.slice(0, -1), 'garbage', `${body}.${'A'.repeat(43)}`]) {
        const root = await oai({ verb: 'ListIdentifiers', resumptionToken: bad });
        expect(errors(root), bad).toEqual(['badResumptionToken']);
        expect(requestAttrs(root)).toEqual({ verb: 'ListIdentifiers', resumptionToken: bad });
      }
      expect(errors(await oai({ verb: 'ListRecords', resumptionToken: token }))).toEqual(['badResumptionToken']);
    });

    it('refuses an expired token', async () => {
      const token = await firstToken();
      const s = t.services;
      const later = new OaiProvider(s.db, s.libraries, s.catalogue, new AuthorResolver(s.db), s.pages, { publicUrl: '', now: () => new Date(Date.now() + 2 * 86400_000) });
      const root = parseXml(await later.handle([['verb', 'ListIdentifiers'], ['resumptionToken', token]], 'http://x/oai', 'http://x'));
      expect(errors(root)).toEqual(['badResumptionToken']);
      expect(textOf(child(root, 'error'))).toMatch(/expired/);
    });

    it('loses nothing when records change during a harvest: a changed record comes again at the end', async () => {
      let root = await oai({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc' });
      const seen: string[] = [];
      let touched: string[] = [];
      for (let page = 0; ; page++) {
        const list = child(root, 'ListIdentifiers')!;
        seen.push(...identifiers(children(list, 'header')));
        if (page === 0) {
          // One record already sent and one not yet sent change now.
          touched = [seen[3], identifiers(children(list, 'header')).at(-1)!];
          const ids = touched.map((id) => Number(id.split(':').at(-1)));
          t.services.indexer.reindex([...ids, entryId(t.services, 'Bulk pamphlet 249')]);
        }
        const token = textOf(child(list, 'resumptionToken'));
        if (!token) break;
        root = await oai({ verb: 'ListIdentifiers', resumptionToken: token });
      }
      expect([...new Set(seen)].sort()).toEqual(visibleIds());
      const twice = seen.filter((id, i) => seen.indexOf(id) !== i);
      expect(twice.every((id) => touched.includes(id))).toBe(true);
    });

    it('keeps its arguments: a set harvest stays in its set on every page', async () => {
      const { headers } = await harvest('ListRecords', { metadataPrefix: 'oai_dc', set: 'library:2' });
      expect(headers.length).toBeGreaterThan(PAGE_SIZE);
      expect(headers.every((h) => children(h, 'setSpec').map(textOf).includes('library:2'))).toBe(true);
      expect(new Set(identifiers(headers)).size).toBe(headers.length);
    });
  });

  describe('writes in progress', () => {
    /** Another connection (an import, a harvest worker) inside a write transaction: SQLite's write lock; on PostgreSQL a transaction id. */
    function writer() {
      if (dialect === 'postgres') {
        const other = new PgConnection(t.target);
        other.exec('BEGIN');
        other.prepare('SELECT pg_current_xact_id()').get();
        return { release: () => { other.exec('COMMIT'); other.close(); } };
      }
      const other = new BetterSqlite3(t.services.db.sqlite.name);
      other.exec('BEGIN IMMEDIATE');
      return { release: () => { other.exec('COMMIT'); other.close(); } };
    }

    it('waits for a write transaction to end before answering a list, without blocking other requests', async () => {
      const w = writer();
      setTimeout(w.release, 300);
      const started = Date.now();
      const done = (res: { statusCode: number }) => ({ status: res.statusCode, ms: Date.now() - started });
      const [list, identify] = await Promise.all([
        t.app.inject({ url: '/oai?verb=ListIdentifiers&metadataPrefix=oai_dc' }).then(done),
        t.app.inject({ url: '/oai?verb=Identify' }).then(done),
      ]);
      expect(list.status).toBe(200);
      expect(list.ms).toBeGreaterThanOrEqual(250);
      // The wait is asynchronous: the server answered in the meantime.
      expect(identify.status).toBe(200);
      expect(identify.ms).toBeLessThan(list.ms);
    });

    it('waits for a writer that began just before the request, within the same millisecond', async () => {
      // no sleep between the writer's start and the request: on a fast machine both fall in one millisecond
      for (let i = 0; i < 10; i++) {
        const w = writer();
        let released = false;
        setTimeout(() => { released = true; w.release(); }, 40);
        const res = await t.app.inject({ url: '/oai?verb=ListIdentifiers&metadataPrefix=oai_dc' });
        expect(res.statusCode).toBe(200);
        expect(released).toBe(true);
      }
    });

    it('answers 503 with Retry-After while the database stays locked', async () => {
      const w = writer();
      try {
        const res = await t.app.inject({ url: '/oai?verb=ListRecords&metadataPrefix=oai_dc' });
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe('10');
      } finally {
        w.release();
      }
      expect((await t.app.inject({ url: '/oai?verb=ListRecords&metadataPrefix=oai_dc' })).statusCode).toBe(200);
    });
  });

  describe('selective harvesting and deletions', () => {
    const db = () => t.services.db.sqlite;
    const stampOf = async (identifier: string) => {
      const root = await oai({ verb: 'GetRecord', identifier, metadataPrefix: 'oai_dc' });
      return textOf(child(child(child(child(root, 'GetRecord'), 'record'), 'header'), 'datestamp'));
    };
    // As the admin screens do: last_modified changes with the row.
    const setPublic = (where: string, value: number) =>
      db().prepare(`UPDATE libraries SET public = ?, last_modified = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE ${where}`).run(value);
    const list = async (args: Record<string, string>) => {
      const root = await oai({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc', ...args });
      return errors(root).length ? errors(root) : identifiers(children(child(root, 'ListIdentifiers'), 'header'));
    };

    beforeAll(() => {
      // Everything was harvested long ago; what changes from now on gets today's datestamp.
      db().exec(`UPDATE oai_records SET datestamp = '2001-01-01T10:00:00Z'; UPDATE oai_sets SET datestamp = '2001-01-01T10:00:00Z'`);
    });

    it('selects by from and until, at both granularities, and by set', async () => {
      const changed = ID('Fields, Factories and Workshops');
      t.services.indexer.reindex([entryId(t.services, 'Fields, Factories and Workshops')]);
      const stamp = await stampOf(changed);
      expect(stamp > '2001-01-01T10:00:00Z').toBe(true);
      expect(await list({ from: stamp })).toEqual([changed]);
      expect(await list({ from: stamp.slice(0, 10) })).toEqual([changed]);
      expect(await list({ from: stamp, set: 'library:2' })).toEqual([changed]);
      expect(await list({ from: stamp, set: 'library:1' })).toEqual(['noRecordsMatch']);
      const old = await list({ until: '2001-01-01' });
      expect(old).not.toContain(changed);
      expect(old.length).toBe(Math.min(PAGE_SIZE, visibleIds().length - 1));
      expect(await list({ from: '2001-01-01T10:00:00Z', until: '2001-01-01T10:00:00Z' })).toEqual(old);
      expect(await list({ until: '2001-01-01T09:59:59Z' })).toEqual(['noRecordsMatch']);
      expect(await list({ from: '2001-01-01T10:00:01Z', until: stamp })).toEqual([changed]);
    });

    it('shows a merged entry as deleted (and its canonical as changed)', async () => {
      const kept = entryId(t.services, 'Kept Twin');
      const gone = entryId(t.services, 'Merged Twin');
      t.services.curation.mergeEntries({ ...ANONYMOUS, userId: curatorId, username: 'oai-curator', canMerge: true }, [kept, gone]);
      const root = await oai({ verb: 'GetRecord', identifier: ID('Merged Twin'), metadataPrefix: 'marc21' });
      const rec = child(child(root, 'GetRecord'), 'record')!;
      expect(child(rec, 'header')!.attrs.status).toBe('deleted');
      expect(child(rec, 'metadata')).toBeUndefined();
      expect(children(child(rec, 'header'), 'setSpec').map(textOf)).toEqual(['library:2']);
      expect(errors(await oai({ verb: 'ListMetadataFormats', identifier: ID('Merged Twin') }))).toEqual(['noMetadataFormats']);
      const since = await stampOf(ID('Merged Twin'));
      const changed = await list({ from: since });
      expect(changed).toEqual(expect.arrayContaining([ID('Kept Twin'), ID('Merged Twin')]));
      expect(visibleIds()).not.toContain(ID('Merged Twin'));
    });

    it('shows an entry whose only record was removed as deleted, in its set too', async () => {
      // What a harvested deletion does: the data source goes, its entry is reindexed.
      const entry = entryId(t.services, 'Withdrawn Pamphlet');
      db().prepare("DELETE FROM data_sources WHERE identifier = 'gone-1'").run();
      t.services.indexer.reindex([entry]);
      const id = ID('Withdrawn Pamphlet');
      const stamp = await stampOf(id);
      const root = await oai({ verb: 'ListRecords', metadataPrefix: 'oai_dc', set: 'library:2', from: stamp });
      const rec = children(child(root, 'ListRecords'), 'record').find((r) => textOf(child(child(r, 'header'), 'identifier')) === id)!;
      expect(child(rec, 'header')!.attrs.status).toBe('deleted');
      expect(child(rec, 'metadata')).toBeUndefined();
    });

    it('shows the entries of a library made private as deleted, and lists them in its set', async () => {
      const before = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      setPublic('id = 5', 0);
      const sets = children(child(await oai({ verb: 'ListSets' }), 'ListSets'), 'set').map((s) => textOf(child(s, 'setSpec')));
      expect(sets).toEqual(['library:1', 'library:2']);
      const root = await oai({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc', from: before });
      const headers = children(child(root, 'ListIdentifiers'), 'header');
      const status = new Map(headers.map((h) => [textOf(child(h, 'identifier')), h.attrs.status ?? 'live']));
      expect(status.get(ID('Only in Five A'))).toBe('deleted');
      expect(status.get(ID('Only in Five B'))).toBe('deleted');
      expect(status.get(ID('In Five and One'))).toBe('live');
      const shared = headers.find((h) => textOf(child(h, 'identifier')) === ID('In Five and One'))!;
      expect(children(shared, 'setSpec').map(textOf)).toEqual(['library:1']);
      // Its set now lists only its deletions (the shared entry is not shown as held there).
      expect((await list({ set: 'library:5' })).sort()).toEqual([ID('Only in Five A'), ID('Only in Five B')].sort());
      setPublic('id = 5', 1);
      expect((await list({ set: 'library:5' })).sort()).toEqual([ID('In Five and One'), ID('Only in Five A'), ID('Only in Five B')].sort());
    });

    it('answers noSetHierarchy when no library is public', async () => {
      setPublic('1 = 1', 0);
      expect(errors(await oai({ verb: 'ListSets' }))).toEqual(['noSetHierarchy']);
      const { headers } = await harvest('ListIdentifiers', { metadataPrefix: 'oai_dc' });
      expect(headers.length).toBeGreaterThan(2 * PAGE_SIZE);
      expect(headers.every((h) => h.attrs.status === 'deleted')).toBe(true);
    });
  });
});
