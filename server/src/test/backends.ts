// "Each back end" for tests: SQLite always, PostgreSQL when the run has a cluster (pg-global-setup.ts).
// Every PostgreSQL test database is a fresh one, dropped again by dropTestDatabases().
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PgConnection } from '../db/postgres.ts';
import type { Dialect } from '../db/connection.ts';
import { modulesMissingOn } from '../db/backends.ts';

export const PG_URL = process.env.UC_TEST_PG_URL ?? '';
export const BACKENDS: Dialect[] = PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];
/**
 * The back ends the full app (test/fixture.ts) runs on in this run: PostgreSQL once every module is in
 * POSTGRES_READY (the app builds every module's statements at start), so route tests written for both
 * run there from then on.
 */
export const APP_BACKENDS: Dialect[] = BACKENDS.filter((d) => modulesMissingOn(d).length === 0);
export const ALL_BACKENDS: Dialect[] = ['sqlite', 'postgres'];

const created: { dialect: Dialect; target: string }[] = [];

/** A new empty database: a SQLite file in a temporary folder, or a PostgreSQL database on the test cluster. */
export function testDatabaseTarget(dialect: Dialect): string {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-db-'));
    created.push({ dialect, target: dir });
    return path.join(dir, 'db.sqlite');
  }
  if (!PG_URL) throw new Error('no PostgreSQL for this run (UC_TEST_PG_URL)');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new PgConnection(PG_URL);
  try {
    admin.exec(`CREATE DATABASE ${name}`);
  } finally {
    admin.close();
  }
  created.push({ dialect, target: name });
  return PG_URL.replace(/\/[^/]*$/, `/${name}`);
}

/** Removes what testDatabaseTarget() made (connections to it must be closed). */
export function dropTestDatabases(): void {
  for (const made of created.splice(0)) drop(made);
}

/** Removes one database testDatabaseTarget() answered (a test app's, when it closes). */
export function dropTestDatabase(answered: string): void {
  const i = created.findIndex((m) => answered === (m.dialect === 'sqlite' ? path.join(m.target, 'db.sqlite') : PG_URL.replace(/\/[^/]*$/, `/${m.target}`)));
  if (i >= 0) drop(created.splice(i, 1)[0]);
}

function drop({ dialect, target }: { dialect: Dialect; target: string }): void {
  if (dialect === 'sqlite') fs.rmSync(target, { recursive: true, force: true });
  else {
    const admin = new PgConnection(PG_URL);
    try {
      admin.exec(`DROP DATABASE IF EXISTS ${target} WITH (FORCE)`);
    } finally {
      admin.close();
    }
  }
}
