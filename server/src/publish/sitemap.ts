// Sitemaps for crawlers: an index pointing at files of at most 50,000 URLs (the protocol's limit) listing
// the static pages, the libraries, the authors and every entry an anonymous visitor may see. Each rule
// of who sees what stays with its service: PagesService.get, LibraryService.isListed, the search index's
// author counts and CatalogueService.visibleEntries (the entry page's own rule).
import type { Db } from '../db/index.ts';
import { jsonText } from '../db/dialect.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { SearchService } from '../search/service.ts';
import type { LibraryService } from '../libraries/service.ts';
import type { PagesService } from '../pages/service.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { rfc3339, xmlDocument } from './feeds.ts';

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
export const SITEMAP_LIMIT = 50_000;
const CACHE_MS = 60_000;
const ENTRY_SLICE = 2_000;

/** A site path and when it last changed (ISO), if known. */
export interface SitemapUrl { path: string; lastmod: string | null }

/** Splits the URL list into sitemap files of at most `limit` URLs (at least one file, maybe empty). */
export function splitSitemap<T>(urls: T[], limit = SITEMAP_LIMIT): T[][] {
  if (!Number.isInteger(limit) || limit < 1) throw new Error('limit must be a positive integer');
  const files: T[][] = [];
  for (let i = 0; i < urls.length; i += limit) files.push(urls.slice(i, i + limit));
  return files.length ? files : [[]];
}

/** App pages worth crawling that have no id (the home page redirects to the map). */
const STATIC_PATHS = ['/map', '/library', '/agent', '/contact'];

export class Sitemaps {
  private cache: { key: string; at: number; files: SitemapUrl[][] } | null = null;
  private building: Promise<SitemapUrl[][]> | null = null;

  constructor(
    private db: Db, private catalogue: CatalogueService, private search: SearchService,
    private libraries: LibraryService, private pages: PagesService, private limit = SITEMAP_LIMIT,
  ) {}

  /** What the URL list depends on, read cheaply: the index's last change, the libraries and the pages. */
  private version(): string {
    const s = this.db.sqlite;
    const seq = s.prepare('SELECT coalesce(max(seq), 0) FROM search_docs').pluck().get();
    const pages = s.prepare('SELECT count(*) || max(last_modified) FROM pages').pluck().get();
    const libs = [...this.libraries.all().values()].map((l) => l.last_modified).sort().at(-1);
    return `${seq}|${pages}|${this.libraries.all().size}|${libs}`;
  }

  /**
   * Every public URL, split in files. Rebuilt when the catalogue changed, at most once a minute (a
   * crawler reads the index and then every file in a row); concurrent requests share one build.
   */
  async files(): Promise<SitemapUrl[][]> {
    const now = Date.now();
    if (this.cache && (now - this.cache.at < CACHE_MS || this.cache.key === this.version())) return this.cache.files;
    this.building ??= (async () => {
      try {
        const key = this.version();
        const files = splitSitemap(await this.urls(), this.limit);
        this.cache = { key, at: Date.now(), files };
        return files;
      } finally {
        this.building = null;
      }
    })();
    return this.building;
  }

  async urls(): Promise<SitemapUrl[]> {
    const s = this.db.sqlite;
    const out: SitemapUrl[] = STATIC_PATHS.map((path) => ({ path, lastmod: null }));
    for (const [id, modified] of s.prepare('SELECT id, last_modified FROM pages WHERE published = 1 ORDER BY id').raw().all() as [number, string][]) {
      if (this.pages.get(id, false)) out.push({ path: `/page/${id}`, lastmod: rfc3339(modified) });
    }
    for (const lib of this.libraries.all().values()) {
      if (this.libraries.isListed(lib, ANONYMOUS)) out.push({ path: `/library/details/${lib.id}`, lastmod: rfc3339(lib.last_modified) });
    }
    const authors = this.search.countVisible('creator', null, ANONYMOUS).counts;
    for (const [id, modified] of s.prepare('SELECT id, last_modified FROM agents ORDER BY id').raw().iterate() as Iterable<[number, string]>) {
      if (authors.get(String(id))) out.push({ path: `/library/author/${id}`, lastmod: rfc3339(modified) });
    }
    // Indexed entries (the canonical ones holding records) in slices read by key, the event loop free
    // between slices: at 100,000 entries the whole pass is one to two seconds of work. lastmod is the
    // newer of the acquisition date the index sorts "latest" by and the entry's last curation change.
    const slice = s.prepare(`SELECT d.entry_id, ${jsonText(s.dialect, 'd.doc', 'datestamp')}, e.last_modified
      FROM search_docs d JOIN entries e ON e.id = d.entry_id WHERE d.entry_id > ? AND d.doc IS NOT NULL ORDER BY d.entry_id LIMIT ${ENTRY_SLICE}`).raw();
    for (let after = 0; ;) {
      const rows = slice.all(after) as [number, string | null, string][];
      if (rows.length === 0) break;
      after = rows[rows.length - 1][0];
      const visible = this.catalogue.visibleEntries(rows.map((r) => r[0]), ANONYMOUS);
      for (const [id, datestamp, modified] of rows) {
        if (!visible.has(id)) continue;
        const a = rfc3339(datestamp);
        const b = rfc3339(modified);
        out.push({ path: `/entry/${id}`, lastmod: a && b ? (a > b ? a : b) : a ?? b });
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    return out;
  }

  /** The sitemap index: one <sitemap> per file, with the newest lastmod in it. */
  async index(base: string): Promise<string> {
    const doc = xmlDocument();
    const root = doc.ele(SITEMAP_NS, 'sitemapindex');
    (await this.files()).forEach((file, i) => {
      const el = root.ele('sitemap');
      el.ele('loc').txt(`${base}/sitemap-${i + 1}.xml`);
      const newest = file.reduce<string | null>((max, u) => (u.lastmod && (!max || u.lastmod > max) ? u.lastmod : max), null);
      if (newest) el.ele('lastmod').txt(newest);
    });
    return doc.end();
  }

  /**
   * File `n` (from 1), or null when there is no such file. Written as text, each value through
   * escapeXml: xmlbuilder2 took 1.2 s (tree) to 7 s (callbacks) for a file of 50,000 URLs, time the
   * whole server would stand still for; this takes milliseconds.
   */
  async file(n: number, base: string): Promise<string | null> {
    const files = await this.files();
    if (n < 1 || n > files.length) return null;
    const parts = [`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}">\n`];
    const origin = escapeXml(base);
    for (const u of files[n - 1]) {
      parts.push(`<url><loc>${origin}${escapeXml(u.path)}</loc>${u.lastmod ? `<lastmod>${escapeXml(u.lastmod)}</lastmod>` : ''}</url>\n`);
    }
    parts.push('</urlset>\n');
    return parts.join('');
  }
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text and attribute values for XML; characters XML 1.0 cannot carry are dropped. */
export function escapeXml(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}
