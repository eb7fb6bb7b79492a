// Chaos check: kill -9 during the long writes, restart, and check what is left.
//   (a) a JSONL import (`main.ts import FILE`, one transaction): the importer and the server are killed
//       mid-import; afterwards the catalogue must be exactly as before, and the files it wrote (their rows
//       rolled back) are gone: the restarted server removes them from the importer's journal.
//   (b) a spreadsheet processing job (run by the server's in-process worker): the server is killed while
//       the upload is `working`; afterwards the upload ends `finished` with every row of the sheet, or
//       `failed` with a reason and then processable again; never with some rows applied.
//   (c) a Book Builder build: the server is killed while the job is `active`; afterwards the job ends
//       `finished` or `failed` with a reason, and no file is orphaned under DATA_DIR/bookbuilder/.
//   (d) an import into an empty catalogue with no server (it writes through a rollback journal, not the
//       WAL): killed mid-import, the catalogue opens again empty, intact and in WAL mode.
//   (e) a backup (`main.ts backup DIR`) killed while it writes: the earlier backup and the live data are
//       as they were, nothing that looks like a whole backup is left, and the next backup is whole.
// After every kill the database passes PRAGMA integrity_check. Everything runs on 127.0.0.1 with a
// temporary DATA_DIR, bounded by timeouts; one JSON line at the end; exit 1 when any check fails.
//   npm run chaos -- [--entries 40000] [--rows 6000] [--sheet-kills 1] [--only backup,book]
// --sheet-kills 2 kills the spreadsheet job's automatic retry as well (the queue then fails the job);
import fs from 'node:fs';
import os from 'node:os';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { spawnSync, type ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import {
  Client, atExit, csrfFrom, exited, killGroup, repoRoot, runMain, sleep, startMain, startServer, tail, until, type ServerHandle,
} from '../bench/lib/child-server.ts';
import { processAlive } from '../server/src/processes.ts';
import { checkBackup, resolveBackupDir, MANIFEST } from '../server/src/backup/service.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
// 40,000: the import must still be running at its first progress line (2 s) on a fast machine.
const ENTRIES = opt('entries', 40000);
const ROWS = opt('rows', 6000);
const BASE_ROWS = 1000;
const SHEET_KILLS = Math.max(1, Math.min(2, opt('sheet-kills', 1)));
/** Only these scenarios (a comma list of their names), e.g. `--only backup`; all when absent. */
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : [];
const LIBRARY = 17; // Kijiji Reading Room: public, active, a csv library of the demo
const TOKEN = 'quokkachaos'; // in every row of the big sheet, in no base row
const LIMIT_S = 300; // the whole run, whatever happens
const GENERATOR = path.resolve(repoRoot, '..', 'shared', 'bench', 'gen-catalogue.mjs');

const t0 = Date.now();
const secs = (ms: number) => Math.round(ms / 100) / 10;
const log = (m: string) => console.error(`[chaos ${secs(Date.now() - t0).toFixed(1)} s] ${m}`);

interface Scenario { ok: boolean; failures: string[]; [k: string]: unknown }
const scenario = (): Scenario => ({ ok: true, failures: [] });
function check(s: Scenario, cond: boolean, what: string): boolean {
  if (!cond) {
    s.ok = false;
    s.failures.push(what);
    log(`FAILED: ${what}`);
  }
  return cond;
}

// ---------------------------------------------------------------- files and database

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-chaos-'));
atExit(() => fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));
const dataDir = path.join(tmp, 'data');
const logFile = path.join(tmp, 'server.log');
const dbFile = path.join(dataDir, 'catalogue.sqlite');

/** A read-only look at the database (the server keeps running beside it; WAL). */
function withDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    return fn(db);
  } finally {
    db.close();
  }
}

function integrity(s: Scenario, fkBefore: number | null = null): void {
  const r = withDb((db) => ({
    integrity: (db.pragma('integrity_check') as { integrity_check: string }[]).map((x) => x.integrity_check).join('; '),
    fk: (db.pragma('foreign_key_check') as unknown[]).length,
  }));
  s.integrity_check = r.integrity;
  check(s, r.integrity === 'ok', `PRAGMA integrity_check says "${r.integrity.slice(0, 300)}"`);
  if (fkBefore !== null) check(s, r.fk <= fkBefore, `PRAGMA foreign_key_check: ${r.fk} violations (before the kill: ${fkBefore})`);
}

const COUNTED = ['libraries', 'sites', 'entries', 'data_sources', 'data_source_files', 'agents', 'entry_agents', 'search_docs', 'aggregation_links', 'entry_languages', 'oai_records'];
function counts(): Record<string, number> {
  return withDb((db) => {
    const out: Record<string, number> = {};
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]));
    for (const t of COUNTED) if (tables.has(t)) out[t] = db.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number;
    out.max_search_seq = (db.prepare('SELECT coalesce(max(seq), 0) FROM search_docs').pluck().get() as number) ?? 0;
    // An import drops the OAI-PMH record triggers inside its transaction (publish/oai-bulk.ts): a kill must leave them.
    out.triggers = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'").pluck().get() as number;
    out.libraries_digest = hash(JSON.stringify(db.prepare('SELECT * FROM libraries ORDER BY id').all()));
    out.fk_violations = (db.pragma('foreign_key_check') as unknown[]).length;
    return out;
  });
}
function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/** Folders under DATA_DIR/files/ that no data_source_files row points into (left by a killed writer). */
function orphanFileFolders(): string[] {
  const root = path.join(dataDir, 'files');
  if (!fs.existsSync(root)) return [];
  const owned = new Set(withDb((db) => db.prepare('SELECT DISTINCT data_source_id FROM data_source_files').pluck().all() as number[]).map(String));
  return fs.readdirSync(root).filter((d) => d !== '.journal' && !owned.has(d));
}


function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)]));
}

let server: ServerHandle | null = null;
async function start(): Promise<{ server: ServerHandle; ms: number }> {
  server = await startServer({ dataDir, lifetimeS: LIMIT_S + 60, logFile });
  return { server, ms: server.startMs };
}
const totalOf = async (c: Client, query: string) => (await c.ok('GET', `/collector/api/search?${new URLSearchParams(query ? { query } : {})}`)).total_entries as number;

// ---------------------------------------------------------------- (a) import

/** The catalogue to import: gen-catalogue.mjs when present, else our own lines in the same format; with a
 *  Muse text every 1,500 entries, so the importer also writes files (under DATA_DIR/files/) as it goes. */
function makeCatalogue(dir: string): { file: string; generator: string } {
  fs.mkdirSync(path.join(dir, 'texts'), { recursive: true });
  for (const f of ['small-shelves-long-memories.muse', 'card-drawer.png']) {
    const src = path.join(repoRoot, 'demo', 'texts', f);
    if (fs.existsSync(src)) fs.copyFileSync(src, path.join(dir, 'texts', f));
  }
  const museName = fs.existsSync(path.join(dir, 'texts', 'small-shelves-long-memories.muse')) ? 'texts/small-shelves-long-memories.muse' : null;
  const raw = path.join(dir, 'raw.jsonl');
  let generator: string;
  if (fs.existsSync(GENERATOR)) {
    generator = 'gen-catalogue.mjs';
    const fd = fs.openSync(raw, 'w');
    try {
      const r = spawnSync('timeout', ['60', process.execPath, GENERATOR, 'catalogue', '--entries', String(ENTRIES)], { stdio: ['ignore', fd, 'inherit'] });
      if (r.status !== 0) throw new Error(`gen-catalogue.mjs failed (exit ${r.status})`);
    } finally {
      fs.closeSync(fd);
    }
  } else {
    generator = 'built-in';
    const words = ['freedom', 'bread', 'commons', 'archive', 'shelf', 'reading', 'strike', 'mutual', 'aid', 'workers', 'library', 'memory', 'paper', 'river', 'harbour'];
    const w = (i: number, k: number) => words[(i * 7 + k * 13) % words.length];
    const lines: string[] = [];
    for (let l = 1; l <= 30; l++) {
      lines.push(JSON.stringify({ type: 'library', id: l, name: `Chaos Library ${l}`, country: 'Italy', city: 'Bologna', latitude: 44.5, longitude: 11.3, library_type: 'physical', public: true, languages: ['en', 'it'] }));
    }
    for (let i = 1; i <= ENTRIES; i++) {
      lines.push(JSON.stringify({
        type: 'entry', id: i, title: `${w(i, 1)} ${w(i, 2)} ${i}`, subtitle: null, authors: [`Author ${i % 2000}`], languages: [i % 3 ? 'en' : 'it'], year: 1850 + (i % 170),
        aggregation_id: null, translation_of: null, fulltext: null,
        data_sources: [{ library_id: 1 + (i % 30), identifier: `gen-${i}`, year_edition: 1900 + (i % 120), publisher: 'Chaos Press', isbn: null, description: `${w(i, 3)} ${w(i, 4)}`, shelf_location_code: `S-${i}`, downloads: [] }],
      }));
    }
    fs.writeFileSync(raw, lines.join('\n') + '\n');
  }
  // Muse entries spread through the file (ids after the generated ones; the first library of the file holds them).
  const out = path.join(dir, 'catalogue.jsonl');
  const src = fs.readFileSync(raw, 'utf8').split('\n').filter(Boolean);
  fs.rmSync(raw);
  const firstLibrary = JSON.parse(src.find((l) => l.includes('"type":"library"'))!).id as number;
  const lines: string[] = [];
  let entries = 0;
  let extra = 0;
  for (const line of src) {
    lines.push(line);
    if (museName && line.includes('"type":"entry"') && ++entries % 1500 === 0) {
      extra++;
      lines.push(JSON.stringify({
        type: 'entry', id: 10_000_000 + extra, title: `Chaos Muse text ${extra}`, subtitle: null, authors: ['Chaos Writer'], languages: ['en'], year: 2026,
        aggregation_id: null, translation_of: null, fulltext: null,
        data_sources: [{ library_id: firstLibrary, identifier: `chaos-muse-${extra}`, year_edition: 2026, publisher: null, isbn: null, description: null, shelf_location_code: null, downloads: [], muse_file: museName }],
      }));
    }
  }
  fs.writeFileSync(out, lines.join('\n') + '\n');
  return { file: out, generator };
}

async function scenarioImport(c: Client): Promise<Scenario> {
  const s = scenario();
  const dir = path.join(tmp, 'import');
  const g0 = Date.now();
  const { file, generator } = makeCatalogue(dir);
  s.generator = generator;
  s.file_mb = Math.round(fs.statSync(file).size / 1e5) / 10;
  s.generate_ms = Date.now() - g0;
  const before = counts();
  const totalBefore = await totalOf(c, '');
  const orphansBefore = orphanFileFolders().length;

  // The importer prints "import: N entries, R entries/s, …" every 2 s while its one transaction is
  // open (ingest/progress.ts): kill then.
  const i0 = Date.now();
  let progress = '';
  const importer: ChildProcess = startMain({
    args: ['import', file], env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', HARVEST_SCHEDULE_SECONDS: '0' }, lifetimeS: 120, logFile,
    onStderr: (chunk) => {
      const m = /([\d,]+) entries, [\d,]+ entries\/s/.exec(chunk);
      if (m && !progress) {
        progress = m[1];
        caught('progress');
      }
    },
  });
  let caught: (why: string) => void = () => {};
  const killed = new Promise<string>((resolve) => {
    caught = resolve;
    importer.once('exit', () => resolve('exited'));
  });
  const why = await Promise.race([killed, sleep(60_000).then(() => 'timeout')]);
  killGroup(importer, 'SIGKILL');
  await server!.crash();
  await exited(importer, 10_000);
  s.kill_after_ms = Date.now() - i0;
  s.entries_imported_at_kill = progress ? Number(progress.replace(/,/g, '')) : null;
  log(`import: killed importer and server after ${s.kill_after_ms} ms (${why}, ${progress || '?'} entries in the open transaction)`);
  if (!check(s, why === 'progress', `the import was not caught mid-way (${why}): ${tail(logFile, 500)}`)) return s;
  s.files_written_at_kill = orphanFileFolders().length - orphansBefore;

  const { ms } = await start();
  s.restart_ms = ms;
  c.base = server!.base;
  integrity(s, before.fk_violations);
  const after = counts();
  for (const k of Object.keys(before)) check(s, after[k] === before[k], `${k}: ${after[k]} after the killed import, ${before[k]} before`);
  const totalAfter = await totalOf(c, '');
  check(s, totalAfter === totalBefore, `search total: ${totalAfter} after, ${totalBefore} before`);
  s.counts = { entries: after.entries, data_sources: after.data_sources, search_total: totalAfter };
  // The transaction rolled back; the files the importer wrote were listed in its journal, and the
  // restarted server removed those no row records (FileStore.recoverJournals).
  const orphanList = orphanFileFolders();
  const orphans = orphanList.length - orphansBefore;
  s.orphan_file_folders = orphans;
  check(s, orphans <= 0, `${orphans} folder(s) under DATA_DIR/files/ written by the killed import are still there after the restart ` +
    `(e.g. ${orphanList.slice(0, 3).map((d) => `files/${d}/{${fs.readdirSync(path.join(dataDir, 'files', d)).join(',')}}`)})`);
  const journals = path.join(dataDir, 'files', '.journal');
  const leftJournals = fs.existsSync(journals) ? fs.readdirSync(journals).filter((n) => !processAlive(Number(n.split('-').at(-2)))) : [];
  check(s, leftJournals.length === 0, `journals of dead processes left: ${leftJournals.join(', ')}`);
  const lost = withDb((db) => (db.prepare('SELECT path FROM data_source_files').pluck().all() as string[]).filter((p) => !fs.existsSync(path.join(dataDir, p))));
  check(s, lost.length === 0, `recorded files missing after the restart: ${lost.slice(0, 3).join(', ')}`);
  return s;
}

// ---------------------------------------------------------------- (d) import into an empty catalogue

/**
 * With no other process on its DATA_DIR, an import into an empty catalogue writes the database file
 * directly, through a rollback journal instead of the WAL (ingest/jsonl.ts). Killed mid-way, it must
 * leave a catalogue that opens, is empty and intact, and is back in WAL mode.
 */
async function scenarioImportAlone(): Promise<Scenario> {
  const s = scenario();
  const dir = path.join(tmp, 'import-alone');
  const aloneDir = path.join(dir, 'data');
  const aloneDb = path.join(aloneDir, 'catalogue.sqlite');
  const { file } = makeCatalogue(dir);
  const env = { ...process.env, DATA_DIR: aloneDir, LOG_LEVEL: 'warn', HARVEST_SCHEDULE_SECONDS: '0' };
  let journalSeen = false;
  let scratchSeen = false;
  /** The scratch databases of full-text indexes being built (catalogue.sqlite-import-fts-<pid>). */
  const scratchFiles = () => (fs.existsSync(aloneDir) ? fs.readdirSync(aloneDir).filter((f) => f.startsWith('catalogue.sqlite-import-fts-')) : []);
  let caught: (why: string) => void = () => {};
  const importer: ChildProcess = startMain({
    args: ['import', file], env, lifetimeS: 120, logFile,
    onStderr: (chunk) => {
      if (!/[\d,]+ entries, [\d,]+ entries\/s/.test(chunk)) return;
      journalSeen ||= fs.existsSync(`${aloneDb}-journal`);
      scratchSeen ||= scratchFiles().length > 0;
      caught('progress');
    },
  });
  const killed = new Promise<string>((resolve) => {
    caught = resolve;
    importer.once('exit', () => resolve('exited'));
  });
  const why = await Promise.race([killed, sleep(60_000).then(() => 'timeout')]);
  killGroup(importer, 'SIGKILL');
  await exited(importer, 10_000);
  log(`import alone: killed the importer (${why}); its rollback journal was ${journalSeen ? '' : 'not '}there`);
  if (!check(s, why === 'progress', `the import into the empty catalogue was not caught mid-way (${why}): ${tail(logFile, 500)}`)) return s;
  check(s, journalSeen, 'the import into an empty catalogue with the database to itself did not write through a rollback journal');
  // The product's own open (migrate) rolls the journal back and makes the database WAL again.
  const migrated = runMain(['migrate'], env);
  check(s, migrated.code === 0, `migrate after the kill: exit ${migrated.code}: ${migrated.out.slice(-300)}`);
  const db = new Database(aloneDb, { fileMustExist: true });
  try {
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((x) => x.integrity_check).join('; ');
    check(s, integrity === 'ok', `PRAGMA integrity_check says "${integrity.slice(0, 300)}"`);
    for (const t of ['libraries', 'entries', 'data_sources', 'search_docs', 'agents']) {
      const n = db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number;
      check(s, n === 0, `${t}: ${n} rows after the killed import into the empty catalogue`);
    }
    const mode = db.pragma('journal_mode', { simple: true });
    s.journal_mode = mode;
    check(s, mode === 'wal', `journal_mode is ${mode} after the restart, not wal`);
  } finally {
    db.close();
  }
  check(s, !fs.existsSync(`${aloneDb}-journal`), 'the killed import\'s rollback journal is still there after the restart');
  // Its full-text index was being built in a scratch database beside the catalogue: the next start
  // (here, the import run again) removes it, and that import is whole.
  check(s, scratchSeen, 'the import into the empty catalogue did not build its full-text index in a scratch database');
  const again = runMain(['import', file], env);
  check(s, again.code === 0, `the import run again after the kill: exit ${again.code}: ${again.out.slice(-300)}`);
  check(s, scratchFiles().length === 0, `the scratch database of the full-text index is still there after the import ran again: ${scratchFiles().join(', ')}`);
  // A word of the file's first title (letters only: a MATCH expression).
  const word = /"type":"entry".*?"title":"([^"]*)/.exec(fs.readFileSync(file, 'utf8').slice(0, 200_000))?.[1]?.toLowerCase().match(/[a-z]{3,}/)?.[0] ?? 'none';
  const after = new Database(aloneDb, { fileMustExist: true, readonly: true });
  try {
    const { entries, found } = after.prepare(`SELECT (SELECT count(*) FROM entries) AS entries,
      (SELECT count(*) FROM entry_fts WHERE entry_fts MATCH ?) AS found`).get(`"${word}"`) as { entries: number; found: number };
    s.entries_after_reimport = entries;
    check(s, entries > 0 && found > 0, `after the import ran again: ${entries} entries, ${found} found by the full-text index`);
  } finally {
    after.close();
  }
  return s;
}

// ---------------------------------------------------------------- (b) spreadsheet

interface SheetRow { identifier: string; title: string; authors: string; languages: string; year_edition: number; publisher: string; description: string }
function sheetRows(n: number, changed: boolean): SheetRow[] {
  return Array.from({ length: n }, (_, i) => ({
    identifier: `chaos-${i}`,
    title: `Chaos sheet record ${i}`,
    authors: `Sheet Author ${i % 97}`,
    languages: 'en',
    year_edition: changed ? 1950 + (i % 50) : 1900 + (i % 50),
    publisher: changed ? 'Changed Press' : 'Base Press',
    description: changed ? `Row ${i} of the big sheet ${TOKEN}` : `Row ${i} of the base sheet`,
  }));
}
function csv(rows: SheetRow[]): string {
  const cols = ['identifier', 'title', 'authors', 'languages', 'year_edition', 'publisher', 'description'] as const;
  const q = (v: unknown) => (/[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  return [cols.join(','), ...rows.map((r) => cols.map((k) => q(r[k])).join(','))].join('\n') + '\n';
}

async function uploadSheet(c: Client, site: number, name: string, rows: SheetRow[]): Promise<number> {
  const form = new FormData();
  form.set('site_id', String(site));
  form.set('comment', 'chaos');
  form.set('spreadsheet', new Blob([csv(rows)], { type: 'text/csv' }), name);
  const r = await c.ok('POST', `/collector/api/spreadsheet/${LIBRARY}`, form);
  if (r.number_of_records !== rows.length) throw new Error(`upload ${name}: ${r.number_of_records} records of ${rows.length}`);
  return r.uploaded as number;
}

const siteRows = (site: number) =>
  withDb((db) => db.prepare('SELECT * FROM data_sources WHERE site_id = ? ORDER BY id').all(site) as Record<string, unknown>[]);

/** Every row of the sheet is in the site with the sheet's values, and nothing else is. */
function sameAsSheet(site: number, rows: SheetRow[]): string[] {
  const have = new Map(siteRows(site).map((r) => [r.identifier as string, r]));
  const problems: string[] = [];
  if (have.size !== rows.length) problems.push(`${have.size} data sources in the site, ${rows.length} rows in the sheet`);
  let wrong = 0;
  for (const r of rows) {
    const d = have.get(r.identifier);
    const same = d && d.title === r.title && d.authors === JSON.stringify([r.authors]) && d.languages === JSON.stringify([r.languages]) &&
      d.year_edition === r.year_edition && d.publisher === r.publisher && d.description === r.description && d.entry_id !== null;
    if (!same && wrong++ < 3) problems.push(`row ${r.identifier}: ${d ? JSON.stringify({ title: d.title, publisher: d.publisher, year_edition: d.year_edition, description: d.description, entry_id: d.entry_id }) : 'missing'}`);
  }
  if (wrong) problems.push(`${wrong} row(s) differ from the sheet`);
  return problems;
}

async function scenarioSpreadsheet(c: Client): Promise<Scenario> {
  const s = scenario();
  const password = `chaos-${Math.random().toString(36).slice(2)}-password`;
  const made = runMain(['admin', 'create-user', '--username', 'chaos-librarian', '--email', 'chaos-librarian@example.invalid', '--library-admin', String(LIBRARY)],
    { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, `${password}\n`);
  if (!check(s, made.code === 0, `admin create-user failed: ${made.out.slice(0, 300)}`)) return s;
  await c.ok('POST', '/collector/api/auth/login', { username: 'chaos-librarian', password });
  const site = (await c.ok('POST', `/collector/api/spreadsheet/site/${LIBRARY}`, { title: 'Chaos sheet', csv_type: 'generic' })).site.id as number;
  s.site_id = site;
  const status = (id: number) => c.ok('GET', `/collector/api/spreadsheet/status/${id}`);

  // A base sheet, processed normally: the big sheet then changes these rows and adds new ones.
  const baseId = await uploadSheet(c, site, 'base.csv', sheetRows(BASE_ROWS, false));
  await c.ok('POST', `/collector/api/spreadsheet/process/${baseId}`, {});
  await until('the base sheet', 60_000, 100, async () => ['finished', 'failed'].includes((await status(baseId)).status) && (await status(baseId)));
  const baseProblems = sameAsSheet(site, sheetRows(BASE_ROWS, false));
  if (!check(s, baseProblems.length === 0, `the base sheet was not stored: ${baseProblems.join('; ')}`)) return s;
  const snapshot = JSON.stringify(siteRows(site));

  const big = sheetRows(ROWS, true);
  const upId = await uploadSheet(c, site, 'big.csv', big);
  s.upload_id = upId;
  const p0 = Date.now();
  await c.ok('POST', `/collector/api/spreadsheet/process/${upId}`, {});
  const seen: string[] = [];
  const note = (st: { status: string; done: number }) => {
    const last = seen[seen.length - 1];
    const label = st.status;
    if (last !== label) seen.push(label);
  };

  const jobOf = (jobId: number | null) =>
    withDb((db) => (jobId ? (db.prepare('SELECT status, attempts, error FROM jobs WHERE id = ?').get(jobId) as { status: string; attempts: number; error: string | null }) : null));
  /**
   * Waits until attempt `round` of the job is running (after a restart the upload row still shows the
   * killed run's progress until the retry resets it), with at least one batch stored and rows still to
   * go, then kill -9.
   */
  const killMidway = async (round: number, staleDone: number) => {
    let reset = round === 1;
    const st = await until(`attempt ${round} of the job working mid-way`, 90_000, 40, async () => {
      const st = await status(upId);
      note(st);
      if (st.status === 'finished' || st.status === 'failed') throw new Error(`the upload ended ${st.status} before it could be killed (make --rows larger)`);
      const job = jobOf(st.job_id);
      if (!job || job.status !== 'active' || job.attempts !== round || st.status !== 'working') return null;
      if (st.done < staleDone || st.done === 0) reset = true;
      return st.done >= 500 && st.done < st.total && (reset || st.done > staleDone) ? st : null;
    });
    await server!.crash();
    seen.push(`KILLED at ${st.done}/${st.total}`);
    log(`spreadsheet: server killed while the upload was working (${st.done}/${st.total} rows, attempt ${round})`);
    return st.done as number;
  };

  const kills: { done: number; rows_applied_after_restart: number; restart_ms: number }[] = [];
  let staleDone = 0;
  for (let k = 1; k <= SHEET_KILLS; k++) {
    const done = await killMidway(k, staleDone);
    staleDone = done;
    const { ms } = await start();
    c.base = server!.base;
    integrity(s);
    // Right after the restart (the job waits ~15 s for its heartbeat to go stale) the killed run's
    // batches are still there: evidence the kill landed mid-way; they must be gone or complete at the end.
    const applied = withDb((db) => db.prepare('SELECT count(*) FROM data_sources WHERE site_id = ? AND description LIKE ?').pluck().get(site, `%${TOKEN}%`) as number);
    kills.push({ done, rows_applied_after_restart: applied, restart_ms: ms });
  }
  s.kills = kills;

  // The retry (a stale heartbeat is noticed after ~15 s), or the queue's failure after the last attempt.
  const r0 = Date.now();
  let end = await until('the upload to finish or fail after the restart', 120_000, 250, async () => {
    const st = await status(upId);
    note(st);
    if (st.status === 'finished' || st.status === 'failed') return st;
    // The job may be failed by the queue while the upload still says working: that is stuck.
    const job = withDb((db) => (st.job_id ? db.prepare('SELECT status, error, attempts FROM jobs WHERE id = ?').get(st.job_id) : null)) as { status: string; error: string; attempts: number } | null;
    if (job && (job.status === 'failed' || job.status === 'finished') && Date.now() - r0 > 5000) {
      return { ...st, stuck: true, job };
    }
    return null;
  });
  s.recovered_after_ms = Date.now() - r0;
  s.statuses = seen;
  if ((end as { stuck?: boolean }).stuck) {
    const job = (end as unknown as { job: { status: string; error: string; attempts: number } }).job;
    check(s, false, `the upload still says "${end.status}" (done ${end.done}/${end.total}) while its job ${end.job_id} is ${job.status} after ${job.attempts} attempts ("${job.error}"): the page would poll "working" forever`);
    s.half_applied_while_stuck = withDb((db) => db.prepare('SELECT count(*) FROM data_sources WHERE site_id = ? AND description LIKE ?').pluck().get(site, `%${TOKEN}%`) as number);
    // Still processable again? (process() accepts an orphaned upload.)
    const again = await c.call('POST', `/collector/api/spreadsheet/process/${upId}`, {});
    s.process_again_status = again.status;
    if (!check(s, again.status === 200, `processing the stuck upload again answered ${again.status}`)) return s;
    end = await until('the reprocessed upload', 90_000, 250, async () => {
      const st = await status(upId);
      note(st);
      return st.status === 'finished' || st.status === 'failed' ? st : null;
    });
  }
  s.outcome = end.status;
  if (end.status === 'failed') {
    check(s, !!end.error, 'the upload failed without a reason');
    s.error = end.error;
    const same = JSON.stringify(siteRows(site)) === snapshot;
    check(s, same, 'the failed upload left rows changed or added (not undone)');
    check(s, (await totalOf(c, TOKEN)) === 0, `search finds rows of the failed upload`);
    const again = await c.call('POST', `/collector/api/spreadsheet/process/${upId}`, {});
    if (!check(s, again.status === 200, `the failed upload cannot be processed again: HTTP ${again.status}`)) return s;
    end = await until('the upload processed again', 90_000, 250, async () => {
      const st = await status(upId);
      note(st);
      return st.status === 'finished' || st.status === 'failed' ? st : null;
    });
    s.outcome = `failed, then ${end.status} when processed again`;
  }
  s.statuses = seen;
  s.total_ms = Date.now() - p0;
  if (check(s, end.status === 'finished', `the upload ended ${end.status}: ${end.error ?? ''}`)) {
    check(s, end.done === ROWS && end.stored === ROWS, `finished with done ${end.done}, stored ${end.stored} of ${ROWS}`);
    const problems = sameAsSheet(site, big);
    check(s, problems.length === 0, `the site's data sources differ from the sheet: ${problems.join('; ')}`);
    const found = await totalOf(c, TOKEN);
    check(s, found === ROWS, `search finds ${found} entries of the sheet, expected ${ROWS}`);
    const journal = withDb((db) => db.prepare('SELECT count(*) FROM spreadsheet_journal WHERE upload_id = ?').pluck().get(upId) as number);
    check(s, journal === 0, `${journal} journal rows left for the finished upload`);
  }
  s.job = withDb((db) => db.prepare('SELECT id, status, attempts, max_attempts, error FROM jobs WHERE id = (SELECT job_id FROM spreadsheet_uploads WHERE id = ?)').get(upId));
  integrity(s);
  return s;
}

// ---------------------------------------------------------------- (c) book build

function bookbuilderFiles(s: Scenario, label: string): void {
  const root = path.join(dataDir, 'bookbuilder');
  const dirs = fs.existsSync(root) ? fs.readdirSync(root) : [];
  const rows = withDb((db) => db.prepare('SELECT id, output FROM book_sessions').all() as { id: string; output: string | null }[]);
  const sessions = new Map(rows.map((r) => [r.id, r]));
  const orphanDirs = dirs.filter((d) => !sessions.has(d));
  check(s, orphanDirs.length === 0, `${label}: folder(s) under bookbuilder/ without a session: ${orphanDirs.join(', ')}`);
  const files = walk(root);
  const tmpFiles = files.filter((f) => /\.tmp-\d+$/.test(f));
  const deadTmp = tmpFiles.filter((f) => !processAlive(Number(/\.tmp-(\d+)$/.exec(f)![1])));
  check(s, deadTmp.length === 0, `${label}: temporary file(s) of no running process: ${deadTmp.map((f) => path.relative(dataDir, f)).join(', ')}`);
  // In a session folder: its texts, and the one output it records; an older or unrecorded PDF is orphaned.
  const strayPdfs = files.filter((f) => {
    const rel = path.relative(root, f).split(path.sep);
    if (rel.length !== 2 || !/^book-\d+\.pdf$/.test(rel[1])) return false;
    return sessions.get(rel[0])?.output !== rel[1];
  });
  check(s, strayPdfs.length === 0, `${label}: PDF(s) no session records as its output: ${strayPdfs.map((f) => path.relative(dataDir, f)).join(', ')}`);
}

async function scenarioBook(c: Client): Promise<Scenario> {
  const s = scenario();
  const muse = withDb((db) => db.prepare(`SELECT data_source_id FROM data_source_files GROUP BY data_source_id
    HAVING sum(ext = '.muse') > 0 AND sum(ext = '.zip') > 0 ORDER BY data_source_id`).pluck().all() as number[]);
  // The demo's own texts (the import scenario's Muse copies were rolled back).
  if (!check(s, muse.length > 0, 'no data source with a Muse source and its zip in the database')) return s;
  const book = new Client(c.base);
  let sid: string | null = null;
  for (const ds of muse) {
    const r = await book.call('POST', '/collector/api/bookbuilder', sid ? { action: 'add', add: ds, session_id: sid } : { action: 'add', add: ds });
    if (r.status === 200) sid = r.json.session_id;
  }
  if (!check(s, !!sid, 'no text could be added to the Book Builder')) return s;
  const texts = (await book.ok('POST', '/collector/api/bookbuilder', { action: 'list', session_id: sid })).texts.length as number;
  s.texts = texts;
  const data = { title: 'Chaos collection', author: 'scripts/chaos.ts', imposition_schema: '2up', signature_2up: '16' };
  const check_job = (job: number) => book.ok('POST', '/collector/api/bookbuilder', { action: 'check_job', session_id: sid, check_job_id: job });

  // Build, and kill -9 once the job has been active a moment; a build that ends first is tried again.
  let jobId = 0;
  let activeMs = 0;
  for (let attempt = 1; attempt <= 3 && !activeMs; attempt++) {
    const b0 = Date.now();
    jobId = (await book.ok('POST', '/collector/api/bookbuilder', { action: 'build', session_id: sid, collection_data: data })).job_id;
    let firstActive = 0;
    for (;;) {
      const st = await check_job(jobId);
      if (st.status === 'active' && !firstActive) firstActive = Date.now();
      if (st.status === 'finished' || st.status === 'failed') {
        log(`book: build ${jobId} ended ${st.status} before the kill (attempt ${attempt})`);
        break;
      }
      if (firstActive && Date.now() - firstActive >= 150 * attempt) {
        await server!.crash();
        activeMs = Date.now() - firstActive;
        s.build_started_to_kill_ms = Date.now() - b0;
        break;
      }
      if (Date.now() - b0 > 60_000) throw new Error(`build ${jobId} never became active`);
      await sleep(15);
    }
  }
  if (!check(s, activeMs > 0, 'three builds ended before the server could be killed while active')) return s;
  s.job_id = jobId;
  s.killed_after_active_ms = activeMs;
  log(`book: server killed while build ${jobId} was active (${activeMs} ms)`);
  const tmpAtKill = walk(path.join(dataDir, 'bookbuilder')).filter((f) => /\.tmp-\d+$/.test(f));
  s.tmp_files_at_kill = tmpAtKill.map((f) => path.basename(f));

  const { ms } = await start();
  s.restart_ms = ms;
  book.base = server!.base;
  integrity(s);
  const r0 = Date.now();
  const seen: string[] = [];
  const end = await until(`build ${jobId} to finish or fail after the restart`, 120_000, 250, async () => {
    const st = await check_job(jobId);
    if (seen[seen.length - 1] !== st.status) seen.push(st.status);
    return st.status === 'finished' || st.status === 'failed' || st.status === 'not found' ? st : null;
  });
  s.statuses = seen;
  s.recovered_after_ms = Date.now() - r0;
  s.outcome = end.status;
  s.job = withDb((db) => db.prepare('SELECT id, status, attempts, max_attempts, error FROM jobs WHERE id = ?').get(jobId));
  if (end.status === 'finished') {
    s.pages = end.pages;
    const pdf = await book.call('GET', `/collector/api/bookbuilder/${sid}?job=${jobId}`);
    check(s, pdf.status === 200 && pdf.bytes.subarray(0, 5).toString('latin1') === '%PDF-', `the finished build's PDF: HTTP ${pdf.status}, ${pdf.bytes.length} bytes`);
  } else {
    check(s, end.status === 'failed' && !!end.error, `the build ended "${end.status}" without a reason`);
    s.error = end.error;
  }
  bookbuilderFiles(s, 'after the restart');
  return s;
}

// ---------------------------------------------------------------- (e) backup

/** Path, size and sha256 of every file under `dir` (symbolic links aside): a folder's exact content. */
function treeDigest(dir: string): string {
  return walk(dir).sort().map((f) => `${path.relative(dir, f)} ${fs.statSync(f).size} ${createHash('sha256').update(fs.readFileSync(f)).digest('hex')}`).join('\n');
}

/** The live stored files (the data sources' and the Book Builder's): a backup only reads them. */
const liveFiles = () => treeDigest(path.join(dataDir, 'files')).split('\n').filter((l) => !l.startsWith('.journal')).join('\n') + treeDigest(path.join(dataDir, 'bookbuilder'));

async function scenarioBackup(): Promise<Scenario> {
  const s = scenario();
  const backups = path.join(tmp, 'backups');
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  const first = runMain(['backup', backups], env);
  if (!check(s, first.code === 0, `the first backup failed: ${first.out.slice(-300)}`)) return s;
  const earlier = fs.readdirSync(backups);
  const earlierDir = path.join(backups, earlier[0]);
  const earlierDigest = treeDigest(earlierDir);
  const before = counts();
  const filesBefore = liveFiles();

  // Killed (kill -9, the whole process group) as soon as its temporary folder appears: while it copies
  // the database. A backup that ends before it is seen is tried again.
  let partial = '';
  for (let attempt = 1; attempt <= 3 && !partial; attempt++) {
    const child = startMain({ args: ['backup', backups], env, lifetimeS: 60, logFile });
    const t = Date.now();
    while (child.exitCode === null && child.signalCode === null && Date.now() - t < 60_000) {
      const seen = fs.readdirSync(backups).find((n) => n.startsWith('.partial-'));
      if (seen) {
        killGroup(child, 'SIGKILL');
        partial = seen;
        break;
      }
      await sleep(2);
    }
    await exited(child, 10_000);
    s.kill_attempts = attempt;
    if (!partial) log(`backup: attempt ${attempt} ended (exit ${child.exitCode}) before it could be killed`);
  }
  if (!check(s, !!partial, 'three backups ended before one could be killed mid-way')) return s;
  log(`backup: killed while it wrote ${partial}`);
  const left = fs.readdirSync(backups);
  s.left_after_kill = left;
  check(s, left.includes(partial), `the killed backup's temporary folder is gone (${left.join(', ')}): was it killed mid-way?`);
  check(s, !fs.existsSync(path.join(backups, partial, MANIFEST)), 'the killed backup left a manifest: it would look whole');
  const whole = left.filter((n) => !n.startsWith('.'));
  check(s, whole.length === 1 && whole[0] === earlier[0], `whole backups after the kill: ${whole.join(', ')} (only ${earlier[0]} expected)`);
  check(s, resolveBackupDir(backups) === earlierDir, `restore would take ${resolveBackupDir(backups)}, not the earlier backup`);
  let refused = '';
  try {
    resolveBackupDir(path.join(backups, partial));
  } catch (e) {
    refused = (e as Error).message;
  }
  check(s, /did not finish/.test(refused), `restore of the killed backup's folder was not refused as unfinished: "${refused}"`);
  check(s, treeDigest(earlierDir) === earlierDigest, 'the earlier backup changed');
  const earlierCheck = checkBackup(earlierDir).problems;
  check(s, earlierCheck.length === 0, `the earlier backup fails its check: ${earlierCheck.join('; ')}`);
  // The live data: the same rows, intact, and the same stored files.
  integrity(s, before.fk_violations);
  const after = counts();
  for (const k of Object.keys(before)) check(s, after[k] === before[k], `${k}: ${after[k]} after the killed backup, ${before[k]} before`);
  check(s, liveFiles() === filesBefore, 'the live stored files changed during the killed backup');

  // The next backup removes the dead one's folder and is whole.
  const next = runMain(['backup', backups], env);
  if (!check(s, next.code === 0, `the backup after the kill failed: ${next.out.slice(-300)}`)) return s;
  check(s, next.out.includes(`Removed ${partial}`), `the next backup did not say it removed ${partial}: ${next.out.slice(-300)}`);
  const end = fs.readdirSync(backups);
  s.backups_at_end = end;
  check(s, end.length === 2 && !end.some((n) => n.startsWith('.')), `backups at the end: ${end.join(', ')}`);
  const newest = resolveBackupDir(backups);
  const { manifest, problems } = checkBackup(newest);
  check(s, newest !== earlierDir && problems.length === 0, `the next backup ${newest} fails its check: ${problems.join('; ')}`);
  check(s, manifest.counts.entries === after.entries, `the next backup holds ${manifest.counts.entries} entries, the catalogue ${after.entries}`);
  s.next_backup = { files: manifest.files.length, seconds: manifest.seconds, entries: manifest.counts.entries };
  return s;
}

// ---------------------------------------------------------------- main

async function main() {
  const result: Record<string, unknown> = { chaos: 'failed' };
  const scenarios: Record<string, Scenario> = {};
  try {
    log(`DATA_DIR ${dataDir}`);
    const first = await start();
    log(`server ready in ${first.ms} ms (demo catalogue loaded)`);
    const c = new Client(server!.base);
    const all = [['import', scenarioImport], ['import-alone', scenarioImportAlone], ['spreadsheet', scenarioSpreadsheet], ['book', scenarioBook], ['backup', scenarioBackup]] as const;
    for (const [name, run] of all.filter(([n]) => ONLY.length === 0 || ONLY.includes(n))) {
      const s0 = Date.now();
      try {
        c.base = server!.base;
        scenarios[name] = await run(c);
      } catch (e) {
        scenarios[name] = { ...scenario(), ok: false, failures: [`error: ${(e as Error).message}`] };
        log(`${name}: ${(e as Error).stack}`);
        if (!server?.alive()) {
          // Leave the next scenario a running server.
          try {
            await start();
          } catch (e2) {
            scenarios[name].failures.push(`restart: ${(e2 as Error).message.split('\n')[0]}`);
            break;
          }
        }
      }
      scenarios[name].seconds = secs(Date.now() - s0);
      log(`${name}: ${scenarios[name].ok ? 'ok' : 'FAILED'} in ${scenarios[name].seconds} s`);
    }
  } catch (e) {
    result.error = (e as Error).message.split('\n')[0];
    log((e as Error).stack ?? String(e));
  } finally {
    await server?.stop();
  }
  const ok = Object.keys(scenarios).length === (ONLY.length || 5) && Object.values(scenarios).every((s) => s.ok) && !result.error;
  result.chaos = ok ? 'ok' : 'failed';
  result.seconds = secs(Date.now() - t0);
  result.scenarios = scenarios;
  console.log(JSON.stringify(result));
  if (!ok) console.error(`server log (tail):\n${tail(logFile, 2000)}`);
  return ok;
}

const watchdog = setTimeout(() => {
  console.log(JSON.stringify({ chaos: 'failed', error: `still running after ${LIMIT_S} s`, seconds: secs(Date.now() - t0) }));
  process.exit(1);
}, LIMIT_S * 1000);
watchdog.unref();

main()
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch((e) => {
    console.error(e);
    process.exit(1);
  });
