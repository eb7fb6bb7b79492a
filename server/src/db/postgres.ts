// PostgreSQL behind the better-sqlite3 API the services use (SqlConnection): one libpq connection in this
// thread, synchronous like SQLite (docs/architecture.md, "Database back ends"). What it translates:
// - placeholders: `?`, `?NNN`, `@name`, `:name`, `$name` become $1..$n; arguments bind as better-sqlite3 binds them;
// - values: integers, bigint, numeric and floats come back as numbers, booleans as 1/0, bytea as Buffer
//   (what SQLite gives); text, JSON and dates as strings;
// - run(): {changes, lastInsertRowid}, the id from a RETURNING added to INSERTs into tables with an
//   identity column (or an integer primary key); an explicit id moves the identity sequence past it;
// - transaction(fn): BEGIN/COMMIT, nested ones as savepoints; .immediate/.exclusive also take one
//   database-wide advisory lock, as SQLite's write lock serialises such transactions.
// Statements are prepared once per connection and SQL text (a Map lookup afterwards; the 2,000 most
// recently used stay prepared on the server). A bulk load's writes may go without waiting (`later`):
// queued, sent as the server is free (pump), finished before any other statement (settle).
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { PG_LOCK_TIMEOUT, type SqlConnection } from './connection.ts';

const require = createRequire(import.meta.url);

/** The part of libpq's binding (npm `libpq`, the one pg-native wraps) used here. */
interface PQ {
  connectSync(conninfo: string): void;
  finish(): void;
  exec(text: string): void;
  execParams(text: string, params: (string | null)[]): void;
  prepare(name: string, text: string, nParams: number): void;
  execPrepared(name: string, params: (string | null)[]): void;
  sendQueryPrepared(name: string, params: (string | null)[]): boolean;
  sendQuery(text: string): boolean;
  consumeInput(): boolean;
  isBusy(): boolean;
  describePrepared(name: string): void;
  resultStatus(): string;
  resultErrorMessage(): string;
  resultErrorFields(): { sqlState?: string } | null;
  errorMessage(): string;
  ntuples(): number;
  nfields(): number;
  fname(i: number): string;
  ftype(i: number): number;
  getvalue(row: number, col: number): string;
  getisnull(row: number, col: number): boolean;
  cmdTuples(): string;
  putCopyData(buffer: Buffer): number;
  putCopyEnd(errorMessage?: string): number;
  getResult(): boolean;
}

/** Loads libpq (an optional dependency: it compiles against Debian's libpq-dev); a clear error when absent. */
function loadLibpq(): new () => PQ {
  try {
    return require('libpq');
  } catch (e) {
    throw new Error(`PostgreSQL needs the npm package "libpq" (built against libpq-dev: apt-get install libpq-dev; npm rebuild libpq): ${(e as Error).message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Placeholders

/** A parameter of the translated SQL: a positional argument (0-based) or a named one. */
export type Slot = { index: number } | { name: string };

export interface Translated {
  text: string;
  /** slots[k] feeds $k+1. */
  slots: Slot[];
}

const identStart = /[A-Za-z_]/;
const identChar = /[A-Za-z0-9_]/;

/**
 * Rewrites better-sqlite3's placeholders into PostgreSQL's $n, leaving string literals, quoted
 * identifiers, comments, dollar-quoted bodies and `::` casts alone. `?` always means a parameter
 * (use jsonb_exists() for jsonb's `?` operator); `@` and `:` before a name are parameters unless part
 * of an operator (`@@`, `<@`, `::`).
 */
export function translatePlaceholders(sql: string): Translated {
  let out = '';
  const slots: Slot[] = [];
  const named = new Map<string, number>();
  const numbered = new Map<number, number>();
  let anonymous = 0;
  const slotFor = (slot: Slot, key: Map<string | number, number> | null, k: string | number) => {
    if (key) {
      const seen = key.get(k);
      if (seen !== undefined) return `$${seen}`;
    }
    slots.push(slot);
    key?.set(k, slots.length);
    return `$${slots.length}`;
  };
  let i = 0;
  const n = sql.length;
  const readName = (from: number) => {
    let j = from;
    while (j < n && identChar.test(sql[j]!)) j++;
    return j;
  };
  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      for (;;) {
        if (j >= n) break;
        if (sql[j] === c) {
          if (sql[j + 1] === c) { j += 2; continue; }
          break;
        }
        j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' && next === '-') {
      const j = sql.indexOf('\n', i);
      const end = j < 0 ? n : j;
      out += sql.slice(i, end);
      i = end;
    } else if (c === '/' && next === '*') {
      const j = sql.indexOf('*/', i + 2);
      const end = j < 0 ? n : j + 2;
      out += sql.slice(i, end);
      i = end;
    } else if (c === '?') {
      const j = readDigits(sql, i + 1);
      if (j > i + 1) {
        const num = Number(sql.slice(i + 1, j));
        out += slotFor({ index: num - 1 }, numbered as Map<string | number, number>, num);
        i = j;
      } else {
        out += slotFor({ index: anonymous++ }, null, 0);
        i++;
      }
    } else if (c === '$') {
      const prev = sql[i - 1];
      if (prev !== undefined && identChar.test(prev)) { out += c; i++; continue; } // part of an identifier
      if (next !== undefined && /[0-9]/.test(next)) {
        // Native $N: taken as the N-th positional argument.
        const j = readDigits(sql, i + 1);
        const num = Number(sql.slice(i + 1, j));
        out += slotFor({ index: num - 1 }, numbered as Map<string | number, number>, num);
        i = j;
        continue;
      }
      const j = next !== undefined && identStart.test(next) ? readName(i + 1) : i + 1;
      if (sql[j] === '$') {
        // Dollar quoting: $tag$ ... $tag$ (or $$ ... $$).
        const tag = sql.slice(i, j + 1);
        const close = sql.indexOf(tag, j + 1);
        const end = close < 0 ? n : close + tag.length;
        out += sql.slice(i, end);
        i = end;
      } else if (j > i + 1) {
        const name = sql.slice(i + 1, j);
        out += slotFor({ name }, named as Map<string | number, number>, name);
        i = j;
      } else {
        out += c;
        i++;
      }
    } else if ((c === '@' || c === ':') && next !== undefined && identStart.test(next)) {
      const prev = sql[i - 1];
      if (prev !== undefined && (identChar.test(prev) || prev === ':' || prev === '@' || prev === '<')) {
        out += c;
        i++;
        continue;
      }
      const j = readName(i + 1);
      const name = sql.slice(i + 1, j);
      out += slotFor({ name }, named as Map<string | number, number>, name);
      i = j;
    } else if (c === ':' && next === ':') {
      out += '::';
      i += 2;
    } else {
      out += c;
      i++;
    }
  }
  return { text: out, slots };
}

function readDigits(s: string, from: number): number {
  let j = from;
  while (j < s.length && s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57) j++;
  return j;
}

/** One argument as libpq's text format (null = SQL NULL), refusing what better-sqlite3 refuses. */
export function toPgText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  // PostgreSQL's text cannot hold U+0000 and libpq would end the C string there, losing the rest.
  if (typeof v === 'string') return v.includes('\0') ? v.replaceAll('\0', '') : v;
  if (typeof v === 'number') return Number.isNaN(v) ? null : String(v);
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
  throw new TypeError('PostgreSQL can only bind numbers, strings, bigints, booleans, buffers, and null');
}

/** better-sqlite3's argument conventions: arrays spread, one plain object holds the named parameters. */
export function bindArguments(slots: Slot[], args: unknown[]): (string | null)[] {
  const positional: unknown[] = [];
  let names: Record<string, unknown> | null = null;
  const take = (a: unknown) => {
    if (Array.isArray(a)) for (const x of a) take(x);
    else if (a !== null && typeof a === 'object' && !(a instanceof Uint8Array) && !(a instanceof Date)) names = a as Record<string, unknown>;
    else positional.push(a);
  };
  for (const a of args) take(a);
  return slots.map((slot) => {
    if ('name' in slot) {
      if (!names || !(slot.name in names)) throw new RangeError(`Missing named parameter "${slot.name}"`);
      return toPgText(names[slot.name]);
    }
    if (slot.index >= positional.length) throw new RangeError('Too few parameter values were provided');
    return toPgText(positional[slot.index]);
  });
}

// ---------------------------------------------------------------------------------------------
// Values

const toNumber = (v: string) => Number(v);
const PARSERS: Record<number, (v: string) => unknown> = {
  16: (v) => (v === 't' ? 1 : 0), // bool: SQLite has none, its comparisons give 1/0
  17: (v) => Buffer.from(v.slice(2), 'hex'), // bytea (hex output)
  20: toNumber, // int8: SQLite's integers are 64-bit, better-sqlite3 gives numbers
  21: toNumber,
  23: toNumber,
  26: toNumber,
  700: toNumber,
  701: toNumber,
  1700: toNumber, // numeric: sum()/avg() of integers
};

/** The value parser for a column type (also given to node-postgres, so Kysely sees the same values). */
export function pgTypeParser(oid: number): (v: string) => unknown {
  return PARSERS[oid] ?? ((v: string) => v);
}

// ---------------------------------------------------------------------------------------------
// The connection

interface Prepared {
  name: string;
  source: string;
  translated: Translated;
  fields: string[];
  parsers: ((v: string) => unknown)[];
  /** For run(): the SQL of the INSERT with `RETURNING <id>` appended, when its table has one. */
  returning?: string | null;
  /** For run(): the INSERT names its table's generated id column (see afterExplicitId). */
  explicitId?: string | null;
}

type RunResult = BetterSqlite3.RunResult;

export class PgError extends Error {
  code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = 'PgError';
    this.code = code;
  }
}

/**
 * libpq's finish() closes its socket watcher, which libuv completes later in the loop iteration; were
 * the object collected before that, libuv would touch freed memory and abort the process. So a finished
 * connection is kept reachable until two turns of the loop have passed.
 */
const closing = new Set<PQ>();
function keepUntilClosed(pq: PQ): void {
  closing.add(pq);
  setImmediate(() => setImmediate(() => closing.delete(pq)).unref()).unref();
}

/**
 * One value in COPY's text format: NULL as \\N; backslash, tab, newline and carriage return escaped; a
 * string as a bound one is stored (toPgText: no U+0000; Buffer's UTF-8 makes a lone surrogate U+FFFD).
 */
export function copyText(v: unknown): string {
  const t = toPgText(v);
  if (t === null) return '\\N';
  return /[\\\t\n\r]/.test(t) ? t.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!) : t;
}
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * Bytes of COPY data sent to the server at a time: the server parses and stores one chunk while the next
 * is being made here (with 1 MiB a batch's COPY was mostly one chunk, made while the server waited).
 */
const COPY_CHUNK = 64 << 10;

/** Bytes of writes given without waiting (`later`) that may wait for the server before the load waits too. */
const WRITE_BACKLOG = 64 << 20;

/** A write given without waiting (PgConnection `later`): a COPY's data, a prepared statement's parameters, or a statement's text alone. */
interface LaterWrite {
  sql: string;
  copy: Buffer[] | null;
  statement: string | null;
  params: (string | null)[] | null;
  bytes: number;
  /** Sent (or failed to send); `pending`: its result is to be read. */
  sent: boolean;
  pending: boolean;
}

/** Rows as COPY's text lines, handed on in chunks of about COPY_CHUNK characters; answers the number of rows. */
function copyLines(rows: Iterable<readonly unknown[]>, put: (chunk: string) => void): number {
  let chunk = '';
  let n = 0;
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < row.length; i++) line += (i ? '\t' : '') + copyText(row[i]);
    chunk += line + '\n';
    n++;
    if (chunk.length >= COPY_CHUNK) {
      put(chunk);
      chunk = '';
    }
  }
  if (chunk) put(chunk);
  return n;
}

/** PostgreSQL's writes given without waiting move on (PgConnection.pump); nothing on SQLite. */
export function pumpWrites(conn: { dialect: string }): void {
  if (conn.dialect === 'postgres') (conn as PgConnection).pump();
}

/** Rows fetched at a time by iterate(). */
const CURSOR_ROWS = 1000;

/** Same lock key in every process: immediate transactions are serialised like SQLite's writers. */
const WRITE_LOCK = 7_205_001;

export class PgConnection implements SqlConnection {
  readonly dialect = 'postgres' as const;
  open = true;
  /** The URL without its password. */
  readonly name: string;
  private pq: PQ;
  /** Prepared statements by SQL text, least recently used first (SQL built with values would grow it without end). */
  private statements = new Map<string, Prepared>();
  private statementSeq = 0;
  private cursorSeq = 0;
  private maxStatements: number;
  private idColumns = new Map<string, { col: string; generated: boolean } | null>();
  private depth = 0;
  private lastRowid: number = 0;
  /**
   * Writes given without waiting (`later`), in order: the first may be on the server (sent, its result
   * not read yet), the others wait their turn; `pump()` moves them on, `settle()` finishes them all.
   */
  private writes: LaterWrite[] = [];
  private writeBytes = 0;
  /** The first error of a write given without waiting, until thrown. */
  private writeError: PgError | null = null;

  constructor(url: string, opts: { maxStatements?: number } = {}) {
    this.maxStatements = opts.maxStatements ?? 2000;
    const Libpq = loadLibpq();
    this.name = url.replace(/:[^:@/]*@/, ':***@');
    this.pq = new Libpq();
    try {
      this.pq.connectSync(url);
    } catch (e) {
      keepUntilClosed(this.pq); // connectSync finished it
      throw e;
    }
    // lock_timeout as SQLite's busy_timeout (db/index.ts): a statement waits 5 s for a lock, then fails.
    this.exec(`SET client_min_messages = warning; SET TIME ZONE 'UTC'; SET lock_timeout = '${PG_LOCK_TIMEOUT}'`);
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  private check(what: string): void {
    const status = this.pq.resultStatus();
    if (status === 'PGRES_COMMAND_OK' || status === 'PGRES_TUPLES_OK' || status === 'PGRES_EMPTY_QUERY') return;
    const message = (this.pq.resultErrorMessage() || this.pq.errorMessage() || status).trim();
    const code = this.pq.resultErrorFields()?.sqlState ?? 'PG_ERROR';
    throw new PgError(`${message} (in: ${what.slice(0, 200)})`, code);
  }

  exec(source: string): this {
    // A rollback must not fail on the error of a statement it is rolling back.
    this.settle(!/^\s*ROLLBACK\b/i.test(source));
    this.pq.exec(source);
    this.check(source);
    return this;
  }

  /**
   * Finishes the writes given without waiting (`copyRows` with `later`, `runLater`), waiting for the
   * server; the first one's error is thrown here (`throwing`), so by the next statement.
   */
  settle(throwing = true): void {
    while (this.writes.length) {
      const w = this.writes[0]!;
      if (!w.sent) this.send(w);
      this.finish(w, true);
    }
    const error = this.writeError;
    this.writeError = null;
    if (error && throwing) throw error;
  }

  /**
   * Moves the writes given without waiting on, without waiting for the server: reads the result of the
   * one on the server once it is there and sends the next. Called between pieces of a bulk load's work
   * (one statement at a time per connection, so this keeps the server busy while JavaScript runs).
   * The error of one that failed is kept for the next statement (settle), so it is thrown at one place.
   */
  pump(): void {
    while (this.writes.length) {
      const w = this.writes[0]!;
      if (!w.sent) this.send(w);
      // Past WRITE_BACKLOG the load waits for the server, so its memory stays bounded.
      if (!this.finish(w, this.writeBytes > WRITE_BACKLOG)) break;
    }
  }

  /** Sends a waiting write (the connection is idle); a refusal of its start is its error. */
  private send(w: LaterWrite): void {
    w.sent = true;
    try {
      if (this.writeError) return; // the transaction failed: what follows would only fail too
      if (w.copy) {
        this.pq.exec(w.sql);
        if (this.pq.resultStatus() !== 'PGRES_COPY_IN') this.check(w.sql);
        for (const chunk of w.copy) this.putCopy(chunk);
        this.pq.putCopyEnd();
      } else if (!(w.statement ? this.pq.sendQueryPrepared(w.statement, w.params!) : this.pq.sendQuery(w.sql))) {
        throw new PgError(`${this.pq.errorMessage().trim() || 'the statement could not be sent'} (in: ${w.sql.slice(0, 200)})`, 'PG_ERROR');
      }
      w.pending = true;
    } catch (e) {
      this.writeError ??= e as PgError;
    }
  }

  /** Reads the result of the write on the server (`wait`: waiting for it); answers whether it was there. */
  private finish(w: LaterWrite, wait: boolean): boolean {
    if (w.pending) {
      if (!wait) {
        this.pq.consumeInput();
        if (this.pq.isBusy()) return false;
      }
      while (this.pq.getResult()) {
        try {
          this.check(w.sql);
        } catch (e) {
          this.writeError ??= e as PgError;
        }
      }
    }
    this.writes.shift();
    this.writeBytes -= w.bytes;
    return true;
  }

  /** Runs a statement with text parameters and returns its rows as arrays of parsed values. */
  query(text: string, params: (string | null)[] = []): unknown[][] {
    this.settle();
    this.pq.execParams(text, params);
    this.check(text);
    return this.readRows(null, true) as unknown[][];
  }

  private readRows(prepared: Prepared | null, raw: boolean, pluck = false): unknown[] {
    const pq = this.pq;
    const rows = pq.ntuples();
    const nf = pq.nfields();
    const parsers = prepared?.parsers ?? Array.from({ length: nf }, (_, f) => pgTypeParser(pq.ftype(f)));
    const fields = prepared?.fields ?? Array.from({ length: nf }, (_, f) => pq.fname(f));
    const out = new Array(rows);
    const value = (r: number, f: number) => {
      const v = pq.getvalue(r, f);
      return v === '' && pq.getisnull(r, f) ? null : parsers[f]!(v);
    };
    for (let r = 0; r < rows; r++) {
      if (pluck) out[r] = nf ? value(r, 0) : undefined;
      else if (raw) {
        const row = new Array(nf);
        for (let f = 0; f < nf; f++) row[f] = value(r, f);
        out[r] = row;
      } else {
        const row: Record<string, unknown> = {};
        for (let f = 0; f < nf; f++) row[fields[f]!] = value(r, f);
        out[r] = row;
      }
    }
    return out;
  }

  /** Prepares (once per SQL text) and describes a statement: errors surface here, as with SQLite. */
  prepared(source: string): Prepared {
    const cached = this.statements.get(source);
    if (cached) {
      this.statements.delete(source);
      this.statements.set(source, cached);
      return cached;
    }
    const translated = translatePlaceholders(source);
    this.settle();
    const name = this.prepareOnServer(translated);
    this.pq.describePrepared(name);
    this.check(source);
    const nf = this.pq.nfields();
    const p: Prepared = {
      name,
      source,
      translated,
      fields: Array.from({ length: nf }, (_, f) => this.pq.fname(f)),
      parsers: Array.from({ length: nf }, (_, f) => pgTypeParser(this.pq.ftype(f))),
    };
    this.remember(p);
    return p;
  }

  private prepareOnServer(translated: Translated): string {
    const name = `s${++this.statementSeq}`;
    this.pq.prepare(name, translated.text, translated.slots.length);
    this.check(translated.text);
    return name;
  }

  private remember(p: Prepared): void {
    this.statements.set(p.source, p);
    while (this.statements.size > this.maxStatements) {
      const [source, old] = this.statements.entries().next().value as [string, Prepared];
      this.statements.delete(source);
      this.exec(`DEALLOCATE ${old.name}`);
    }
  }

  /** Executes a prepared statement (prepared before a schema change, a `SELECT *` fails: reopen after migrating). */
  execute(p: Prepared, args: unknown[]): void {
    const params = bindArguments(p.translated.slots, args);
    this.settle();
    this.pq.execPrepared(p.name, params);
    this.check(p.translated.text);
  }

  /**
   * Sends a statement whose result nobody reads (a bulk load's write) and returns at once: the server
   * runs it while this thread goes on; the next statement waits for it first and throws its error
   * (`settle`). No RETURNING is added, and no count of changes is given.
   */
  runLater(source: string, args: unknown[]): void {
    const p = this.prepared(source);
    const params = bindArguments(p.translated.slots, args);
    const bytes = params.reduce((n, v) => n + (v?.length ?? 0), 0);
    this.later({ sql: p.translated.text, copy: null, statement: p.name, params, bytes, sent: false, pending: false });
  }

  /** `exec` without waiting, as `runLater` (a statement that cannot be prepared: TRUNCATE). */
  execLater(source: string): void {
    this.later({ sql: source, copy: null, statement: null, params: null, bytes: source.length, sent: false, pending: false });
  }

  private later(w: LaterWrite): void {
    this.writes.push(w);
    this.writeBytes += w.bytes;
    this.pump();
  }

  /** The INSERT of `p` returning its table's id (identity column, else integer primary key), or null. */
  returningFor(source: string, p: Prepared): string | null {
    if (p.returning !== undefined) return p.returning;
    const m = /^\s*INSERT\s+INTO\s+("?)([A-Za-z_][\w]*)\1\s*(?:\(([^)]*)\))?/i.exec(p.translated.text);
    let ret: string | null = null;
    p.explicitId = null;
    if (m && !/\bRETURNING\b/i.test(p.translated.text)) {
      const table = m[2]!.toLowerCase();
      let id = this.idColumns.get(table);
      if (id === undefined) {
        const rows = this.query(`SELECT a.attname, a.attidentity <> '' OR coalesce(pg_get_expr(d.adbin, d.adrelid), '') LIKE 'nextval(%' AS generated
          FROM pg_attribute a
          LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
          LEFT JOIN pg_index i ON i.indrelid = a.attrelid AND i.indisprimary AND i.indnatts = 1 AND i.indkey[0] = a.attnum
          WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped
            AND (a.attidentity <> '' OR coalesce(pg_get_expr(d.adbin, d.adrelid), '') LIKE 'nextval(%' OR (i.indrelid IS NOT NULL AND a.atttypid IN (20, 21, 23)))
          ORDER BY 2 DESC, a.attnum LIMIT 1`, [table]);
        id = rows.length ? { col: rows[0]![0] as string, generated: rows[0]![1] === 1 } : null;
        this.idColumns.set(table, id);
      }
      if (id) {
        ret = `${source.replace(/[\s;]+$/, '')} RETURNING "${id.col}"`;
        const cols = (m[3] ?? '').split(',').map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase());
        if (id.generated && cols.includes(id.col)) p.explicitId = `SELECT setval(s, greatest((SELECT max("${id.col}") FROM "${table}"), coalesce(pg_sequence_last_value(s), 0), 1))
          FROM (SELECT pg_get_serial_sequence('"${table}"', '${id.col}')::regclass AS s) x`;
      }
    }
    p.returning = ret;
    return ret;
  }

  /** Statements are looked up by SQL text at each run: one evicted from the cache is prepared again. */
  run(source: string, args: unknown[]): RunResult {
    const p = this.prepared(source);
    const ret = this.returningFor(source, p);
    this.execute(ret ? this.prepared(ret) : p, args);
    const changes = Number(this.pq.cmdTuples()) || 0;
    if (ret && this.pq.ntuples() > 0) this.lastRowid = Number(this.pq.getvalue(this.pq.ntuples() - 1, 0));
    // An id given explicitly does not move the identity sequence: move it past the largest id, so the
    // next insert without one gets a new id, as SQLite's AUTOINCREMENT gives.
    if (p.explicitId && changes > 0) this.exec(p.explicitId);
    return { changes, lastInsertRowid: this.lastRowid };
  }

  rows(source: string, args: unknown[], mode: 'object' | 'raw' | 'pluck'): unknown[] {
    const p = this.prepared(source);
    this.execute(p, args);
    return this.readRows(p, mode === 'raw', mode === 'pluck');
  }

  /**
   * The rows of a statement through a server-side cursor, CURSOR_ROWS at a time, so a scan of every
   * entry does not hold them all in this process. WITH HOLD: it outlives the transaction it began in
   * (outside one, the server keeps the result); closed when the caller stops iterating.
   */
  *cursor(source: string, args: unknown[], mode: 'object' | 'raw' | 'pluck'): Generator<unknown> {
    const p = this.prepared(source);
    const name = `uc_cursor${++this.cursorSeq}`;
    this.settle();
    this.pq.execParams(`DECLARE ${name} NO SCROLL CURSOR WITH HOLD FOR ${p.translated.text}`, bindArguments(p.translated.slots, args));
    this.check(source);
    try {
      for (;;) {
        this.settle();
        this.pq.exec(`FETCH FORWARD ${CURSOR_ROWS} FROM ${name}`);
        this.check(source);
        const rows = this.readRows(p, mode === 'raw', mode === 'pluck');
        yield* rows;
        if (rows.length < CURSOR_ROWS) break;
      }
    } finally {
      try {
        this.exec(`CLOSE ${name}`);
      } catch { /* an aborted transaction closed it */ }
    }
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  prepare(source: string): any {
    return new PgStatement(this, source, this.prepared(source));
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  transaction<F extends (...params: any[]) => any>(fn: F): BetterSqlite3.Transaction<F> {
    const wrap = (lock: boolean) => (...args: unknown[]): ReturnType<F> => {
      const outer = this.depth === 0;
      const savepoint = `uc_sp${this.depth}`;
      this.exec(outer ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
      this.depth++;
      let result: ReturnType<F>;
      try {
        if (outer && lock) this.exec(`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`);
        result = fn(...args);
        if (result && typeof (result as { then?: unknown }).then === 'function') throw new TypeError('Transaction function cannot return a promise');
      } catch (e) {
        this.depth--;
        try {
          this.exec(outer ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        } catch { /* the connection is gone: the first error tells more */ }
        throw e;
      }
      this.depth--;
      this.exec(outer ? 'COMMIT' : `RELEASE ${savepoint}`);
      return result;
    };
    const t = wrap(false) as unknown as BetterSqlite3.Transaction<F>;
    t.default = t;
    t.deferred = t;
    t.immediate = wrap(true) as BetterSqlite3.Transaction<F>['immediate'];
    t.exclusive = t.immediate;
    return t;
  }

  /**
   * A write transaction held across awaits (db/connection.ts beginImmediate): BEGIN with the write lock,
   * as transaction().immediate takes it; inside it inTransaction is true and transaction() nests as savepoints.
   */
  begin(): void {
    if (this.depth) throw new TypeError('begin(): a transaction is already open');
    this.exec('BEGIN');
    this.depth = 1;
    try {
      this.exec(`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`);
    } catch (e) {
      this.end('ROLLBACK');
      throw e;
    }
  }

  /** Ends what begin() opened. */
  end(how: 'COMMIT' | 'ROLLBACK'): void {
    if (this.depth !== 1) throw new TypeError(`${how}: no transaction of begin() is open`);
    // A write sent without waiting that failed fails the commit while the transaction can still roll back.
    if (how === 'COMMIT') this.settle();
    this.depth = 0;
    this.exec(how);
  }

  /**
   * `COPY <target> FROM STDIN` with these rows (arrays of values in the target's column order, bound as
   * run() binds them): one statement for any number of rows, the fast path of a bulk load. Answers the
   * number of rows copied; a refused row fails the whole COPY (the caller's transaction rolls it back).
   * `later`: returns once the rows are sent, answering the number sent; the server stores them while this
   * thread goes on, and the next statement waits for that and throws its error (`settle`).
   */
  copyRows(target: string, rows: Iterable<readonly unknown[]>, opts: { later?: boolean } = {}): number {
    const sql = `COPY ${target} FROM STDIN`;
    if (opts.later) {
      // The rows made now (a failure here leaves nothing sent), sent when the server is free.
      const copy: Buffer[] = [];
      let bytes = 0;
      const sent = copyLines(rows, (chunk) => {
        const b = Buffer.from(chunk, 'utf8');
        copy.push(b);
        bytes += b.length;
      });
      if (sent) this.later({ sql, copy, statement: null, params: null, bytes, sent: false, pending: false });
      return sent;
    }
    this.settle();
    this.pq.exec(sql);
    if (this.pq.resultStatus() !== 'PGRES_COPY_IN') this.check(sql);
    let failure: unknown = null;
    try {
      copyLines(rows, (chunk) => this.putCopy(Buffer.from(chunk, 'utf8')));
    } catch (e) {
      failure = e;
    }
    // Ending the COPY with a message makes the server refuse it: the connection is ready again either way.
    this.pq.putCopyEnd(failure ? 'client error' : undefined);
    let error: PgError | null = null;
    while (this.pq.getResult()) {
      try {
        this.check(sql);
      } catch (e) {
        error ??= e as PgError;
      }
    }
    if (failure) throw failure;
    if (error) throw error;
    return Number(this.pq.cmdTuples()) || 0;
  }

  private putCopy(data: Buffer): void {
    if (this.pq.putCopyData(data) !== 1) throw new PgError(`COPY: ${this.pq.errorMessage().trim() || 'the data could not be sent'}`, 'PG_ERROR');
  }

  pragma(source: string): unknown {
    throw new Error(`PRAGMA ${source} has no PostgreSQL form (docs/architecture.md, "Database back ends")`);
  }

  close(): this {
    if (this.open) {
      this.settle(false);
      this.pq.finish();
      keepUntilClosed(this.pq);
    }
    this.open = false;
    return this;
  }
}

class PgStatement {
  readonly reader: boolean;
  readonly readonly: boolean;
  busy = false;
  private mode: 'object' | 'raw' | 'pluck' = 'object';
  private bound: unknown[] | null = null;

  constructor(private conn: PgConnection, readonly source: string, private p: Prepared) {
    this.reader = p.fields.length > 0;
    this.readonly = /^\s*(SELECT|WITH|VALUES|SHOW|EXPLAIN)\b/i.test(p.translated.text) && this.reader;
  }

  get database(): PgConnection {
    return this.conn;
  }

  private args(params: unknown[]): unknown[] {
    return this.bound ?? params;
  }

  run(...params: unknown[]): RunResult {
    return this.conn.run(this.source, this.args(params));
  }

  get(...params: unknown[]): unknown {
    this.mustRead();
    return this.conn.rows(this.source, this.args(params), this.mode)[0];
  }

  all(...params: unknown[]): unknown[] {
    this.mustRead();
    return this.conn.rows(this.source, this.args(params), this.mode);
  }

  *iterate(...params: unknown[]): IterableIterator<unknown> {
    this.mustRead();
    yield* this.conn.cursor(this.source, this.args(params), this.mode);
  }

  pluck(toggle = true): this {
    this.mustRead();
    this.mode = toggle ? 'pluck' : 'object';
    return this;
  }

  raw(toggle = true): this {
    this.mustRead();
    this.mode = toggle ? 'raw' : 'object';
    return this;
  }

  expand(): this {
    throw new Error('expand() is not supported on PostgreSQL');
  }

  safeIntegers(): this {
    throw new Error('safeIntegers() is not supported on PostgreSQL');
  }

  bind(...params: unknown[]): this {
    if (this.bound) throw new TypeError('The bind() method can only be invoked once per statement object');
    bindArguments(this.p.translated.slots, params);
    this.bound = params;
    return this;
  }

  columns(): BetterSqlite3.ColumnDefinition[] {
    this.mustRead();
    return this.p.fields.map((name) => ({ name, column: null, table: null, database: null, type: null }));
  }

  private mustRead(): void {
    if (!this.reader) throw new TypeError('This statement does not return data. Use run() instead');
  }
}
