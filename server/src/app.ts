// Builds the Fastify app from the modules: services first, then thin route plugins under /collector/api.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifyCookie from '@fastify/cookie';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { answerSerializer } from './http/serializer.ts';
import { trustProxyOption, type Config } from './config.ts';
import { migrate, openDatabase, type Db } from './db/index.ts';
import { isPostgresUrl } from './db/pg-open.ts';
import { readsOn, type ReadRouter } from './db/replicas.ts';
import { installReadYourWrites } from './http/read-your-writes.ts';
import { installErrorHandler } from './http/errors.ts';
import { Metrics } from './metrics/metrics.ts';
import { installMetrics } from './metrics/routes.ts';
import { LibraryService } from './libraries/service.ts';
import { libraryRoutes } from './libraries/routes.ts';
import { LibraryLogoService } from './libraries/logos.ts';
import { AgentService } from './agents/service.ts';
import { agentRoutes } from './agents/routes.ts';
import { PagesService } from './pages/service.ts';
import { pageRoutes } from './pages/routes.ts';
import { Indexer } from './search/indexer.ts';
import { COMPACT_INDEX_JOB, DEFAULT_POLICY, IndexCompaction } from './search/compaction.ts';
import { FtsBuilder } from './search/fts-builder.ts';
import { SearchService } from './search/service.ts';
import { searchRoutes } from './search/routes.ts';
import { FileStore } from './catalogue/files.ts';
import { DerivedFiles } from './catalogue/derived-files.ts';
import { CatalogueService } from './catalogue/service.ts';
import { FullTextService } from './catalogue/fulltext.ts';
import { catalogueRoutes } from './catalogue/routes.ts';
import { LatestService, latestRoutes } from './catalogue/latest.ts';
import { IngestService } from './ingest/service.ts';
import { WikidataService } from './agents/wikidata.ts';
import { MailService } from './mail/service.ts';
import { ReportService } from './reports/service.ts';
import { reportRoutes } from './reports/routes.ts';
import { JobQueue } from './jobs/queue.ts';
import { JobWorker } from './jobs/worker.ts';
import { BookBuilderService, BOOK_BUILD_JOB } from './bookbuilder/service.ts';
import { FontCatalog } from './bookbuilder/fonts.ts';
import { BuildRunner } from './bookbuilder/runner.ts';
import { textPdfDeriver } from './bookbuilder/text-pdf.ts';
import { textEpubDeriver } from './catalogue/text-epub.ts';
import { bookbuilderRoutes } from './bookbuilder/routes.ts';
import { BuilderSessions } from './bookbuilder/sessions.ts';
import { CoverService, COVER_BUILD_JOB } from './covers/service.ts';
import { coverRoutes } from './covers/routes.ts';
import { purgeRateLimits } from './http/rate-limit.ts';
import { healthRoutes } from './http/health.ts';
import { AccountService } from './accounts/service.ts';
import { accountRoutes, installSessions } from './accounts/routes.ts';
import { installCsrf } from './http/csrf.ts';
import { installSecurityHeaders } from './http/headers.ts';
import { LibraryAdminService } from './libraryadmin/service.ts';
import { SpreadsheetService, SPREADSHEET_JOB } from './libraryadmin/spreadsheets.ts';
import { libraryAdminRoutes } from './libraryadmin/routes.ts';
import { SheetParser } from './libraryadmin/sheet-parser.ts';
import { AdminService } from './admin/service.ts';
import { adminRoutes } from './admin/routes.ts';
import { AuthorResolver } from './agents/resolve.ts';
import { ExclusionStore } from './curation/exclusions.ts';
import { CurationService } from './curation/service.ts';
import { curationRoutes } from './curation/routes.ts';
import { SiteStore } from './harvest/sites.ts';
import { HarvestService, HARVEST_JOB } from './harvest/service.ts';
import { harvestRoutes } from './harvest/routes.ts';
import { EntryPages } from './publish/entry-html.ts';
import { publicBase } from './publish/feeds.ts';
import { OaiProvider } from './publish/oai-provider.ts';
import { oaiRoutes } from './publish/oai-routes.ts';
import { publishRoutes, citeRoutes } from './publish/routes.ts';
import { BOOKBUILDER_MAX_SESSION_BYTES, BOOKBUILDER_MAX_TEXTS } from '@uc/shared';

export interface Services {
  db: Db;
  libraries: LibraryService;
  agents: AgentService;
  pages: PagesService;
  indexer: Indexer;
  search: SearchService;
  files: FileStore;
  derived: DerivedFiles;
  catalogue: CatalogueService;
  fullText: FullTextService;
  ingest: IngestService;
  wikidata: WikidataService;
  mail: MailService;
  reports: ReportService;
  jobs: JobQueue;
  compaction: IndexCompaction;
  fonts: FontCatalog;
  bookbuilder: BookBuilderService;
  covers: CoverService;
  buildRunner: BuildRunner;
  accounts: AccountService;
  admin: AdminService;
  libraryAdmin: LibraryAdminService;
  logos: LibraryLogoService;
  spreadsheets: SpreadsheetService;
  curation: CurationService;
  sites: SiteStore;
  harvest: HarvestService;
  /** This process's metrics (GET /metrics). */
  metrics: Metrics;
  /** Read replicas (DATABASE_REPLICA_URL), or null: every read on the primary. */
  replicas: ReadRouter | null;
  /** What reads that may lag use: a standby when one is usable (db/replicas.ts), else the primary's. */
  reads: { db: Db; catalogue: CatalogueService };
}

/** Settings the services read (the rest of Config is for the HTTP layer). */
type ServiceConfig = Pick<Config, 'dataDir' | 'smtpUrl' | 'mailFrom' | 'adminEmail' | 'publicUrl' | 'wikidataUrl' | 'wikidataTimeoutMs' | 'wikidataCacheSeconds'>
  & Partial<Pick<Config, 'databaseUrl' | 'databaseReplicaUrls' | 'searchTextFile' | 'replicaMaxLagSeconds' | 'sessionDays' | 'passwordResetMinutes' | 'passwordMinLength' | 'port' | 'calibreRoot' | 'coverTemplate'
    | 'harvestTimeoutSeconds' | 'harvestMaxResponseMb' | 'harvestRetries' | 'harvestBackoffMs' | 'harvestAllowPrivate'
    | 'spreadsheetMaxRows' | 'spreadsheetMaxUnpackedMb' | 'spreadsheetParseSeconds'>>;

/** Where the database is: DATABASE_URL (PostgreSQL), else the SQLite file in DATA_DIR. */
export function databaseTarget(config: Pick<Config, 'dataDir'> & Partial<Pick<Config, 'databaseUrl'>>): string {
  return config.databaseUrl || path.join(config.dataDir, 'catalogue.sqlite');
}

/** Job and Book Builder settings (defaults from config.ts when absent). */
type JobConfig = Partial<Pick<Config, 'jobConcurrency' | 'bookBuildConcurrency' | 'bookBuildTimeoutSeconds' | 'bookSessionMaxAgeDays' | 'jobMaxAgeDays' | 'harvestScheduleSeconds'>>;

export async function createServices(config: ServiceConfig & JobConfig, dbFile = databaseTarget(config)): Promise<Services> {
  const db = openDatabase(dbFile);
  await migrate(db);
  // Search, entry pages, feeds, OPDS and sitemaps read through the standbys; the rest stays on the primary.
  const { reads: readDb, router: replicas } = readsOn(db, config.databaseReplicaUrls ?? [], { maxLagSeconds: config.replicaMaxLagSeconds ?? 5 });
  const libraries = new LibraryService(db);
  const agents = new AgentService(db);
  const pages = new PagesService(db);
  const indexer = new Indexer(db);
  // A library made private (or public, inactive, active again): its entries' copies move between the
  // search index's public rows and its private layers (search/layers.ts).
  libraries.onChange(() => indexer.syncLibraryVisibility());
  const authorResolver = new AuthorResolver(db);
  const search = new SearchService(readDb, libraries, agents, new ExclusionStore(db), authorResolver,
    { textFile: config.searchTextFile ?? path.join(config.dataDir, 'search-text.sqlite') });
  const files = new FileStore(db, config.dataDir);
  files.recoverJournals();
  FtsBuilder.removeLeftovers(db);
  // Files made from a text's source on request (a Muse text's PDF), cached until the source changes.
  const derived = new DerivedFiles(files, config.dataDir);
  const catalogue = new CatalogueService(db, libraries, files, authorResolver, derived);
  const readCatalogue = replicas ? new CatalogueService(readDb, libraries, files, authorResolver, derived) : catalogue;
  const fullText = new FullTextService(files);
  const ingest = new IngestService(db, indexer, files);
  const wikidata = new WikidataService(db, config);
  const mail = new MailService(db, config);
  const reports = new ReportService(db, mail, pages, libraries, config);
  const jobs = new JobQueue(db);
  const metrics = new Metrics();
  metrics.watch({ jobs: () => jobs.countsByKind(), outbox: () => mail.outboxCounts() });
  const compaction = new IndexCompaction(db, jobs, DEFAULT_POLICY, dbFile === ':memory:' || isPostgresUrl(dbFile) ? null : dbFile);
  const fonts = new FontCatalog(path.join(config.dataDir, 'cache', 'fonts'));
  const builderSessions = new BuilderSessions(db, config.dataDir, (config.bookSessionMaxAgeDays ?? 7) * 86400_000);
  const bookbuilder = new BookBuilderService(db, builderSessions, catalogue, files, jobs, {
    maxSessionBytes: BOOKBUILDER_MAX_SESSION_BYTES,
    maxTexts: BOOKBUILDER_MAX_TEXTS,
  }, () => fonts.names(), undefined, (family, letters) => fonts.knownMissing(family, letters));
  const buildRunner = new BuildRunner();
  derived.register(textPdfDeriver(buildRunner));
  derived.register(textEpubDeriver(db, (input, signal) => buildRunner.runTextEpub(input, signal), config.publicUrl));
  const covers = new CoverService(builderSessions, jobs, buildRunner, () => fonts.names(), {
    templatePath: config.coverTemplate || undefined,
    maxSessionBytes: BOOKBUILDER_MAX_SESSION_BYTES,
  });
  const accounts = new AccountService(db, libraries, {
    sessionDays: config.sessionDays ?? 14,
    resetMinutes: config.passwordResetMinutes ?? 30,
    minPasswordLength: config.passwordMinLength ?? 10,
    publicUrl: config.publicUrl || `http://127.0.0.1:${config.port ?? 8080}`,
  }, async (m) => {
    await mail.send({ kind: 'password-reset', to: [m.to], subject: m.subject, text: m.text });
  });
  const admin = new AdminService(db, libraries, pages, accounts);
  // Logo addresses are fetched like harvests: private networks only with HARVEST_ALLOW_PRIVATE.
  const logos = new LibraryLogoService(db, { allowPrivate: config.harvestAllowPrivate ?? false });
  const libraryAdmin = new LibraryAdminService(db, libraries, accounts, logos);
  const spreadsheets = new SpreadsheetService(db, ingest, jobs, new SheetParser({
    ...(config.spreadsheetMaxRows ? { maxRows: config.spreadsheetMaxRows } : {}),
    ...(config.spreadsheetMaxUnpackedMb ? { maxUnpackedBytes: config.spreadsheetMaxUnpackedMb * 1024 * 1024 } : {}),
    ...(config.spreadsheetParseSeconds ? { parseSeconds: config.spreadsheetParseSeconds } : {}),
  }));
  const curation = new CurationService(db, indexer, agents, libraries, authorResolver, catalogue);
  const sites = new SiteStore(db, config.calibreRoot ?? path.join(config.dataDir, 'calibre'));
  const harvest = new HarvestService(db, sites, ingest, files, jobs, mail, {
    fetch: {
      timeoutMs: (config.harvestTimeoutSeconds ?? 60) * 1000,
      maxBytes: (config.harvestMaxResponseMb ?? 100) * 1024 * 1024,
      retries: config.harvestRetries ?? 3,
      backoffMs: config.harvestBackoffMs ?? 2000,
      allowPrivate: config.harvestAllowPrivate ?? false,
    },
    thread: dbFile === ':memory:' ? undefined : {
      dbFile, dataDir: config.dataDir, calibreRoot: config.calibreRoot ?? path.join(config.dataDir, 'calibre'),
      mail: { smtpUrl: config.smtpUrl, mailFrom: config.mailFrom },
    },
  });
  return { db, libraries, agents, pages, indexer, search, files, derived, catalogue, fullText, ingest, wikidata, mail, reports, jobs, compaction, fonts, bookbuilder, covers, buildRunner, accounts, admin, libraryAdmin, logos, spreadsheets, curation, sites, harvest, metrics, replicas, reads: { db: readDb, catalogue: readCatalogue } };
}

/** How often a worker looks whether the search index has changed enough to be compacted. */
const INDEX_CHECK_MS = 60_000;

/**
 * The job worker with every module's handlers (book builds now), plus the hourly cleanup of old
 * Book Builder sessions and old jobs. `serve` runs one unless JOB_CONCURRENCY is 0; `worker` runs one alone.
 */
export function createJobWorker(config: JobConfig & { logLevel?: string }, services: Services, log?: (msg: string, extra?: Record<string, unknown>) => void) {
  const concurrency = Math.max(1, config.jobConcurrency ?? 1);
  const worker = new JobWorker(services.jobs, {
    [BOOK_BUILD_JOB]: services.bookbuilder.jobHandler(services.buildRunner, {
      concurrency: Math.min(concurrency, config.bookBuildConcurrency ?? 1),
      timeoutMs: (config.bookBuildTimeoutSeconds ?? 600) * 1000,
      metrics: services.metrics,
    }),
    [COVER_BUILD_JOB]: services.covers.jobHandler({
      concurrency: Math.min(concurrency, config.bookBuildConcurrency ?? 1),
      timeoutMs: (config.bookBuildTimeoutSeconds ?? 600) * 1000,
    }),
    [SPREADSHEET_JOB]: services.spreadsheets.jobHandler(),
    [HARVEST_JOB]: services.harvest.jobHandler(log, services.metrics),
    [COMPACT_INDEX_JOB]: services.compaction.jobHandler(log),
  }, { concurrency, log, metrics: services.metrics });
  // Due harvests are queued by whichever worker looks first; the one-open-run index keeps it to one run per site.
  const schedule = () => {
    try {
      const queued = services.harvest.scheduleDue();
      if (queued) log?.('harvests queued', { queued });
    } catch (e) {
      log?.('harvest scheduling failed', { error: (e as Error).message });
    }
  };
  // After an import or harvests that wrote much of the index, its segments are merged into one.
  const checkIndex = () => {
    try {
      if (services.compaction.scheduleIfChanged()) log?.('search index compaction queued');
    } catch (e) {
      log?.('search index check failed', { error: (e as Error).message });
    }
  };
  const maintain = () => {
    try {
      const removed = services.bookbuilder.sessions.cleanup();
      const purged = services.jobs.purge((config.jobMaxAgeDays ?? 7) * 86400_000);
      const runs = services.harvest.purgeRuns();
      purgeRateLimits(services.db);
      const settled = services.spreadsheets.settleAllAbandoned();
      const swept = services.files.sweepUnrecorded();
      if (settled || swept) log?.('cleanup', { abandoned_uploads: settled, unrecorded_files: swept });
      if (removed.sessions || removed.folders || purged || runs) log?.('cleanup', { ...removed, jobs: purged, harvest_runs: runs });
    } catch (e) {
      log?.('cleanup failed', { error: (e as Error).message });
    }
  };
  let timer: NodeJS.Timeout | null = null;
  let scheduler: NodeJS.Timeout | null = null;
  let indexChecks: NodeJS.Timeout | null = null;
  const scheduleMs = (config.harvestScheduleSeconds ?? 60) * 1000;
  return {
    worker,
    start() {
      services.jobs.onEnqueue = () => worker.wake();
      worker.start();
      maintain();
      timer = setInterval(maintain, 3600_000);
      timer.unref();
      checkIndex();
      indexChecks = setInterval(checkIndex, INDEX_CHECK_MS);
      indexChecks.unref();
      if (scheduleMs > 0) {
        schedule();
        scheduler = setInterval(schedule, scheduleMs);
        scheduler.unref();
      }
    },
    async stop() {
      if (timer) clearInterval(timer);
      if (scheduler) clearInterval(scheduler);
      if (indexChecks) clearInterval(indexChecks);
      services.jobs.onEnqueue = null;
      await worker.stop();
      await services.buildRunner.close();
    },
  };
}

export async function buildApp(config: Config, services: Services): Promise<FastifyInstance> {
  const app = Fastify({
    // JSON lines with the request id of each request (the proxy's X-Request-Id when it sends a sane one).
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
  });
  // Security headers (CSP, framing, nosniff, referrer, HSTS over https) on every answer: pages, API, files.
  await installSecurityHeaders(app, config, services.db);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer(config.checkResponses));
  installErrorHandler(app);
  // Request durations of every answer, and GET /metrics (loopback, or METRICS_TOKEN).
  await installMetrics(app, services, config.metricsToken);
  // The OpenAPI document is generated from the route schemas: GET /collector/api/openapi.json
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Union catalogue API', version: '1' } },
    transform: jsonSchemaTransform,
  });
  // Cookies: the session (HttpOnly) and the CSRF token every state-changing call must echo.
  await app.register(fastifyCookie);
  installCsrf(app);
  installSessions(app, services.accounts);
  installReadYourWrites(app, services.replicas);
  if (services.replicas) services.replicas.log = (m, x) => app.log.warn(x ?? {}, m);
  await app.register(healthRoutes(services.db, config.dataDir, () => services.search.notReady()));

  await app.register(async (api) => {
    await api.register(searchRoutes(services.search, services.metrics));
    await api.register(catalogueRoutes(services.reads.catalogue, services.fullText, services.files, services.derived));
    await api.register(latestRoutes(new LatestService(services.reads.db, services.search, services.libraries)));
    await api.register(citeRoutes(services.reads.catalogue, { publicUrl: config.publicUrl }));
    await api.register(libraryRoutes(services.libraries, services.search, services.logos));
    await api.register(agentRoutes(services.agents, services.search, services.wikidata));
    await api.register(accountRoutes(services.accounts, config.sessionDays, services.db, services.metrics));
    await api.register(reportRoutes(services.reports, {
      db: services.db, rateLimit: config.reportRateLimit, rateWindowSeconds: config.reportRateWindowSeconds, emailOf: (viewer) => viewer.email || null,
    }));
    await api.register(pageRoutes(services.pages, { tileUrl: config.tileUrl, tileAttribution: config.tileAttribution, passwordMinLength: services.accounts.passwordMinLength }));
    await api.register(bookbuilderRoutes(services.bookbuilder, services.fonts));
    await api.register(coverRoutes(services.covers));
    await api.register(libraryAdminRoutes(services.libraryAdmin, services.spreadsheets, services.libraries));
    await api.register(adminRoutes(services.admin, services.sites), { prefix: '/admin' });
    await api.register(harvestRoutes(services.sites, services.harvest, services.libraries));
    await api.register(curationRoutes(services.curation));
    api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  }, { prefix: '/collector/api' });
  // Feeds, OPDS, sitemaps: at the site root, for readers and crawlers rather than the web app.
  await app.register(publishRoutes({ ...services, ...services.reads }, { publicUrl: config.publicUrl, webDist: config.webDist }));

  // OAI-PMH data provider at the root (/oai), where harvesters expect a base URL.
  const oai = new OaiProvider(services.db, services.libraries, services.catalogue, new AuthorResolver(services.db), services.pages,
    { publicUrl: config.publicUrl, adminEmail: config.adminEmail });
  await app.register(oaiRoutes(oai, config.publicUrl));

  const indexHtml = path.join(config.webDist, 'index.html');
  const hasWeb = fs.existsSync(indexHtml);
  const entryPages = new EntryPages(services.reads.catalogue, services.pages);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      // Off: @fastify/send would write its own "max-age=0" over the header set below.
      cacheControl: false,
      setHeaders(res, file) {
        res.setHeader('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    if (url.startsWith('/collector/') || req.method !== 'GET' || !hasWeb || /\.[a-z0-9]+$/i.test(url)) {
      return reply.code(404).send({ error: 'Not found' });
    }
    // Client-side routes (/search, /entry/1...) get the web app; entry pages with their data in <head>.
    const html = fs.readFileSync(indexHtml, 'utf8');
    const page = entryPages.render(url, html, publicBase(config.publicUrl, req));
    return reply.code(page?.status ?? 200).type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(page?.html ?? html);
  });
  // The search index follows other threads' and processes' writes between requests (and builds the
  // suggest keys after a start) instead of on the path of the next search.
  let stopFollowing: (() => void) | null = null;
  app.addHook('onReady', async () => {
    stopFollowing = services.search.followChanges();
  });
  app.addHook('onClose', async () => {
    stopFollowing?.();
    await services.buildRunner.close();
    await services.spreadsheets.parser.close();
    services.mail.close();
    await services.db.close();
  });
  return app;
}
