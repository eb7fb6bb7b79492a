// An OAI-PMH 2.0 harvester client: Identify, ListRecords with resumption tokens, the protocol's error
// codes. Pages are parsed with the strict XML reader; anything that is not an OAI-PMH answer (an HTML
// page, a malformed document) is an error with a message a library admin can act on.
import { child, children, childText, parseXml, textOf, XmlError, type XmlElement } from './xml.ts';
import { fetchWithRetry, HarvestFetchError, type FetchOptions } from './fetch.ts';
import { reasonOf, ReportError, type ReportValues } from './report.ts';

export const OAI_NS = 'http://www.openarchives.org/OAI/2.0/';

export interface OaiIdentify {
  repositoryName: string;
  granularity: 'YYYY-MM-DD' | 'YYYY-MM-DDThh:mm:ssZ';
  earliestDatestamp: string | null;
  deletedRecord: 'no' | 'transient' | 'persistent';
}

export interface OaiRecord {
  identifier: string;
  datestamp: string;
  deleted: boolean;
  /** The one element inside <metadata> (marc:record, oai_dc:dc...); absent for deleted records. */
  metadata?: XmlElement;
}

export interface OaiPage {
  records: OaiRecord[];
  /** The repository's clock at this answer: the next incremental harvest starts from the first page's. */
  responseDate: string;
  completeListSize: number | null;
}

/** A protocol failure: `code` is OAI-PMH's error code (or ours: notOai, badXml, badIdentify). */
export class OaiError extends ReportError {
  constructor(template: string, values: ReportValues | undefined, readonly code: string) {
    super(template, values);
  }
}

/** Lets one OAI page, or a page that needed a restart, be reported. */
export interface ListEvents {
  onRetry?: (msg: string) => void;
}

/** How often an expired or rejected resumption token restarts the list before the run gives up. */
const TOKEN_RESTARTS = 2;

export class OaiClient {
  constructor(private baseUrl: string, private fetchOptions: Partial<FetchOptions> = {}) {}

  private url(params: Record<string, string | null | undefined>): string {
    const u = new URL(this.baseUrl);
    for (const k of [...u.searchParams.keys()]) if (k === 'verb') u.searchParams.delete(k);
    for (const [k, v] of Object.entries(params)) if (v) u.searchParams.set(k, v);
    return u.href;
  }

  /** One request: the OAI-PMH root element (errors other than noRecordsMatch are thrown). */
  async request(params: Record<string, string | null | undefined>, events: ListEvents = {}): Promise<XmlElement> {
    const res = await fetchWithRetry(this.url(params), this.fetchOptions, events.onRetry);
    const type = res.contentType.toLowerCase();
    if (type.includes('html')) {
      throw new OaiError('The endpoint answered an HTML page ({{type}}), not OAI-PMH XML: is {{url}} the OAI-PMH base URL?', { type: res.contentType, url: this.baseUrl }, 'notOai');
    }
    let root: XmlElement;
    try {
      root = parseXml(res.body.toString('utf8'));
    } catch (e) {
      if (e instanceof XmlError) throw new OaiError('{{verb}}: {{reason}}', { verb: params.verb ?? '', reason: reasonOf(e) }, 'badXml');
      throw e;
    }
    if (root.name !== 'OAI-PMH' || root.ns !== OAI_NS) {
      throw new OaiError('The endpoint answered <{{element}}>, not an OAI-PMH document: is {{url}} the OAI-PMH base URL?', { element: root.name, url: this.baseUrl }, 'notOai');
    }
    const err = child(root, 'error');
    if (err && err.attrs.code !== 'noRecordsMatch') {
      const values = { verb: params.verb ?? '', code: err.attrs.code || 'error', text: textOf(err) };
      if (values.text) throw new OaiError('{{verb}}: the repository answered {{code}} ({{text}})', values, values.code);
      throw new OaiError('{{verb}}: the repository answered {{code}}', values, values.code);
    }
    return root;
  }

  async identify(): Promise<OaiIdentify> {
    const root = await this.request({ verb: 'Identify' });
    const id = child(root, 'Identify');
    if (!id) throw new OaiError('Identify: the answer has no <Identify> element', undefined, 'badIdentify');
    const g = childText(id, 'granularity');
    const d = childText(id, 'deletedRecord');
    return {
      repositoryName: childText(id, 'repositoryName'),
      granularity: g === 'YYYY-MM-DDThh:mm:ssZ' ? g : 'YYYY-MM-DD',
      earliestDatestamp: childText(id, 'earliestDatestamp') || null,
      deletedRecord: d === 'transient' || d === 'persistent' ? d : 'no',
    };
  }

  /**
   * ListRecords page after page, following resumption tokens to the end. An expired or rejected token
   * restarts the list from the beginning (records seen twice are stored once: an upsert).
   */
  async *listRecords(args: { metadataPrefix: string; set?: string | null; from?: string | null }, events: ListEvents = {}): AsyncGenerator<OaiPage> {
    const first = () => this.request({ verb: 'ListRecords', ...args }, events);
    let pending: Promise<XmlElement> = first();
    let restarts = 0;
    for (;;) {
      let root: XmlElement;
      try {
        root = await pending;
      } catch (e) {
        if (e instanceof OaiError && e.code === 'badResumptionToken' && restarts < TOKEN_RESTARTS) {
          restarts++;
          events.onRetry?.('The resumption token was rejected (expired?); the list restarts from the beginning');
          pending = first();
          continue;
        }
        if (e instanceof OaiError && e.code === 'badResumptionToken') throw new OaiError('{{reason}}; the list was restarted {{times}} times', { reason: reasonOf(e), times: TOKEN_RESTARTS }, e.code);
        throw e;
      }
      const list = child(root, 'ListRecords');
      const responseDate = childText(root, 'responseDate');
      if (!list) {
        yield { records: [], responseDate, completeListSize: 0 }; // noRecordsMatch: an empty harvest
        return;
      }
      const records = children(list, 'record').map(readRecord);
      const rt = child(list, 'resumptionToken');
      const size = rt?.attrs.completeListSize ? Number(rt.attrs.completeListSize) : null;
      const token = textOf(rt) || null;
      // The next page is on its way while this one is stored (its failure surfaces when it is awaited).
      if (token) {
        pending = this.request({ verb: 'ListRecords', resumptionToken: token }, events);
        pending.catch(() => undefined);
      }
      yield { records, responseDate, completeListSize: Number.isFinite(size) ? size : null };
      if (!token) return;
    }
  }

  /** The metadata formats the repository offers (their prefixes), for "Test connection". */
  async listMetadataFormats(): Promise<string[]> {
    const root = await this.request({ verb: 'ListMetadataFormats' });
    return children(child(root, 'ListMetadataFormats'), 'metadataFormat').map((f) => childText(f, 'metadataPrefix')).filter(Boolean);
  }

  /** The repository's sets, following resumption tokens up to `max` (a repository without sets has none). */
  async listSets(max = 1000): Promise<{ sets: { spec: string; name: string }[]; more: boolean }> {
    const sets: { spec: string; name: string }[] = [];
    let params: Record<string, string> = { verb: 'ListSets' };
    for (;;) {
      let root: XmlElement;
      try {
        root = await this.request(params);
      } catch (e) {
        if (e instanceof OaiError && e.code === 'noSetHierarchy') return { sets, more: false };
        throw e;
      }
      const list = child(root, 'ListSets');
      for (const s of children(list, 'set')) sets.push({ spec: childText(s, 'setSpec'), name: childText(s, 'setName') });
      const token = textOf(child(list, 'resumptionToken'));
      if (!token) return { sets, more: false };
      if (sets.length >= max) return { sets: sets.slice(0, max), more: true };
      params = { verb: 'ListSets', resumptionToken: token };
    }
  }

  async getRecord(identifier: string, metadataPrefix: string): Promise<OaiRecord | null> {
    try {
      const root = await this.request({ verb: 'GetRecord', identifier, metadataPrefix });
      const rec = child(child(root, 'GetRecord'), 'record');
      return rec ? readRecord(rec) : null;
    } catch (e) {
      if (e instanceof OaiError && (e.code === 'idDoesNotExist' || e.code === 'badArgument')) return null;
      throw e;
    }
  }
}

function readRecord(rec: XmlElement): OaiRecord {
  const header = child(rec, 'header');
  const metadata = child(rec, 'metadata')?.children[0];
  return {
    identifier: childText(header, 'identifier'),
    datestamp: childText(header, 'datestamp'),
    deleted: header?.attrs.status === 'deleted',
    metadata,
  };
}

/** A datestamp in the repository's granularity (day granularity drops the time). */
export function oaiDate(iso: string, granularity: OaiIdentify['granularity']): string {
  const s = new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return granularity === 'YYYY-MM-DD' ? s.slice(0, 10) : s;
}

export { HarvestFetchError };
