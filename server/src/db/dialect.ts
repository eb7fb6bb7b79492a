// The few SQL forms that differ between SQLite and PostgreSQL, for statements that cannot be written
// once (docs/architecture.md, "Database back ends"). Everything else is written in SQL both accept.
import type { Dialect } from './connection.ts';
import { toPgText } from './postgres.ts';

/** A subquery of the text values of a JSON array (a bound parameter or a column): `x IN (${jsonValues(d, '?')})`. */
export function jsonValues(dialect: Dialect, json: string): string {
  return dialect === 'postgres' ? `SELECT jsonb_array_elements_text(${json}::jsonb)` : `SELECT value FROM json_each(${json})`;
}

/** The same for a JSON array of integer ids: `id IN (${jsonIds(d, '?')})`. */
export function jsonIds(dialect: Dialect, json: string): string {
  return dialect === 'postgres' ? `SELECT jsonb_array_elements_text(${json}::jsonb)::bigint` : `SELECT value FROM json_each(${json})`;
}

/** `id IN ${idList(d)}`: the ids of a JSON array bound as the parameter there (one per occurrence). */
export function idList(dialect: Dialect): string {
  return `(${jsonIds(dialect, '?')})`;
}

/**
 * Appended to a subquery choosing a row to take (a job to claim): PostgreSQL skips rows another
 * transaction is taking; SQLite has one writer at a time and needs nothing.
 */
export function skipLocked(dialect: Dialect): string {
  return dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
}

/**
 * `SELECT` of the id the next row of `table` (an autoincrement `id`) gets, for a row written later with
 * that id explicitly (a curated author or aggregation whose undo and redo keep its id). Never an id
 * used before: SQLite's AUTOINCREMENT keeps the highest in sqlite_sequence; on PostgreSQL the identity
 * sequence hands it out (and so reserves it).
 */
export function nextIdSql(dialect: Dialect, table: string): string {
  return dialect === 'postgres'
    ? `SELECT greatest(nextval(pg_get_serial_sequence('${table}', 'id')), (SELECT coalesce(max(id), 0) + 1 FROM ${table}))`
    : `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = '${table}'), 0), coalesce((SELECT max(id) FROM ${table}), 0)) + 1`;
}

/** The column names of the table bound as the one parameter, in their order (rows `{name}`). */
export function tableColumnsSql(dialect: Dialect): string {
  return dialect === 'postgres'
    ? `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`
    : `SELECT name FROM pragma_table_info(?) ORDER BY cid`;
}

/** A JSON object built from `'key', value, ...` pairs (`args`; at most 50 on PostgreSQL): numbers stay numbers, NULL is null. */
export function jsonObject(dialect: Dialect, args: string): string {
  return `${dialect === 'postgres' ? 'json_build_object' : 'json_object'}(${args})`;
}

/** The text under a top-level key of a JSON document column (json_extract of a string value on SQLite). */
export function jsonText(dialect: Dialect, json: string, key: string): string {
  return dialect === 'postgres' ? `(${json}::json ->> '${key}')` : `json_extract(${json}, '$.${key}')`;
}

/**
 * The first statement of a transaction whose statements must all read one snapshot (an answer built
 * from several reads agreeing with itself), or null: a SQLite transaction reads one snapshot already;
 * PostgreSQL's READ COMMITTED takes a new one per statement.
 */
export function oneSnapshotSql(dialect: Dialect): string | null {
  return dialect === 'postgres' ? 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY' : null;
}

/**
 * A join whose left side SQLite's planner keeps as the outer loop (its CROSS JOIN ... ON); PostgreSQL
 * plans by statistics and allows no ON after CROSS JOIN, so there it is a plain JOIN.
 */
export function outerLoopJoin(dialect: Dialect): string {
  return dialect === 'postgres' ? 'JOIN' : 'CROSS JOIN';
}

/**
 * The JSON text of rows bound as one `?::jsonb` parameter (PostgreSQL writes set-wise from
 * `jsonb_array_elements`): strings as a bound string arrives, without NUL characters (jsonb cannot hold
 * U+0000) and with a lone surrogate as U+FFFD (which jsonb refuses as an escape).
 */
export function jsonbRows(rows: unknown): string {
  const json = JSON.stringify(rows);
  if (!json.includes('\\u0000') && !/\\ud[89a-f]/.test(json)) return json;
  return JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'string' ? asPgText(v) : v));
}

/** A string as PostgreSQL stores it when bound (toPgText; a lone surrogate becomes U+FFFD in UTF-8). */
export function asPgText(s: string): string {
  return toPgText(s)!.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
