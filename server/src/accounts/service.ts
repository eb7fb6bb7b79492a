// Accounts: users, password hashing (argon2id), server-side sessions, password resets, and the
// permission flags of a viewer (spec §6).
import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Db } from '../db/index.ts';
import type { Viewer } from '../http/viewer.ts';
import type { LibraryService } from '../libraries/service.ts';
import { MessageError } from '../http/messages.ts';

export interface AccountSettings {
  sessionDays: number;
  resetMinutes: number;
  minPasswordLength: number;
  publicUrl: string;
}

export interface OutgoingMail { to: string; subject: string; text: string }
export type SendMail = (mail: OutgoingMail) => Promise<void>;

export interface UserRow {
  id: number; username: string; email: string; first_name: string; last_name: string; password_hash: string | null;
  is_superuser: number; library_admin: number; can_merge: number; can_set_exclusions: number; active: number;
  expiration: string | null;
}

export interface NewUser {
  username: string;
  email?: string;
  password?: string;
  first_name?: string;
  last_name?: string;
  is_superuser?: boolean;
  library_admin?: boolean;
  can_merge?: boolean;
  can_set_exclusions?: boolean;
  expiration?: string | null;
  libraryIds?: number[];
}

/** The spec's user check (GET /auth/user). */
export interface UserInfo {
  logged_in: string | null;
  message: string | null;
  email: string;
  is_superuser: boolean;
  is_library_admin: boolean;
  can_merge: boolean;
  can_set_exclusions: boolean;
  libraries: { id: number; name: string }[];
}

/** A refusal of an account operation; `message` is an English template filled from `values`. */
export class AccountError extends MessageError {}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
export const normaliseUsername = (u: string) => u.trim().toLowerCase();
const ARGON = { algorithm: 2 as const }; // argon2id with the library's recommended costs
// Verified against when the username is unknown, so a failed login takes the same time either way.
let dummyHash: Promise<string> | null = null;

export class AccountService {
  constructor(private db: Db, private libraries: LibraryService, private settings: AccountSettings, private sendMail: SendMail) {}

  private byUsername(username: string): UserRow | undefined {
    return this.db.sqlite.prepare('SELECT * FROM users WHERE username = ?').get(normaliseUsername(username)) as UserRow | undefined;
  }

  private byId(id: number): UserRow | undefined {
    return this.db.sqlite.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
  }

  isExpired(u: Pick<UserRow, 'expiration'>, now = new Date()): boolean {
    return !!u.expiration && new Date(u.expiration) <= now;
  }

  /** The shortest password accepted (the web app shows it beside new-password fields). */
  get passwordMinLength(): number {
    return this.settings.minPasswordLength;
  }

  checkPassword(password: string): void {
    if (password.length < this.settings.minPasswordLength) {
      throw new AccountError('The password must have at least {{count}} characters', { count: this.settings.minPasswordLength });
    }
    if (password.length > 1000) throw new AccountError('The password is too long');
  }

  async createUser(u: NewUser): Promise<number> {
    const username = normaliseUsername(u.username);
    if (!/^[\p{L}\p{N}_.@+-]{1,150}$/u.test(username)) throw new AccountError('Invalid username');
    if (this.byUsername(username)) throw new AccountError('This username already exists');
    if (u.password !== undefined) this.checkPassword(u.password);
    const passwordHash = u.password !== undefined ? await hash(u.password, ARGON) : null;
    const id = Number(this.db.sqlite.prepare(`INSERT INTO users (username, email, first_name, last_name, password_hash, is_superuser,
        library_admin, can_merge, can_set_exclusions, expiration) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
      username, u.email ?? '', u.first_name ?? '', u.last_name ?? '', passwordHash, u.is_superuser ? 1 : 0,
      u.library_admin ? 1 : 0, u.can_merge ? 1 : 0, u.can_set_exclusions ? 1 : 0, u.expiration ?? null,
    ).lastInsertRowid);
    for (const lib of u.libraryIds ?? []) this.addLibrary(id, lib);
    return id;
  }

  addLibrary(userId: number, libraryId: number) {
    this.db.sqlite.prepare('INSERT INTO user_libraries (user_id, library_id) VALUES (?, ?) ON CONFLICT DO NOTHING').run(userId, libraryId);
  }

  userExists(username: string): boolean {
    return !!this.byUsername(username);
  }

  /** Checks the credentials; returns the new session token, or an error message (never saying which part was wrong). */
  async login(username: string, password: string): Promise<{ token: string; userId: number } | { error: string }> {
    const user = this.byUsername(username);
    dummyHash ??= hash('not a password', ARGON);
    const ok = await verify(user?.password_hash ?? (await dummyHash), password).catch(() => false);
    if (!user || !user.password_hash || !ok || !user.active) return { error: 'Invalid login' };
    if (this.isExpired(user)) return { error: 'Sorry, your account is expired!' };
    this.db.sqlite.prepare("UPDATE users SET last_login = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?").run(user.id);
    return { token: this.newSession(user.id), userId: user.id };
  }

  private newSession(userId: number): string {
    const token = randomBytes(32).toString('base64url');
    const expires = new Date(Date.now() + this.settings.sessionDays * 86400_000).toISOString();
    this.db.sqlite.prepare('INSERT INTO sessions (token_hash, user_id, expires) VALUES (?, ?, ?)').run(sha256(token), userId, expires);
    this.db.sqlite.prepare('DELETE FROM sessions WHERE expires < ?').run(new Date().toISOString());
    return token;
  }

  logout(token: string) {
    this.db.sqlite.prepare('DELETE FROM sessions WHERE token_hash = ?').run(sha256(token));
  }

  /** The viewer of a session token; null for unknown or expired sessions, and for expired or disabled users. */
  viewerForToken(token: string): Viewer | null {
    const row = this.db.sqlite.prepare(`SELECT u.* FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = ? AND s.expires > ?`).get(sha256(token), new Date().toISOString()) as UserRow | undefined;
    if (!row || !row.active || this.isExpired(row)) return null;
    return this.viewerOf(row);
  }

  viewerOf(row: UserRow): Viewer {
    const libraryIds = (this.db.sqlite.prepare('SELECT library_id FROM user_libraries WHERE user_id = ? ORDER BY library_id').pluck().all(row.id) as number[]);
    const superuser = !!row.is_superuser;
    return {
      userId: row.id,
      username: row.username,
      email: row.email,
      isSuperuser: superuser,
      isLibraryAdmin: !!row.library_admin,
      // Spec §6: library admins may also curate; superusers may do everything.
      canMerge: superuser || !!row.can_merge || !!row.library_admin,
      // Exclusions are a user's own view of the catalogue: every logged-in user may set them (anchor §2.1).
      canSetExclusions: true,
      libraryIds,
    };
  }

  userInfo(viewer: Viewer, message: string | null = null): UserInfo {
    const libs = this.libraries.all();
    return {
      logged_in: viewer.username,
      message,
      email: viewer.email,
      is_superuser: viewer.isSuperuser,
      is_library_admin: viewer.isLibraryAdmin,
      can_merge: viewer.canMerge,
      can_set_exclusions: viewer.canSetExclusions,
      libraries: viewer.libraryIds
        .map((id) => libs.get(id))
        .filter((l): l is NonNullable<typeof l> => !!l && !!l.active)
        .map((l) => ({ id: l.id, name: l.name })),
    };
  }

  /** Sends a reset link when the account exists and has an address; the answer never tells which. */
  async requestReset(username: string): Promise<void> {
    const user = this.byUsername(username);
    if (!user || !user.email || !user.active || this.isExpired(user)) return;
    const recent = this.db.sqlite.prepare('SELECT 1 FROM password_resets WHERE user_id = ? AND used = 0 AND created > ?')
      .get(user.id, new Date(Date.now() - 60_000).toISOString());
    if (recent) return; // one mail a minute at most
    const link = this.resetLink(user, this.settings.resetMinutes);
    await this.sendMail({
      to: user.email,
      subject: 'Password reset',
      text: `Someone (probably you) asked to reset the password of the account "${user.username}".\n\n` +
        `Open this link within ${this.settings.resetMinutes} minutes to choose a new password:\n${link}\n\n` +
        'If you did not ask for it, ignore this message: your password stays as it is.',
    });
  }

  /** A new single-use reset token for the user, valid for `minutes`; returns the link that uses it. */
  private resetLink(user: UserRow, minutes: number): string {
    const token = randomBytes(32).toString('base64url');
    const expires = new Date(Date.now() + minutes * 60_000).toISOString();
    this.db.sqlite.prepare('INSERT INTO password_resets (token_hash, user_id, expires) VALUES (?, ?, ?)').run(sha256(token), user.id, expires);
    return `${this.settings.publicUrl.replace(/\/$/, '')}/reset-password/${encodeURIComponent(user.username)}/${token}`;
  }

  /**
   * The welcome mail of an account created without a password (library admins add users): a
   * set-your-password link, valid for `days` (not the 10 minutes of the old product).
   */
  async sendWelcome(userId: number, libraryName: string, days = 7): Promise<boolean> {
    const user = this.byId(userId);
    if (!user || !user.email || !user.active) return false;
    const link = this.resetLink(user, days * 24 * 60);
    const expiry = user.expiration ? `\n\nThis account will expire on ${user.expiration.slice(0, 10)}.` : '';
    await this.sendMail({
      to: user.email,
      subject: `Your account "${user.username}" (${libraryName})`,
      text: `An account "${user.username}" has been created for you by the administrators of ${libraryName}.\n\n` +
        `Open this link within ${days} days to choose your password:\n${link}\n\n` +
        `After that, you can always ask for a new link with "Reset password" on the login form.${expiry}`,
    });
    return true;
  }

  /** Sets a new password with a valid single-use token; returns a new session token. */
  async resetPassword(username: string, token: string, password: string): Promise<{ token: string; userId: number }> {
    const invalid = () => new AccountError('This reset link is invalid or has expired. Please ask for a new one.');
    const user = this.byUsername(username);
    if (!user || !user.active || this.isExpired(user)) throw invalid();
    const live = 'token_hash = ? AND user_id = ? AND used = 0 AND expires > ?';
    const args = [sha256(token), user.id, new Date().toISOString()];
    if (!this.db.sqlite.prepare(`SELECT 1 FROM password_resets WHERE ${live}`).get(...args)) throw invalid();
    // A too-short password leaves the link usable; then the token is used up in one statement, before
    // the slow hashing, so of two requests with one token only one gets past here.
    this.checkPassword(password);
    if (this.db.sqlite.prepare(`UPDATE password_resets SET used = 1 WHERE ${live}`).run(...args).changes !== 1) throw invalid();
    const passwordHash = await hash(password, ARGON);
    this.db.sqlite.transaction(() => {
      this.db.sqlite.prepare('UPDATE password_resets SET used = 1 WHERE user_id = ?').run(user.id);
      this.db.sqlite.prepare("UPDATE users SET password_hash = ?, last_modified = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?").run(passwordHash, user.id);
      this.db.sqlite.prepare('DELETE FROM sessions WHERE user_id = ?').run(user.id); // other sessions end
    })();
    return { token: this.newSession(user.id), userId: user.id };
  }

  getUser(id: number): UserRow | undefined {
    return this.byId(id);
  }
}
