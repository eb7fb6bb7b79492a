// Spreadsheet uploads of csv sites: upload (validate, parse, keep the file, answer a sample), then
// process as a job through the one ingestion path, with progress kept on the upload row. An upload
// applies fully or not at all: every data source a job changes is journaled first, and a job that
// fails (or a killed worker's, when it is run again) is undone from the journal.
import type { Db } from '../db/index.ts';
import { jsonObject, jsonValues, tableColumnsSql } from '../db/dialect.ts';
import type { Viewer } from '../http/viewer.ts';
import { HttpError } from '../http/errors.ts';
import type { MessageValues } from '../http/messages.ts';
import type { LibraryRow } from '../libraries/service.ts';
import type { IngestService } from '../ingest/service.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { JobHandler } from '../jobs/worker.ts';
import type { RowError, SpreadsheetSite, SpreadsheetStatus, SpreadsheetUploadResponse } from '@uc/shared';
import { columnNames, detectFormat, SpreadsheetError, type SheetFormat } from './spreadsheet.ts';
import { SheetParser } from './sheet-parser.ts';
import type { SheetPreview } from './sheet-thread-main.ts';

export const SPREADSHEET_JOB = 'spreadsheet-process';
const BATCH = 500;

export class UploadRefused extends HttpError {
  constructor(message: string, opts: { values?: MessageValues; badRows?: RowError[] } = {}) {
    // The answer carries the rows' line numbers beside the message.
    super(400, message, { values: opts.values, ...(opts.badRows ? { fields: { bad_rows: opts.badRows } } : {}) });
  }
}

interface UploadRow {
  id: number; library_id: number; site_id: number; user_id: number | null; filename: string; format: SheetFormat;
  content: Buffer | null; comment: string; replace_all: number; number_of_records: number; bad_rows: number;
  status: SpreadsheetStatus['status']; job_id: number | null; done: number; stored: number; removed: number; error: string | null;
}

interface SiteRow { id: number; library_id: number; title: string; csv_type: string | null; active: number }

export class SpreadsheetService {
  private dsColumns: string[];

  /** Files are read in threads of their own, with the row, column, size, time and memory limits. */
  constructor(private db: Db, private ingest: IngestService, private jobs: JobQueue, readonly parser = new SheetParser()) {
    this.dsColumns = (db.sqlite.prepare(tableColumnsSql(db.sqlite.dialect)).all('data_sources') as { name: string }[]).map((c) => c.name).filter((c) => c !== 'id');
  }

  /** Journals the rows of these records' data sources as they are now (the first change of an upload only). */
  private journalBefore(uploadId: number, siteId: number, identifiers: string[]): void {
    const cols = this.dsColumns.map((c) => `'${c}', ${c}`).join(', ');
    const d = this.db.sqlite.dialect;
    const stmt = this.db.sqlite.prepare(`INSERT INTO spreadsheet_journal (upload_id, data_source_id, previous)
      SELECT CAST(? AS BIGINT), id, ${jsonObject(d, cols)} FROM data_sources WHERE site_id = ? AND identifier IN (${jsonValues(d, '?')})
      ON CONFLICT DO NOTHING`);
    stmt.run(uploadId, siteId, JSON.stringify(identifiers));
  }

  /** Puts back what an upload's job changed (rows restored, rows it created removed) and reindexes; returns the rows undone. */
  undo(uploadId: number): number {
    const rows = this.db.sqlite.prepare('SELECT data_source_id, previous FROM spreadsheet_journal WHERE upload_id = ?').all(uploadId) as { data_source_id: number; previous: string | null }[];
    if (rows.length === 0) return 0;
    const touched = new Set<number>();
    const entryOf = this.db.sqlite.prepare('SELECT entry_id FROM data_sources WHERE id = ?').pluck();
    const restore = this.db.sqlite.prepare(`UPDATE data_sources SET ${this.dsColumns.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`);
    this.db.sqlite.transaction(() => {
      const created: number[] = [];
      for (const r of rows) {
        if (r.previous === null) {
          created.push(r.data_source_id);
          continue;
        }
        const now = entryOf.get(r.data_source_id) as number | null | undefined;
        if (now) touched.add(now);
        const before = JSON.parse(r.previous) as Record<string, unknown>;
        if (typeof before.entry_id === 'number') touched.add(before.entry_id);
        restore.run({ ...Object.fromEntries(this.dsColumns.map((c) => [c, before[c] ?? null])), id: r.data_source_id });
      }
      for (const t of this.ingest.removeDataSources(created)) touched.add(t);
      this.db.sqlite.prepare('DELETE FROM spreadsheet_journal WHERE upload_id = ?').run(uploadId);
    })();
    this.ingest.reindex(touched);
    return rows.length;
  }

  /** The active csv sites of a library, with the column names their format expects. */
  sites(libraryId: number): SpreadsheetSite[] {
    const rows = this.db.sqlite.prepare("SELECT * FROM sites WHERE library_id = ? AND site_type = 'csv' AND active = 1 ORDER BY title, id").all(libraryId) as SiteRow[];
    return rows.map((s) => {
      const headers = columnNames(s.csv_type || 'generic');
      return { id: s.id, title: s.title, csv_type: s.csv_type || 'generic', column_names: headers.join(', '), expected_headers: headers };
    });
  }

  /** A library admin adds a spreadsheet site to their library (other site types stay with superusers). */
  createSite(libraryId: number, title: string, csvType: string): SpreadsheetSite {
    const id = Number(this.db.sqlite.prepare("INSERT INTO sites (library_id, title, site_type, csv_type) VALUES (?, ?, 'csv', ?)").run(libraryId, title, csvType).lastInsertRowid);
    return this.sites(libraryId).find((s) => s.id === id)!;
  }

  private async preview(buf: Uint8Array, format: SheetFormat, site: SpreadsheetSite): Promise<SheetPreview> {
    try {
      return await this.parser.preview(buf, format, site.csv_type, site.id);
    } catch (e) {
      if (e instanceof SpreadsheetError) throw new UploadRefused(e.template, { values: e.values });
      throw e;
    }
  }

  /**
   * Checks and parses the whole file and keeps it (nothing reaches the catalogue yet). A file without
   * any good row is refused with the line of each bad row; otherwise the bad rows are reported and only
   * processed (skipped) when the uploader says so.
   */
  async upload(lib: LibraryRow, viewer: Viewer, input: { content: Buffer; filename: string; siteId: number; comment: string; replaceAll: boolean }): Promise<SpreadsheetUploadResponse> {
    const site = this.sites(lib.id).find((s) => s.id === input.siteId);
    if (!site) throw new HttpError(400, 'Please choose one of the spreadsheet sites of this library');
    let format: SheetFormat;
    try {
      format = detectFormat(input.content);
    } catch (e) {
      if (e instanceof SpreadsheetError) throw new UploadRefused(e.template, { values: e.values });
      throw e;
    }
    const parsed = await this.preview(input.content, format, site);
    if (parsed.recordCount === 0) {
      throw new UploadRefused('No row can be stored: {{count}} row(s) with errors', { values: { count: parsed.errorCount }, badRows: parsed.errors });
    }
    const id = Number(this.db.sqlite.prepare(`INSERT INTO spreadsheet_uploads (library_id, site_id, user_id, filename, format, content, comment,
        replace_all, number_of_records, bad_rows) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
      lib.id, site.id, viewer.userId, input.filename.slice(0, 255), format, input.content, input.comment.slice(0, 5000),
      input.replaceAll ? 1 : 0, parsed.recordCount, parsed.errorCount,
    ).lastInsertRowid);
    return {
      success: 'Spreadsheet uploaded',
      uploaded: id,
      sample: parsed.sample,
      columns: parsed.columns,
      number_of_records: parsed.recordCount,
      bad_rows: parsed.errors,
      bad_row_count: parsed.errorCount,
      replace_all: input.replaceAll,
    };
  }

  /** The upload row, for the permission check of its library. */
  get(id: number): UploadRow | undefined {
    return this.db.sqlite.prepare('SELECT * FROM spreadsheet_uploads WHERE id = ?').get(id) as UploadRow | undefined;
  }

  /** Queues the processing job; an upload is processed once. */
  process(up: UploadRow, skipBadRows: boolean): SpreadsheetStatus {
    // A failed upload (undone) may run again, and so may one whose job died with its worker.
    up = this.settleAbandoned(up);
    if (up.status !== 'uploaded' && up.status !== 'failed') {
      throw new HttpError(409, up.status === 'cancelled' ? 'This upload was cancelled' : 'This upload is already processed or being processed');
    }
    if (!up.content) throw new HttpError(409, 'This upload is already processed');
    if (up.bad_rows > 0 && !skipBadRows) {
      throw new HttpError(400, 'The file has {{count}} row(s) with errors: fix them and upload the file again, or process the good rows only', { values: { count: up.bad_rows } });
    }
    // Two attempts: a worker killed mid-job is replaced and the job starts again from the undone state.
    const jobId = this.jobs.enqueue(SPREADSHEET_JOB, { upload_id: up.id }, { maxAttempts: 2 });
    this.db.sqlite.prepare("UPDATE spreadsheet_uploads SET status = 'queued', job_id = ?, error = NULL WHERE id = ? AND status = ?").run(jobId, up.id, up.status);
    return this.status(up.id);
  }

  cancel(up: UploadRow): void {
    if (up.status !== 'uploaded') throw new HttpError(409, 'Only an upload that was not processed can be cancelled');
    this.db.sqlite.prepare("UPDATE spreadsheet_uploads SET status = 'cancelled', content = NULL WHERE id = ?").run(up.id);
  }

  /**
   * An upload whose job the queue gave up on (its worker killed on every attempt) cannot clean up by
   * itself: it is undone and marked failed here, so it can be processed again.
   */
  settleAbandoned(up: UploadRow): UploadRow {
    if (up.status !== 'queued' && up.status !== 'working') return up;
    const job = up.job_id !== null ? this.jobs.get(up.job_id) : null;
    if (job && job.status !== 'failed' && job.status !== 'finished') return up;
    this.undo(up.id);
    this.db.sqlite.prepare("UPDATE spreadsheet_uploads SET status = 'failed', done = 0, stored = 0, error = ? WHERE id = ? AND status IN ('queued', 'working')")
      .run(job?.error || 'The processing stopped (the worker was stopped)', up.id);
    return this.get(up.id)!;
  }

  /** Settles every abandoned upload (the hourly cleanup; status requests settle their own). */
  settleAllAbandoned(): number {
    const open = this.db.sqlite.prepare("SELECT * FROM spreadsheet_uploads WHERE status IN ('queued', 'working')").all() as UploadRow[];
    return open.filter((u) => this.settleAbandoned(u).status === 'failed').length;
  }

  status(id: number): SpreadsheetStatus {
    const up = this.settleAbandoned(this.get(id)!);
    return {
      id: up.id, status: up.status, job_id: up.job_id, total: up.number_of_records, done: up.done, stored: up.stored,
      removed: up.removed, error: up.error,
    };
  }

  /** The job: store the good rows in batches (progress after each), remove what replace_all drops, reindex. */
  jobHandler(): JobHandler {
    return {
      timeoutMs: 30 * 60_000,
      run: async (raw, ctx) => {
        const { upload_id } = raw as { upload_id: number };
        const up = this.get(upload_id);
        if (!up || !up.content) throw new Error('The upload no longer exists');
        const set = (sql: string, ...args: unknown[]) => this.db.sqlite.prepare(`UPDATE spreadsheet_uploads SET ${sql} WHERE id = ?`).run(...args, up.id);
        try {
          // What an earlier, interrupted attempt left half-done is undone first.
          this.undo(up.id);
          set("status = 'working', done = 0, stored = 0, error = NULL");
          const site = this.db.sqlite.prepare('SELECT * FROM sites WHERE id = ?').get(up.site_id) as SiteRow | undefined;
          if (!site) throw new Error('The site no longer exists');
          const csvType = site.csv_type || 'generic';
          const parsed = await this.parser.records(up.content, up.format, csvType, site.id, ctx.signal);
          const touched = new Set<number>();
          let done = 0;
          let stored = 0;
          for (let i = 0; i < parsed.records.length; i += BATCH) {
            if (ctx.signal.aborted) throw new Error('Stopped');
            const batch = parsed.records.slice(i, i + BATCH).map((r) => r.record);
            const res = this.db.sqlite.transaction(() => {
              this.journalBefore(up.id, site.id, batch.map((r) => r.identifier));
              const stored = this.ingest.store(batch);
              const created = stored.dataSourceIds.filter((_, k) => stored.outcomes[k] === 'new');
              const journal = this.db.sqlite.prepare('INSERT INTO spreadsheet_journal (upload_id, data_source_id, previous) VALUES (?, ?, NULL) ON CONFLICT DO NOTHING');
              for (const id of created) journal.run(up.id, id);
              return stored;
            })();
            for (const t of res.touched) touched.add(t);
            done += batch.length;
            stored += batch.length;
            set('done = ?, stored = ?', done, stored);
            await new Promise((r) => setImmediate(r)); // let status requests through between batches
          }
          // The end in one transaction: what replace_all drops, the index, the finished state, the journal gone.
          let removed = 0;
          this.db.sqlite.transaction(() => {
            if (up.replace_all) {
              // The sheet is the whole catalogue of the site: its other records go (their entries are reindexed).
              const keep = new Set(parsed.records.map((r) => r.record.identifier));
              const all = this.db.sqlite.prepare('SELECT id, identifier FROM data_sources WHERE site_id = ?').all(site.id) as { id: number; identifier: string }[];
              const gone = all.filter((d) => !keep.has(d.identifier));
              for (const t of this.ingest.removeDataSources(gone.map((d) => d.id))) touched.add(t);
              removed = gone.length;
            }
            this.ingest.reindex(touched);
            set("status = 'finished', removed = ?, content = NULL, processed = strftime('%Y-%m-%dT%H:%M:%fZ','now')", removed);
            this.db.sqlite.prepare('DELETE FROM spreadsheet_journal WHERE upload_id = ?').run(up.id);
          })();
          return { stored, removed, reindexed: touched.size };
        } catch (e) {
          this.undo(up.id);
          set("status = 'failed', done = 0, stored = 0, error = ?", (e as Error).message.slice(0, 2000));
          throw e;
        }
      },
    };
  }
}
