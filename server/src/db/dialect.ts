// The few SQL forms that differ between SQLite and PostgreSQL, for statements that cannot be written
// once (docs/architecture.md, "Database back ends"). Everything else is written in SQL both accept.
import type { Dialect } from './connection.ts';

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
