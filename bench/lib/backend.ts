// The database a benchmark runs on: SQLite in its DATA_DIR (the default); PostgreSQL at
// `--database-url postgres://...` (or DATABASE_URL), used as it is; or `--backend postgres`: a throw-away
// cluster (scripts/pg-cluster.ts) with a fresh database, removed when the benchmark ends; or
// `--backend both`: the benchmark once per back end (PostgreSQL when it is installed), one JSON line each.
import { spawnSync } from 'node:child_process';
import { PgConnection } from '../../server/src/db/postgres.ts';
import type { Db, Dialect } from '../../server/src/db/index.ts';
import { findPgBin, startPgCluster } from '../../scripts/pg-cluster.ts';

export interface BenchDatabase {
  backend: Dialect;
  /** For createServices (null: the SQLite file in DATA_DIR). */
  databaseUrl: string | null;
}

/**
 * `--backend both`: runs this benchmark again in a child process per back end (SQLite, then PostgreSQL on
 * a throw-away cluster when PostgreSQL is installed; a notice when it is not) and exits with the worse
 * status; returns otherwise. Each run prints its own JSON line, so a long PostgreSQL run never holds back
 * the SQLite figures.
 */
export function runEachBackendIfBoth(args: string[]): void {
  const i = args.indexOf('--backend');
  if (i < 0 || args[i + 1] !== 'both') return;
  const backends: Dialect[] = ['sqlite'];
  if (findPgBin()) backends.push('postgres');
  else console.error('bench: PostgreSQL is not installed (no pg_ctl): SQLite only');
  let status = 0;
  for (const backend of backends) {
    const childArgs = [...args.slice(0, i), '--backend', backend, ...args.slice(i + 2)];
    const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, ...childArgs], { stdio: 'inherit' });
    status = Math.max(status, r.status ?? 1);
  }
  process.exit(status);
}

/** `opt(name)`: the benchmark's option reader. */
export async function benchDatabase(opt: (name: string) => string | undefined, envUrl: string | null): Promise<BenchDatabase> {
  const given = opt('database-url') ?? envUrl;
  const backend = opt('backend') ?? (given ? 'postgres' : 'sqlite');
  if (backend !== 'sqlite' && backend !== 'postgres') throw new Error(`--backend is sqlite or postgres, not ${backend}`);
  if (backend === 'sqlite') {
    if (opt('database-url')) throw new Error('--database-url is a PostgreSQL database: leave out --backend sqlite');
    return { backend, databaseUrl: null };
  }
  if (given) return { backend, databaseUrl: given };
  // Stopped and removed when this process exits, however it ends (pg-cluster.ts).
  const cluster = await startPgCluster();
  const admin = new PgConnection(cluster.url);
  try {
    admin.exec('CREATE DATABASE bench'); // the cluster's C.UTF-8 locale: text sorts as on SQLite
  } finally {
    admin.close();
  }
  return { backend, databaseUrl: cluster.url.replace(/\/[^/]*$/, '/bench') };
}

/** Bytes the database holds on disk: PostgreSQL's own count (the SQLite files are summed by the caller). */
export function postgresBytes(db: Db): number {
  return Number(db.sqlite.prepare('SELECT pg_database_size(current_database())').pluck().get());
}
