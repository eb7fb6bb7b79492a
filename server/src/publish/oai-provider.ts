// The OAI-PMH 2.0 data provider over the visible catalogue: argument rules, the six verbs, resumption
// tokens, and records built from the catalogue tables. Record state (datestamps, deletions, sets) comes
// from the oai_* tables that triggers keep (publish/migrations.ts); visibility is decided per request.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { idList, jsonIds, oneSnapshotSql } from '../db/dialect.ts';
import type { LibraryService } from '../libraries/service.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { AuthorResolver } from '../agents/resolve.ts';
import type { PagesService } from '../pages/service.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import {
  METADATA_FORMATS, oaiDocument, writeDublinCore, writeErrors, writeHeader, writeIdentifierDescription, writeMarc,
  type MetadataPrefix, type OaiHeader, type RecordData, type RelatedEntry, type XmlWriter,
} from './oai-xml.ts';

/** A list request waits this many times this long for a write transaction of another connection to end. */
const SETTLE_ATTEMPTS = 60;
const SETTLE_WAIT_MS = 50;

/** The database stayed locked by writers: the route answers 503 with Retry-After, as the protocol allows. */
export class OaiBusy extends Error {
  retryAfterSeconds = 10;
}

/** Records (or headers) per ListRecords / ListIdentifiers answer. */
export const PAGE_SIZE = 100;
/** How long a resumption token is honoured. */
export const TOKEN_TTL_SECONDS = 24 * 3600;

type Verb = 'Identify' | 'ListMetadataFormats' | 'ListSets' | 'GetRecord' | 'ListIdentifiers' | 'ListRecords';
type ListVerb = 'ListIdentifiers' | 'ListRecords';
interface OaiError { code: string; message: string }

const ARGUMENTS: Record<Verb, { required: string[]; optional: string[]; exclusive?: true }> = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ['identifier'] },
  ListSets: { required: [], optional: [], exclusive: true },
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [] },
  ListIdentifiers: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], exclusive: true },
  ListRecords: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], exclusive: true },
};

/** What a list request asks for, and where the previous page ended (the token's content). */
interface ListState {
  verb: ListVerb;
  prefix: string;
  from: string | null;
  until: string | null;
  set: string | null;
  /** Keyset position: the last (datestamp, entry_id) already returned. */
  after: [string, number];
  /** Records returned before this page, and the list size counted on the first page. */
  cursor: number;
  size: number;
}

interface RecordRow { entry_id: number; datestamp: string; live: number }

export interface OaiOptions {
  /** Public address of the site ('' = the address the request came to); its host names the identifiers. */
  publicUrl: string;
  /** Fallback for Identify's adminEmail when the site has no contact address. */
  adminEmail?: string;
  now?: () => Date;
  tokenTtlSeconds?: number;
}

/** UTC with second granularity, the repository's granularity. */
export function utcSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SECOND = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** A from/until argument: its granularity and the datestamp bound it stands for; null when malformed. */
function parseDate(value: string, end: boolean): { day: boolean; bound: string } | null {
  const m = DAY.exec(value) ?? SECOND.exec(value);
  if (!m) return null;
  const day = m.length === 4;
  const iso = day ? `${value}T${end ? '23:59:59' : '00:00:00'}Z` : value;
  const t = Date.parse(iso);
  // Date.parse accepts 2021-02-30 (rolls over); the round trip catches it.
  if (Number.isNaN(t) || utcSeconds(new Date(t)) !== iso) return null;
  return { day, bound: iso };
}

export class OaiProvider {
  private q;
  private host: string;
  private now: () => Date;
  private ttl: number;

  constructor(
    private db: Db,
    private libraries: LibraryService,
    private catalogue: CatalogueService,
    private authors: AuthorResolver,
    private pages: PagesService,
    private opts: OaiOptions,
  ) {
    this.host = hostOf(opts.publicUrl);
    this.now = opts.now ?? (() => new Date());
    this.ttl = opts.tokenTtlSeconds ?? TOKEN_TTL_SECONDS;
    const s = db.sqlite;
    const IDS = idList(s.dialect);
    const range = (t: string) => `${t}.datestamp >= @from AND ${t}.datestamp <= @until`;
    const after = (t: string) => `(${t}.datestamp, ${t}.entry_id) > (@afterStamp, @afterId)`;
    // A hidden set lists only what is deleted now: its live records still shown elsewhere stay out of it.
    const hiddenOnly = `AND NOT (r.live = 1 AND EXISTS (SELECT 1 FROM oai_sets v WHERE v.entry_id = s.entry_id AND v.library_id IN (${jsonIds(s.dialect, '@visible')})))`;
    this.q = {
      secret: s.prepare('SELECT key FROM oai_secret WHERE id = 1').pluck(),
      earliest: s.prepare('SELECT min(datestamp) FROM oai_records WHERE exposed = 1').pluck(),
      record: s.prepare('SELECT entry_id, datestamp, live FROM oai_records WHERE entry_id = ? AND exposed = 1'),
      page: s.prepare(`SELECT r.entry_id, r.datestamp, r.live FROM oai_records r
        WHERE r.exposed = 1 AND ${range('r')} AND ${after('r')} ORDER BY r.datestamp, r.entry_id LIMIT @limit`),
      count: s.prepare(`SELECT count(*) FROM oai_records r WHERE r.exposed = 1 AND ${range('r')}`).pluck(),
      setPage: s.prepare(`SELECT s.entry_id, s.datestamp, r.live FROM oai_sets s JOIN oai_records r ON r.entry_id = s.entry_id
        WHERE s.library_id = @library AND r.exposed = 1 AND ${range('s')} AND ${after('s')}
        ORDER BY s.datestamp, s.entry_id LIMIT @limit`),
      setCount: s.prepare(`SELECT count(*) FROM oai_sets s JOIN oai_records r ON r.entry_id = s.entry_id
        WHERE s.library_id = @library AND r.exposed = 1 AND ${range('s')}`).pluck(),
      hiddenSetPage: s.prepare(`SELECT s.entry_id, s.datestamp, r.live FROM oai_sets s JOIN oai_records r ON r.entry_id = s.entry_id
        WHERE s.library_id = @library AND r.exposed = 1 AND ${range('s')} AND ${after('s')} ${hiddenOnly}
        ORDER BY s.datestamp, s.entry_id LIMIT @limit`),
      hiddenSetCount: s.prepare(`SELECT count(*) FROM oai_sets s JOIN oai_records r ON r.entry_id = s.entry_id
        WHERE s.library_id = @library AND r.exposed = 1 AND ${range('s')} ${hiddenOnly}`).pluck(),
      exposedLibraries: s.prepare('SELECT library_id FROM oai_exposed_libraries').pluck(),
      setsOf: s.prepare(`SELECT entry_id, library_id FROM oai_sets WHERE entry_id IN ${IDS} ORDER BY library_id`),
      entries: s.prepare(`SELECT id, title, subtitle, original_entry_id FROM entries WHERE id IN ${IDS}`),
      members: s.prepare(`SELECT id, coalesce(canonical_entry_id, id) AS owner FROM entries WHERE id IN ${IDS} OR canonical_entry_id IN ${IDS}`),
      dataSources: s.prepare(`SELECT d.entry_id, s.library_id, d.year_edition, d.year_first_edition, d.publisher, d.isbn, d.description,
          d.material_description, d.edition_statement
        FROM data_sources d JOIN sites s ON s.id = d.site_id WHERE d.entry_id IN ${IDS} ORDER BY d.id`),
      languages: s.prepare(`SELECT entry_id, language_code FROM entry_languages WHERE entry_id IN ${IDS} ORDER BY entry_id, position`),
      parents: s.prepare(`SELECT l.aggregated_entry_id AS child, coalesce(p.canonical_entry_id, p.id) AS parent, l.position
        FROM aggregation_links l JOIN entries p ON p.id = l.aggregation_entry_id WHERE l.aggregated_entry_id IN ${IDS}`),
      // `+` keeps the planner on the original_entry_id index (canonical_entry_id IS NULL matches almost every row).
      translations: s.prepare(`SELECT id, original_entry_id FROM entries WHERE original_entry_id IN ${IDS} AND +canonical_entry_id IS NULL ORDER BY id`),
      canonicalOf: s.prepare(`SELECT id, coalesce(canonical_entry_id, id) AS canonical FROM entries WHERE id IN ${IDS}`),
    };
  }

  /** Identifier of an entry's record. */
  identifier(entryId: number): string {
    return `oai:${this.host}:entry:${entryId}`;
  }

  /**
   * Answers one request. `params` are the decoded arguments in request order (repeats kept, so they
   * can be refused); `baseUrl` is the provider's address and `siteUrl` the site's, for entry links.
   */
  async handle(params: [string, string][], baseUrl: string, siteUrl: string): Promise<string> {
    const listing = params.some(([k, v]) => k === 'verb' && (v === 'ListRecords' || v === 'ListIdentifiers'));
    const responseDate = utcSeconds(listing ? await this.settledNow() : this.now());
    // One snapshot for the whole answer: the page and the records' data agree.
    // (Inside a transaction already open on this connection, that one's view is the answer's.)
    const snapshot = this.db.sqlite.inTransaction ? null : oneSnapshotSql(this.db.sqlite.dialect);
    return this.db.sqlite.transaction(() => {
      if (snapshot) this.db.sqlite.exec(snapshot);
      return this.answerAt(responseDate, params, baseUrl, siteUrl);
    })();
  }

  /**
   * The time to answer a list with, taken while holding the write lock: every change stamped before it
   * has been committed (so it is in this answer), and every later write is stamped at or after it. A
   * harvester that comes back `from` this responseDate therefore misses nothing. The lock is tried
   * without blocking the event loop; a database busy for seconds gets OaiBusy (HTTP 503).
   */
  private async settledNow(): Promise<Date> {
    const s = this.db.sqlite;
    if (s.dialect === 'postgres') return this.settledNowPostgres();
    for (let attempt = 0; attempt < SETTLE_ATTEMPTS; attempt++) {
      const timeout = s.pragma('busy_timeout', { simple: true }) as number;
      s.pragma('busy_timeout = 0');
      try {
        s.exec('BEGIN IMMEDIATE');
        const now = this.now();
        s.exec('COMMIT');
        return now;
      } catch (e) {
        if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
      } finally {
        s.pragma(`busy_timeout = ${timeout}`);
      }
      await new Promise((r) => setTimeout(r, SETTLE_WAIT_MS));
    }
    throw new OaiBusy();
  }

  /**
   * PostgreSQL has no one write lock to take. A record's datestamp is its writing statement's start
   * (strftime 'now' is statement_timestamp()), so the rule is the same if every transaction of this
   * database that has written (it has a transaction id) or is running a statement, and began before
   * the answer's time, has ended: what they stamped earlier is committed, anything later is stamped
   * later. Sessions of other database roles are invisible here without pg_read_all_stats. The time is
   * the database's (its clock stamps the records), so a node whose clock runs ahead loses nothing.
   */
  private async settledNowPostgres(): Promise<Date> {
    const s = this.db.sqlite;
    const busy = s.prepare(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
      AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND xact_start < CAST(? AS timestamptz)
      AND (backend_xid IS NOT NULL OR state = 'active')`).pluck();
    // compared at the clock's own precision (microseconds): a writer that began in the same millisecond
    // as the answer, before it, is one to wait for (a Date's milliseconds would round it away)
    const clock = this.opts.now ? { at: this.now().toISOString(), ms: this.now().getTime() }
      : s.prepare(`SELECT CAST(c AS text) AS at, CAST(floor(extract(epoch FROM c) * 1000) AS bigint) AS ms
          FROM (SELECT clock_timestamp() AS c) t`).get() as { at: string; ms: number | string };
    const now = new Date(Number(clock.ms));
    for (let attempt = 0; attempt < SETTLE_ATTEMPTS; attempt++) {
      if ((busy.get(clock.at) as number) === 0) return now;
      await new Promise((r) => setTimeout(r, SETTLE_WAIT_MS));
    }
    throw new OaiBusy();
  }

  private answerAt(responseDate: string, params: [string, string][], baseUrl: string, siteUrl: string): string {
    const verbs = params.filter(([k]) => k === 'verb').map(([, v]) => v);
    if (verbs.length !== 1 || !Object.hasOwn(ARGUMENTS, verbs[0])) {
      const message = verbs.length === 0 ? 'The verb argument is missing' : verbs.length > 1 ? 'The verb argument is repeated'
        : `"${verbs[0]}" is not an OAI-PMH verb`;
      return this.errorDocument(responseDate, baseUrl, [{ code: 'badVerb', message }]);
    }
    const verb = verbs[0] as Verb;
    const args = params.filter(([k]) => k !== 'verb');
    const problems = checkArguments(verb, args);
    if (problems.length) return this.errorDocument(responseDate, baseUrl, problems.map((message) => ({ code: 'badArgument', message })));

    const doc = oaiDocument(responseDate, baseUrl, [['verb', verb], ...args]);
    const arg = new Map(args);
    const errors = this.answer(doc, verb, arg, baseUrl, siteUrl);
    if (errors.length) {
      // Errors replace the verb's element; the document is rebuilt so nothing half-written remains.
      const failed = oaiDocument(responseDate, baseUrl, [['verb', verb], ...args]);
      writeErrors(failed, errors);
      return failed.end();
    }
    return doc.end();
  }

  private errorDocument(responseDate: string, baseUrl: string, errors: OaiError[]): string {
    const doc = oaiDocument(responseDate, baseUrl, null);
    writeErrors(doc, errors);
    return doc.end();
  }

  private answer(doc: XmlWriter, verb: Verb, arg: Map<string, string>, baseUrl: string, siteUrl: string): OaiError[] {
    switch (verb) {
      case 'Identify': return this.identify(doc, baseUrl);
      case 'ListMetadataFormats': return this.listMetadataFormats(doc, arg.get('identifier'));
      case 'ListSets':
        if (arg.has('resumptionToken')) return [{ code: 'badResumptionToken', message: 'ListSets is answered in one piece; this token was not issued here' }];
        return this.listSets(doc);
      case 'GetRecord': return this.getRecord(doc, arg.get('identifier')!, arg.get('metadataPrefix')!, siteUrl);
      case 'ListIdentifiers':
      case 'ListRecords': return this.list(doc, verb, arg, siteUrl);
    }
  }

  private identify(doc: XmlWriter, baseUrl: string): OaiError[] {
    const general = this.pages.general();
    const email = [general.contact_email, ...(this.opts.adminEmail ?? '').split(',')].map((e) => e.trim()).find((e) => /^\S+@(\S+\.)+\S+$/.test(e));
    doc.open('Identify')
      .leaf('repositoryName', general.site_name || 'Union Catalogue')
      .leaf('baseURL', baseUrl)
      .leaf('protocolVersion', '2.0')
      .leaf('adminEmail', email ?? `webmaster@${this.host}`)
      .leaf('earliestDatestamp', (this.q.earliest.get() as string | null) ?? utcSeconds(this.now()))
      .leaf('deletedRecord', 'persistent')
      .leaf('granularity', 'YYYY-MM-DDThh:mm:ssZ');
    if (/^[a-zA-Z][a-zA-Z0-9-]*(\.[a-zA-Z][a-zA-Z0-9-]*)+$/.test(this.host)) writeIdentifierDescription(doc, this.host, this.identifier(1));
    doc.close();
    return [];
  }

  private listMetadataFormats(doc: XmlWriter, identifier: string | undefined): OaiError[] {
    if (identifier !== undefined) {
      const row = this.findRecord(identifier);
      if (!row) return [idDoesNotExist(identifier)];
      if (this.isDeleted(row, this.setsOf([row.entry_id]).get(row.entry_id) ?? [], this.libraries.visibleIds(ANONYMOUS))) {
        return [{ code: 'noMetadataFormats', message: 'The item is deleted: no metadata is disseminated for it' }];
      }
    }
    doc.open('ListMetadataFormats');
    for (const f of METADATA_FORMATS) {
      doc.open('metadataFormat').leaf('metadataPrefix', f.prefix).leaf('schema', f.schema).leaf('metadataNamespace', f.namespace).close();
    }
    doc.close();
    return [];
  }

  private listSets(doc: XmlWriter): OaiError[] {
    const visible = [...this.libraries.all().values()].filter((l) => this.libraries.isVisible(l, ANONYMOUS));
    if (visible.length === 0) return [{ code: 'noSetHierarchy', message: 'No library is public now, so there are no sets' }];
    doc.open('ListSets');
    for (const l of visible) doc.open('set').leaf('setSpec', `library:${l.id}`).leaf('setName', l.name).close();
    doc.close();
    return [];
  }

  private getRecord(doc: XmlWriter, identifier: string, prefix: string, siteUrl: string): OaiError[] {
    const errors: OaiError[] = [];
    if (!isPrefix(prefix)) errors.push(cannotDisseminate(prefix));
    const row = this.findRecord(identifier);
    if (!row) errors.push(idDoesNotExist(identifier));
    if (errors.length) return errors;
    this.writeRecords(doc.open('GetRecord'), [row!], prefix as MetadataPrefix, true, siteUrl);
    doc.close();
    return [];
  }

  private list(doc: XmlWriter, verb: ListVerb, arg: Map<string, string>, siteUrl: string): OaiError[] {
    let state: ListState;
    const token = arg.get('resumptionToken');
    if (token !== undefined) {
      const decoded = this.readToken(token, verb);
      if (typeof decoded === 'string') return [{ code: 'badResumptionToken', message: decoded }];
      state = decoded;
    } else {
      const prefix = arg.get('metadataPrefix')!;
      if (!isPrefix(prefix)) return [cannotDisseminate(prefix)];
      state = {
        verb, prefix,
        from: arg.has('from') ? parseDate(arg.get('from')!, false)!.bound : null,
        until: arg.has('until') ? parseDate(arg.get('until')!, true)!.bound : null,
        set: arg.get('set') ?? null,
        after: ['', 0], cursor: 0, size: 0,
      };
    }
    const visible = this.libraries.visibleIds(ANONYMOUS);
    const query = this.listQuery(state, visible);
    if (!query) return [noRecordsMatch()];
    const rows = query.page.all({ ...query.params, limit: PAGE_SIZE + 1 }) as RecordRow[];
    const more = rows.length > PAGE_SIZE;
    const pageRows = rows.slice(0, PAGE_SIZE);
    if (pageRows.length === 0) return [noRecordsMatch()];
    if (token === undefined) state.size = more ? (query.count.get(query.params) as number) : pageRows.length;

    this.writeRecords(doc.open(verb), pageRows, state.prefix as MetadataPrefix, verb === 'ListRecords', siteUrl, visible);
    if (more || token !== undefined) {
      const sizes = { completeListSize: String(Math.max(state.size, state.cursor + pageRows.length)), cursor: String(state.cursor) };
      if (more) {
        const last = pageRows[pageRows.length - 1];
        const expires = new Date(this.now().getTime() + this.ttl * 1000);
        const next = this.writeToken({ ...state, after: [last.datestamp, last.entry_id], cursor: state.cursor + pageRows.length }, expires);
        doc.leaf('resumptionToken', next, { expirationDate: utcSeconds(expires), ...sizes });
      } else {
        // The list is complete: an empty token closes it.
        doc.leaf('resumptionToken', '', sizes);
      }
    }
    doc.close();
    return [];
  }

  /** The page and count statements of a list, or null when its set cannot match anything. */
  private listQuery(state: ListState, visible: Set<number>) {
    const params: Record<string, string | number> = {
      from: state.from ?? '', until: state.until ?? '9999', afterStamp: state.after[0], afterId: state.after[1],
    };
    if (state.set === null) return { page: this.q.page, count: this.q.count, params };
    const m = /^library:([1-9]\d{0,9})$/.exec(state.set);
    if (!m) return null;
    const library = Number(m[1]);
    params.library = library;
    if (visible.has(library)) return { page: this.q.setPage, count: this.q.setCount, params };
    // A library hidden now: only if it was ever shown, and then only its deletions.
    if (!(this.q.exposedLibraries.all() as number[]).includes(library)) return null;
    params.visible = JSON.stringify([...visible]);
    return { page: this.q.hiddenSetPage, count: this.q.hiddenSetCount, params };
  }

  private findRecord(identifier: string): RecordRow | null {
    const prefix = `oai:${this.host}:entry:`;
    if (!identifier.startsWith(prefix)) return null;
    const id = identifier.slice(prefix.length);
    if (!/^[1-9]\d{0,15}$/.test(id)) return null;
    return (this.q.record.get(Number(id)) as RecordRow | undefined) ?? null;
  }

  private setsOf(ids: number[]): Map<number, number[]> {
    const out = new Map<number, number[]>();
    for (const r of this.q.setsOf.all(JSON.stringify(ids)) as { entry_id: number; library_id: number }[]) push(out, r.entry_id, r.library_id);
    return out;
  }

  /** Deleted: merged away or emptied (no doc), or no library of it is visible any more. */
  private isDeleted(row: RecordRow, libs: number[], visible: Set<number>): boolean {
    return !row.live || !libs.some((l) => visible.has(l));
  }

  private writeRecords(w: XmlWriter, rows: RecordRow[], prefix: MetadataPrefix, withMetadata: boolean,
    siteUrl: string, visible = this.libraries.visibleIds(ANONYMOUS)) {
    const sets = this.setsOf(rows.map((r) => r.entry_id));
    const exposed = new Set(this.q.exposedLibraries.all() as number[]);
    const headers: OaiHeader[] = [];
    const shownIds: number[] = [];
    for (const r of rows) {
      const libs = sets.get(r.entry_id) ?? [];
      const deleted = this.isDeleted(r, libs, visible);
      // Sets of a live record: where it is visible; of a deleted one: the libraries it was last shown in.
      const setSpecs = libs.filter((l) => (deleted ? exposed.has(l) : visible.has(l))).map((l) => `library:${l}`);
      headers.push({ identifier: this.identifier(r.entry_id), datestamp: r.datestamp, setSpecs, deleted });
      if (!deleted) shownIds.push(r.entry_id);
    }
    const data = withMetadata ? this.recordData(shownIds, visible, siteUrl) : new Map<number, RecordData>();
    rows.forEach((r, i) => {
      const h = headers[i];
      if (!withMetadata) {
        writeHeader(w, h);
        return;
      }
      w.open('record');
      writeHeader(w, h);
      const d = data.get(r.entry_id);
      if (!h.deleted && d) {
        w.open('metadata');
        if (prefix === 'marc21') writeMarc(w, d, r.datestamp);
        else writeDublinCore(w, d);
        w.close();
      }
      w.close();
    });
  }

  /** The bibliographic data of visible entries, from their records in visible libraries only. */
  private recordData(ids: number[], visible: Set<number>, siteUrl: string): Map<number, RecordData> {
    const out = new Map<number, RecordData>();
    if (ids.length === 0) return out;
    const q = this.q;
    const json = JSON.stringify(ids);
    const members = q.members.all(json, json) as { id: number; owner: number }[];
    const ownerOf = new Map(members.map((m) => [m.id, m.owner]));
    const memberJson = JSON.stringify(members.map((m) => m.id));
    const authors = this.authors.resolve(ids);
    const languages = new Map<number, string[]>();
    for (const l of q.languages.all(json) as { entry_id: number; language_code: string }[]) push(languages, l.entry_id, l.language_code);
    const sources = new Map<number, DsRow[]>();
    for (const d of q.dataSources.all(memberJson) as DsRow[]) if (visible.has(d.library_id)) push(sources, ownerOf.get(d.entry_id)!, d);

    // Related entries: aggregation parents, the original of a translation, its translations; only visible ones are named.
    const entries = q.entries.all(json) as { id: number; title: string; subtitle: string | null; original_entry_id: number | null }[];
    const parents = new Map<number, { parent: number; position: number | null }[]>();
    for (const p of q.parents.all(memberJson) as { child: number; parent: number; position: number | null }[]) {
      const owner = ownerOf.get(p.child)!;
      if (p.parent !== owner && !parents.get(owner)?.some((x) => x.parent === p.parent)) push(parents, owner, { parent: p.parent, position: p.position });
    }
    const originalIds = entries.map((e) => e.original_entry_id).filter((x): x is number => x !== null);
    const canonical = new Map((q.canonicalOf.all(JSON.stringify(originalIds)) as { id: number; canonical: number }[]).map((r) => [r.id, r.canonical]));
    const translations = new Map<number, number[]>();
    for (const t of q.translations.all(json) as { id: number; original_entry_id: number }[]) push(translations, t.original_entry_id, t.id);
    const relatedIds = [...new Set([...[...parents.values()].flat().map((p) => p.parent), ...canonical.values(), ...[...translations.values()].flat()])];
    const shown = this.catalogue.visibleEntries(relatedIds, ANONYMOUS);
    const titles = new Map((q.entries.all(JSON.stringify([...shown])) as { id: number; title: string }[]).map((e) => [e.id, e.title]));
    const related = (id: number, position?: number | null): RelatedEntry | null => (shown.has(id) && titles.has(id)
      ? { title: titles.get(id)!, identifier: this.identifier(id), url: `${siteUrl}/entry/${id}`, position } : null);

    for (const e of entries) {
      const ds = sources.get(e.id) ?? [];
      const years = new Set<number>();
      for (const d of ds) {
        if (d.year_edition != null) years.add(d.year_edition);
        if (d.year_first_edition != null) years.add(d.year_first_edition);
      }
      const original = e.original_entry_id !== null ? related(canonical.get(e.original_entry_id) ?? e.original_entry_id) : null;
      out.set(e.id, {
        entryId: e.id,
        url: `${siteUrl}/entry/${e.id}`,
        title: e.title,
        subtitle: e.subtitle,
        authors: (authors.get(e.id)?.shown ?? []).map((a) => a.value),
        languages: languages.get(e.id) ?? [],
        years: [...years].sort((a, b) => a - b),
        publishers: distinct(ds.map((d) => d.publisher)),
        isbns: distinct(ds.flatMap((d) => (d.isbn ?? '').split(/[;,]/))),
        descriptions: distinct(ds.map((d) => d.description)),
        materials: distinct(ds.map((d) => d.material_description)),
        editions: distinct(ds.map((d) => d.edition_statement)),
        parents: (parents.get(e.id) ?? []).map((p) => related(p.parent, p.position)).filter((r): r is RelatedEntry => r !== null),
        original: original && original.identifier !== this.identifier(e.id) ? original : null,
        translations: (translations.get(e.id) ?? []).filter((t) => t !== e.id).map((t) => related(t)).filter((r): r is RelatedEntry => r !== null),
      });
    }
    return out;
  }

  // Tokens: base64url(JSON state) + '.' + HMAC-SHA256 of it, keyed by the database's own secret.
  private writeToken(state: ListState, expires: Date): string {
    const body = Buffer.from(JSON.stringify({
      v: 1, verb: state.verb, p: state.prefix, f: state.from, u: state.until, s: state.set,
      d: state.after[0], i: state.after[1], c: state.cursor, n: state.size, x: Math.floor(expires.getTime() / 1000),
    })).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The state of a token, or why it is refused. */
  private readToken(token: string, verb: ListVerb): ListState | string {
    const m = /^([A-Za-z0-9_-]{1,2000})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!m) return 'The resumption token is malformed';
    const expected = Buffer.from(this.sign(m[1]));
    if (!timingSafeEqual(expected, Buffer.from(m[2]))) return 'The resumption token was not issued by this repository';
    let t: Record<string, unknown>;
    try {
      t = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return 'The resumption token is malformed';
    }
    if (t.v !== 1 || typeof t.x !== 'number' || typeof t.d !== 'string' || typeof t.i !== 'number' || typeof t.c !== 'number'
      || typeof t.n !== 'number' || typeof t.p !== 'string') return 'The resumption token is malformed';
    if (t.verb !== verb) return `The resumption token belongs to ${String(t.verb)}, not ${verb}`;
    if (t.x * 1000 < this.now().getTime()) return 'The resumption token has expired: start the list again';
    if (!isPrefix(t.p)) return 'The resumption token names a format no longer offered';
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    return { verb, prefix: t.p, from: str(t.f), until: str(t.u), set: str(t.s), after: [t.d, t.i], cursor: t.c, size: t.n };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.q.secret.get() as string).update(body).digest('base64url');
  }
}

interface DsRow {
  entry_id: number; library_id: number; year_edition: number | null; year_first_edition: number | null; publisher: string | null;
  isbn: string | null; description: string | null; material_description: string | null; edition_statement: string | null;
}

/** Problems with the arguments of a verb (each one a badArgument). */
function checkArguments(verb: Verb, args: [string, string][]): string[] {
  const rule = ARGUMENTS[verb];
  const problems: string[] = [];
  const seen = new Set<string>();
  const allowed = new Set([...rule.required, ...rule.optional, ...(rule.exclusive ? ['resumptionToken'] : [])]);
  for (const [k, v] of args) {
    if (!allowed.has(k)) problems.push(`${verb} does not take the argument "${k}"`);
    else if (seen.has(k)) problems.push(`The argument "${k}" is repeated`);
    else if (v === '') problems.push(`The argument "${k}" is empty`);
    seen.add(k);
  }
  if (seen.has('resumptionToken')) {
    if (args.length > 1) problems.push('resumptionToken is an exclusive argument: no other argument may come with it');
    return problems;
  }
  for (const r of rule.required) if (!seen.has(r)) problems.push(`${verb} needs the argument "${r}"`);
  const value = (k: string) => args.find(([key]) => key === k)?.[1];
  const from = value('from');
  const until = value('until');
  const f = from ? parseDate(from, false) : null;
  const u = until ? parseDate(until, true) : null;
  if (from && !f) problems.push(`"from" is not a date of the form YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ: ${from}`);
  if (until && !u) problems.push(`"until" is not a date of the form YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ: ${until}`);
  if (f && u) {
    if (f.day !== u.day) problems.push('"from" and "until" must have the same granularity');
    else if (f.bound > u.bound) problems.push('"from" is later than "until"');
  }
  return problems;
}

const isPrefix = (p: unknown): p is MetadataPrefix => METADATA_FORMATS.some((f) => f.prefix === p);
const cannotDisseminate = (p: string): OaiError => ({ code: 'cannotDisseminateFormat', message: `The format "${p}" is not offered (use oai_dc or marc21)` });
const idDoesNotExist = (id: string): OaiError => ({ code: 'idDoesNotExist', message: `No item has the identifier "${id}"` });
const noRecordsMatch = (): OaiError => ({ code: 'noRecordsMatch', message: 'No record matches these arguments' });

function hostOf(publicUrl: string): string {
  try {
    return publicUrl ? new URL(publicUrl).hostname || '127.0.0.1' : '127.0.0.1';
  } catch {
    return '127.0.0.1';
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

function distinct(values: (string | null | undefined)[]): string[] {
  return [...new Set(values.map((v) => (v ?? '').trim()).filter(Boolean))];
}
