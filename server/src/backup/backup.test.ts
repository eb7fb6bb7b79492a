// Backup and restore against real servers (issue 29): `serve` on a DATA_DIR (the demo catalogue), an
// `import` writing into it while backups are taken (each backup must be a committed state: the catalogue
// before the import or after it, never between, with every file its rows name), then `restore` into an
// empty DATA_DIR (and an empty PostgreSQL database) and a second server on it answering searches, entry
// pages, downloads and a login exactly as the first. Also: restore refuses a non-empty DATA_DIR and a
// backup with one byte changed, writing nothing. SQLite always; PostgreSQL with the run's cluster.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, runMain, startMain, startServer, exited, killGroup, repoRoot, type ServerHandle } from '../../../bench/lib/child-server.ts';
import { APP_BACKENDS, dropTestDatabases, testDatabaseTarget } from '../test/backends.ts';
import { openDatabase } from '../db/index.ts';
import { checkBackup, createBackup, type Manifest } from './service.ts';
import { runRestoreCli } from './cli.ts';

const LIFETIME_S = 400;
const USER = { username: 'backup-librarian', password: 'backup librarian password' };
const TOKEN = 'quokkabackup';
/** pg_dump/pg_restore (Debian's postgresql-client) for the PostgreSQL half. */
const PG_TOOLS = spawnSync('sh', ['-c', 'command -v pg_dump && command -v pg_restore'], { encoding: 'utf8' }).status === 0;
const backends = APP_BACKENDS.filter((d) => {
  if (d === 'postgres' && !PG_TOOLS) {
    console.warn('[backup.test] pg_dump/pg_restore not found: the PostgreSQL backup tests are skipped (apt-get install postgresql-client).');
    return false;
  }
  return true;
});

/** A catalogue to import into the running site: new libraries, `entries` entries, a Muse text every 1,000. */
function writeCatalogue(dir: string, entries: number): string {
  fs.mkdirSync(path.join(dir, 'texts'), { recursive: true });
  fs.copyFileSync(path.join(repoRoot, 'demo', 'texts', 'small-shelves-long-memories.muse'), path.join(dir, 'texts', 'text.muse'));
  const lines: string[] = [];
  for (let l = 1; l <= 3; l++) {
    lines.push(JSON.stringify({ type: 'library', id: 900 + l, name: `Backup Library ${l}`, country: 'Italy', city: 'Bologna', latitude: 44.5, longitude: 11.3, library_type: 'physical', public: true, languages: ['en'] }));
  }
  for (let i = 1; i <= entries; i++) {
    const muse = i % 1000 === 1;
    lines.push(JSON.stringify({
      type: 'entry', id: 5_000_000 + i, title: `${TOKEN} shelf ${i}`, subtitle: null, authors: [`Backup Author ${i % 300}`], languages: ['en'], year: 1900 + (i % 120),
      aggregation_id: null, translation_of: null, fulltext: null,
      data_sources: [{ library_id: 901 + (i % 3), identifier: `backup-${i}`, year_edition: 1950, publisher: 'Backup Press', isbn: null, description: `row ${i}`, shelf_location_code: null, downloads: [], ...(muse ? { muse_file: 'texts/text.muse' } : {}) }],
    }));
  }
  const file = path.join(dir, 'catalogue.jsonl');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** `restore` as the command runs it (cli.ts), in this process: what it prints and its exit code. */
async function restoreCli(args: string[], config: { dataDir: string; databaseUrl: string | null }): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await runRestoreCli(args, config, (l) => lines.push(l), (l) => lines.push(l));
  return { code, out: lines.join('\n') };
}

/** Rows of the live database (read beside the running server). */
async function liveRows<T>(target: string, sql: string): Promise<T[]> {
  const db = openDatabase(target);
  try {
    return db.sqlite.prepare(sql).all() as T[];
  } finally {
    await db.close();
  }
}

describe.each(backends)('backup and restore (%s)', (dialect) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-backup-'));
  const dataDir = path.join(tmp, 'data');
  const backups = path.join(tmp, 'backups');
  const logFile = path.join(tmp, 'servers.log');
  let dbEnv: { DATABASE_URL?: string } = {};
  let live: ServerHandle;
  let restored: ServerHandle | null = null;
  let liveTarget = '';
  const env = () => ({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', HARVEST_SCHEDULE_SECONDS: '0', ...dbEnv });

  beforeAll(async () => {
    fs.mkdirSync(dataDir, { recursive: true });
    if (dialect === 'postgres') dbEnv = { DATABASE_URL: testDatabaseTarget('postgres') };
    liveTarget = dbEnv.DATABASE_URL ?? path.join(dataDir, 'catalogue.sqlite');
    live = await startServer({ dataDir, env: dbEnv, lifetimeS: LIFETIME_S, logFile, readyTimeoutMs: 240_000 });
    const made = runMain(['admin', 'create-user', '--username', USER.username, '--email', 'backup@example.invalid', '--library-admin', '1'], env(), `${USER.password}\n`, 240);
    expect(made.code, made.out).toBe(0);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([live?.stop(), restored?.stop()]);
    dropTestDatabases();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('backups taken while an import writes are each a committed state, with every file their rows name', async () => {
    const count = async () => (await liveRows<{ n: number }>(liveTarget, 'SELECT count(*) AS n FROM entries'))[0].n;
    const before = Number(await count());
    const file = writeCatalogue(path.join(tmp, 'import'), dialect === 'sqlite' ? 20_000 : 6_000);
    const importer = startMain({ args: ['import', file], env: env(), lifetimeS: 300, logFile });
    const taken: { manifest: Manifest; during: boolean }[] = [];
    // Backups one after another for as long as the import runs, and one after it.
    for (;;) {
      const running = importer.exitCode === null && importer.signalCode === null;
      const { manifest, dir } = await createBackup({ dataDir, databaseUrl: dbEnv.DATABASE_URL ?? null, into: path.join(tmp, 'during'), log: () => {} });
      const stillRunning = importer.exitCode === null && importer.signalCode === null;
      taken.push({ manifest, during: running && stillRunning });
      const { problems } = checkBackup(dir);
      expect(problems).toEqual([]);
      if (!running) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await exited(importer, 5000);
    expect(importer.exitCode, fs.readFileSync(logFile, 'utf8').slice(-2000)).toBe(0);
    const after = Number(await count());
    expect(after).toBe(before + (dialect === 'sqlite' ? 20_000 : 6_000));
    const during = taken.filter((t) => t.during);
    expect(during.length, 'no backup was taken while the import ran').toBeGreaterThan(0);
    for (const { manifest } of taken) {
      // One transaction: the import is in a backup whole or not at all.
      expect([before, after]).toContain(manifest.counts.entries);
      expect(manifest.missing).toEqual([]);
      const filesHeld = manifest.files.filter((f) => f.path.startsWith('files/')).length;
      expect(filesHeld).toBe(manifest.counts.data_source_files);
    }
    expect(taken.at(-1)!.manifest.counts.entries).toBe(after);
    // The Muse texts of the import: 20 (or 6) more stored pairs in the last backup than in one without it.
    const withImport = taken.at(-1)!.manifest.counts.data_source_files;
    expect(withImport).toBeGreaterThan(taken[0].manifest.counts.entries === before ? taken[0].manifest.counts.data_source_files : 0);
  }, 300_000);

  it('restore into an empty DATA_DIR serves the same catalogue, entry pages, files, Book Builder sessions and logins', async () => {
    const stored = await liveRows<{ data_source_id: number; ext: string; entry_id: number }>(liveTarget,
      'SELECT f.data_source_id, f.ext, d.entry_id FROM data_source_files f JOIN data_sources d ON d.id = f.data_source_id ORDER BY f.data_source_id, f.ext');
    expect(stored.length).toBeGreaterThan(10);
    // A Book Builder session with a text in it (copied into DATA_DIR/bookbuilder/<session>/).
    const bookA = new Client(live.base);
    const museSource = stored.find((s) => s.ext === '.muse')!.data_source_id;
    const sessionId = (await bookA.ok('POST', '/collector/api/bookbuilder', { action: 'add', add: museSource })).session_id as string;
    expect(fs.readdirSync(path.join(dataDir, 'bookbuilder', sessionId), { recursive: true }).length).toBeGreaterThan(0);

    // Generous bounds: each command starts tsx, which takes tens of seconds on a loaded 2-core machine.
    const made = runMain(['backup', backups], env(), undefined, 240);
    expect(made.code, made.out).toBe(0);
    expect(made.out).toMatch(/Backup written to /);
    const [name] = fs.readdirSync(backups);
    expect(name).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
    const checked = runMain(['restore', '--check', backups], env(), undefined, 240);
    expect(checked.code, checked.out).toBe(0);

    const restoredDir = path.join(tmp, 'restored');
    const restoredDb: { DATABASE_URL?: string } = dialect === 'postgres' ? { DATABASE_URL: testDatabaseTarget('postgres') } : {};
    const restoreEnv = { ...process.env, DATA_DIR: restoredDir, LOG_LEVEL: 'warn', ...restoredDb };
    const r = runMain(['restore', backups], restoreEnv, undefined, 240);
    expect(r.code, r.out).toBe(0);
    expect(fs.existsSync(path.join(restoredDir, 'catalogue.sqlite'))).toBe(dialect === 'sqlite');

    // A second restore into the now filled places is refused (DATA_DIR first).
    const again = await restoreCli([backups], { dataDir: restoredDir, databaseUrl: restoredDb.DATABASE_URL ?? null });
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/is not empty/);
    if (dialect === 'postgres') {
      const emptyDir = path.join(tmp, 'empty-for-pg');
      const pgAgain = await restoreCli([backups], { dataDir: emptyDir, databaseUrl: restoredDb.DATABASE_URL! });
      expect(pgAgain.code).toBe(1);
      expect(pgAgain.out).toMatch(/database at DATABASE_URL is not empty/);
      expect(fs.existsSync(emptyDir)).toBe(false);
    }

    restored = await startServer({ dataDir: restoredDir, env: { DEMO: '0', ...restoredDb }, lifetimeS: LIFETIME_S, logFile, readyTimeoutMs: 240_000 });
    const a = new Client(live.base);
    const b = new Client(restored.base);
    for (const q of ['', TOKEN, `${TOKEN} shelf 17`, 'library', 'kropotkin', 'memories']) {
      const url = `/collector/api/search?${new URLSearchParams(q ? { query: q } : {})}`;
      const [x, y] = await Promise.all([a.ok('GET', url), b.ok('GET', url)]);
      expect(y, `search "${q}"`).toEqual(x);
    }
    for (const s of [stored[0], stored[Math.floor(stored.length / 2)], stored.at(-1)!]) {
      const [x, y] = await Promise.all([a.call('GET', `/collector/api/entry/${s.entry_id}`), b.call('GET', `/collector/api/entry/${s.entry_id}`)]);
      expect(x.status).toBe(200);
      expect(y.json).toEqual(x.json);
      const [fx, fy] = await Promise.all([a.call('GET', `/collector/api/download/${s.data_source_id}${s.ext}`), b.call('GET', `/collector/api/download/${s.data_source_id}${s.ext}`)]);
      expect(fx.status).toBe(200);
      expect(fy.status).toBe(200);
      expect(fy.bytes.equals(fx.bytes), `download ${s.data_source_id}${s.ext}`).toBe(true);
    }
    // The session, its text and its files, on the restored site as on the live one.
    const bookB = new Client(restored.base);
    bookB.jar = bookA.jar;
    const [listA, listB] = await Promise.all([
      bookA.ok('POST', '/collector/api/bookbuilder', { action: 'list', session_id: sessionId }),
      bookB.ok('POST', '/collector/api/bookbuilder', { action: 'list', session_id: sessionId }),
    ]);
    expect(listA.texts.length).toBe(1);
    expect(listB.texts).toEqual(listA.texts);
    expect(fs.readdirSync(path.join(restoredDir, 'bookbuilder', sessionId), { recursive: true }).sort())
      .toEqual(fs.readdirSync(path.join(dataDir, 'bookbuilder', sessionId), { recursive: true }).sort());
    const login = await b.ok('POST', '/collector/api/auth/login', USER);
    expect(login.logged_in).toBe(USER.username);
    const wrong = await new Client(restored.base).call('POST', '/collector/api/auth/login', { ...USER, password: 'not the password at all' });
    expect(wrong.json.logged_in).toBeNull();
    expect(wrong.json.error).toBeTruthy();
  }, 400_000);

  it('restore refuses a non-empty DATA_DIR and a backup with one byte changed, writing nothing', async () => {
    const [name] = fs.readdirSync(backups).sort();
    const good = path.join(backups, name);
    const databaseUrl = dialect === 'postgres' ? testDatabaseTarget('postgres') : null;
    // What the backup holds at the top of DATA_DIR (Book Builder sessions only if there were some then).
    const held = (JSON.parse(fs.readFileSync(path.join(good, 'manifest.json'), 'utf8')) as Manifest).files;
    const topNames = [...new Set(held.map((f) => f.path.split('/')[0]))].sort();

    const busy = path.join(tmp, 'busy');
    fs.mkdirSync(busy);
    fs.writeFileSync(path.join(busy, 'notes.txt'), 'the operator\'s own file');
    const refused = await restoreCli([good], { dataDir: busy, databaseUrl });
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/DATA_DIR .* is not empty \(notes\.txt\).*--force/s);
    expect(fs.readdirSync(busy)).toEqual(['notes.txt']);

    const tampered = path.join(tmp, 'tampered');
    fs.cpSync(good, tampered, { recursive: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(tampered, 'manifest.json'), 'utf8')) as Manifest;
    const victim = manifest.files.find((f) => f.path.endsWith('.muse'))!;
    const bytes = fs.readFileSync(path.join(tampered, victim.path));
    bytes[Math.floor(bytes.length / 2)] ^= 0x20;
    fs.writeFileSync(path.join(tampered, victim.path), bytes);
    const fresh = path.join(tmp, 'fresh');
    const bad = await restoreCli([tampered], { dataDir: fresh, databaseUrl });
    expect(bad.code).toBe(1);
    expect(bad.out).toContain(`${victim.path}: checksum (sha256) differs from the manifest`);
    expect(bad.out).toMatch(/nothing was restored/);
    expect(fs.existsSync(fresh)).toBe(false);
    const check = await restoreCli(['--check', tampered], { dataDir: fresh, databaseUrl });
    expect(check.code).toBe(1);

    // With --force the busy folder is replaced by the backup (SQLite: the catalogue is in it).
    if (dialect === 'sqlite') {
      const forced = await restoreCli([good, '--force'], { dataDir: busy, databaseUrl: null });
      expect(forced.code, forced.out).toBe(0);
      expect(topNames).toContain('catalogue.sqlite');
      expect(fs.readdirSync(busy).sort()).toEqual(topNames);
    }
  }, 120_000);
});
