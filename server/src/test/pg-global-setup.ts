// vitest globalSetup: one throw-away PostgreSQL cluster for the run (scripts/pg-cluster.ts), its URL in
// UC_TEST_PG_URL for the tests (server/src/test/backends.ts); a notice and no cluster when PostgreSQL is
// not installed (the PostgreSQL tests then skip). UC_TEST_PG_URL set beforehand: that server is used;
// UC_TEST_PG=0: none (a faster run).
import { createRequire } from 'node:module';
import { findPgBin, startPgCluster, type PgCluster } from '../../../scripts/pg-cluster.ts';

let cluster: PgCluster | null = null;

export async function setup(): Promise<void> {
  if (process.env.UC_TEST_PG_URL) return;
  if (process.env.UC_TEST_PG === '0') {
    console.warn('[tests] UC_TEST_PG=0: the PostgreSQL back-end tests are skipped.');
    return;
  }
  if (!findPgBin()) {
    console.warn('[tests] PostgreSQL not found (pg_ctl/initdb): the PostgreSQL back-end tests are skipped. apt-get install postgresql to run them.');
    return;
  }
  try {
    createRequire(import.meta.url)('libpq');
  } catch {
    console.warn('[tests] PostgreSQL is installed but the npm package libpq is not built (apt-get install libpq-dev; npm rebuild libpq): the PostgreSQL back-end tests are skipped.');
    return;
  }
  cluster = await startPgCluster();
  process.env.UC_TEST_PG_URL = cluster.url;
}

export function teardown(): void {
  cluster?.stop();
}
