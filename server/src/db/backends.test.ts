import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES_READY, SQL_MODULES, backendNotReady, modulesMissingOn } from './backends.ts';
import { PG_URL, dropTestDatabases, testDatabaseTarget } from '../test/backends.ts';
import { repoRoot } from '../config.ts';
import { PgConnection } from './postgres.ts';

afterAll(() => dropTestDatabases());

/** `main.ts COMMAND` with DATABASE_URL, as `npm run migrate` / `npm start` run it. */
function cli(command: string, databaseUrl: string) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server', 'src', 'main.ts'), command], {
    cwd: repoRoot, env: { ...process.env, DATABASE_URL: databaseUrl, DEMO: '0', PORT: '0' }, encoding: 'utf8', timeout: 60_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('back-end readiness', () => {
  it('SQLite runs every module', () => {
    expect(modulesMissingOn('sqlite')).toEqual([]);
    expect(backendNotReady('sqlite')).toBeNull();
  });

  it('on PostgreSQL names each module not ported yet, so serve stops before a SQLite-only statement fails', () => {
    const missing = SQL_MODULES.filter((m) => !POSTGRES_READY.has(m));
    expect(modulesMissingOn('postgres')).toEqual(missing);
    if (missing.length) expect(backendNotReady('postgres')).toContain(missing.join(', '));
    else expect(backendNotReady('postgres')).toBeNull();
  });
});

describe.skipIf(!PG_URL)('the command line on PostgreSQL', () => {
  it('migrates with DATABASE_URL, and serve refuses to start, naming what is missing', () => {
    const url = testDatabaseTarget('postgres');
    const migrated = cli('migrate', url);
    expect(migrated).toMatchObject({ code: 0 });
    expect(migrated.out).toContain('Database is up to date.');
    const conn = new PgConnection(url);
    try {
      expect(conn.prepare("SELECT count(*) FROM information_schema.tables WHERE table_name IN ('entries', 'users', 'jobs', 'entry_fts')").pluck().get()).toBe(4);
    } finally {
      conn.close();
    }
    const missing = modulesMissingOn('postgres');
    if (missing.length) {
      const served = cli('serve', url);
      expect(served.code).toBe(2);
      expect(served.out).toContain(`these modules do not yet: ${missing.join(', ')}`);
    }
  });
});
