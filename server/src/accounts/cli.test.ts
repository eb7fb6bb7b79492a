import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { LibraryService, upsertLibrary } from '../libraries/service.ts';
import { AccountService } from './service.ts';
import { runAdminCommand } from './cli.ts';

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('admin command on %s', (dialect) => {
  let db: Db;
  let accounts: AccountService;
  beforeAll(async () => {
    db = openDatabase(await migratedTestDatabase(dialect));
    upsertLibrary(db, { id: 7, name: 'Seven', public: 1, active: 1 });
    accounts = new AccountService(db, new LibraryService(db), { sessionDays: 1, resetMinutes: 5, minPasswordLength: 10, publicUrl: 'http://x' }, async () => {});
  });
  afterAll(async () => {
    await db.close();
  });

  const run = (args: string[], password = 'a long enough password\n') =>
    runAdminCommand(args, async () => password, accounts, (id) => id === 7);

  describe('admin create-user', () => {
    it('creates a superuser who can log in with the password read from stdin', async () => {
      const r = await run(['create-user', '--username', 'Root', '--email', 'root@example.org', '--superuser']);
      expect(r).toMatchObject({ code: 0, message: expect.stringMatching(/Created user root/) });
      const login = await accounts.login('root', 'a long enough password');
      expect('token' in login).toBe(true);
      const viewer = accounts.viewerForToken((login as { token: string }).token)!;
      expect(viewer).toMatchObject({ isSuperuser: true, canMerge: true, canSetExclusions: true });
    });

    it('creates a library admin of an existing library with curation flags', async () => {
      expect((await run(['create-user', '--username', 'ann', '--email', 'ann@example.org', '--library-admin', '7', '--can-set-exclusions'])).code).toBe(0);
      const login = (await accounts.login('ann', 'a long enough password')) as { token: string };
      expect(accounts.viewerForToken(login.token)).toMatchObject({ isLibraryAdmin: true, libraryIds: [7], canSetExclusions: true });
    });

    it('refuses bad arguments, unknown libraries, duplicates and short passwords', async () => {
      expect((await run(['create-user', '--username', 'x'])).code).toBe(2);
      expect((await run(['delete-user'])).code).toBe(2);
      expect((await run(['create-user', '--username', 'y', '--email', 'y@example.org', '--library-admin', '99'])).message).toMatch(/No library/);
      expect((await run(['create-user', '--username', 'root', '--email', 'r@example.org'])).message).toMatch(/already exists/);
      expect((await run(['create-user', '--username', 'z', '--email', 'z@example.org'], 'short')).message).toMatch(/at least 10/);
    });
  });
});
