// "Each back end" for tests: SQLite always, PostgreSQL when the run has a cluster (pg-global-setup.ts).
// Every PostgreSQL test database is a fresh one, dropped again by dropTestDatabases().
// A migrated one (migratedTestDatabase) is a copy of a template migrated once per run: migrating took a
// second per test on PostgreSQL, a fifth of one on SQLite; a copy takes about a quarter and a hundredth.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PgConnection } from '../db/postgres.ts';
import { migrate, openDatabase } from '../db/index.ts';
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
  return newPgDatabase(null);
}

function newPgDatabase(template: string | null): string {
  if (!PG_URL) throw new Error('no PostgreSQL for this run (UC_TEST_PG_URL)');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new PgConnection(PG_URL);
  try {
    admin.exec(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    admin.close();
  }
  created.push({ dialect: 'postgres', target: name });
  return pgUrl(name);
}

const pgUrl = (name: string) => PG_URL.replace(/\/[^/]*$/, `/${name}`);

/**
 * Where the run's templates are: UC_TEST_TEMPLATE_DIR (made and removed by pg-global-setup.ts, shared by
 * every test process of the run), else a folder of this process, removed when it exits.
 */
function templateDir(): string {
  if (process.env.UC_TEST_TEMPLATE_DIR) return process.env.UC_TEST_TEMPLATE_DIR;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-templates-'));
  process.env.UC_TEST_TEMPLATE_DIR = dir;
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const templates = new Map<Dialect, Promise<string>>();

/**
 * The migrated template of a back end: the SQLite file's path, or the PostgreSQL database's name. The
 * first process to ask makes it (an exclusive lock file); the others wait for its name in `ready`.
 */
function migratedTemplate(dialect: Dialect): Promise<string> {
  let made = templates.get(dialect);
  if (!made) {
    made = makeOrAwaitTemplate(dialect);
    templates.set(dialect, made);
  }
  return made;
}

async function makeOrAwaitTemplate(dialect: Dialect): Promise<string> {
  const dir = templateDir();
  const ready = path.join(dir, `migrated-${dialect}.ready`);
  const failed = path.join(dir, `migrated-${dialect}.failed`);
  let mine = false;
  try {
    fs.closeSync(fs.openSync(path.join(dir, `migrated-${dialect}.lock`), 'wx'));
    mine = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  if (mine) {
    try {
      const made = await makeTemplate(dialect, dir);
      // Written whole, then renamed: a waiter never reads half a name.
      fs.writeFileSync(`${ready}.tmp`, made);
      fs.renameSync(`${ready}.tmp`, ready);
      return made;
    } catch (e) {
      fs.writeFileSync(failed, String((e as Error).stack ?? e));
      throw e;
    }
  }
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (fs.existsSync(ready)) return fs.readFileSync(ready, 'utf8');
    if (fs.existsSync(failed)) throw new Error(`making the migrated ${dialect} template failed in another test process:\n${fs.readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`no migrated ${dialect} template in ${dir} after 120 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function makeTemplate(dialect: Dialect, dir: string): Promise<string> {
  if (dialect === 'sqlite') {
    const file = path.join(dir, 'migrated.sqlite');
    const db = openDatabase(file);
    await migrate(db);
    // Closing the last connection checkpoints the WAL into the file and removes it: the file is whole.
    await db.close();
    return file;
  }
  if (!PG_URL) throw new Error('no PostgreSQL for this run (UC_TEST_PG_URL)');
  // Named after the run's folder, so a run against a long-lived server (UC_TEST_PG_URL) can drop its own.
  const name = `tpl_${path.basename(dir).replace(/[^a-z0-9]/gi, '').toLowerCase()}_migrated`;
  const admin = new PgConnection(PG_URL);
  try {
    admin.exec(`CREATE DATABASE ${name}`);
  } finally {
    admin.close();
  }
  const db = openDatabase(pgUrl(name));
  try {
    await migrate(db);
  } finally {
    // CREATE DATABASE ... TEMPLATE refuses a template anyone is connected to.
    await db.close();
  }
  return name;
}

/**
 * A new database with every migration applied, as testDatabaseTarget() then migrate() would give: a
 * copy of the run's migrated template (the SQLite file copied; on PostgreSQL CREATE DATABASE ... TEMPLATE).
 * `sqliteFile`: where the SQLite copy goes (the caller removes it), else a temporary folder of its own.
 */
export async function migratedTestDatabase(dialect: Dialect, sqliteFile?: string): Promise<string> {
  const template = await migratedTemplate(dialect);
  if (dialect === 'sqlite') {
    const target = sqliteFile ?? testDatabaseTarget('sqlite');
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(template, target);
    return target;
  }
  return newPgDatabase(template);
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
