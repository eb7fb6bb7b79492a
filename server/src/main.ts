// Command line: serve | worker | migrate | db-copy --to URL | import FILE.jsonl | harvest [--site ID] [--force] | mail-flush [LIMIT] | backup DIR | restore DIR [--force|--check]
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from './config.ts';
import { buildApp, createJobWorker, createServices, databaseTarget, type Services } from './app.ts';
import { importJsonl, ImportError } from './ingest/jsonl.ts';
import { importProgressPrinter } from './ingest/progress.ts';
import { createDemoAccounts } from './admin/demo.ts';
import { migrate, openDatabase } from './db/index.ts';
import { backendNotReady } from './db/backends.ts';
import { isPostgresUrl } from './db/pg-open.ts';
import { serveWorkerMetrics } from './metrics/routes.ts';
import { snapshotPath } from './search/snapshot.ts';
import { acquireStartLock } from './db/start-lock.ts';

export async function loadDemoIfEmpty(services: Services, demoDir: string, log: (msg: string) => void): Promise<boolean> {
  // Nodes on other machines share no DATA_DIR (and so no start lock) but one PostgreSQL database.
  const pg = services.db.sqlite.dialect === 'postgres';
  if (pg) services.db.sqlite.exec(`SELECT pg_advisory_lock(${DEMO_LOAD_LOCK})`);
  try {
    return await loadDemoOnce(services, demoDir, log);
  } finally {
    if (pg) services.db.sqlite.exec(`SELECT pg_advisory_unlock(${DEMO_LOAD_LOCK})`);
  }
}

/** PostgreSQL advisory lock key of the demo's first load (any constant no other lock uses). */
const DEMO_LOAD_LOCK = 7_310_042;

async function loadDemoOnce(services: Services, demoDir: string, log: (msg: string) => void): Promise<boolean> {
  const hasData = services.db.sqlite.prepare('SELECT (SELECT count(*) FROM libraries) + (SELECT count(*) FROM entries)').pluck().get() as number;
  const file = path.join(demoDir, 'catalogue.jsonl');
  if (hasData > 0 || !fs.existsSync(file)) return false;
  log(`Loading the demo catalogue from ${file}...`);
  const s = await importJsonl(file, services);
  log(`Demo catalogue loaded: ${s.libraries} libraries, ${s.entries} entries in ${s.seconds.toFixed(1)} s`);
  await createDemoAccounts(services, log);
  return true;
}

async function main() {
  const [command = 'serve', ...args] = process.argv.slice(2);
  const config = loadConfig();
  if (command === 'migrate') {
    // Only the schema: works on both back ends, also where a module's statements do not run yet.
    const db = openDatabase(databaseTarget(config));
    await migrate(db);
    await db.close();
    console.log('Database is up to date.');
    return;
  }
  if (command === 'db-copy') {
    // SQLite (DATA_DIR's, or --from) into PostgreSQL: needs only the schema on both, like migrate.
    const { runCopyCli } = await import('./db/copy.ts');
    process.exitCode = await runCopyCli(args, databaseTarget({ dataDir: config.dataDir }), (line) => console.log(line));
    return;
  }
  if (command === 'backup' || command === 'restore') {
    // Before any service opens the database: a restore fills an empty DATA_DIR, and a backup only reads.
    const { runBackupCli, runRestoreCli } = await import('./backup/cli.ts');
    const run = command === 'backup' ? runBackupCli : runRestoreCli;
    process.exitCode = await run(args, config, (line) => console.log(line), (line) => console.error(line));
    return;
  }
  const notReady = backendNotReady(isPostgresUrl(databaseTarget(config)) ? 'postgres' : 'sqlite');
  if (notReady) {
    console.error(notReady);
    process.exit(2);
  }
  // Held through the migrations (and for `serve` the index format and the demo's first load): processes
  // started together on one DATA_DIR wait in turn.
  const releaseStartLock = acquireStartLock(config.dataDir);
  // Only app nodes read from standbys: the worker and the other commands write, or must read what they wrote.
  const services = await createServices(command === 'serve' ? config : { ...config, databaseReplicaUrls: [] });
  if (command !== 'serve') releaseStartLock();
  switch (command) {
    case 'import': {
      const file = args[0];
      if (!file) {
        console.error('usage: npm run import -- FILE.jsonl');
        process.exit(2);
      }
      services.indexer.ensureFormat((m) => console.error(m));
      const progress = importProgressPrinter();
      try {
        const s = await importJsonl(path.resolve(file), services, (p) => progress.update(p));
        progress.done();
        console.log(`Imported ${s.libraries} libraries, ${s.entries} entries (${s.dataSources} data sources), ${s.pages} pages in ${s.seconds.toFixed(1)} s.`);
        if (services.compaction.schedule()) console.log('The search index will be compacted in the background by the next `serve` or `worker` (searches are faster after it).');
      } catch (err) {
        progress.done();
        console.error(err instanceof ImportError ? err.message : `Import failed, nothing was changed: ${(err as Error).message}`);
        process.exitCode = 1;
      }
      await services.db.close();
      return;
    }
    case 'serve': {
      services.indexer.ensureFormat((m) => console.log(m));
      if (config.demo) await loadDemoIfEmpty(services, config.demoDir, (m) => console.log(m));
      releaseStartLock();
      // The search index is loaded after the server listens: /readyz says not ready and searches answer
      // 503 with Retry-After until it is complete (from the snapshot, else from the documents).
      services.search.markLoading();
      // The Book Builder's font list, read in a thread now rather than at its first request.
      services.fonts.ready().catch((e: Error) => console.error(`Reading the installed fonts failed: ${e.message}`));
      const app = await buildApp(config, services);
      // Jobs (book builds) run in this process unless JOB_CONCURRENCY=0 leaves them to `worker`.
      const jobs = config.jobConcurrency > 0 ? createJobWorker(config, services, (m, x) => app.log.info(x ?? {}, m)) : null;
      const stop = async () => {
        await jobs?.stop();
        await app.close();
        process.exit(0);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      await app.listen({ port: config.port, host: config.host });
      const snapshotFile = config.searchSnapshotMinutes > 0 ? snapshotPath(config.dataDir) : null;
      const logIndex = (m: string) => app.log.info(m);
      services.search.load({ snapshotFile, log: logIndex })
        .catch((e: Error) => app.log.error({ err: e }, 'loading the search index failed; requests read the documents'));
      // Its timers are unref'd: they end with the process.
      if (snapshotFile) services.search.keepSnapshot(snapshotFile, { minutes: config.searchSnapshotMinutes, log: logIndex });
      jobs?.start();
      return;
    }
    case 'worker': {
      services.indexer.ensureFormat((m) => console.log(m));
      // Runs queued jobs only (no HTTP): several processes may share one database.
      const jobs = createJobWorker({ ...config, jobConcurrency: Math.max(1, config.jobConcurrency) }, services, (m, x) => console.log(m, x ? JSON.stringify(x) : ''));
      // The worker's own timers are unref'd (they must not hold a `serve` process open); with no server
      // here, this one keeps the process running until it is told to stop.
      const keepAlive = setInterval(() => undefined, 60_000);
      const metricsServer = config.workerMetricsPort > 0
        ? await serveWorkerMetrics(services.metrics, { host: config.host, port: config.workerMetricsPort, token: config.metricsToken })
        : null;
      const stop = async () => {
        clearInterval(keepAlive);
        await metricsServer?.close();
        await jobs.stop();
        await services.db.close();
        process.exit(0);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      jobs.start();
      console.log(`Worker ${jobs.worker.id} running (concurrency ${Math.max(1, config.jobConcurrency)}).`);
      return;
    }
    case 'mail-flush': {
      // Sends the outbox messages still queued (no SMTP at the time) or failed, oldest first.
      if (!services.mail.smtpEnabled) {
        console.error('SMTP_URL is not set: nothing can be sent.');
        process.exitCode = 1;
      } else {
        const results = await services.mail.flush(Number(args[0]) || 100);
        const sent = results.filter((r) => r.status === 'sent').length;
        console.log(`Outbox: ${sent} sent, ${results.length - sent} failed.`);
        for (const r of results) if (r.error) console.log(`  #${r.id}: ${r.error}`);
        if (sent < results.length) process.exitCode = 1;
      }
      services.mail.close();
      await services.db.close();
      return;
    }
    case 'harvest': {
      const { runHarvestCli } = await import('./harvest/cli.ts');
      const result = await runHarvestCli(args, services.db, services.harvest, (line) => console.log(line));
      process.exitCode = result.code;
      services.mail.close();
      await services.db.close();
      return;
    }
    case 'admin': {
      const { runAdminCommand, readStdin } = await import('./accounts/cli.ts');
      const result = await runAdminCommand(args, readStdin, services.accounts, (id) => !!services.libraries.get(id));
      (result.code === 0 ? console.log : console.error)(result.message);
      process.exitCode = result.code;
      await services.db.close();
      return;
    }
    default:
      console.error(`unknown command "${command}"; use serve, worker, migrate, db-copy --to postgres://..., import FILE.jsonl, harvest [--site ID] [--force], mail-flush [LIMIT], backup DIR, restore DIR [--force|--check] or admin create-user ...`);
      process.exit(2);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
