// The database a benchmark runs on: SQLite in its DATA_DIR (the default); PostgreSQL at
// `--database-url postgres://...` (or DATABASE_URL), used as it is; or `--backend postgres`: a throw-away
// cluster (scripts/pg-cluster.ts) with a fresh database, removed when the benchmark ends.
import { PgConnection } from '../../server/src/db/postgres.ts';
import type { Db, Dialect } from '../../server/src/db/index.ts';
import { startPgCluster } from '../../scripts/pg-cluster.ts';

export interface BenchDatabase {
  backend: Dialect;
  /** For createServices (null: the SQLite file in DATA_DIR). */
  databaseUrl: string | null;
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
