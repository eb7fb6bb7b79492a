// Library logos, kept by us and served from our own origin (issue 27): a logo address typed by a library
// admin used to widen the site-wide CSP img-src to that library's host. A logo is an uploaded file, or
// the image at a given address fetched once by the server (through the harvest fetch: http(s) only,
// private networks refused, size cut off); either way only PNG, JPEG, WebP or GIF, told by the file's
// first bytes (never SVG or HTML, whatever it is called), and never decoded here: the browser draws it.
import { createHash } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { Refusal } from '../http/errors.ts';
import { fetchWithRetry, HarvestFetchError } from '../harvest/fetch.ts';
import { upsertLibrary } from './service.ts';

/** Largest logo accepted, uploaded or fetched. */
export const LOGO_MAX_BYTES = 512 * 1024;
const FETCH_TIMEOUT_MS = 15_000;

/** The path a stored logo is served at; `logo_url` holds it with the logo's version (so caches can keep it). */
export const logoPath = (libraryId: number) => `/collector/api/libraries/${libraryId}/logo`;

/** The image type of a logo by its magic bytes, or null: PNG, JPEG, GIF and WebP only. */
export function logoType(bytes: Uint8Array): string | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && ['GIF87a', 'GIF89a'].includes(b.toString('latin1', 0, 6))) return 'image/gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

export interface StoredLogo { content: Buffer; contentType: string; version: string }

export class LibraryLogoService {
  constructor(private db: Db, private opts: { allowPrivate?: boolean } = {}) {}

  /** Checks and stores the logo, points the library's logo_url at it; returns that URL. */
  store(libraryId: number, bytes: Uint8Array): string {
    if (bytes.byteLength === 0) throw new Refusal('The logo file is empty');
    if (bytes.byteLength > LOGO_MAX_BYTES) throw new Refusal('The logo is larger than {{kb}} KB', { values: { kb: LOGO_MAX_BYTES / 1024 } });
    const contentType = logoType(bytes);
    if (!contentType) throw new Refusal('The logo must be a PNG, JPEG, WebP or GIF image');
    const content = Buffer.from(bytes);
    const version = createHash('sha256').update(content).digest('hex').slice(0, 12);
    const url = `${logoPath(libraryId)}?v=${version}`;
    this.db.sqlite.transaction(() => {
      this.db.sqlite.prepare(`INSERT INTO library_logos (library_id, content, content_type, version) VALUES (?, ?, ?, ?)
        ON CONFLICT (library_id) DO UPDATE SET content = excluded.content, content_type = excluded.content_type, version = excluded.version`)
        .run(libraryId, content, contentType, version);
      upsertLibrary(this.db, { id: libraryId, logo_url: url } as Parameters<typeof upsertLibrary>[1]);
    })();
    return url;
  }

  /**
   * The logo_url of a library edit: our own logo's URL (or none) is kept as it is; any other address is
   * fetched once and stored, so the library's host never serves the site an image.
   */
  async fromUrl(libraryId: number, url: string | null, current: string | null): Promise<string | null> {
    if (!url) {
      this.clear(libraryId);
      return null;
    }
    if (this.isOwn(libraryId, url)) return this.get(libraryId) ? current : null; // ours (any version): the stored one stays
    let body: Buffer;
    try {
      ({ body } = await fetchWithRetry(url, { maxBytes: LOGO_MAX_BYTES, timeoutMs: FETCH_TIMEOUT_MS, retries: 0, allowPrivate: this.opts.allowPrivate }));
      return this.store(libraryId, body);
    } catch (e) {
      // An address from before (an import, an older version) that cannot be taken in does not stop the
      // rest of the edit; the web app shows no image from another host anyway.
      if (url === current) return current;
      // The fetch's reason stays here: it may name hosts and addresses of our own network.
      if (e instanceof HarvestFetchError) throw new Refusal('The logo could not be fetched from this address: upload the image file instead');
      throw e;
    }
  }

  /** Whether `url` is the address of this library's logo on our origin (relative, or absolute with any host). */
  private isOwn(libraryId: number, url: string): boolean {
    const path = url.replace(/^https?:\/\/[^/]+/i, '').split('?')[0];
    return path === logoPath(libraryId);
  }

  get(libraryId: number): StoredLogo | null {
    const row = this.db.sqlite.prepare('SELECT content, content_type, version FROM library_logos WHERE library_id = ?')
      .get(libraryId) as { content: Buffer; content_type: string; version: string } | undefined;
    return row ? { content: Buffer.from(row.content), contentType: row.content_type, version: row.version } : null;
  }

  clear(libraryId: number): void {
    this.db.sqlite.prepare('DELETE FROM library_logos WHERE library_id = ?').run(libraryId);
  }
}
