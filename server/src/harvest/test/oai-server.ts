// A local OAI-PMH 2.0 data provider for tests and the harvest benchmark (127.0.0.1 only). It answers
// as the protocol's own examples do (Identify, ListRecords with resumption tokens and
// completeListSize, deleted headers, noRecordsMatch, badResumptionToken) and can misbehave on demand:
// a 503 with Retry-After, an expired token, a malformed page, an HTML page, an endless body, an XML bomb.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServedRecord {
  identifier: string;
  /** YYYY-MM-DDThh:mm:ssZ */
  datestamp: string;
  deleted?: boolean;
  /** The element inside <metadata> (a marc:record, an oai_dc:dc), as XML text. */
  metadata?: string;
  sets?: string[];
}

export interface Faults {
  /** Answer 503 with this Retry-After (seconds) to the next N requests. */
  unavailable?: { times: number; retryAfter: number };
  /** Reject the next N resumption tokens with badResumptionToken (as if they had expired). */
  expireTokens?: number;
  /** Page numbers (1-based) answered with broken XML. */
  malformedPages?: number[];
  /** Answer every request with an HTML page. */
  html?: boolean;
  /** Stream an endless body (bytes of whitespace inside the root element). */
  endless?: boolean;
  /** Answer with an entity-expansion bomb. */
  bomb?: boolean;
  /** Wait this long before answering ListRecords (a slow repository: progress can be watched). */
  delayMs?: number;
}

export interface OaiTestServer {
  url: string;
  records: ServedRecord[];
  faults: Faults;
  /** Files served at paths (amusewiki texts: /library/slug.muse, .zip; /api/format-definitions). */
  files: Map<string, { type: string; body: Buffer | string }>;
  requests: string[];
  pageSize: number;
  /** The responseDate the server claims (its clock), settable to check that harvests use it. */
  clock: () => string;
  /** What Identify says of deletions: 'persistent' (the default), 'transient' or 'no'. */
  deletedRecord: string;
  close(): Promise<void>;
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export async function startOaiServer(opts: { records?: ServedRecord[]; pageSize?: number } = {}): Promise<OaiTestServer> {
  const state: Omit<OaiTestServer, 'url' | 'close'> = {
    records: opts.records ?? [],
    faults: {},
    files: new Map(),
    requests: [],
    pageSize: opts.pageSize ?? 3,
    clock: () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    deletedRecord: 'persistent',
  };
  let pageNo = 0;
  let snapshot: { key: string; list: ServedRecord[] } | null = null;

  const envelope = (request: string, body: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">` +
    `<responseDate>${state.clock()}</responseDate>${request}${body}</OAI-PMH>`;
  const error = (code: string, text: string) => envelope(`<request>${base}</request>`, `<error code="${code}">${esc(text)}</error>`);
  let base = '';

  const selected = (p: URLSearchParams) => {
    const from = p.get('from');
    const until = p.get('until');
    const set = p.get('set');
    return state.records.filter((r) => (!from || r.datestamp.slice(0, from.length) >= from) && (!until || r.datestamp.slice(0, until.length) <= until)
      && (!set || (r.sets ?? []).includes(set)));
  };

  const recordXml = (r: ServedRecord) =>
    `<record><header${r.deleted ? ' status="deleted"' : ''}><identifier>${esc(r.identifier)}</identifier><datestamp>${r.datestamp}</datestamp>` +
    `${(r.sets ?? []).map((s) => `<setSpec>${esc(s)}</setSpec>`).join('')}</header>` +
    `${r.deleted || !r.metadata ? '' : `<metadata>${r.metadata}</metadata>`}</record>`;

  const server = http.createServer((req, res) => {
    const delay = state.faults.delayMs;
    if (delay && (req.url ?? '').includes('ListRecords')) setTimeout(() => answer(req, res), delay);
    else answer(req, res);
  });
  const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const u = new URL(req.url ?? '/', 'http://x');
    state.requests.push(u.pathname + u.search);
    const f = state.faults;
    if (f.unavailable && f.unavailable.times > 0) {
      f.unavailable.times--;
      res.writeHead(503, { 'retry-after': String(f.unavailable.retryAfter), 'content-type': 'text/plain' });
      return res.end('Busy, come back later');
    }
    const file = state.files.get(u.pathname);
    if (file) {
      res.writeHead(200, { 'content-type': file.type });
      return res.end(file.body);
    }
    if (u.pathname !== '/oai') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('not found');
    }
    if (f.html) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end('<!doctype html><html><body><h1>Welcome to our library</h1></body></html>');
    }
    if (f.bomb) {
      res.writeHead(200, { 'content-type': 'text/xml' });
      const lol = ['<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`)];
      return res.end(`<?xml version="1.0"?><!DOCTYPE OAI-PMH [${lol.join('')}]><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>&lol9;</responseDate></OAI-PMH>`);
    }
    if (f.endless) {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.write('<?xml version="1.0"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">');
      const chunk = Buffer.alloc(1024 * 1024, ' ');
      const pump = () => {
        while (res.write(chunk)) { /* keep writing until the client stops reading */ }
      };
      res.on('drain', pump);
      res.on('close', () => res.off('drain', pump));
      return pump();
    }
    const p = u.searchParams;
    const verb = p.get('verb') ?? '';
    base = `${esc(`http://${req.headers.host}/oai`)}`;
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
    if (verb === 'Identify') {
      return res.end(envelope(`<request verb="Identify">${base}</request>`, `<Identify><repositoryName>Test library</repositoryName><baseURL>${base}</baseURL>` +
        `<protocolVersion>2.0</protocolVersion><adminEmail>admin@example.org</adminEmail><earliestDatestamp>2000-01-01T00:00:00Z</earliestDatestamp>` +
        `<deletedRecord>${state.deletedRecord}</deletedRecord><granularity>YYYY-MM-DDThh:mm:ssZ</granularity></Identify>`));
    }
    if (verb === 'ListMetadataFormats') {
      const formats = [['oai_dc', 'http://www.openarchives.org/OAI/2.0/oai_dc/'], ['marc21', 'http://www.loc.gov/MARC21/slim']]
        .map(([prefix, ns]) => `<metadataFormat><metadataPrefix>${prefix}</metadataPrefix><schema>${ns}schema.xsd</schema><metadataNamespace>${ns}</metadataNamespace></metadataFormat>`);
      return res.end(envelope(`<request verb="ListMetadataFormats">${base}</request>`, `<ListMetadataFormats>${formats.join('')}</ListMetadataFormats>`));
    }
    if (verb === 'ListSets') {
      // The sets its records name, each called "Set SPEC"; a repository whose records name none has no sets.
      const specs = [...new Set(state.records.flatMap((r) => r.sets ?? []))].sort();
      if (specs.length === 0) return res.end(error('noSetHierarchy', 'This repository does not support sets'));
      const sets = specs.map((s) => `<set><setSpec>${esc(s)}</setSpec><setName>Set ${esc(s)}</setName></set>`);
      return res.end(envelope(`<request verb="ListSets">${base}</request>`, `<ListSets>${sets.join('')}</ListSets>`));
    }
    if (verb === 'GetRecord') {
      const r = state.records.find((x) => x.identifier === p.get('identifier'));
      return res.end(r ? envelope(`<request verb="GetRecord">${base}</request>`, `<GetRecord>${recordXml(r)}</GetRecord>`) : error('idDoesNotExist', 'No such record'));
    }
    if (verb !== 'ListRecords') return res.end(error('badVerb', `Illegal verb ${verb}`));
    let offset = 0;
    let args = p;
    const token = p.get('resumptionToken');
    if (token) {
      if (f.expireTokens && f.expireTokens > 0) {
        f.expireTokens--;
        return res.end(error('badResumptionToken', 'The resumption token has expired'));
      }
      const m = /^(\d+)\|(.*)$/.exec(token);
      if (!m) return res.end(error('badResumptionToken', 'Unknown token'));
      offset = Number(m[1]);
      args = new URLSearchParams(m[2]);
    } else if (!p.get('metadataPrefix')) {
      return res.end(error('badArgument', 'metadataPrefix is required'));
    }
    if (offset === 0) pageNo = 0;
    pageNo++;
    if (f.malformedPages?.includes(pageNo)) return res.end(envelope('<request verb="ListRecords">', '<ListRecords><record><header>'));
    // A list is a snapshot taken at its first page (the benchmark's 100,000 records are not filtered again per page).
    const key = args.toString();
    if (!token || snapshot?.key !== key) snapshot = { key, list: selected(args) };
    const all = snapshot.list;
    if (all.length === 0) return res.end(error('noRecordsMatch', 'No records match'));
    const slice = all.slice(offset, offset + state.pageSize);
    const next = offset + state.pageSize < all.length ? `${offset + state.pageSize}|${args.toString()}` : '';
    const rt = token || next ? `<resumptionToken completeListSize="${all.length}" cursor="${offset}">${esc(next)}</resumptionToken>` : '';
    return res.end(envelope(`<request verb="ListRecords" metadataPrefix="${esc(args.get('metadataPrefix') ?? '')}">${base}</request>`,
      `<ListRecords>${slice.map(recordXml).join('')}${rt}</ListRecords>`));
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/oai`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  }) as OaiTestServer;
}

/** A MARCXML record (MARC21 or UNIMARC in the same envelope) from fields: [tag, ind, [[code, value]...]] or [tag, controlValue]. */
export function marcXml(fields: ([string, string] | [string, string, [string, string][]])[], leader = '00000nam a2200000 a 4500'): string {
  const parts = fields.map((f) => f.length === 2
    ? `<marc:controlfield tag="${f[0]}">${esc(f[1])}</marc:controlfield>`
    : `<marc:datafield tag="${f[0]}" ind1="${f[1][0] ?? ' '}" ind2="${f[1][1] ?? ' '}">${f[2].map(([c, v]) => `<marc:subfield code="${c}">${esc(v)}</marc:subfield>`).join('')}</marc:datafield>`);
  return `<marc:record xmlns:marc="http://www.loc.gov/MARC21/slim"><marc:leader>${leader}</marc:leader>${parts.join('')}</marc:record>`;
}

/** An oai_dc record from element lists. */
export function dcXml(fields: Record<string, string[]>): string {
  const els = Object.entries(fields).flatMap(([k, vs]) => vs.map((v) => `<dc:${k}>${esc(v)}</dc:${k}>`));
  return `<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">${els.join('')}</oai_dc:dc>`;
}
