// Site settings (general) and static pages.
import { UI_LANGUAGES, type General, type Page, type PageSummary } from '@uc/shared';
import type { Db } from '../db/index.ts';
import { sanitizeHtml } from '../http/sanitize.ts';

/** The description in the other interface languages (`description` is the default, in any language). */
export const DESCRIPTION_SETTINGS = ['description_de', 'description_el', 'description_fr', 'description_hr', 'description_it'] as const;
const SETTING_NAMES = ['site_name', 'site_logo', 'description', 'contact_email', ...DESCRIPTION_SETTINGS] as const;
export type SettingName = (typeof SETTING_NAMES)[number];

export interface PageInput {
  id?: number;
  title: string;
  summary?: string;
  content: string;
  language?: string;
  location?: string;
  sorting?: number;
  published?: boolean;
}

export class PagesService {
  constructor(private db: Db) {}

  general(): General {
    const rows = this.db.sqlite.prepare('SELECT name, value FROM settings').all() as { name: string; value: string }[];
    const map = new Map(rows.map((r) => [r.name, r.value]));
    const descriptions: Record<string, string> = {};
    for (const lang of UI_LANGUAGES) {
      const text = map.get(`description_${lang}`)?.trim();
      if (text) descriptions[lang] = text;
    }
    return {
      site_name: map.get('site_name') ?? 'Union Catalogue',
      site_logo: map.get('site_logo') ?? '',
      description: map.get('description') ?? '',
      contact_email: map.get('contact_email') ?? '',
      ...(Object.keys(descriptions).length ? { descriptions } : {}),
    };
  }

  /** The settings as the admin form edits them: every description field, empty when not set. */
  settings(): Record<SettingName, string> {
    const g = this.general();
    const out = { site_name: g.site_name, site_logo: g.site_logo, description: g.description, contact_email: g.contact_email } as Record<SettingName, string>;
    for (const name of DESCRIPTION_SETTINGS) out[name] = g.descriptions?.[name.slice('description_'.length)] ?? '';
    return out;
  }

  setSettings(values: Partial<Record<SettingName, string>>) {
    const stmt = this.db.sqlite.prepare(`INSERT INTO settings (name, value) VALUES (?, ?)
      ON CONFLICT (name) DO UPDATE SET value = excluded.value, last_modified = strftime('%Y-%m-%dT%H:%M:%fZ','now')`);
    for (const name of SETTING_NAMES) if (typeof values[name] === 'string') stmt.run(name, values[name]);
  }

  /** Stores a page; its HTML is sanitized here (and again on display, for rows written before this rule). */
  upsertPage(p: PageInput): number {
    const vals = [p.title, p.summary ?? '', sanitizeHtml(p.content), p.language ?? 'en', p.location ?? 'draft', p.sorting ?? 0, p.published ? 1 : 0];
    if (p.id !== undefined && this.db.sqlite.prepare('SELECT 1 FROM pages WHERE id = ?').get(p.id)) {
      this.db.sqlite.prepare(`UPDATE pages SET title = ?, summary = ?, content = ?, language = ?, location = ?, sorting = ?, published = ?,
        last_modified = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?`).run(...vals, p.id);
      return p.id;
    }
    const cols = 'title, summary, content, language, location, sorting, published';
    if (p.id !== undefined) {
      this.db.sqlite.prepare(`INSERT INTO pages (id, ${cols}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(p.id, ...vals);
      return p.id;
    }
    return Number(this.db.sqlite.prepare(`INSERT INTO pages (${cols}) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(...vals).lastInsertRowid);
  }

  /** Published pages of a menu location in a language (or for all languages). */
  list(location: string, language: string, loggedIn: boolean): PageSummary[] {
    return this.db.sqlite
      .prepare(`SELECT id, title, summary FROM pages WHERE published = 1 AND location = ? AND language IN (?, 'ALL')
        AND (logged_in_only = 0 OR ?) ORDER BY sorting, title`)
      .all(location, language, loggedIn ? 1 : 0) as PageSummary[];
  }

  get(id: number, loggedIn: boolean): Page | null {
    const row = this.db.sqlite
      .prepare('SELECT id, title, summary, content FROM pages WHERE id = ? AND published = 1 AND (logged_in_only = 0 OR ?)')
      .get(id, loggedIn ? 1 : 0) as Page | undefined;
    return row ?? null;
  }
}
