// Library administration: THE permission rule, the library edit, and the library's users.
import type { z } from 'zod';
import type { AdminLibrary, LibraryUser, libraryEditBodySchema, createLibraryUserBodySchema } from '@uc/shared';
import type { Db } from '../db/index.ts';
import type { Viewer } from '../http/viewer.ts';
import { HttpError, Refusal } from '../http/errors.ts';
import { upsertLibrary, type LibraryRow, type LibraryService } from '../libraries/service.ts';
import { AccountError, normaliseUsername, type AccountService } from '../accounts/service.ts';
import { LibraryLogoService } from '../libraries/logos.ts';

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
  expiration: string | null; can_merge: number; library_admin: number; is_superuser: number; created_here: number;
}

export class LibraryAdminService {
  constructor(private db: Db, private libraries: LibraryService, private accounts: AccountService, private logos = new LibraryLogoService(db)) {}

  toAdmin(lib: LibraryRow, viewer: Viewer): AdminLibrary {
    const { entries_count: _count, ...pub } = this.libraries.toPublic(lib, viewer);
    return { ...pub, email_internal: lib.email_internal, created: lib.created, last_modified: lib.last_modified };
  }

  details(lib: LibraryRow, viewer: Viewer) {
    return { library: this.toAdmin(lib, viewer), users: this.users(lib.id, viewer) };
  }

  /** The edit; a logo address other than our own logo's is fetched once and kept by us (LibraryLogoService). */
  async update(lib: LibraryRow, input: EditInput, viewer: Viewer): Promise<AdminLibrary> {
    const logoUrl = await this.logos.fromUrl(lib.id, input.logo_url, lib.logo_url);
    upsertLibrary(this.db, { id: lib.id, ...input, logo_url: logoUrl, name: input.name });
    this.libraries.invalidate();
    return this.toAdmin(this.libraries.get(lib.id)!, viewer);
  }

  /** An uploaded logo file (checked by LibraryLogoService); answers the library with its new logo_url. */
  uploadLogo(lib: LibraryRow, bytes: Uint8Array, viewer: Viewer): AdminLibrary {
    this.logos.store(lib.id, bytes);
    this.libraries.invalidate();
    return this.toAdmin(this.libraries.get(lib.id)!, viewer);
  }

  /**
   * Every user affiliated with the library; admins and superusers are listed but cannot be removed here.
   * A library admin sees the e-mail, name and last login only of the accounts this library created (it
   * gave them): an account it merely attached by username keeps them private (issue 27). Superusers see all.
   */
  users(libraryId: number, viewer: Viewer): LibraryUser[] {
    const rows = this.db.sqlite.prepare(`SELECT u.id, u.username, u.email, u.first_name, u.last_name, u.last_login, u.expiration,
        u.can_merge, u.library_admin, u.is_superuser, ul.created_here FROM users u JOIN user_libraries ul ON ul.user_id = u.id
        WHERE ul.library_id = ? ORDER BY u.username`).all(libraryId) as UserListRow[];
    return rows.map((u) => {
      const personal = viewer.isSuperuser || (!!u.created_here && !u.is_superuser);
      return {
        id: u.id,
        username: u.username,
        // The spec's client reads strings here: '' rather than null for what stays private.
        email: personal ? u.email : '',
        name: personal ? `${u.first_name} ${u.last_name}`.trim() : '',
        last_login: personal && u.last_login ? u.last_login.slice(0, 10) : null,
        expiration: u.expiration ? u.expiration.slice(0, 10) : null,
        can_merge: !!u.can_merge,
        library_admin: !!u.library_admin,
        removable: !u.library_admin && !u.is_superuser,
      };
    });
  }

  /**
   * Adds a user to the library: an existing username is attached as it is (flags, e-mail and password
   * unchanged, no mail, its personal data not shown to this library); a superuser's account is never
   * attached. A new one is created without a password and receives a set-your-password link.
   */
  async createUser(lib: LibraryRow, input: NewUserInput): Promise<{ success: string; status: 'created' | 'added' | 'present'; user_id: number }> {
    const username = normaliseUsername(input.username);
    const existing = this.db.sqlite.prepare('SELECT id, is_superuser FROM users WHERE username = ?').get(username) as { id: number; is_superuser: number } | undefined;
    if (existing !== undefined) {
      const present = this.db.sqlite.prepare('SELECT 1 FROM user_libraries WHERE user_id = ? AND library_id = ?').get(existing.id, lib.id);
      if (present) return { success: 'User already present', status: 'present', user_id: existing.id };
      // A superuser administers every library already; attached, it would be listed to this library's admins.
      if (existing.is_superuser) throw new Refusal('This account cannot be added to a library');
      this.accounts.addLibrary(existing.id, lib.id);
      return { success: 'User added', status: 'added', user_id: existing.id };
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
    // This library gave the account its e-mail and names: its admins may see them (users()).
    this.db.sqlite.prepare('UPDATE user_libraries SET created_here = 1 WHERE user_id = ? AND library_id = ?').run(id, lib.id);
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
