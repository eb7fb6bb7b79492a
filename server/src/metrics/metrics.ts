// The process's metrics for Prometheus (GET /metrics, metrics/routes.ts): one registry per app process
// (serve, worker), so a serve on several nodes is scraped per node. Modules record through the typed
// methods below; gauges that need the database are read when Prometheus scrapes, not kept up to date.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type JobOutcome = 'finished' | 'failed' | 'interrupted';
export type HarvestOutcome = 'finished' | 'failed';
/** A harvest's records by what became of them (harvest/service.ts's run counts). */
export type HarvestRecordOutcome = 'new' | 'updated' | 'unchanged' | 'deleted' | 'failed';
export const HARVEST_RECORD_OUTCOMES: readonly HarvestRecordOutcome[] = ['new', 'updated', 'unchanged', 'deleted', 'failed'];

/** Database-wide counts read at scrape time; each returns quickly (indexed or small tables). */
export interface MetricSources {
  /** Jobs by kind and state (jobs/queue.ts). */
  jobs?: () => { kind: string; state: string; n: number }[];
  /** Outbox messages by status (mail/service.ts). */
  outbox?: () => { status: string; n: number }[];
  /** The in-memory search index's seq and the newest seq in search_docs (serve only). */
  searchSeq?: () => { indexed: number; latest: number };
}

/** Label value of a request no route matched (the web app's client-side pages, 404s): never the raw URL. */
export const UNMATCHED_ROUTE = 'unmatched';

export class Metrics {
  readonly registry = new Registry();
  private sources: MetricSources = {};
  private readonly http: Histogram<'method' | 'route' | 'status'>;
  private readonly searchSeconds: Histogram;
  private readonly searchMatches: Histogram;
  private readonly jobSeconds: Histogram<'kind' | 'outcome'>;
  private readonly harvestRuns: Counter<'outcome'>;
  private readonly harvestRecords: Counter<'outcome'>;
  private readonly bookBuilds: Counter<'outcome'>;
  private readonly loginFailures: Counter;
  private readonly loginThrottles: Counter;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    // Gauges named like counters fail `promtool check metrics`; the same counts stay by type without the suffix.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) this.registry.removeSingleMetric(name);
    this.http = new Histogram({
      name: 'http_request_duration_seconds', help: 'Time from request to answer, by route pattern and status',
      labelNames: ['method', 'route', 'status'], registers,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    });
    this.searchSeconds = new Histogram({
      name: 'search_duration_seconds', help: 'Time the search service took to answer a search (without HTTP)', registers,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    });
    this.searchMatches = new Histogram({
      name: 'search_matches', help: 'Entries matched by a search (total_entries of the answer)', registers,
      buckets: [0, 1, 10, 100, 1000, 10_000, 100_000, 1_000_000],
    });
    this.jobSeconds = new Histogram({
      name: 'job_duration_seconds', help: 'Run time of jobs run by this process, by kind and outcome',
      labelNames: ['kind', 'outcome'], registers,
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 21600],
    });
    this.harvestRuns = new Counter({ name: 'harvest_runs_total', help: 'Harvest runs ended in this process, by outcome', labelNames: ['outcome'], registers });
    this.harvestRecords = new Counter({
      name: 'harvest_records_total', help: 'Harvested records by what became of them (new, updated, unchanged, deleted, failed)', labelNames: ['outcome'], registers,
    });
    this.bookBuilds = new Counter({ name: 'bookbuilder_builds_total', help: 'Book Builder PDF builds ended in this process, by outcome', labelNames: ['outcome'], registers });
    this.loginFailures = new Counter({ name: 'login_failures_total', help: 'Logins refused for a wrong username or password', registers });
    this.loginThrottles = new Counter({ name: 'login_throttled_total', help: 'Login attempts refused with 429 by the login throttle', registers });
    // Start the counters at 0 for every outcome, so that rate() sees the first event.
    for (const o of ['finished', 'failed'] as const) this.harvestRuns.inc({ outcome: o }, 0);
    for (const o of HARVEST_RECORD_OUTCOMES) this.harvestRecords.inc({ outcome: o }, 0);
    for (const o of ['built', 'failed'] as const) this.bookBuilds.inc({ outcome: o }, 0);

    const sources = () => this.sources;
    new Gauge({
      name: 'job_queue_jobs', help: 'Jobs in the database by kind and state (inactive = queued); the same on every process',
      labelNames: ['kind', 'state'], registers,
      collect() {
        this.reset();
        for (const r of readSafely(sources().jobs) ?? []) this.set({ kind: r.kind, state: r.state }, Number(r.n));
      },
    });
    new Gauge({
      name: 'mail_outbox_messages', help: 'Messages in the outbox by status (queued, sent, failed); the same on every process',
      labelNames: ['status'], registers,
      collect() {
        this.reset();
        for (const r of readSafely(sources().outbox) ?? []) this.set({ status: r.status }, Number(r.n));
      },
    });
    new Gauge({
      name: 'search_index_seq_lag', help: 'Index changes (seq) in the database that this process\'s search index has not read yet', registers,
      collect() {
        this.reset();
        const s = readSafely(sources().searchSeq);
        if (s) this.set(Math.max(0, s.latest - s.indexed));
      },
    });
    new Gauge({
      name: 'search_index_seq', help: 'The last index change (seq) this process\'s search index has read', registers,
      collect() {
        this.reset();
        const s = readSafely(sources().searchSeq);
        if (s) this.set(s.indexed);
      },
    });
  }

  /** Adds the database reads behind the gauges (serve adds the search index's). */
  watch(sources: MetricSources): void {
    this.sources = { ...this.sources, ...sources };
  }

  httpRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    this.http.observe({ method, route: route ?? UNMATCHED_ROUTE, status: String(status) }, seconds);
  }

  searchAnswered(seconds: number, matches: number): void {
    this.searchSeconds.observe(seconds);
    this.searchMatches.observe(matches);
  }

  jobEnded(kind: string, outcome: JobOutcome, seconds: number): void {
    this.jobSeconds.observe({ kind, outcome }, seconds);
  }

  harvestEnded(outcome: HarvestOutcome, records: Partial<Record<HarvestRecordOutcome, number>>): void {
    this.harvestRuns.inc({ outcome });
    for (const o of HARVEST_RECORD_OUTCOMES) if (records[o]) this.harvestRecords.inc({ outcome: o }, records[o]);
  }

  bookBuildEnded(outcome: 'built' | 'failed'): void {
    this.bookBuilds.inc({ outcome });
  }

  loginFailed(): void {
    this.loginFailures.inc();
  }

  loginThrottled(): void {
    this.loginThrottles.inc();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text (runs the scrape-time reads). */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}

// A database that is busy or gone leaves a gauge out of one scrape rather than failing all of it.
function readSafely<T>(read: (() => T) | undefined): T | null {
  if (!read) return null;
  try {
    return read();
  } catch {
    return null;
  }
}
