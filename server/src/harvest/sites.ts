// Sites of a library: their harvest settings as superusers (/admin) and library admins (their own
// library) edit them, and the site shape both screens show (counts, harvest state, latest run).
import path from 'node:path';
import type { z } from 'zod';
import { HARVEST_FAILING_AFTER, HARVEST_INTERVAL_DEFAULT, type HarvestRun, type Site, type siteBodySchema } from '@uc/shared';
import type { Db } from '../db/index.ts';
import type { SitesTable } from '../db/schema.ts';
import { HttpError } from '../http/errors.ts';
import { translateMessage, type MessageLanguage } from '../http/messages.ts';
import { readReport, renderReport, type ReportMessage } from './report.ts';

export type SiteRow = Omit<SitesTable, 'id'> & { id: number };
/** A site body as the routes validated it (or as a script writes it: missing optional fields are null). */
type SiteBody = z.input<typeof siteBodySchema>;

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ','now')";

interface RunRow {
  id: number; site_id: number; status: HarvestRun['status']; force: number; created: string; started: string | null; finished: string | null;
  pages: number; records: number; total: number | null; new: number; updated: number; unchanged: number; deleted: number; failed: number;
  errors: string; message: string | null;
}

/** A run as the admin screens show it: its report in `lang` (stored as templates with values). */
export function runOut(r: RunRow, lang: MessageLanguage = 'en'): HarvestRun {
  // Old rows hold plain English text (and '(no identifier)'): shown as they are.
  const errors = (JSON.parse(r.errors) as { identifier: string; message: ReportMessage | string }[]).map((e) => ({
    identifier: e.identifier || translateMessage(lang, '(no identifier)'),
    message: renderReport(lang, e.message),
  }));
  return {
    id: r.id, site_id: r.site_id, status: r.status, force: !!r.force, created: r.created, started: r.started, finished: r.finished,
    pages: r.pages, records: r.records, total: r.total, new: r.new, updated: r.updated, unchanged: r.unchanged, deleted: r.deleted,
    failed: r.failed, errors, message: r.message === null ? null : renderReport(lang, readReport(r.message)),
  };
}

export class SiteStore {
  constructor(private db: Db, private calibreRoot: string) {}

  row(siteId: number): SiteRow | null {
    return (this.db.sqlite.prepare('SELECT * FROM sites WHERE id = ?').get(siteId) as SiteRow | undefined) ?? null;
  }

  /** The site, or 404 (also when it belongs to another library than the one in the path). */
  get(siteId: number, libraryId?: number, lang: MessageLanguage = 'en'): Site {
    const row = this.row(siteId);
    if (!row || (libraryId !== undefined && row.library_id !== libraryId)) throw new HttpError(404, 'No such site');
    return this.out(row, lang);
  }

  /** `lang`: the language of the latest run's report. */
  list(libraryId: number, lang: MessageLanguage = 'en'): Site[] {
    this.assertLibrary(libraryId);
    const rows = this.db.sqlite.prepare('SELECT * FROM sites WHERE library_id = ? ORDER BY id').all(libraryId) as SiteRow[];
    return rows.map((r) => this.out(r, lang));
  }

  create(libraryId: number, b: SiteBody, asSuperuser: boolean, lang: MessageLanguage = 'en'): Site {
    this.assertLibrary(libraryId);
    const v = this.values(b, asSuperuser, null);
    const id = Number(this.db.sqlite.prepare(`INSERT INTO sites (library_id, title, site_type, url, oai_set, oai_metadata_format, active,
        harvest_interval_minutes, tree_path, csv_type) VALUES (@library_id, @title, @site_type, @url, @oai_set, @oai_metadata_format, @active,
        @harvest_interval_minutes, @tree_path, @csv_type)`).run({ ...v, library_id: libraryId }).lastInsertRowid);
    return this.get(id, undefined, lang);
  }

  update(libraryId: number, siteId: number, b: SiteBody, asSuperuser: boolean, lang: MessageLanguage = 'en'): Site {
    const old = this.row(siteId);
    if (!old || old.library_id !== libraryId) throw new HttpError(404, 'No such site');
    const v = this.values(b, asSuperuser, old);
    // A new endpoint, set or format is another source: the next harvest starts from the beginning.
    const sourceChanged = old.url !== v.url || old.oai_set !== v.oai_set || old.oai_metadata_format !== v.oai_metadata_format || old.site_type !== v.site_type;
    this.db.sqlite.prepare(`UPDATE sites SET title = @title, site_type = @site_type, url = @url, oai_set = @oai_set,
        oai_metadata_format = @oai_metadata_format, active = @active, harvest_interval_minutes = @harvest_interval_minutes,
        tree_path = @tree_path, csv_type = @csv_type, last_modified = ${NOW}${sourceChanged ? ', harvest_from = NULL, oai_granularity = NULL, oai_deleted_record = NULL, last_full_harvest = NULL' : ''}
        WHERE id = @id`).run({ ...v, id: siteId });
    return this.get(siteId, undefined, lang);
  }

  private assertLibrary(libraryId: number) {
    if (!this.db.sqlite.prepare('SELECT 1 FROM libraries WHERE id = ?').get(libraryId)) throw new HttpError(404, 'No such library');
  }

  /** The stored values of a body; rules that need the server (who may set a server folder, where it may be). */
  private values(b: SiteBody, asSuperuser: boolean, old: SiteRow | null) {
    let treePath: string | null = null;
    if (b.site_type === 'calibretree') {
      if (!asSuperuser && b.tree_path !== old?.tree_path) throw new HttpError(403, 'Only superusers may set the folder of a Calibre site');
      treePath = this.checkTreePath(b.tree_path ?? '');
    }
    return {
      title: b.title,
      site_type: b.site_type,
      url: b.url ?? null,
      oai_set: b.site_type === 'amusewiki' ? null : b.oai_set ?? null,
      oai_metadata_format: b.site_type === 'generic' ? b.oai_metadata_format ?? null : null,
      active: b.active === undefined ? (old ? old.active : 1) : b.active ? 1 : 0,
      harvest_interval_minutes: b.harvest_interval_minutes ?? old?.harvest_interval_minutes ?? HARVEST_INTERVAL_DEFAULT,
      tree_path: treePath,
      csv_type: b.site_type === 'csv' ? b.csv_type ?? old?.csv_type ?? 'generic' : null,
    };
  }

  /** A Calibre folder must lie inside the server's Calibre root (no way out with .. or an absolute path). */
  checkTreePath(p: string): string {
    const abs = path.resolve(this.calibreRoot, p);
    if (abs !== this.calibreRoot && !abs.startsWith(this.calibreRoot + path.sep)) {
      throw new HttpError(400, 'The Calibre folder must be inside {{folder}}', { values: { folder: this.calibreRoot } });
    }
    return path.relative(this.calibreRoot, abs) || '.';
  }

  treeDir(site: SiteRow): string {
    return path.resolve(this.calibreRoot, this.checkTreePath(site.tree_path ?? ''));
  }

  private out(r: SiteRow, lang: MessageLanguage): Site {
    const count = this.db.sqlite.prepare('SELECT count(*) FROM data_sources WHERE site_id = ?').pluck().get(r.id) as number;
    const last = this.db.sqlite.prepare('SELECT * FROM harvest_runs WHERE site_id = ? ORDER BY id DESC LIMIT 1').get(r.id) as RunRow | undefined;
    return {
      id: r.id, library_id: r.library_id, title: r.title, site_type: r.site_type, url: r.url, oai_set: r.oai_set,
      oai_metadata_format: r.oai_metadata_format, active: !!r.active, harvest_interval_minutes: r.harvest_interval_minutes,
      tree_path: r.tree_path, csv_type: r.csv_type, data_sources: count, last_harvested: r.last_harvested,
      consecutive_failures: r.consecutive_failures, failing: r.consecutive_failures >= HARVEST_FAILING_AFTER,
      last_run: last ? runOut(last, lang) : null,
    };
  }
}

export type { RunRow };
