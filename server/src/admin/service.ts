// The admin area (superusers): libraries and their sites, users with flags and affiliations, pages,
// the general settings and the mail outbox. Routes are thin; every rule lives here.
import type { z } from 'zod';
import type { Db } from '../db/index.ts';
import { HttpError, notFound } from '../http/errors.ts';
import type { Viewer } from '../http/viewer.ts';
import { AccountError, type AccountService, type UserRow } from '../accounts/service.ts';
import { upsertLibrary, type LibraryService, type LibraryRow, type LibraryInput } from '../libraries/service.ts';
import type { PagesService } from '../pages/service.ts';
import type {
  AdminLibrary, AdminLibraryBody, AdminPage, AdminUser, AdminUserUpdate,
  adminPageBody, adminSettingsBody, adminUserCreateBody, outboxItemSchema,
} from './schemas.ts';

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ','now')";
const bool = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

export class AdminService {
  constructor(private db: Db, private libraries: LibraryService, private pages: PagesService, private accounts: AccountService) {}

  // ---------- libraries ----------
  private libraryOut(l: LibraryRow): AdminLibrary {
    const counts = this.db.sqlite.prepare(`SELECT (SELECT count(*) FROM sites WHERE library_id = ?) AS sites,
      (SELECT count(*) FROM data_sources d JOIN sites s ON s.id = d.site_id WHERE s.library_id = ?) AS data_sources`)
      .get(l.id, l.id) as { sites: number; data_sources: number };
    return {
      id: l.id, name: l.name, url: l.url, logo_url: l.logo_url, library_type: l.library_type, public: !!l.public, active: !!l.active,
      email_public: l.email_public, email_internal: l.email_internal, description: l.description, short_desc: l.short_desc,
      address_city: l.address_city, address_country: l.address_country, latitude: l.latitude, longitude: l.longitude,
      languages: l.languages, region: l.region, ...counts,
    };
  }

  private libraryRow(id: number): LibraryRow {
    const row = this.db.sqlite.prepare('SELECT * FROM libraries WHERE id = ?').get(id) as LibraryRow | undefined;
    if (!row) throw notFound('No such library');
    return row;
  }

  listLibraries(): AdminLibrary[] {
    const rows = this.db.sqlite.prepare('SELECT * FROM libraries ORDER BY lower(name), id').all() as LibraryRow[];
    return rows.map((r) => this.libraryOut(r));
  }

  private libraryInput(b: Partial<AdminLibraryBody>): Omit<LibraryInput, 'name'> & { name?: string } {
    const { public: pub, active, ...rest } = b;
    // Only what the body says: an absent flag must not override a default (a new library is public).
    return { ...rest, ...(pub === undefined ? {} : { public: bool(pub) }), ...(active === undefined ? {} : { active: bool(active) }) };
  }

  createLibrary(b: AdminLibraryBody): AdminLibrary {
    const id = upsertLibrary(this.db, { library_type: 'digital', public: 1, active: 1, ...this.libraryInput(b), name: b.name } as LibraryInput);
    this.libraries.invalidate();
    return this.libraryOut(this.libraryRow(id));
  }

  updateLibrary(id: number, b: AdminLibraryBody): AdminLibrary {
    this.libraryRow(id);
    upsertLibrary(this.db, { ...this.libraryInput(b), name: b.name, id } as LibraryInput);
    this.libraries.invalidate();
    return this.libraryOut(this.libraryRow(id));
  }

  /** Only a library without data sources can go (its sites and affiliations go with it). */
  deleteLibrary(id: number): void {
    const lib = this.libraryOut(this.libraryRow(id));
    if (lib.data_sources > 0) {
      throw new HttpError(409, 'The library "{{name}}" still holds {{count}} data sources: deactivate it instead, or remove its records first', { values: { name: lib.name, count: lib.data_sources } });
    }
    this.db.sqlite.prepare('DELETE FROM libraries WHERE id = ?').run(id);
    this.libraries.invalidate();
  }

  // ---------- users ----------
  private userOut(u: UserRow & { last_login?: string | null }): AdminUser {
    return {
      id: u.id, username: u.username, email: u.email, first_name: u.first_name, last_name: u.last_name,
      is_superuser: !!u.is_superuser, library_admin: !!u.library_admin, can_merge: !!u.can_merge,
      can_set_exclusions: !!u.can_set_exclusions, active: !!u.active, expiration: u.expiration, last_login: u.last_login ?? null,
      library_ids: this.db.sqlite.prepare('SELECT library_id FROM user_libraries WHERE user_id = ? ORDER BY library_id').pluck().all(u.id) as number[],
    };
  }

  private userRow(id: number): UserRow {
    const row = this.accounts.getUser(id);
    if (!row) throw notFound('No such user');
    return row;
  }

  listUsers(): AdminUser[] {
    return (this.db.sqlite.prepare('SELECT * FROM users ORDER BY username').all() as UserRow[]).map((u) => this.userOut(u));
  }

  private checkLibraries(ids: number[] | undefined) {
    for (const id of ids ?? []) this.libraryRow(id);
  }

  async createUser(b: z.infer<typeof adminUserCreateBody>): Promise<AdminUser> {
    this.checkLibraries(b.library_ids);
    let id: number;
    try {
      id = await this.accounts.createUser({
        username: b.username, email: b.email, password: b.password || undefined, first_name: b.first_name, last_name: b.last_name,
        is_superuser: b.is_superuser, library_admin: b.library_admin, can_merge: b.can_merge, can_set_exclusions: b.can_set_exclusions,
        expiration: b.expiration ?? null, libraryIds: b.library_ids,
      });
    } catch (e) {
      if (e instanceof AccountError) throw new HttpError(e.message.includes('already exists') ? 409 : 400, e.template, { values: e.values });
      throw e;
    }
    if (b.active === false) this.db.sqlite.prepare('UPDATE users SET active = 0 WHERE id = ?').run(id);
    return this.userOut(this.userRow(id));
  }

  /** Flags, names, expiration and affiliations; a superuser cannot take away their own superuser flag or disable themselves. */
  updateUser(viewer: Viewer, id: number, b: AdminUserUpdate): AdminUser {
    const before = this.userRow(id);
    if (viewer.userId === id && b.is_superuser === false) throw new HttpError(409, 'You cannot remove your own superuser flag');
    if (viewer.userId === id && b.active === false) throw new HttpError(409, 'You cannot disable your own account');
    this.checkLibraries(b.library_ids);
    const sets: string[] = [];
    const vals: unknown[] = [];
    const put = (col: string, v: unknown) => {
      if (v !== undefined) {
        sets.push(`${col} = ?`);
        vals.push(v);
      }
    };
    put('email', b.email);
    put('first_name', b.first_name);
    put('last_name', b.last_name);
    put('is_superuser', bool(b.is_superuser));
    put('library_admin', bool(b.library_admin));
    put('can_merge', bool(b.can_merge));
    put('can_set_exclusions', bool(b.can_set_exclusions));
    put('active', bool(b.active));
    put('expiration', b.expiration === undefined ? undefined : b.expiration || null);
    this.db.sqlite.transaction(() => {
      if (sets.length) this.db.sqlite.prepare(`UPDATE users SET ${sets.join(', ')}, last_modified = ${NOW} WHERE id = ?`).run(...vals, id);
      if (b.library_ids) {
        // Kept affiliations keep their row: it records whether that library created the account.
        const keep = new Set(b.library_ids);
        const current = this.db.sqlite.prepare('SELECT library_id FROM user_libraries WHERE user_id = ?').pluck().all(id) as number[];
        for (const lib of current) if (!keep.has(lib)) this.db.sqlite.prepare('DELETE FROM user_libraries WHERE user_id = ? AND library_id = ?').run(id, lib);
        for (const lib of b.library_ids) this.accounts.addLibrary(id, lib);
      }
      // A new address was not given by the library that created the account: its admins no longer see it.
      if (b.email !== undefined && b.email !== before.email) this.db.sqlite.prepare('UPDATE user_libraries SET created_here = 0 WHERE user_id = ?').run(id);
      // A disabled account loses its sessions at once.
      if (b.active === false) this.db.sqlite.prepare('DELETE FROM sessions WHERE user_id = ?').run(id);
    })();
    return this.userOut(this.userRow(id));
  }

  // ---------- pages ----------
  private pageOut(id: number): AdminPage {
    const row = this.db.sqlite.prepare('SELECT id, title, summary, content, language, location, sorting, published, last_modified FROM pages WHERE id = ?')
      .get(id) as (Omit<AdminPage, 'published'> & { published: number }) | undefined;
    if (!row) throw notFound('No such page');
    return { ...row, published: !!row.published };
  }

  listPages(): AdminPage[] {
    const ids = this.db.sqlite.prepare('SELECT id FROM pages ORDER BY location, language, sorting, title').pluck().all() as number[];
    return ids.map((id) => this.pageOut(id));
  }

  getPage(id: number): AdminPage {
    return this.pageOut(id);
  }

  createPage(b: z.infer<typeof adminPageBody>): AdminPage {
    return this.pageOut(this.pages.upsertPage({ ...b }));
  }

  updatePage(id: number, b: z.infer<typeof adminPageBody>): AdminPage {
    this.pageOut(id);
    return this.pageOut(this.pages.upsertPage({ ...b, id }));
  }

  deletePage(id: number): void {
    this.pageOut(id);
    this.db.sqlite.prepare('DELETE FROM pages WHERE id = ?').run(id);
  }

  // ---------- settings ----------
  settings() {
    return this.pages.settings();
  }

  setSettings(b: z.infer<typeof adminSettingsBody>) {
    this.pages.setSettings(b);
    return this.pages.settings();
  }

  // ---------- outbox ----------
  outbox(page: number, pageSize: number) {
    const total = this.db.sqlite.prepare('SELECT count(*) FROM outbox').pluck().get() as number;
    const messages = this.db.sqlite.prepare(`SELECT id, kind, to_address, cc_address, reply_to, subject, body, status, error, attempts, created, sent_at
      FROM outbox ORDER BY id DESC LIMIT ? OFFSET ?`).all(pageSize, (page - 1) * pageSize) as z.infer<typeof outboxItemSchema>[];
    return { messages, total, page, page_size: pageSize };
  }
}
