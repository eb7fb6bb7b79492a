// Opens the database (a SQLite file under DATA_DIR, or PostgreSQL at DATABASE_URL) and runs the
// migrations of every module.
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './schema.ts';
import { sqliteConnection, type SqlConnection } from './connection.ts';
import { dialectOf, isPostgresUrl, openPostgres, preparePostgres } from './pg-open.ts';
import { catalogueMigrations } from '../catalogue/migrations.ts';
import { accountMigrations } from '../accounts/migrations.ts';
import { mailMigrations } from '../mail/migrations.ts';
import { agentMigrations } from '../agents/migrations.ts';
import { reportMigrations } from '../reports/migrations.ts';
import { jobsMigrations } from '../jobs/migrations.ts';
import { bookbuilderMigrations } from '../bookbuilder/migrations.ts';
import { libraryAdminMigrations } from '../libraryadmin/migrations.ts';
import { curationMigrations } from '../curation/migrations.ts';
import { harvestMigrations } from '../harvest/migrations.ts';
import { publishMigrations } from '../publish/migrations.ts';
import { httpMigrations } from '../http/migrations.ts';

export type { Database } from './schema.ts';
export type { SqlConnection, Dialect } from './connection.ts';

/** Each module contributes its migrations here; names sort by date so the order is global. */
const moduleMigrations: Record<string, Migration>[] = [catalogueMigrations, accountMigrations, mailMigrations, agentMigrations, reportMigrations, jobsMigrations, bookbuilderMigrations, libraryAdminMigrations, curationMigrations, harvestMigrations, publishMigrations, httpMigrations];

/** Every migration this version knows, by name (a backup made by a newer version names one it does not). */
export function knownMigrations(): string[] {
  return moduleMigrations.flatMap((m) => Object.keys(m)).sort();
}

class StaticProvider implements MigrationProvider {
  async getMigrations() {
    return Object.assign({}, ...moduleMigrations) as Record<string, Migration>;
  }
}

export interface Db {
  kysely: Kysely<Database>;
  /** The synchronous connection (better-sqlite3's API on both back ends; the name predates PostgreSQL). */
  sqlite: SqlConnection;
  close(): Promise<void>;
}

/** `target`: a SQLite file (or ':memory:'), or a postgres:// URL. */
export function openDatabase(target: string): Db {
  if (isPostgresUrl(target)) return openPostgres(target);
  const file = target;
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = sqliteConnection(new BetterSqlite3(file));
  try {
    sqlite.pragma('journal_mode = WAL');
  } catch (e) {
    // An import into the empty catalogue writes without the WAL and holds the file (ingest/jsonl.ts).
    if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
    sqlite.close();
    throw new Error(`The database ${file} is busy: an import into the empty catalogue holds it until it ends. Start again when the import has finished.`, { cause: e });
  }
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('cache_size = -65536');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    kysely,
    sqlite,
    async close() {
      await kysely.destroy();
    },
  };
}

export async function migrate(db: Db): Promise<void> {
  if (dialectOf(db.kysely) === 'postgres') await preparePostgres(db.kysely);
  const migrator = new Migrator({ db: db.kysely, provider: new StaticProvider() });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === 'Error') throw new Error(`migration ${r.migrationName} failed: ${(error as Error | undefined)?.message ?? 'unknown error'}`, { cause: error });
  }
  if (error) throw error;
}
