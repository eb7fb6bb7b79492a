// Every setting in one typed place, read from the environment with defaults (documented in README).
import path from 'node:path';
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://user:password@host:port/database: run on PostgreSQL; null = SQLite in DATA_DIR (catalogue.sqlite). */
  databaseUrl: string | null;
  /** PostgreSQL hot standbys for reads that may lag (DATABASE_REPLICA_URL, comma-separated; `serve` only). */
  databaseReplicaUrls: string[];
  /** A standby further behind the primary than this is skipped (REPLICA_MAX_LAG_SECONDS). */
  replicaMaxLagSeconds: number;
  /**
   * `serve` starts from the search snapshot in DATA_DIR and rewrites it when this many minutes passed and
   * the index changed (at once after a large change); 0: no snapshot, every start reads the documents
   * (SEARCH_SNAPSHOT_MINUTES).
   */
  searchSnapshotMinutes: number;
  /**
   * PostgreSQL only: the SQLite file of this node's full-text index, made from the catalogue and kept in
   * step with it (search/text-mirror.ts; SEARCH_TEXT_FILE; null: search-text.sqlite in DATA_DIR). Nodes
   * on one machine may share it; give each machine its own on a local disk (SQLite's locks do not hold
   * over a network file system).
   */
  searchTextFile: string | null;
  /** Load the demo catalogue into an empty database on start. */
  demo: boolean;
  demoDir: string;
  webDist: string;
  logLevel: string;
  /**
   * Which X-Forwarded-* entries to believe (TRUST_PROXY): false = none (the socket's address is the
   * client); a number = that many proxies in front, so the client is that many entries from the right
   * of X-Forwarded-For (the proxy appends what it saw; entries further left are the client's own
   * writing); a list = the proxies' addresses or CIDRs. Never "trust everything": the leftmost entry is
   * whatever the client wrote, and the login and report limits count per client address.
   */
  trustProxy: false | number | string[];
  /** Bearer token that lets Prometheus read /metrics from elsewhere than this machine ('' = loopback only). */
  metricsToken: string;
  /** `worker` answers /metrics on HOST at this port (0 = not at all; `serve` answers on PORT). */
  workerMetricsPort: number;
  /** Check every answer against its schema (tests; `CHECK_RESPONSES=1`): see http/serializer.ts. */
  checkResponses: boolean;
  /** Public address of the site (links in e-mails), without a trailing slash; '' = paths only. */
  publicUrl: string;
  /** Sessions last this many days; reset links this many minutes; passwords have at least this length. */
  /** Map tiles: a Leaflet URL template ({z}/{x}/{y}); empty = the built-in basemap, no third-party request. */
  tileUrl: string;
  tileAttribution: string;
  sessionDays: number;
  passwordResetMinutes: number;
  passwordMinLength: number;
  /** smtp(s)://user:pass@host:port to send mail; null = mail is only stored in the outbox table. */
  smtpUrl: string | null;
  /** Sender address of every message. */
  mailFrom: string;
  /** Where bug reports go (comma-separated); '' = the site's contact_email setting. */
  adminEmail: string;
  /** Reports (bug, data-source error) accepted per client address per window. */
  reportRateLimit: number;
  reportRateWindowSeconds: number;
  /** Wikidata's action API (wbgetentities), its timeout, and how long fetched cards are kept. */
  wikidataUrl: string;
  wikidataTimeoutMs: number;
  wikidataCacheSeconds: number;
  /** Jobs run at once by `serve` (0: none, leave them to `main.ts worker`) and by the worker command. */
  jobConcurrency: number;
  /** Book builds run at once (each in its own thread); at most jobConcurrency. */
  bookBuildConcurrency: number;
  /** A build running longer fails. */
  bookBuildTimeoutSeconds: number;
  /** Book Builder sessions (texts and PDFs) untouched for this long are deleted. */
  bookSessionMaxAgeDays: number;
  /** Finished and failed jobs are kept this long. */
  jobMaxAgeDays: number;
  /** A Typst cover template replacing the default one ('' = the default). */
  coverTemplate: string;
  /** Calibre sites' folders must lie under this folder. */
  calibreRoot: string;
  /** Harvest requests: timeout, largest answer, retries and first backoff. */
  harvestTimeoutSeconds: number;
  harvestMaxResponseMb: number;
  harvestRetries: number;
  harvestBackoffMs: number;
  /** Look for due harvests this often (0: never; `npm run harvest` still works). */
  harvestScheduleSeconds: number;
  /** Let harvests reach loopback and private-network addresses (a repository on the LAN). */
  harvestAllowPrivate: boolean;
  /** Spreadsheet uploads: most data rows, most MB an XLSX's XML may unpack to, longest read (seconds). */
  spreadsheetMaxRows: number;
  spreadsheetMaxUnpackedMb: number;
  spreadsheetParseSeconds: number;
}

export const DEFAULT_WIKIDATA_URL = 'https://www.wikidata.org/w/api.php';

function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function envBool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(raw.toLowerCase());
}

/** TRUST_PROXY: 0/false (none), a hop count, or a comma list of proxy addresses, CIDRs or loopback/uniquelocal/linklocal. */
export function parseTrustProxy(raw: string | undefined): false | number | string[] {
  const v = (raw ?? '').trim();
  if (v === '' || ['0', 'false', 'no', 'off'].includes(v.toLowerCase())) return false;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v.split(',').map((e) => e.trim()).filter(Boolean);
  const valid = (e: string) => {
    if (['loopback', 'uniquelocal', 'linklocal'].includes(e)) return true;
    const [ip, bits, extra] = e.split('/');
    const kind = isIP(ip);
    if (!kind || extra !== undefined) return false;
    return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (kind === 4 ? 32 : 128));
  };
  const bad = entries.filter((e) => !valid(e));
  if (!entries.length || bad.length) {
    throw new Error(`TRUST_PROXY must be 0, the number of proxies in front of the server, or a comma list of their addresses/CIDRs, got "${raw}"`);
  }
  return entries;
}

/**
 * TRUST_PROXY as Fastify's trustProxy option. A hop count becomes "the first N addresses from the
 * socket inwards are proxies" (Fastify's own number option trusts nothing); with a count the server must
 * be reachable only through the proxy, or a direct client writes the entry taken as its address.
 */
export function trustProxyOption(t: Config['trustProxy']): false | string[] | ((addr: string, hop: number) => boolean) {
  if (typeof t === 'number') return t === 0 ? false : (_addr: string, hop: number) => hop < t;
  return t;
}

function envDatabaseUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env.DATABASE_URL;
  if (!raw) return null;
  if (!/^postgres(ql)?:\/\//i.test(raw)) throw new Error('DATABASE_URL must be a postgres:// URL (unset it to use SQLite in DATA_DIR)');
  return raw;
}

function envReplicaUrls(env: NodeJS.ProcessEnv): string[] {
  const urls = (env.DATABASE_REPLICA_URL ?? '').split(',').map((u) => u.trim()).filter(Boolean);
  if (!urls.length) return [];
  if (!envDatabaseUrl(env)) throw new Error('DATABASE_REPLICA_URL needs DATABASE_URL: standbys follow a PostgreSQL primary');
  for (const u of urls) if (!/^postgres(ql)?:\/\//i.test(u)) throw new Error('DATABASE_REPLICA_URL must be one postgres:// URL or several separated by commas');
  return urls;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: envInt(env, 'PORT', 8080),
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || path.join(repoRoot, 'data')),
    databaseUrl: envDatabaseUrl(env),
    databaseReplicaUrls: envReplicaUrls(env),
    replicaMaxLagSeconds: envInt(env, 'REPLICA_MAX_LAG_SECONDS', 5),
    searchSnapshotMinutes: Math.max(0, envInt(env, 'SEARCH_SNAPSHOT_MINUTES', 10)),
    searchTextFile: env.SEARCH_TEXT_FILE ? path.resolve(env.SEARCH_TEXT_FILE) : null,
    demo: envBool(env, 'DEMO', true),
    demoDir: path.resolve(env.DEMO_DIR || path.join(repoRoot, 'demo')),
    webDist: path.resolve(env.WEB_DIST || path.join(repoRoot, 'web', 'dist')),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    metricsToken: (env.METRICS_TOKEN ?? '').trim(),
    workerMetricsPort: envInt(env, 'WORKER_METRICS_PORT', 0),
    // Under test the process checks every answer, whatever environment its config was read from.
    checkResponses: envBool(env, 'CHECK_RESPONSES', process.env.VITEST !== undefined),
    publicUrl: (env.PUBLIC_URL || '').replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Union Catalogue <noreply@localhost>',
    adminEmail: env.ADMIN_EMAIL || '',
    reportRateLimit: envInt(env, 'REPORT_RATE_LIMIT', 5),
    reportRateWindowSeconds: envInt(env, 'REPORT_RATE_WINDOW', 600),
    wikidataUrl: env.WIKIDATA_URL || DEFAULT_WIKIDATA_URL,
    wikidataTimeoutMs: envInt(env, 'WIKIDATA_TIMEOUT_MS', 5000),
    wikidataCacheSeconds: envInt(env, 'WIKIDATA_CACHE_SECONDS', 7 * 24 * 3600),
    jobConcurrency: envInt(env, 'JOB_CONCURRENCY', 1),
    bookBuildConcurrency: Math.max(1, envInt(env, 'BOOK_BUILD_CONCURRENCY', 1)),
    bookBuildTimeoutSeconds: Math.max(1, envInt(env, 'BOOK_BUILD_TIMEOUT', 600)),
    bookSessionMaxAgeDays: envInt(env, 'BOOK_SESSION_MAX_AGE_DAYS', 7),
    jobMaxAgeDays: envInt(env, 'JOB_MAX_AGE_DAYS', 7),
    coverTemplate: env.COVER_TEMPLATE ? path.resolve(env.COVER_TEMPLATE) : '',
    calibreRoot: path.resolve(env.CALIBRE_ROOT || path.join(env.DATA_DIR || path.join(repoRoot, 'data'), 'calibre')),
    harvestTimeoutSeconds: Math.max(1, envInt(env, 'HARVEST_TIMEOUT', 60)),
    harvestMaxResponseMb: Math.max(1, envInt(env, 'HARVEST_MAX_RESPONSE_MB', 100)),
    harvestRetries: envInt(env, 'HARVEST_RETRIES', 3),
    harvestBackoffMs: envInt(env, 'HARVEST_BACKOFF_MS', 2000),
    harvestScheduleSeconds: envInt(env, 'HARVEST_SCHEDULE_SECONDS', 60),
    harvestAllowPrivate: envBool(env, 'HARVEST_ALLOW_PRIVATE', false),
    // Defaults as in libraryadmin/spreadsheet.ts and sheet-parser.ts (which tests use without a config).
    spreadsheetMaxRows: Math.max(1, envInt(env, 'SPREADSHEET_MAX_ROWS', 50_000)),
    spreadsheetMaxUnpackedMb: Math.max(1, envInt(env, 'SPREADSHEET_MAX_UNPACKED_MB', 50)),
    spreadsheetParseSeconds: Math.max(1, envInt(env, 'SPREADSHEET_PARSE_SECONDS', 120)),
    tileUrl: env.TILE_URL || '',
    tileAttribution: env.TILE_ATTRIBUTION || '',
    sessionDays: Math.max(1, envInt(env, 'SESSION_DAYS', 14)),
    passwordResetMinutes: Math.max(1, envInt(env, 'PASSWORD_RESET_MINUTES', 30)),
    passwordMinLength: Math.max(8, envInt(env, 'PASSWORD_MIN_LENGTH', 10)),
  };
}

export { repoRoot };
