// Which modules' SQL runs on PostgreSQL yet. Until every module does, the commands that use them refuse
// to start on a postgres DATABASE_URL (with this list) instead of failing later on a SQLite-only
// statement. docs/architecture.md ("Database back ends") keeps the same list: update both.
import type { Dialect } from './connection.ts';

/** Modules with SQL of their own (server/src/<module>). */
export const SQL_MODULES = [
  'accounts', 'admin', 'agents', 'bookbuilder', 'catalogue', 'curation', 'harvest', 'http', 'ingest', 'jobs',
  'libraries', 'libraryadmin', 'mail', 'pages', 'publish', 'reports', 'search',
] as const;

/** Modules whose statements (not only migrations) run on PostgreSQL and are tested there. */
export const POSTGRES_READY: ReadonlySet<string> = new Set<string>(['accounts', 'admin', 'agents', 'bookbuilder', 'catalogue', 'curation', 'harvest', 'http', 'ingest', 'jobs', 'libraries', 'libraryadmin', 'mail', 'pages', 'publish', 'reports', 'search']);

export function modulesMissingOn(dialect: Dialect): string[] {
  return dialect === 'postgres' ? SQL_MODULES.filter((m) => !POSTGRES_READY.has(m)) : [];
}

/** The message `serve` (and the other commands but migrate) stop with, or null when all is there. */
export function backendNotReady(dialect: Dialect): string | null {
  const missing = modulesMissingOn(dialect);
  if (!missing.length) return null;
  return `DATABASE_URL points to PostgreSQL, whose support is not complete: the migrations run there (npm run migrate), `
    + `but these modules do not yet: ${missing.join(', ')}. Unset DATABASE_URL to run on SQLite (docs/architecture.md, "Database back ends").`;
}
