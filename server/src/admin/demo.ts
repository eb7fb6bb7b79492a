// Demo accounts, one per role, created with the demo catalogue on the first start (DEMO=1, empty database).
// Their random passwords are printed once to the console: they are for trying the product, never for production.
import { randomBytes } from 'node:crypto';
import type { Services } from '../app.ts';

export interface DemoAccount { role: string; username: string; password: string }

export async function createDemoAccounts(services: Pick<Services, 'accounts' | 'db'>, log: (msg: string) => void): Promise<DemoAccount[]> {
  const libraryId = services.db.sqlite.prepare('SELECT id FROM libraries WHERE active = 1 ORDER BY id LIMIT 1').pluck().get() as number | undefined;
  const libraryName = libraryId === undefined ? '' : (services.db.sqlite.prepare('SELECT name FROM libraries WHERE id = ?').pluck().get(libraryId) as string);
  const roles = [
    { role: 'superuser', username: 'demo-admin', flags: { is_superuser: true } },
    ...(libraryId === undefined ? [] : [{ role: `library admin of "${libraryName}"`, username: 'demo-librarian', flags: { library_admin: true, libraryIds: [libraryId] } }]),
    { role: 'curator (merging and exclusions)', username: 'demo-curator', flags: { can_merge: true, can_set_exclusions: true } },
    { role: 'reader', username: 'demo-reader', flags: {} },
  ];
  const made: DemoAccount[] = [];
  for (const r of roles) {
    if (services.accounts.userExists(r.username)) continue;
    const password = randomBytes(12).toString('base64url');
    await services.accounts.createUser({ username: r.username, email: `${r.username}@demo.invalid`, password, ...r.flags });
    made.push({ role: r.role, username: r.username, password });
  }
  if (made.length) {
    log('DEMO-ONLY accounts (shown once; for trying the demo, never for production — start with DEMO=0 to create none):');
    for (const a of made) log(`  DEMO-ONLY ${a.role}: username ${a.username} password ${a.password}`);
  }
  return made;
}
