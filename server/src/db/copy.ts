// `npm run db:copy -- --to postgres://... [--from FILE] [--force]`: moves a SQLite installation's data
// into PostgreSQL (docs/operations.md, "PostgreSQL"). Both schemas come from the same migrations, so
// every table is copied column by column, parents before children, in one PostgreSQL transaction.
import fs from 'node:fs';
import { migrate, openDatabase, type Db, type SqlConnection } from './index.ts';
import { isPostgresUrl } from './pg-open.ts';
import { PgConnection, toPgText } from './postgres.ts';
import { Indexer } from '../search/indexer.ts';

export interface CopyOptions {
  /** Replace what the target holds (refused otherwise when it has rows). */
  force?: boolean;
  /** A progress line per long table every this many ms (2 s). */
  progressEveryMs?: number;
  log?: (line: string) => void;
  /**
   * Rebuilds what PostgreSQL derives from the copied rows (the entry_fts texts and search_docs), inside the copy's
   * transaction while the triggers are still off (so the OAI-PMH datestamps stay as copied).
   */
  rebuild?: () => void;
}

export interface CopySummary {
  tables: { name: string; rows: number }[];
  rows: number;
  seconds: number;
}

export class CopyRefused extends Error {}

/** Rows the migrations themselves write (the OAI-PMH token key): the copy replaces them; they do not make the target "non-empty". */
const MIGRATION_ROWS = new Set(['oai_secret']);
/** PostgreSQL takes at most 65,535 parameters per statement. */
const MAX_PARAMS = 60_000;
const BATCH_ROWS = 1_000;
/** A batch of long texts (full texts) is sent before it reaches this many characters. */
const BATCH_CHARS = 16 << 20;

interface Table {
  name: string;
  columns: string[];
  /** Single-column primary key (for the second pass over `deferred`). */
  pk: string | null;
  /** Foreign keys: column -> parent table. */
  parents: Map<string, string>;
  /** Columns written in a second pass: their parent is this table or comes later (a cycle). */
  deferred: string[];
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The source's tables, less SQLite's own, Kysely's bookkeeping and virtual tables (FTS5) with their shadow tables. */
function sourceTables(lite: SqlConnection): Table[] {
  const all = lite.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string; sql: string }[];
  const virtual = all.filter((t) => /^\s*CREATE\s+VIRTUAL\b/i.test(t.sql)).map((t) => t.name);
  return all
    .filter((t) => !/^(sqlite_|kysely_)/.test(t.name) && !virtual.some((v) => t.name === v || t.name.startsWith(`${v}_`)))
    .map((t) => {
      const info = lite.prepare('SELECT name, pk FROM pragma_table_info(?) ORDER BY cid').all(t.name) as { name: string; pk: number }[];
      const pks = info.filter((c) => c.pk > 0);
      const fks = lite.prepare('SELECT "table" AS parent, "from" AS col FROM pragma_foreign_key_list(?)').all(t.name) as { parent: string; col: string }[];
      return {
        name: t.name,
        columns: info.map((c) => c.name),
        pk: pks.length === 1 ? pks[0]!.name : null,
        parents: new Map(fks.map((f) => [f.col, f.parent])),
        deferred: [],
      };
    });
}

/**
 * Parents before children. A table in a cycle (or referring to itself) is taken when nothing else is
 * left; its columns pointing at tables not yet copied are written in a second pass.
 */
function dependencyOrder(tables: Table[]): Table[] {
  const left = new Map(tables.map((t) => [t.name, t]));
  const order: Table[] = [];
  while (left.size) {
    const ready = [...left.values()].filter((t) => [...t.parents.values()].every((p) => p === t.name || !left.has(p)));
    const next = ready.length ? ready : [[...left.values()][0]!];
    for (const t of next) {
      t.deferred = [...t.parents].filter(([, p]) => left.has(p)).map(([c]) => c);
      if (t.deferred.length && !t.pk) throw new Error(`table ${t.name}: its references form a cycle and it has no single-column primary key`);
      left.delete(t.name);
      order.push(t);
    }
  }
  return order;
}

function pgColumns(pg: PgConnection): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  const rows = pg.query(`SELECT c.table_name, c.column_name, format_type(a.atttypid, a.atttypmod)
    FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
    JOIN pg_attribute a ON a.attrelid = to_regclass(quote_ident(c.table_name)) AND a.attname = c.column_name
    WHERE c.table_schema = current_schema() AND c.table_name NOT LIKE 'kysely_%'`);
  for (const [t, c, type] of rows as [string, string, string][]) {
    if (!out.has(t)) out.set(t, new Map());
    out.get(t)!.set(c, type);
  }
  return out;
}

function count(pg: PgConnection, table: string): number {
  return pg.query(`SELECT count(*) FROM ${q(table)}`)[0]![0] as number;
}

/**
 * Copies every table of `lite` (migrated) into `pg` (migrated, empty unless `force`). Triggers are off
 * during the copy (the OAI-PMH record state is copied as it is, datestamps included); identity
 * sequences continue after the largest id SQLite gave; `rebuild` derives what PostgreSQL adds.
 */
export function copySqliteToPostgres(lite: SqlConnection, pg: PgConnection, opts: CopyOptions = {}): CopySummary {
  // One read transaction: every table as of the same moment, even if a node still writes (WAL).
  if (lite.inTransaction) return copyRows(lite, pg, opts);
  lite.exec('BEGIN');
  try {
    return copyRows(lite, pg, opts);
  } finally {
    lite.exec('COMMIT');
  }
}

function copyRows(lite: SqlConnection, pg: PgConnection, opts: CopyOptions): CopySummary {
  const started = Date.now();
  const log = opts.log ?? (() => {});
  const everyMs = opts.progressEveryMs ?? 2000;
  const targetColumns = pgColumns(pg);
  const tables = dependencyOrder(sourceTables(lite));
  for (const t of tables) {
    const cols = targetColumns.get(t.name);
    if (!cols) throw new Error(`table ${t.name} is not in the PostgreSQL database (are both migrated by the same version?)`);
    const missing = t.columns.filter((c) => !cols.has(c));
    if (missing.length) throw new Error(`table ${t.name}: PostgreSQL has no column ${missing.join(', ')} (are both migrated by the same version?)`);
  }
  const filled = [...targetColumns.keys()].filter((t) => !MIGRATION_ROWS.has(t) && count(pg, t) > 0);
  if (filled.length && !opts.force) {
    throw new CopyRefused(`The PostgreSQL database is not empty (${filled.slice(0, 5).join(', ')}${filled.length > 5 ? ', ...' : ''} have rows): nothing copied. --force replaces what it holds.`);
  }

  const summary: CopySummary = { tables: [], rows: 0, seconds: 0 };
  pg.transaction(() => {
    // Every table of the target, also what only PostgreSQL has (entry_fts: derived from the copied rows).
    pg.exec(`TRUNCATE ${[...targetColumns.keys()].map(q).join(', ')} RESTART IDENTITY CASCADE`);
    for (const t of targetColumns.keys()) pg.exec(`ALTER TABLE ${q(t)} DISABLE TRIGGER USER`);
    for (const t of tables) {
      const rows = copyTable(lite, pg, t, targetColumns.get(t.name)!, log, everyMs);
      summary.tables.push({ name: t.name, rows });
      summary.rows += rows;
    }
    opts.rebuild?.();
    for (const t of targetColumns.keys()) pg.exec(`ALTER TABLE ${q(t)} ENABLE TRIGGER USER`);
    // Identity columns continue after the largest id SQLite ever gave (AUTOINCREMENT keeps it in
    // sqlite_sequence: an id of a deleted row is not given again), or copied (TRUNCATE restarted them).
    const hasSeq = lite.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_sequence'").pluck().get() as number;
    const given = new Map(hasSeq ? lite.prepare('SELECT name, seq FROM sqlite_sequence').raw().all() as [string, number][] : []);
    const identities = pg.query(`SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND is_identity = 'YES'`) as [string, string][];
    for (const [table, col] of identities) {
      pg.query(`SELECT setval(pg_get_serial_sequence($1, $2), greatest(coalesce(max(${q(col)}), 0), $3::bigint) + 1, false) FROM ${q(table)}`,
        [q(table), col, String(given.get(table) ?? 0)]);
    }
  }).immediate();
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}

function copyTable(lite: SqlConnection, pg: PgConnection, t: Table, types: Map<string, string>, log: (line: string) => void, everyMs: number): number {
  const total = lite.prepare(`SELECT count(*) FROM ${q(t.name)}`).pluck().get() as number;
  const deferredAt = t.deferred.map((c) => t.columns.indexOf(c));
  const pkAt = t.pk ? t.columns.indexOf(t.pk) : -1;
  /** [pk, ...deferred values] of rows with a deferred value. */
  const later: unknown[][] = [];
  const width = t.columns.length;
  const maxRows = Math.max(1, Math.min(BATCH_ROWS, Math.floor(MAX_PARAMS / width)));
  const insertHead = `INSERT INTO ${q(t.name)} (${t.columns.map(q).join(', ')}) VALUES `;
  let params: (string | null)[] = [];
  let chars = 0;
  let done = 0;
  const started = Date.now();
  let lastLine = started;

  const flush = () => {
    const n = params.length / width;
    if (!n) return;
    const values: string[] = [];
    for (let r = 0; r < n; r++) values.push(`(${t.columns.map((_, c) => `$${r * width + c + 1}`).join(', ')})`);
    pg.query(insertHead + values.join(', '), params);
    done += n;
    params = [];
    chars = 0;
    const now = Date.now();
    if (now - lastLine >= everyMs) {
      lastLine = now;
      const rate = Math.round(done / Math.max((now - started) / 1000, 0.001));
      log(`${t.name}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} rows, ${rate.toLocaleString('en')} rows/s`);
    }
  };

  for (const row of lite.prepare(`SELECT ${t.columns.map(q).join(', ')} FROM ${q(t.name)}`).raw().iterate() as IterableIterator<unknown[]>) {
    if (deferredAt.length && deferredAt.some((i) => row[i] != null)) {
      later.push([row[pkAt], ...deferredAt.map((i) => row[i])]);
      for (const i of deferredAt) row[i] = null;
    }
    for (const v of row) {
      const text = toPgText(v);
      if (text) chars += text.length;
      params.push(text);
    }
    if (params.length / width >= maxRows || chars >= BATCH_CHARS) flush();
  }
  flush();

  // The second pass: references to rows of this table (or of one copied after it).
  if (later.length) {
    const cols = [t.pk!, ...t.deferred];
    const cast = cols.map((c) => types.get(c) ?? 'text');
    const step = Math.max(1, Math.floor(MAX_PARAMS / cols.length));
    for (let i = 0; i < later.length; i += step) {
      const chunk = later.slice(i, i + step);
      const values = chunk.map((_, r) => `(${cols.map((_, c) => `$${r * cols.length + c + 1}::${cast[c]}`).join(', ')})`);
      pg.query(`UPDATE ${q(t.name)} SET ${t.deferred.map((c, k) => `${q(c)} = v.c${k}`).join(', ')}
        FROM (VALUES ${values.join(', ')}) AS v(k, ${t.deferred.map((_, k) => `c${k}`).join(', ')}) WHERE ${q(t.name)}.${q(t.pk!)} = v.k`,
      chunk.flat().map(toPgText));
    }
  }
  if (Date.now() - started >= everyMs) log(`${t.name}: ${done.toLocaleString('en')} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return done;
}

export function parseCopyArgs(args: string[]): { to: string; from: string | null; force: boolean } | string {
  const usage = 'usage: npm run db:copy -- --to postgres://USER:PASSWORD@HOST:PORT/DATABASE [--from FILE.sqlite] [--force]';
  let to = '';
  let from: string | null = null;
  let force = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--force') force = true;
    else if (a === '--to' || a === '--from') {
      const v = args[++i];
      if (!v) return `${a} needs a value; ${usage}`;
      if (a === '--to') to = v;
      else from = v;
    } else return `unknown argument "${a}"; ${usage}`;
  }
  if (!to) return `--to is missing; ${usage}`;
  if (!isPostgresUrl(to)) return `--to must be a postgres:// URL; ${usage}`;
  return { to, from, force };
}

/** Chunks of entries indexed at a time (a progress line after each when it takes a while). */
const INDEX_CHUNK = 10_000;

/**
 * entry_fts is not copied (FTS5 keeps no readable text): every entry is indexed again on PostgreSQL by
 * the search Indexer, in the copy's transaction. Its search_docs rows come out the same (new seq values).
 */
function rebuildSearch(db: Db, log: (line: string) => void): void {
  const ids = db.sqlite.prepare('SELECT id FROM entries WHERE canonical_entry_id IS NULL ORDER BY id').pluck().all() as number[];
  if (!ids.length) return;
  const indexer = new Indexer(db);
  // A catalogue indexed in an older format is rebuilt (and marked current) by the Indexer's own rule.
  if (indexer.ensureFormat(log) > 0) return;
  const started = Date.now();
  for (let i = 0; i < ids.length; i += INDEX_CHUNK) {
    indexer.reindex(ids.slice(i, i + INDEX_CHUNK), { inTransaction: true });
    const seconds = (Date.now() - started) / 1000;
    const done = Math.min(i + INDEX_CHUNK, ids.length);
    if (seconds >= 2) log(`search index: ${done.toLocaleString('en')} of ${ids.length.toLocaleString('en')} entries, ${Math.round(done / seconds).toLocaleString('en')} entries/s`);
  }
}

/** The command: migrates both databases (the SQLite file as `npm run migrate` would), then copies. */
export async function runCopyCli(args: string[], defaultSource: string, log: (line: string) => void): Promise<number> {
  const parsed = parseCopyArgs(args);
  if (typeof parsed === 'string') {
    log(parsed);
    return 2;
  }
  const from = parsed.from ?? defaultSource;
  if (isPostgresUrl(from) || !fs.existsSync(from)) {
    log(`No SQLite database at ${from} (DATA_DIR's catalogue.sqlite, or --from FILE).`);
    return 2;
  }
  let source: Db | null = null;
  let target: Db | null = null;
  try {
    source = openDatabase(from);
    await migrate(source);
    target = openDatabase(parsed.to);
    await migrate(target);
    log(`Copying ${from} to ${target.sqlite.name}...`);
    const pgDb = target;
    const s = copySqliteToPostgres(source.sqlite, target.sqlite as PgConnection, { force: parsed.force, log, rebuild: () => rebuildSearch(pgDb, log) });
    for (const t of s.tables) if (t.rows) log(`  ${t.name}: ${t.rows.toLocaleString('en')} rows`);
    log(`Copied ${s.rows.toLocaleString('en')} rows in ${s.tables.length} tables in ${s.seconds.toFixed(1)} s.`);
    return 0;
  } catch (e) {
    log(e instanceof CopyRefused ? e.message : `Copy failed, the PostgreSQL database was left as it was: ${(e as Error).message}`);
    return 1;
  } finally {
    await target?.close();
    await source?.close();
  }
}
