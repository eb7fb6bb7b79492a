// Library administration: THE permission rule, the library edit, and the library's users.
import type { z } from 'zod';
import type { AdminLibrary, LibraryUser, libraryEditBodySchema, createLibraryUserBodySchema } from '@uc/shared';
import type { Db } from '../db/index.ts';
import type { Viewer } from '../http/viewer.ts';
import { HttpError } from '../http/errors.ts';
import { upsertLibrary, type LibraryRow, type LibraryService } from '../libraries/service.ts';
import { AccountError, normaliseUsername, type AccountService } from '../accounts/service.ts';

/**
 * Who may administer a library: a superuser, or a library admin affiliated with THAT library.
 * Anonymous → 401; anyone else → 403; a library that does not exist → 404 (only told to those who
 * could administer it, i.e. superusers: for others it is simply not theirs).
 */
export function assertLibraryAdmin(viewer: Viewer, libraryId: number, libraries: LibraryService): LibraryRow {
  if (viewer.userId === null) throw new HttpError(401, 'Please log in');
  const allowed = viewer.isSuperuser || (viewer.isLibraryAdmin && viewer.libraryIds.includes(libraryId));
  if (!allowed) throw new HttpError(403, 'You cannot administer this library');
  libraries.invalidate();
  const lib = libraries.get(libraryId);
  if (!lib) throw new HttpError(404, 'Library does not exist');
  return lib;
}

type EditInput = z.output<typeof libraryEditBodySchema>;
type NewUserInput = z.output<typeof createLibraryUserBodySchema>;

interface UserListRow {
  id: number; username: string; email: string; first_name: string; last_name: string; last_login: string | null;
  expiration: string | null; can_merge: number; library_admin: number; is_superuser: number;
}

export class LibraryAdminService {
  constructor(private db: Db, private libraries: LibraryService, private accounts: AccountService) {}

  toAdmin(lib: LibraryRow, viewer: Viewer): AdminLibrary {
    const { entries_count: _count, ...pub } = this.libraries.toPublic(lib, viewer);
    return { ...pub, email_internal: lib.email_internal, created: lib.created, last_modified: lib.last_modified };
  }

  details(lib: LibraryRow, viewer: Viewer) {
    return { library: this.toAdmin(lib, viewer), users: this.users(lib.id) };
  }

  update(lib: LibraryRow, input: EditInput, viewer: Viewer): AdminLibrary {
    upsertLibrary(this.db, { id: lib.id, ...input, name: input.name });
    this.libraries.invalidate();
    return this.toAdmin(this.libraries.get(lib.id)!, viewer);
  }

  /** Every user affiliated with the library; admins and superusers are listed but cannot be removed here. */
  users(libraryId: number): LibraryUser[] {
    const rows = this.db.sqlite.prepare(`SELECT u.id, u.username, u.email, u.first_name, u.last_name, u.last_login, u.expiration,
        u.can_merge, u.library_admin, u.is_superuser FROM users u JOIN user_libraries ul ON ul.user_id = u.id
        WHERE ul.library_id = ? ORDER BY u.username`).all(libraryId) as UserListRow[];
    return rows.map((u) => ({
      id: u.id,
      username: u.username,
      email: u.email,
      name: `${u.first_name} ${u.last_name}`.trim(),
      last_login: u.last_login ? u.last_login.slice(0, 10) : null,
      expiration: u.expiration ? u.expiration.slice(0, 10) : null,
      can_merge: !!u.can_merge,
      library_admin: !!u.library_admin,
      removable: !u.library_admin && !u.is_superuser,
    }));
  }

  /**
   * Adds a user to the library: an existing username is attached as it is (flags unchanged, no mail);
   * a new one is created without a password and receives a set-your-password link.
   */
  async createUser(lib: LibraryRow, input: NewUserInput): Promise<{ success: string; status: 'created' | 'added' | 'present'; user_id: number }> {
    const username = normaliseUsername(input.username);
    const existing = this.db.sqlite.prepare('SELECT id FROM users WHERE username = ?').pluck().get(username) as number | undefined;
    if (existing !== undefined) {
      const present = this.db.sqlite.prepare('SELECT 1 FROM user_libraries WHERE user_id = ? AND library_id = ?').get(existing, lib.id);
      if (present) return { success: 'User already present', status: 'present', user_id: existing };
      this.accounts.addLibrary(existing, lib.id);
      return { success: 'User added', status: 'added', user_id: existing };
    }
    const email = input.email || lib.email_internal || '';
    if (!email) throw new HttpError(400, 'An e-mail address is needed to send the new user a link to set the password');
    let id: number;
    try {
      id = await this.accounts.createUser({
        username,
        email,
        first_name: input.first_name,
        last_name: input.last_name,
        can_merge: input.can_merge,
        expiration: input.expiration ? `${input.expiration}T23:59:59.999Z` : null,
        libraryIds: [lib.id],
      });
    } catch (e) {
      if (e instanceof AccountError) throw new HttpError(400, e.template, { values: e.values });
      throw e;
    }
    await this.accounts.sendWelcome(id, lib.name);
    return { success: 'User added', status: 'created', user_id: id };
  }

  /** Detaches a user from the library; the account itself is never deleted (anchor §11.4). */
  removeUser(lib: LibraryRow, userId: number, viewer: Viewer): void {
    const u = this.db.sqlite.prepare(`SELECT u.id, u.library_admin, u.is_superuser FROM users u JOIN user_libraries ul ON ul.user_id = u.id
      WHERE ul.library_id = ? AND u.id = ?`).get(lib.id, userId) as { id: number; library_admin: number; is_superuser: number } | undefined;
    if (!u) throw new HttpError(404, 'No such affiliated user');
    if (u.id === viewer.userId) throw new HttpError(400, 'You cannot remove yourself');
    if ((u.library_admin || u.is_superuser) && !viewer.isSuperuser) {
      throw new HttpError(403, 'Library administrators and superusers can only be removed by a superuser');
    }
    this.db.sqlite.prepare('DELETE FROM user_libraries WHERE user_id = ? AND library_id = ?').run(userId, lib.id);
  }
}
