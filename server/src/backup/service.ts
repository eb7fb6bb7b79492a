// Backup and restore of a whole site (issue 29; docs/operations.md, "Backups"): the database as of one
// moment (SQLite: VACUUM INTO, one read transaction beside running servers; PostgreSQL: pg_dump on a
// snapshot exported by our own transaction), the stored files the rows of that moment reference, and a
// manifest with every file's size and sha256. A backup is written under a temporary name and renamed
// when whole; a restore checks everything before it puts anything in place.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { z } from 'zod';
import { bookSessionIdSchema } from '@uc/shared';
import { knownMigrations } from '../db/index.ts';
import { processAlive } from '../processes.ts';

/** A problem the operator can act on (printed as it is, no stack). */
export class BackupError extends Error {}

export const MANIFEST = 'manifest.json';
const SQLITE_FILE = 'catalogue.sqlite';
const PG_DUMP_FILE = 'catalogue.pgdump';
/** What a backup holds besides the database: the top-level names of DATA_DIR it copies. */
const FILE_ROOTS = ['files', 'bookbuilder', 'calibre'] as const;
/**
 * A backup being written: `.partial-<name>-<host>-<pid>`; once that process of this host is gone (killed),
 * the next backup removes it. Another host's (a shared backup folder) is left to that host.
 */
const PARTIAL_RE = /^\.partial-.+-(\d+)$/;
/** Book Builder outputs still being written (renamed when whole: bookbuilder/ jobs). */
const BUILD_TMP_RE = /\.tmp-\d+$/;
/** Tables counted into the manifest, so an operator can see what a backup holds without restoring it. */
const COUNTED = ['libraries', 'entries', 'data_sources', 'data_source_files', 'users', 'book_sessions'];

/** A relative path inside DATA_DIR that a backup may hold: no way out of the folder, a known top level. */
function safeRelative(p: string): boolean {
  if (path.isAbsolute(p) || p.includes('\\') || p.includes('\0')) return false;
  const parts = p.split('/');
  if (parts.some((s) => s === '' || s === '.' || s === '..')) return false;
  return parts.length === 1 ? p === SQLITE_FILE || p === PG_DUMP_FILE : (FILE_ROOTS as readonly string[]).includes(parts[0]);
}

const manifestFile = z.object({
  path: z.string().max(4096).refine(safeRelative, 'a path outside the backup'),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export const manifestSchema = z.object({
  format: z.literal('union-catalogue-backup'),
  version: z.literal(1),
  created: z.string(),
  backend: z.enum(['sqlite', 'postgres']),
  /** The database's file among `files`: catalogue.sqlite or catalogue.pgdump. */
  database: z.enum([SQLITE_FILE, PG_DUMP_FILE]),
  schema: z.object({ migrations: z.number().int().nonnegative(), latest: z.string().nullable() }),
  counts: z.record(z.string(), z.number().int()),
  files: z.array(manifestFile),
  /** Files the rows named that were gone when they were copied (deleted meanwhile). */
  missing: z.array(z.string()),
  host: z.string(),
  seconds: z.number(),
});
export type Manifest = z.infer<typeof manifestSchema>;
type ManifestEntry = z.infer<typeof manifestFile>;

// ---------------------------------------------------------------- copying and hashing

const CHUNK = 1 << 20;

/** Copies src to dest (made anew) and returns what was written: its size and sha256, fsynced. */
function copyHashed(src: string, dest: string): { size: number; sha256: string } {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(CHUNK);
  const inFd = fs.openSync(src, 'r');
  let size = 0;
  try {
    const outFd = fs.openSync(dest, 'wx');
    try {
      for (;;) {
        const n = fs.readSync(inFd, buf, 0, CHUNK, null);
        if (n === 0) break;
        hash.update(buf.subarray(0, n));
        fs.writeSync(outFd, buf, 0, n);
        size += n;
      }
      fs.fsyncSync(outFd);
    } finally {
      fs.closeSync(outFd);
    }
  } finally {
    fs.closeSync(inFd);
  }
  return { size, sha256: hash.digest('hex') };
}

function hashFile(file: string): { size: number; sha256: string } {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(CHUNK);
  const fd = fs.openSync(file, 'r');
  let size = 0;
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
      size += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  return { size, sha256: hash.digest('hex') };
}

function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Regular files under dir, relative to `base`, '/'-separated; symbolic links are not followed. */
function walkFiles(dir: string, base: string, skip: (name: string) => boolean = () => false): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, d.name);
    if (d.isDirectory()) out.push(...walkFiles(abs, base, skip));
    else if (d.isFile() && !skip(d.name)) out.push(path.relative(base, abs).split(path.sep).join('/'));
  }
  return out;
}

const inside = (child: string, parent: string) => child === parent || child.startsWith(parent + path.sep);

// ---------------------------------------------------------------- the database's moment

/** What the snapshot's rows say: the files to copy, the schema, the counts. */
interface SnapshotFacts {
  dataFiles: string[];
  sessions: string[];
  schema: Manifest['schema'];
  counts: Record<string, number>;
}

/** Reads the facts through `rows` (first column of each row), on either back end. */
function readFacts(rows: (sql: string) => unknown[], tables: Set<string>): SnapshotFacts {
  const migrations = tables.has('kysely_migration') ? (rows('SELECT name FROM kysely_migration ORDER BY name') as string[]) : [];
  const counts: Record<string, number> = {};
  for (const t of COUNTED) if (tables.has(t)) counts[t] = Number(rows(`SELECT count(*) FROM ${t}`)[0]);
  return {
    dataFiles: tables.has('data_source_files') ? (rows('SELECT path FROM data_source_files ORDER BY path') as string[]) : [],
    sessions: tables.has('book_sessions') ? (rows('SELECT id FROM book_sessions ORDER BY id') as string[]) : [],
    schema: { migrations: migrations.length, latest: migrations.at(-1) ?? null },
    counts,
  };
}

/** VACUUM INTO: one read transaction, so the copy is the database as of one commit; writers go on (WAL). */
function snapshotSqlite(live: string, dest: string): SnapshotFacts {
  if (!fs.existsSync(live)) throw new BackupError(`No catalogue at ${live}: nothing to back up (is DATA_DIR right?).`);
  const src = new BetterSqlite3(live, { fileMustExist: true });
  try {
    src.pragma('busy_timeout = 10000');
    src.prepare('VACUUM INTO ?').run(dest);
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_BUSY') {
      throw new BackupError(`The database ${live} is busy: an import into the empty catalogue holds it until it ends. Run the backup when it has finished.`);
    }
    throw e;
  } finally {
    src.close();
  }
  const copy = new BetterSqlite3(dest, { fileMustExist: true });
  try {
    // A rollback-journal file: read-only opens of the backup (checks) then leave no -wal/-shm beside it.
    copy.pragma('journal_mode = DELETE');
    const tables = new Set(copy.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
    return readFacts((sql) => copy.prepare(sql).pluck().all(), tables);
  } finally {
    copy.close();
  }
}

/** libpq's URL without its password, and the password for PGPASSWORD (not on a command line others can read). */
function pgTarget(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (u.password) {
    env.PGPASSWORD = decodeURIComponent(u.password);
    u.password = '';
  }
  return { url: u.toString(), env };
}

/** Runs a PostgreSQL client program to its end; its standard error in the error when it fails. */
function runPgTool(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-4000);
    });
    child.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'ENOENT' ? new BackupError(`${tool} was not found: install Debian's postgresql-client (the same major version as the server or newer).`) : e));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${tool} failed (${signal ?? `exit ${code}`}): ${err.trim() || 'no message'}`));
    });
  });
}

/**
 * pg_dump of a snapshot our own transaction exports: the file list and counts read in that transaction
 * are of exactly the moment the dump is.
 */
async function snapshotPostgres(databaseUrl: string, dest: string): Promise<SnapshotFacts> {
  const { PgConnection } = await import('../db/postgres.ts');
  const conn = new PgConnection(databaseUrl);
  try {
    conn.exec('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = conn.query('SELECT pg_export_snapshot()')[0][0] as string;
    const tables = new Set(conn.query("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").map((r) => r[0] as string));
    const facts = readFacts((sql) => conn.query(sql).map((r) => r[0]), tables);
    const target = pgTarget(databaseUrl);
    await runPgTool('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--file=${dest}`, `--dbname=${target.url}`], target.env);
    conn.exec('COMMIT');
    return facts;
  } finally {
    conn.close();
  }
}

// ---------------------------------------------------------------- backup

export interface BackupOptions {
  dataDir: string;
  databaseUrl: string | null;
  /** The folder backups go into (each in a folder named by its time). */
  into: string;
  log: (line: string) => void;
  now?: () => Date;
}

/** A folder name of the backup's time, in UTC, sortable: 2026-11-28T03-45-12Z. */
const stamp = (d: Date) => d.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');

/** Removes the folders of backups whose process is gone (killed mid-way): never a whole backup. */
function removeDeadPartials(into: string, log: (line: string) => void): void {
  for (const name of fs.readdirSync(into)) {
    const m = PARTIAL_RE.exec(name);
    if (!m || !name.endsWith(`-${os.hostname()}-${m[1]}`) || Number(m[1]) === process.pid || processAlive(Number(m[1]))) continue;
    fs.rmSync(path.join(into, name), { recursive: true, force: true });
    log(`Removed ${name}, left by a backup that did not finish.`);
  }
}

export async function createBackup(opts: BackupOptions): Promise<{ dir: string; manifest: Manifest }> {
  const t0 = Date.now();
  const dataDir = path.resolve(opts.dataDir);
  const into = path.resolve(opts.into);
  // Inside DATA_DIR a backup would share the disk it is meant to survive, and `restore --force` empties it.
  if (inside(into, dataDir)) throw new BackupError(`The backup folder ${into} is inside DATA_DIR (${dataDir}): keep backups elsewhere, ideally on another disk.`);
  if (!fs.existsSync(dataDir)) throw new BackupError(`DATA_DIR ${dataDir} does not exist: nothing to back up.`);
  fs.mkdirSync(into, { recursive: true });
  removeDeadPartials(into, opts.log);

  const created = (opts.now ?? (() => new Date()))();
  let name = stamp(created);
  for (let n = 2; fs.existsSync(path.join(into, name)); n++) name = `${stamp(created)}-${n}`;
  const tmp = path.join(into, `.partial-${name}-${os.hostname()}-${process.pid}`);
  fs.mkdirSync(tmp);
  try {
    const backend = opts.databaseUrl ? 'postgres' : 'sqlite';
    const database = backend === 'postgres' ? PG_DUMP_FILE : SQLITE_FILE;
    opts.log(`Copying the database (${backend})...`);
    const facts = opts.databaseUrl
      ? await snapshotPostgres(opts.databaseUrl, path.join(tmp, database))
      : snapshotSqlite(path.join(dataDir, SQLITE_FILE), path.join(tmp, database));
    const files: ManifestEntry[] = [{ path: database, ...hashFile(path.join(tmp, database)) }];
    const missing: string[] = [];

    // The files the snapshot's rows name, and nothing written since (a running import's files are
    // not yet anybody's).
    const wanted: string[] = [];
    for (const rel of facts.dataFiles) {
      if (safeRelative(rel) && rel.startsWith('files/')) wanted.push(rel);
      else missing.push(rel);
    }
    for (const id of facts.sessions) {
      if (!bookSessionIdSchema.safeParse(id).success) continue;
      wanted.push(...walkFiles(path.join(dataDir, 'bookbuilder', id), dataDir, (n) => BUILD_TMP_RE.test(n)));
    }
    // The Calibre folders a calibretree harvest reads (when CALIBRE_ROOT is DATA_DIR's): without them
    // the next harvest of a restored site would find its books gone.
    wanted.push(...walkFiles(path.join(dataDir, 'calibre'), dataDir));
    opts.log(`Copying ${wanted.length} stored files...`);
    for (const rel of wanted) {
      try {
        files.push({ path: rel, ...copyHashed(path.join(dataDir, rel), path.join(tmp, rel)) });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        missing.push(rel); // deleted since the snapshot (its data source or session went meanwhile)
      }
    }
    const manifest: Manifest = {
      format: 'union-catalogue-backup', version: 1, created: created.toISOString(), backend, database,
      schema: facts.schema, counts: facts.counts, files, missing, host: os.hostname(),
      seconds: Math.round((Date.now() - t0) / 100) / 10,
    };
    const fd = fs.openSync(path.join(tmp, MANIFEST), 'wx');
    try {
      fs.writeSync(fd, `${JSON.stringify(manifest, null, 1)}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    for (const d of new Set(files.map((f) => path.dirname(path.join(tmp, f.path))))) fsyncDir(d);
    fsyncDir(tmp);
    // Only now does the backup get its name: a folder under it is whole.
    const dir = path.join(into, name);
    fs.renameSync(tmp, dir);
    fsyncDir(into);
    return { dir, manifest };
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

// ---------------------------------------------------------------- checking

/** The backup folder to use: DIR itself when it holds a manifest, else its newest whole backup. */
export function resolveBackupDir(from: string): string {
  const dir = path.resolve(from);
  if (!fs.existsSync(dir)) throw new BackupError(`No backup at ${dir}: the folder does not exist.`);
  if (fs.existsSync(path.join(dir, MANIFEST))) return dir;
  const whole = fs.readdirSync(dir).filter((n) => !n.startsWith('.') && fs.existsSync(path.join(dir, n, MANIFEST))).sort();
  if (!whole.length) {
    const partial = PARTIAL_RE.test(path.basename(dir)) ? ' (a backup that did not finish: it is never whole)' : '';
    throw new BackupError(`No backup at ${dir}${partial}: no ${MANIFEST} in it or in a folder inside it.`);
  }
  return path.join(dir, whole[whole.length - 1]);
}

function readManifest(dir: string): Manifest {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8'));
  } catch (e) {
    throw new BackupError(`${path.join(dir, MANIFEST)} cannot be read: ${(e as Error).message}`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BackupError(`${path.join(dir, MANIFEST)} is not a backup manifest of this product: ${issue.path.join('.')}: ${issue.message}`);
  }
  const m = parsed.data;
  if (!m.files.some((f) => f.path === m.database)) throw new BackupError(`${path.join(dir, MANIFEST)} lists no ${m.database}.`);
  return m;
}

/**
 * Checks a backup without writing anything: every file's size and sha256, SQLite's integrity_check, and
 * that this version knows its schema. Answers the problems found (none: the backup is good).
 */
export function checkBackup(dir: string): { manifest: Manifest; problems: string[] } {
  const manifest = readManifest(dir);
  const problems: string[] = [];
  for (const f of manifest.files) {
    const abs = path.join(dir, f.path);
    const st = fs.statSync(abs, { throwIfNoEntry: false });
    if (!st?.isFile()) {
      problems.push(`${f.path}: missing`);
      continue;
    }
    if (st.size !== f.size) {
      problems.push(`${f.path}: ${st.size} bytes, the manifest says ${f.size}`);
      continue;
    }
    if (hashFile(abs).sha256 !== f.sha256) problems.push(`${f.path}: checksum (sha256) differs from the manifest`);
  }
  if (manifest.schema.latest && !knownMigrations().includes(manifest.schema.latest)) {
    problems.push(`the backup's schema (migration ${manifest.schema.latest}) is newer than this version knows: restore it with the version that made it, or newer`);
  }
  if (manifest.backend === 'sqlite' && !problems.some((p) => p.startsWith(`${SQLITE_FILE}:`))) {
    const result = integrityCheck(path.join(dir, SQLITE_FILE));
    if (result !== 'ok') problems.push(`${SQLITE_FILE}: PRAGMA integrity_check says "${result.slice(0, 500)}"`);
  }
  return { manifest, problems };
}

function integrityCheck(file: string): string {
  let db: BetterSqlite3.Database | null = null;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
  } catch (e) {
    return (e as Error).message;
  } finally {
    db?.close();
  }
}

// ---------------------------------------------------------------- restore

export interface RestoreOptions {
  from: string;
  dataDir: string;
  databaseUrl: string | null;
  /** Replace what DATA_DIR (and the PostgreSQL database) holds. */
  force: boolean;
  log: (line: string) => void;
}

/** Tables in the target database's schema (an empty database has none). */
async function pgTables(databaseUrl: string): Promise<string[]> {
  const { PgConnection } = await import('../db/postgres.ts');
  const conn = new PgConnection(databaseUrl);
  try {
    return conn.query('SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename').map((r) => r[0] as string);
  } finally {
    conn.close();
  }
}

const listSome = (names: string[]) => `${names.slice(0, 5).join(', ')}${names.length > 5 ? `, and ${names.length - 5} more` : ''}`;

export async function restoreBackup(opts: RestoreOptions): Promise<{ dir: string; manifest: Manifest }> {
  const dir = resolveBackupDir(opts.from);
  const dataDir = path.resolve(opts.dataDir);
  opts.log(`Checking the backup ${dir}...`);
  const { manifest, problems } = checkBackup(dir);
  if (problems.length) {
    throw new BackupError(`The backup ${dir} is damaged; nothing was restored:\n${problems.slice(0, 10).map((p) => `  ${p}`).join('\n')}${problems.length > 10 ? `\n  and ${problems.length - 10} more` : ''}`);
  }
  if (manifest.backend === 'sqlite' && opts.databaseUrl) {
    throw new BackupError('This backup is of a SQLite catalogue, and DATABASE_URL is set: unset it to restore into DATA_DIR (`npm run db:copy` then moves the catalogue to PostgreSQL).');
  }
  if (manifest.backend === 'postgres' && !opts.databaseUrl) {
    throw new BackupError('This backup is of a PostgreSQL catalogue: set DATABASE_URL to the (empty) database to restore it into.');
  }
  if (inside(dir, dataDir)) throw new BackupError(`The backup ${dir} is inside DATA_DIR (${dataDir}): move it elsewhere first.`);

  // Both targets checked before anything is written.
  // lost+found: DATA_DIR is a file system of its own, otherwise empty.
  const present = fs.existsSync(dataDir) ? fs.readdirSync(dataDir).filter((n) => n !== 'lost+found') : [];
  if (present.length && !opts.force) {
    throw new BackupError(`DATA_DIR ${dataDir} is not empty (${listSome(present)}): restore fills an empty one. Point DATA_DIR at an empty folder, or stop every server and worker and add --force to replace what it holds (everything in it is deleted).`);
  }
  if (opts.databaseUrl) {
    const tables = await pgTables(opts.databaseUrl);
    if (tables.length && !opts.force) {
      throw new BackupError(`The database at DATABASE_URL is not empty (${tables.length} tables: ${listSome(tables)}): restore fills an empty one. Create an empty database, or stop every server and worker and add --force to replace its catalogue.`);
    }
  }

  const createdDataDir = !fs.existsSync(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const staging = path.join(dataDir, `.restore-${process.pid}`);
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging);
  try {
    // Copied and hashed in one pass: what lands is what the manifest lists, even if the backup changed
    // since the check.
    const toCopy = manifest.files.filter((f) => f.path !== PG_DUMP_FILE);
    opts.log(`Copying ${toCopy.length} files...`);
    for (const f of toCopy) {
      const got = copyHashed(path.join(dir, f.path), path.join(staging, f.path));
      if (got.sha256 !== f.sha256 || got.size !== f.size) throw new BackupError(`${f.path} changed while it was copied (checksum differs); nothing was restored.`);
    }
    if (manifest.backend === 'sqlite') {
      const result = integrityCheck(path.join(staging, SQLITE_FILE));
      if (result !== 'ok') throw new BackupError(`The copied database fails PRAGMA integrity_check ("${result.slice(0, 300)}"); nothing was restored.`);
    } else {
      opts.log('Restoring the database with pg_restore...');
      const target = pgTarget(opts.databaseUrl!);
      // One transaction: a failure leaves the database as it was. --clean (with --force) drops the
      // objects the dump holds before it creates them again.
      await runPgTool('pg_restore', [
        '--single-transaction', '--no-owner', '--no-privileges', ...(opts.force ? ['--clean', '--if-exists'] : []),
        `--dbname=${target.url}`, path.join(dir, PG_DUMP_FILE),
      ], target.env);
    }
    if (opts.force) {
      for (const name of present) if (name !== path.basename(staging)) fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
    }
    // The stored files first, the catalogue last: a DATA_DIR without its catalogue is evidently unfinished.
    const names = fs.readdirSync(staging).sort((a, b) => Number(a === SQLITE_FILE) - Number(b === SQLITE_FILE));
    for (const name of names) fs.renameSync(path.join(staging, name), path.join(dataDir, name));
    fs.rmdirSync(staging);
    fsyncDir(dataDir);
    return { dir, manifest };
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true });
    if (createdDataDir && fs.existsSync(dataDir) && fs.readdirSync(dataDir).length === 0) fs.rmdirSync(dataDir);
    throw e;
  }
}
