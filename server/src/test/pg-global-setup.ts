// vitest globalSetup: one throw-away PostgreSQL cluster for the run (scripts/pg-cluster.ts), its URL in
// UC_TEST_PG_URL for the tests (server/src/test/backends.ts); a notice and no cluster when PostgreSQL is
// not installed (the PostgreSQL tests then skip). UC_TEST_PG_URL set beforehand: that server is used.
import { findPgBin, startPgCluster, type PgCluster } from '../../../scripts/pg-cluster.ts';

let cluster: PgCluster | null = null;

export async function setup(): Promise<void> {
  if (process.env.UC_TEST_PG_URL) return;
  if (!findPgBin()) {
    console.warn('[tests] PostgreSQL not found (pg_ctl/initdb): the PostgreSQL back-end tests are skipped. apt-get install postgresql to run them.');
    return;
  }
  cluster = await startPgCluster();
  process.env.UC_TEST_PG_URL = cluster.url;
}

export function teardown(): void {
  cluster?.stop();
}
