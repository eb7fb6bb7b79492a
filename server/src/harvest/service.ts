// Harvest runs: queued (one open run per site, enforced by a unique index, so several workers never
// harvest the same site at once), executed by the job worker or the command line, reported page by
// page. Records go through the one ingestion path, so curation done on them survives re-harvests.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { HARVEST_FAILING_AFTER, type HarvestRun, type SiteTestBody, type SiteTestResponse } from '@uc/shared';
import type { Metrics } from '../metrics/metrics.ts';
import type { Db } from '../db/index.ts';
import type { IngestRecord, IngestService } from '../ingest/service.ts';
import type { FileStore } from '../catalogue/files.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { JobHandler } from '../jobs/worker.ts';
import type { MailService } from '../mail/service.ts';
import { HttpError } from '../http/errors.ts';
import { messageLanguage, translateMessage, type MessageLanguage } from '../http/messages.ts';
import { runOut, type RunRow, type SiteRow, type SiteStore } from './sites.ts';
import { OaiClient, oaiDate } from './oai-client.ts';
import { fetchWithRetry, HarvestFetchError, type FetchOptions } from './fetch.ts';
import type { AggregationRef } from './record.ts';
import { amusewikiTextUrl } from './mappers/fields.ts';
import { scanCalibreTree } from './calibre.ts';
import { readOaiList, type HarvestItem } from './oai-reader.ts';
import type { HarvestThreadData, HarvestThreadMessage } from './thread-main.ts';
import { HarvestError, logDetail, publicReason, reasonOf, renderReport, ReportError, reportMessage, storeReport, type ReportMessage } from './report.ts';

export const HARVEST_JOB = 'harvest';
const MAX_REPORTED_ERRORS = 100;
/** A running run whose progress was not written for this long lost its process. */
const STALE_RUN_MS = 30 * 60_000;
/** Records stored (and indexed) per transaction: fewer, larger transactions harvest faster than one per page. */
const STORE_BATCH = 1000;
/** Calibre books per "page" of the report. */
const CALIBRE_PAGE = 100;
/**
 * A repository whose Identify says deletedRecord "no" or "transient" may drop records without telling an
 * incremental harvest: its scheduled run is a full one when the last full harvest is older than this.
 */
const FULL_HARVEST_EVERY_MS = 24 * 3600_000;

export interface HarvestOptions {
  fetch?: Partial<FetchOptions>;
  /** Run queued harvests in a worker thread with its own connection (the server); absent: in this thread. */
  thread?: Omit<HarvestThreadData, 'runId' | 'options'>;
  /** Largest file (Muse source, zip, Calibre PDF) stored per record. */
  maxFileBytes?: number;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}

export type PageListener = (run: HarvestRun) => void;

const iso = () => new Date().toISOString();

class RunReport {
  counts = { pages: 0, records: 0, total: null as number | null, new: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0 };
  /** Messages as templates with values: put in the reader's language when read (an empty identifier reads "(no identifier)"). */
  errors: { identifier: string; message: ReportMessage }[] = [];
  /** Translations whose original was not stored yet (it may come on a later page). */
  translations: { childEntryId: number; originalIdentifier: string }[] = [];

  fail(identifier: string, message: ReportMessage) {
    this.counts.failed++;
    if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push({ identifier, message });
  }
}

export class HarvestService {
  private q;

  constructor(
    private db: Db,
    private sites: SiteStore,
    private ingest: IngestService,
    private files: FileStore,
    private jobs: JobQueue,
    private mail: MailService,
    private opts: HarvestOptions = {},
  ) {
    const s = db.sqlite;
    this.q = {
      insertRun: s.prepare(`INSERT INTO harvest_runs (site_id, status, force, started, progressed) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT DO NOTHING RETURNING id`).pluck(),
      setJob: s.prepare('UPDATE harvest_runs SET job_id = ? WHERE id = ?'),
      run: s.prepare('SELECT * FROM harvest_runs WHERE id = ?'),
      runs: s.prepare('SELECT * FROM harvest_runs WHERE site_id = ? ORDER BY id DESC LIMIT ?'),
      progress: s.prepare(`UPDATE harvest_runs SET status = @status, pages = @pages, records = @records, total = @total, new = @new,
        updated = @updated, unchanged = @unchanged, deleted = @deleted, failed = @failed, errors = @errors, message = @message,
        finished = @finished, progressed = @now WHERE id = @id`),
      dsByIdentifier: s.prepare('SELECT id FROM data_sources WHERE site_id = ? AND identifier = ?').pluck(),
      entryOfDs: s.prepare('SELECT entry_id FROM data_sources WHERE id = ?').pluck(),
      identifiersOf: s.prepare('SELECT id, identifier FROM data_sources WHERE site_id = ?'),
      hasFile: s.prepare('SELECT count(*) FROM data_source_files WHERE data_source_id = ? AND ext IN (\'.muse\', \'.zip\')').pluck(),
      library: s.prepare('SELECT name, email_internal, languages FROM libraries WHERE id = ?'),
    };
  }

  // ---------- queue and reports ----------

  /** Queues a run (202 for the caller); 409 when one is already queued or running. */
  start(siteId: number, force = false, lang: MessageLanguage = 'en'): HarvestRun {
    const site = this.harvestable(siteId);
    const runId = this.db.sqlite.transaction(() => {
      const id = this.q.insertRun.get(site.id, 'queued', force ? 1 : 0, null, iso()) as number | undefined;
      if (id === undefined) return undefined;
      this.q.setJob.run(this.jobs.enqueue(HARVEST_JOB, { run_id: id }, { maxAttempts: 2 }), id);
      return id;
    })();
    if (runId === undefined) throw new HttpError(409, 'A harvest of this site is already queued or running');
    return this.run(runId, lang)!;
  }

  run(runId: number, lang: MessageLanguage = 'en'): HarvestRun | null {
    const r = this.q.run.get(runId) as RunRow | undefined;
    return r ? runOut(r, lang) : null;
  }

  /**
   * "Test connection": Identify, ListMetadataFormats and ListSets of an address before its site is saved,
   * each asked once (no retries, at most 20 s each), the failure said as a run's report says it.
   */
  async testConnection(b: SiteTestBody, lang: MessageLanguage = 'en'): Promise<SiteTestResponse> {
    const client = new OaiClient(b.url, { ...this.opts.fetch, retries: 0, timeoutMs: Math.min(this.opts.fetch?.timeoutMs ?? 20_000, 20_000) });
    // As a run asks: a generic site in its chosen format, the other OAI types in marc21.
    const format = b.site_type === 'generic' ? b.oai_metadata_format ?? null : 'marc21';
    try {
      const identify = await client.identify();
      const formats = await client.listMetadataFormats();
      const { sets, more } = await client.listSets(500);
      return { ok: true, repository_name: identify.repositoryName, formats, format, format_offered: format !== null && formats.includes(format), sets, more_sets: more };
    } catch (e) {
      this.opts.log?.('harvest connection test failed', { url: b.url, detail: logDetail(e) });
      return { ok: false, error: renderReport(lang, publicReason(e)) };
    }
  }

  /** The newest runs, their reports in `lang`. */
  runs(siteId: number, limit = 50, lang: MessageLanguage = 'en'): HarvestRun[] {
    this.sites.get(siteId);
    return (this.q.runs.all(siteId, limit) as RunRow[]).map((r) => runOut(r, lang));
  }

  private harvestable(siteId: number): SiteRow {
    const site = this.sites.row(siteId);
    if (!site) throw new HttpError(404, 'No such site');
    if (site.site_type === 'csv') throw new HttpError(400, 'A spreadsheet site is fed by uploads, not harvested');
    return site;
  }

  /**
   * Queues every active site whose interval has passed since its last run; closes runs whose process died.
   * A site is harvested automatically only after a first successful run, started by hand: a mistyped
   * address then fails once in front of its admin, not every interval into the failure mails.
   */
  scheduleDue(now = Date.now()): number {
    this.closeStaleRuns(now);
    const due = this.db.sqlite.prepare(`SELECT s.id, s.harvest_interval_minutes AS every, s.oai_deleted_record AS deleted_record,
        s.last_full_harvest AS last_full, (SELECT max(created) FROM harvest_runs r WHERE r.site_id = s.id) AS last
      FROM sites s WHERE s.active = 1 AND s.site_type <> 'csv' AND s.last_harvested IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM harvest_runs r WHERE r.site_id = s.id AND r.status IN ('queued', 'running'))`).all() as
      { id: number; every: number; deleted_record: string | null; last_full: string | null; last: string | null }[];
    let queued = 0;
    for (const s of due) {
      if (s.last && Date.parse(s.last) + s.every * 60_000 > now) continue;
      const forgetsDeletions = s.deleted_record === 'no' || s.deleted_record === 'transient';
      const full = forgetsDeletions && (!s.last_full || Date.parse(s.last_full) + FULL_HARVEST_EVERY_MS <= now);
      try {
        this.start(s.id, full);
        queued++;
      } catch (e) {
        if (!(e instanceof HttpError && e.statusCode === 409)) throw e;
      }
    }
    return queued;
  }

  /** Keeps the newest `keep` runs of each site (a site harvested every 30 minutes makes 17,000 a year). */
  purgeRuns(keep = 200): number {
    return this.db.sqlite.prepare(`DELETE FROM harvest_runs WHERE status IN ('finished', 'failed') AND id NOT IN (
      SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY site_id ORDER BY id DESC) AS n FROM harvest_runs) AS ranked WHERE n <= ?)`).run(keep).changes;
  }

  private closeStaleRuns(now: number) {
    const msg = storeReport(reportMessage('The harvest stopped without finishing (its worker or command ended); the next run starts again'));
    this.db.sqlite.prepare(`UPDATE harvest_runs SET status = 'failed', message = ?, finished = ?
      WHERE status IN ('queued', 'running') AND (
        (job_id IS NOT NULL AND job_id IN (SELECT id FROM jobs WHERE status IN ('finished', 'failed')))
        OR (job_id IS NULL AND status = 'running' AND coalesce(progressed, created) < ?))`).run(msg, iso(), new Date(now - STALE_RUN_MS).toISOString());
  }

  /** `log`: the server's log, for what a report leaves out (the detail of a failure). */
  jobHandler(log?: HarvestOptions['log'], metrics?: Metrics): JobHandler {
    if (log && !this.opts.log) this.opts = { ...this.opts, log };
    return {
      concurrency: 1,
      timeoutMs: 6 * 3600_000,
      run: async (payload, ctx) => {
        const { run_id } = payload as { run_id: number };
        let run: HarvestRun;
        try {
          run = this.opts.thread ? await this.executeInThread(run_id, ctx.signal) : await this.execute(run_id, ctx.signal);
        } catch (e) {
          metrics?.harvestEnded('failed', {});
          throw e;
        }
        metrics?.harvestEnded(run.status === 'finished' ? 'finished' : 'failed', run);
        return { run_id, status: run.status };
      },
    };
  }

  /**
   * `execute` in a worker thread, or on PostgreSQL in a child process: the libpq binding loads in one
   * thread per process (a worker thread's load fails with "Module did not self-register"). An abort
   * (time limit, shutdown) is passed on and the run records it.
   */
  private executeInThread(runId: number, signal: AbortSignal): Promise<HarvestRun> {
    const { log: _log, thread, ...options } = this.opts;
    const data = { ...thread!, runId, options } satisfies HarvestThreadData;
    const worker = this.db.sqlite.dialect === 'postgres'
      ? childWorker(fork(fileURLToPath(new URL('./process.mjs', import.meta.url)), [], { execArgv: [] }), data)
      : new Worker(new URL('./thread.mjs', import.meta.url), { workerData: data });
    const onAbort = () => worker.postMessage({ abort: (signal.reason as Error)?.message ?? 'Stopped' });
    signal.addEventListener('abort', onAbort, { once: true });
    return new Promise<HarvestRun>((resolve, reject) => {
      let settled = false;
      worker.on('message', (m: HarvestThreadMessage) => {
        if ('log' in m) return this.opts.log?.(m.log.msg, m.log.extra);
        settled = true;
        if ('done' in m) resolve(m.done as HarvestRun);
        else reject(new Error(m.error));
      });
      worker.once('error', (e) => {
        if (!settled) reject(e);
      });
      worker.once('exit', (code) => {
        signal.removeEventListener('abort', onAbort);
        if (!settled) reject(new Error(`The harvest thread ended (code ${code}) before the run finished`));
      });
    });
  }

  /** The command line: a run now, in this process, with a line per page. */
  async runNow(siteId: number, force: boolean, onPage?: PageListener, signal?: AbortSignal): Promise<HarvestRun> {
    const site = this.harvestable(siteId);
    const id = this.q.insertRun.get(site.id, 'queued', force ? 1 : 0, null, iso()) as number | undefined;
    if (id === undefined) throw new HttpError(409, 'A harvest of site {{site}} is already queued or running', { values: { site: siteId } });
    return this.execute(id, signal ?? new AbortController().signal, onPage);
  }

  // ---------- one run ----------

  private save(runId: number, report: RunReport, status: HarvestRun['status'], message: ReportMessage | null = null, finished: string | null = null) {
    this.q.progress.run({ id: runId, status, ...report.counts, errors: JSON.stringify(report.errors), message: storeReport(message), finished, now: iso() });
  }

  async execute(runId: number, signal: AbortSignal, onPage?: PageListener): Promise<HarvestRun> {
    const row = this.q.run.get(runId) as RunRow | undefined;
    if (!row) throw new Error(`No harvest run ${runId}`);
    const site = this.sites.row(row.site_id);
    const report = new RunReport();
    if (!site) {
      this.save(runId, report, 'failed', reportMessage('The site no longer exists'), iso());
      return this.run(runId)!;
    }
    const started = iso();
    this.db.sqlite.prepare("UPDATE harvest_runs SET status = 'running', started = ?, progressed = ? WHERE id = ?").run(started, started, runId);
    const page = () => {
      report.counts.pages++;
      this.save(runId, report, 'running');
      onPage?.(this.run(runId)!);
    };
    try {
      const force = !!row.force;
      const seen = force || site.site_type === 'calibretree' ? new Set<string>() : null;
      let from: string | null = null;
      if (site.site_type === 'calibretree') await this.harvestCalibre(site, report, seen!, signal, page);
      else from = await this.harvestOai(site, force, report, seen, signal, page);
      if (seen) {
        // The complete list is in: what the source no longer lists goes (the old records stayed visible until now).
        const gone = (this.q.identifiersOf.all(site.id) as { id: number; identifier: string }[]).filter((d) => !seen.has(d.identifier));
        if (gone.length) {
          this.ingest.reindex(this.ingest.removeDataSources(gone.map((d) => d.id)));
          report.counts.deleted += gone.length;
        }
      }
      this.save(runId, report, 'finished', null, iso());
      this.db.sqlite.prepare(`UPDATE sites SET last_harvested = ?, harvest_from = coalesce(?, harvest_from), consecutive_failures = 0,
        failure_mailed = 0, last_full_harvest = CASE WHEN ? THEN ? ELSE last_full_harvest END WHERE id = ?`).run(started, from, force ? 1 : 0, started, site.id);
    } catch (e) {
      let message: ReportMessage;
      if (signal.aborted && !(e instanceof HarvestFetchError)) {
        message = signal.reason ? reportMessage('Stopped: {{reason}}', { reason: reasonOf(signal.reason) }) : reportMessage('Stopped: the run was interrupted');
      } else {
        // Errors of the source and of the harvest carry their message; anything else is a bug of ours,
        // whose text (SQL, file paths, a stack) is for the server log, not for the library's admins.
        message = e instanceof ReportError ? reportMessage(e.template, e.values) : reportMessage('Unexpected error (the details are in the server log)');
      }
      this.opts.log?.('harvest failed', { site: site.id, run: runId, error: logDetail(e) });
      this.save(runId, report, 'failed', message, iso());
      await this.noteFailure(site, message);
    }
    const done = this.run(runId)!;
    this.opts.log?.('harvest finished', { site: site.id, run: runId, status: done.status, records: done.records, message: done.message });
    return done;
  }

  /** Counts a failed run; at the threshold the library's internal address is told once (until a success). */
  private async noteFailure(site: SiteRow, message: ReportMessage) {
    this.db.sqlite.prepare('UPDATE sites SET consecutive_failures = consecutive_failures + 1 WHERE id = ?').run(site.id);
    const now = this.sites.row(site.id)!;
    if (now.consecutive_failures < HARVEST_FAILING_AFTER || now.failure_mailed) return;
    const lib = this.q.library.get(site.library_id) as { name: string; email_internal: string | null; languages: string | null } | undefined;
    this.db.sqlite.prepare('UPDATE sites SET failure_mailed = 1 WHERE id = ?').run(site.id);
    if (!lib?.email_internal) return;
    // In the first of the library's languages (free text such as "hr, en") that the product speaks, else English.
    const lang = messageLanguage(lib.languages ?? undefined);
    const values = { site: site.title, library: lib.name, address: site.url ?? site.tree_path ?? '', times: now.consecutive_failures, minutes: site.harvest_interval_minutes };
    await this.mail.send({
      kind: 'harvest-failing',
      to: [lib.email_internal],
      subject: translateMessage(lang, 'Harvesting "{{site}}" keeps failing', values),
      text: [
        translateMessage(lang, 'The union catalogue could not harvest the site "{{site}}" of {{library}} ({{address}}) {{times}} times in a row. The last error was:', values),
        '',
        `  ${renderReport(lang, message)}`,
        '',
        translateMessage(lang, 'It is tried again every {{minutes}} minutes; the records harvested before stay in the catalogue.', values),
        translateMessage(lang, 'The runs and their reports are in your library\'s admin screen. This message is sent once until a harvest succeeds again.'),
      ].join('\n'),
    });
  }

  // ---------- OAI-PMH ----------

  /** Harvests an OAI-PMH site; returns the repository's clock at the start (the next `from`). */
  private async harvestOai(site: SiteRow, force: boolean, report: RunReport, seen: Set<string> | null, signal: AbortSignal, page: () => void): Promise<string | null> {
    if (!site.url) throw new HarvestError('The site has no OAI-PMH endpoint URL');
    const client = new OaiClient(site.url, { ...this.opts.fetch, signal });
    const identify = await client.identify();
    this.db.sqlite.prepare('UPDATE sites SET oai_granularity = ?, oai_deleted_record = ? WHERE id = ?').run(identify.granularity, identify.deletedRecord, site.id);
    const formats = site.site_type === 'amusewiki' ? await this.amusewikiFormats(site, signal) : null;
    const metadataPrefix = site.site_type === 'generic' ? site.oai_metadata_format : 'marc21';
    if (!metadataPrefix) throw new HarvestError('Choose the metadata format of this generic OAI-PMH site (oai_dc or marc21)');
    const from = !force && site.harvest_from ? oaiDate(site.harvest_from, identify.granularity) : null;
    let clock: string | null = null;
    let buffer: HarvestItem[] = [];
    const args = {
      baseUrl: site.url, siteType: site.site_type, metadataPrefix, from, fetch: this.opts.fetch ?? {},
      set: site.oai_set || (site.site_type === 'amusewiki' ? 'web' : null),
    };
    try {
      for await (const p of readOaiList(args, signal, (msg) => this.opts.log?.('harvest retry', { site: site.id, msg }))) {
        clock ??= p.responseDate || null;
        report.counts.total = p.completeListSize ?? report.counts.total;
        const items = p.items;
        buffer.push(...items);
        report.counts.records += items.length;
        if (buffer.length >= STORE_BATCH) {
          await this.storeItems(site, buffer, report, seen, signal, formats);
          buffer = [];
        }
        page();
        await new Promise((r) => setImmediate(r)); // let other work of this thread through between pages
      }
    } catch (e) {
      // What came before the failure is kept (an incremental run asks for it again next time anyway).
      if (!signal.aborted) await this.storeItems(site, buffer, report, seen, signal, formats);
      throw e;
    }
    await this.storeItems(site, buffer, report, seen, signal, formats);
    return clock;
  }

  /** amusewiki: the download formats the site offers (kept on the site; best effort). */
  private async amusewikiFormats(site: SiteRow, signal: AbortSignal): Promise<string[] | null> {
    try {
      const u = new URL(site.url!);
      const res = await fetchWithRetry(`${u.protocol}//${u.host}/api/format-definitions`, { ...this.opts.fetch, signal, retries: 0, maxBytes: 1024 * 1024 });
      const list = JSON.parse(res.body.toString('utf8')) as { code?: string; ext?: string }[];
      if (!Array.isArray(list)) return null;
      this.db.sqlite.prepare('UPDATE sites SET amusewiki_formats = ? WHERE id = ?').run(JSON.stringify(list), site.id);
      return list.map((f) => String(f.code ?? f.ext ?? '').replace(/^\./, '')).filter(Boolean);
    } catch {
      return null;
    }
  }

  // ---------- storing a page ----------

  private async storeItems(site: SiteRow, items: HarvestItem[], report: RunReport, seen: Set<string> | null, signal: AbortSignal, amusewikiFormats: string[] | null = null) {
    if (items.length === 0) return;
    const touched = new Set<number>();
    const toRemove: number[] = [];
    const good: { item: HarvestItem; record: IngestRecord }[] = [];
    for (const item of items) {
      if (!item.identifier) {
        report.fail('', reportMessage('The record has no identifier'));
        continue;
      }
      if (item.deleted) {
        const id = this.q.dsByIdentifier.get(site.id, item.identifier) as number | undefined;
        if (id !== undefined) toRemove.push(id);
        continue;
      }
      seen?.add(item.identifier);
      if (item.error || !item.record) {
        if (item.detail) this.opts.log?.('harvest record not read', { site: site.id, identifier: item.identifier, error: item.detail });
        report.fail(item.identifier, item.error ?? reportMessage('The record could not be read'));
        continue;
      }
      if (!item.record.title.trim()) {
        report.fail(item.identifier, reportMessage('The record has no title'));
        continue;
      }
      const { aggregations: _a, linksLeftOut, ...fields } = item.record;
      if (linksLeftOut?.length) this.opts.log?.('harvest links left out (not http or https)', { site: site.id, identifier: item.identifier, links: linksLeftOut.map((l) => l.slice(0, 200)) });
      const record: IngestRecord = { ...fields, siteId: site.id, identifier: item.identifier };
      if (site.site_type === 'amusewiki' && amusewikiTextUrl(record.uri) && !record.downloads?.length && amusewikiFormats) record.downloads = amusewikiFormats;
      good.push({ item, record });
    }
    if (toRemove.length) {
      for (const t of this.ingest.removeDataSources(toRemove)) touched.add(t);
      report.counts.deleted += toRemove.length;
    }
    // Records, their aggregations and the index rows in one write transaction: all of the batch or nothing.
    const stored = this.db.sqlite.transaction(() => {
      const res = this.ingest.store(good.map((g) => g.record));
      res.touched.forEach((t) => touched.add(t));
      const parts = good.map((g, i) => ({ aggregations: g.item.record!.aggregations, childEntryId: res.entryIds[i], childIdentifier: g.record.identifier }));
      for (const t of this.storeAggregations(site, parts, seen)) touched.add(t);
      good.forEach((g, i) => {
        const original = g.item.record!.originalIdentifier;
        if (original && res.outcomes[i] !== 'unchanged') report.translations.push({ childEntryId: res.entryIds[i], originalIdentifier: original });
      });
      for (const t of this.linkTranslations(site, report)) touched.add(t);
      this.ingest.reindex(touched);
      return res;
    }).immediate();
    stored.outcomes.forEach((o) => report.counts[o]++);
    // Files after the metadata: a record whose files fail keeps its metadata and gets its files next time.
    const textChanged = new Set<number>();
    for (let i = 0; i < good.length; i++) {
      if (signal.aborted) break;
      const dsId = stored.dataSourceIds[i];
      const { item, record } = good[i];
      try {
        let text: string | null | undefined;
        if (item.files?.length) {
          if (stored.outcomes[i] !== 'unchanged' || !this.files.list([dsId]).has(dsId)) text = this.storeLocalFiles(dsId, item.files);
        } else if (site.site_type === 'amusewiki') text = await this.fetchAmusewikiFiles(site, dsId, record, stored.outcomes[i] !== 'unchanged', signal);
        // The text is searched: the Muse source of an amusewiki text, the .txt of a Calibre book.
        if (text !== undefined) {
          const entryId = this.ingest.setFullText(dsId, text);
          if (entryId !== null) textChanged.add(entryId);
        }
      } catch (e) {
        if (signal.aborted) throw e;
        this.opts.log?.('harvest files not stored', { site: site.id, identifier: item.identifier, error: logDetail(e) });
        report.fail(item.identifier, reportMessage('The metadata was stored but not its files: {{reason}}', { reason: publicReason(e) }));
      }
    }
    if (textChanged.size) this.ingest.reindex(textChanged);
  }

  /** Links the translations whose original is stored by now; the others wait for a later batch. */
  private linkTranslations(site: SiteRow, report: RunReport): Set<number> {
    const links: { kind: 'translation'; parentEntryId: number; childEntryId: number }[] = [];
    report.translations = report.translations.filter((t) => {
      const dsId = this.q.dsByIdentifier.get(site.id, t.originalIdentifier) as number | undefined;
      const entryId = dsId === undefined ? null : (this.q.entryOfDs.get(dsId) as number | null);
      if (entryId === null) return true;
      links.push({ kind: 'translation', parentEntryId: entryId, childEntryId: t.childEntryId });
      return false;
    });
    return links.length ? this.ingest.link(links) : new Set();
  }

  /** "Is part of": each aggregation gets a record of its own (or the source's real one) and a link to its part. */
  private storeAggregations(site: SiteRow, parts: { aggregations: AggregationRef[]; childEntryId: number; childIdentifier: string }[], seen: Set<string> | null): Set<number> {
    const links: { parentEntryId: number; childEntryId: number; position: number | null }[] = [];
    const touched = new Set<number>();
    for (const part of parts) {
      for (const ref of part.aggregations) {
        if (!ref.name?.trim()) continue;
        const fullName = [ref.name.trim(), ref.issue?.trim()].filter(Boolean).join(' ') + (ref.placeDatePublisher ? ` (${ref.placeDatePublisher.trim()})` : '');
        let identifier = ref.itemIdentifier?.trim() || `aggregation:${createHash('sha256').update(fullName).digest('hex')}`;
        // A bare number refers to a record of the same repository: it takes the part's identifier prefix.
        if (/^\d+$/.test(identifier) && part.childIdentifier.includes(':')) identifier = part.childIdentifier.slice(0, part.childIdentifier.lastIndexOf(':') + 1) + identifier;
        seen?.add(identifier);
        const existingId = this.q.dsByIdentifier.get(site.id, identifier) as number | undefined;
        let parentEntryId: number;
        if (existingId !== undefined && !identifier.startsWith('aggregation:')) {
          // The source's own record of the aggregation: never overwritten by a part's summary of it.
          const e = this.q.entryOfDs.get(existingId) as number | null;
          if (e === null) continue;
          parentEntryId = e;
        } else {
          const res = this.ingest.store([{ siteId: site.id, identifier, title: fullName, authors: [], languages: [], isbn: ref.isbn ?? null, uri: ref.uri && /^https?:\/\//i.test(ref.uri) ? ref.uri : null }]);
          res.touched.forEach((t) => touched.add(t));
          parentEntryId = res.entryIds[0];
        }
        links.push({ parentEntryId, childEntryId: part.childEntryId, position: ref.order ?? null });
      }
    }
    if (links.length) for (const t of this.ingest.link(links.map((l) => ({ kind: 'aggregation' as const, ...l })))) touched.add(t);
    return touched;
  }

  /** amusewiki texts: the Muse source and the zip with its images (the Book Builder needs both), fetched from the site's own host. */
  private async fetchAmusewikiFiles(site: SiteRow, dsId: number, record: IngestRecord, changed: boolean, signal: AbortSignal): Promise<string | undefined> {
    const base = amusewikiTextUrl(record.uri)?.base;
    if (!base) return undefined;
    if (!changed && (this.q.hasFile.get(dsId) as number) === 2) return undefined;
    const siteHost = new URL(site.url!).host;
    if (new URL(base).host !== siteHost) throw new HarvestError('The text is on {{host}}, not on the site\'s host {{siteHost}}', { host: new URL(base).host, siteHost });
    const max = this.opts.maxFileBytes ?? 200 * 1024 * 1024;
    const muse = await fetchWithRetry(`${base}.muse`, { ...this.opts.fetch, signal, maxBytes: max });
    const zip = await fetchWithRetry(`${base}.zip`, { ...this.opts.fetch, signal, maxBytes: max });
    if (zip.body.subarray(0, 2).toString('latin1') !== 'PK') throw new HarvestError('{{file}} is not a zip file', { file: `${base}.zip` });
    this.files.put(dsId, '.muse', muse.body);
    this.files.put(dsId, '.zip', zip.body);
    return muse.body.toString('utf8');
  }

  /** Copies a Calibre book's files; returns its .txt as the full text (null without one). */
  private storeLocalFiles(dsId: number, files: { ext: string; path: string }[]): string | null {
    const max = this.opts.maxFileBytes ?? 200 * 1024 * 1024;
    let text: string | null = null;
    for (const f of files) {
      const size = fs.statSync(f.path).size;
      if (size > max) throw new HarvestError('{{file}} is larger than {{max}} MB', { file: path.basename(f.path), max: Math.round(max / 1024 / 1024) });
      const bytes = fs.readFileSync(f.path);
      this.files.put(dsId, f.ext, bytes);
      if (f.ext === '.txt') text = bytes.toString('utf8');
    }
    return text;
  }

  // ---------- Calibre ----------

  private async harvestCalibre(site: SiteRow, report: RunReport, seen: Set<string>, signal: AbortSignal, page: () => void) {
    const root = this.sites.treeDir(site);
    if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new HarvestError('The Calibre folder {{folder}} does not exist on the server', { folder: site.tree_path ?? '' });
    let buffer: HarvestItem[] = [];
    let inPage = 0;
    for await (const book of scanCalibreTree(root, { signal })) {
      if (book.error || !book.record) buffer.push({ identifier: book.identifier, error: book.error ?? reportMessage('The book has no readable metadata.opf') });
      else buffer.push({ identifier: book.identifier, record: book.record, files: book.files });
      report.counts.records++;
      if (++inPage === CALIBRE_PAGE) {
        inPage = 0;
        if (buffer.length >= STORE_BATCH) {
          await this.storeItems(site, buffer, report, seen, signal);
          buffer = [];
        }
        page();
        await new Promise((r) => setImmediate(r));
      }
    }
    await this.storeItems(site, buffer, report, seen, signal);
    if (inPage) page();
  }
}

/** A child process seen as a Worker by executeInThread (messages both ways, 'error' and 'exit'); `data` is its first message. */
function childWorker(child: ChildProcess, data: HarvestThreadData): Pick<Worker, 'postMessage' | 'on' | 'once'> {
  child.send(data);
  return {
    postMessage: (m: unknown) => child.connected && child.send(m as object),
    on: (event: string, listener: (...args: unknown[]) => void) => child.on(event, listener),
    once: (event: string, listener: (...args: unknown[]) => void) => child.once(event, listener),
  } as unknown as Pick<Worker, 'postMessage' | 'on' | 'once'>;
}
