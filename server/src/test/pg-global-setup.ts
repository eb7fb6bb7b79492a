// vitest globalSetup: one throw-away PostgreSQL cluster for the run (scripts/pg-cluster.ts), its URL in
// UC_TEST_PG_URL for the tests (server/src/test/backends.ts); a notice and no cluster when PostgreSQL is
// not installed (the PostgreSQL tests then skip). UC_TEST_PG_URL set beforehand: that server is used;
// UC_TEST_PG=0: none (a faster run). Also the run's folder of migrated templates (UC_TEST_TEMPLATE_DIR,
// test/backends.ts), shared by the test processes and removed at the end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { findPgBin, startPgCluster, type PgCluster } from '../../../scripts/pg-cluster.ts';

let cluster: PgCluster | null = null;
let templateDir: string | null = null;

export async function setup(): Promise<void> {
  if (!process.env.UC_TEST_TEMPLATE_DIR) {
    templateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-templates-'));
    process.env.UC_TEST_TEMPLATE_DIR = templateDir;
  }
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

export async function teardown(): Promise<void> {
  if (templateDir) {
    // A server of our own goes with its templates; on a given one (UC_TEST_PG_URL) they are dropped.
    if (!cluster && process.env.UC_TEST_PG_URL) await dropTemplates(process.env.UC_TEST_PG_URL, templateDir);
    fs.rmSync(templateDir, { recursive: true, force: true });
    delete process.env.UC_TEST_TEMPLATE_DIR;
  }
  cluster?.stop();
}

async function dropTemplates(url: string, dir: string): Promise<void> {
  const { PgConnection } = await import('../db/postgres.ts');
  const admin = new PgConnection(url);
  try {
    const prefix = `tpl_${path.basename(dir).replace(/[^a-z0-9]/gi, '').toLowerCase()}_`;
    const names = admin.prepare('SELECT datname FROM pg_database WHERE starts_with(datname, ?)').pluck().all(prefix) as string[];
    for (const name of names) admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    admin.close();
  }
}
