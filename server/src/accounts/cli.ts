// `npm run admin -- create-user --username U --email E [--superuser] [--library-admin ID] [--can-merge]
// [--can-set-exclusions]`: creates an account; the password is read from standard input, so scripts can
// make the first superuser without it showing in the process list.
import { AccountError, type AccountService } from './service.ts';

export const ADMIN_USAGE =
  'usage: npm run admin -- create-user --username U --email E [--superuser] [--library-admin LIBRARY_ID]... [--can-merge] [--can-set-exclusions] < password';

export interface AdminCommandResult { code: number; message: string }

export async function runAdminCommand(args: string[], readPassword: () => Promise<string>, accounts: AccountService, libraryExists: (id: number) => boolean): Promise<AdminCommandResult> {
  const [command, ...rest] = args;
  if (command !== 'create-user') return { code: 2, message: ADMIN_USAGE };
  const opts: { username?: string; email?: string; superuser: boolean; libraries: number[]; canMerge: boolean; canSetExclusions: boolean } = {
    superuser: false, libraries: [], canMerge: false, canSetExclusions: false,
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const value = () => {
      const v = rest[++i];
      if (v === undefined || v.startsWith('--')) throw new AccountError(`${a} needs a value`);
      return v;
    };
    try {
      if (a === '--username') opts.username = value();
      else if (a === '--email') opts.email = value();
      else if (a === '--superuser') opts.superuser = true;
      else if (a === '--can-merge') opts.canMerge = true;
      else if (a === '--can-set-exclusions') opts.canSetExclusions = true;
      else if (a === '--library-admin') {
        const id = Number(value());
        if (!Number.isInteger(id) || !libraryExists(id)) return { code: 2, message: `No library with id ${rest[i]}` };
        opts.libraries.push(id);
      } else return { code: 2, message: `Unknown option ${a}\n${ADMIN_USAGE}` };
    } catch (err) {
      return { code: 2, message: (err as Error).message };
    }
  }
  if (!opts.username || !opts.email) return { code: 2, message: ADMIN_USAGE };
  const password = (await readPassword()).replace(/\r?\n$/, '');
  try {
    const id = await accounts.createUser({
      username: opts.username, email: opts.email, password, is_superuser: opts.superuser,
      library_admin: opts.libraries.length > 0, libraryIds: opts.libraries,
      can_merge: opts.canMerge, can_set_exclusions: opts.canSetExclusions,
    });
    return { code: 0, message: `Created user ${opts.username.trim().toLowerCase()} (id ${id}).` };
  } catch (err) {
    if (err instanceof AccountError) return { code: 1, message: err.message };
    throw err;
  }
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
