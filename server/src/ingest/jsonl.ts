// Reads the catalogue import format (docs/import-format.md): the bench generator's JSONL plus optional
// fields. One pass: each line is parsed and checked once and stored as it comes, all in one
// transaction; any problem (up to 20 are listed) rolls everything back, so a failed import changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { z } from 'zod';
import { zipSync } from 'fflate';
import { LIBRARY_TYPES, REGIONS, SITE_TYPES } from '@uc/shared';
import type { Db } from '../db/index.ts';
import { ensureSite, upsertLibrary } from '../libraries/service.ts';
import type { PagesService } from '../pages/service.ts';
import type { FileStore } from '../catalogue/files.ts';
import type { IngestRecord, IngestService, LinkRequest } from './service.ts';

const str = (max: number) => z.string().max(max);
const optStr = (max: number) => z.string().max(max).nullable().optional();
const year = z.number().int().min(-3000).max(3000).nullable().optional();

const settingsLine = z.object({
  type: z.literal('settings'),
  site_name: optStr(200), site_logo: optStr(500), description: optStr(5000), contact_email: optStr(200),
});

const libraryLine = z.object({
  type: z.literal('library'),
  id: z.number().int().min(1),
  name: str(255).min(1),
  country: optStr(64), city: optStr(64),
  latitude: z.number().min(-90).max(90).nullable().optional(),
  longitude: z.number().min(-180).max(180).nullable().optional(),
  library_type: z.enum(LIBRARY_TYPES).optional(),
  public: z.boolean().optional(),
  active: z.boolean().optional(),
  languages: z.array(str(8)).max(50).optional(),
  url: optStr(255), logo_url: optStr(255), email_public: optStr(255), email_internal: optStr(255),
  opening_hours: optStr(5000), description: optStr(20000), short_desc: optStr(2000), pgp_public_key: optStr(20000),
  address_line_1: optStr(255), address_line_2: optStr(255), address_zip: optStr(16), address_state: optStr(64),
  year_established: z.string().regex(/^\d{4}(-\d{2}-\d{2})?$/).nullable().optional(),
  region: z.enum(REGIONS).nullable().optional(),
  // 'koha' is the import format's older name of koha-marc21.
  site_type: z.enum([...SITE_TYPES, 'koha']).optional().transform((t) => (t === 'koha' ? 'koha-marc21' : t)),
  site_url: optStr(255),
});

const dataSourceItem = z.object({
  library_id: z.number().int().min(1),
  identifier: str(2048).min(1),
  year_edition: year,
  year_first_edition: year,
  publisher: optStr(1000), isbn: optStr(1000), description: optStr(50000), shelf_location_code: optStr(1000),
  material_description: optStr(2000), edition_statement: optStr(2000), place_date_of_publication_distribution: optStr(2000),
  uri: optStr(2048), uri_label: optStr(2048), content_type: optStr(128),
  downloads: z.array(str(16)).max(20).optional(),
  datestamp: z.string().datetime().nullable().optional(),
  muse_file: optStr(500),
  pdf_file: optStr(500),
});

const entryLine = z.object({
  type: z.literal('entry'),
  id: z.number().int(),
  title: str(2000).min(1),
  subtitle: optStr(2000),
  authors: z.array(str(500)).max(100),
  languages: z.array(str(16)).max(20),
  year: year,
  aggregation_id: z.number().int().nullable().optional(),
  aggregation_position: z.number().int().nullable().optional(),
  translation_of: z.number().int().nullable().optional(),
  data_sources: z.array(dataSourceItem).min(1).max(200),
  fulltext: z.string().max(5_000_000).nullable().optional(),
});

const pageLine = z.object({
  type: z.literal('page'),
  id: z.number().int().min(1).optional(),
  title: str(255).min(1),
  summary: optStr(2000),
  content: z.string().max(500000),
  language: optStr(4),
  location: z.enum(['footer', 'user_menu', 'draft']).optional(),
  sorting: z.number().int().optional(),
  published: z.boolean().optional(),
});

const line = z.discriminatedUnion('type', [settingsLine, libraryLine, entryLine, pageLine]);
type Line = z.infer<typeof line>;
type EntryLine = z.infer<typeof entryLine>;

export class ImportError extends Error {
  constructor(public problems: string[]) {
    super(`The file cannot be imported:\n${problems.join('\n')}`);
  }
}

export interface ImportDeps {
  db: Db;
  ingest: IngestService;
  pages: PagesService;
  files: FileStore;
}

export interface ImportSummary { libraries: number; entries: number; dataSources: number; pages: number; seconds: number }
export interface ImportProgress { entries: number; bytes: number; totalBytes: number }

async function* readLines(file: string, read: { bytes: number }): AsyncGenerator<[number, string]> {
  const input = fs.createReadStream(file, 'utf8');
  input.on('data', (chunk) => void (read.bytes += Buffer.byteLength(chunk as string)));
  const rl = readline.createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const text of rl) {
    n++;
    if (text.trim()) yield [n, text];
  }
}

/** The line checked, or its problem. */
function parseLine(n: number, text: string): Line | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return `line ${n}: not valid JSON`;
  }
  const res = line.safeParse(json);
  if (!res.success) return `line ${n}: ${res.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'record'}: ${i.message}`).join('; ')}`;
  return res.data;
}

/** Images a Muse text references ([[name.png]]), to pack with it. */
function referencedImages(muse: string): string[] {
  return [...new Set([...muse.matchAll(/\[\[([\w.-]+\.(?:png|jpe?g))(?:\]\[|\]\]|\s)/gi)].map((m) => m[1]))];
}

export async function importJsonl(file: string, deps: ImportDeps, onProgress?: (p: ImportProgress) => void): Promise<ImportSummary> {
  const started = Date.now();
  const { db, ingest, pages, files } = deps;
  const read = { bytes: 0 };
  const totalBytes = fs.statSync(file).size;
  const problems: string[] = [];
  const libraries = new Set<number>();
  const links: [number, number, string][] = [];
  /** Every entry id of the file so far (duplicates, and what links may name). */
  const fileIds = new Set<number>();
  const dir = path.dirname(file);
  const summary: ImportSummary = { libraries: 0, entries: 0, dataSources: 0, pages: 0, seconds: 0 };
  const siteOf = new Map<number, number>();
  const entryOfFileId = new Map<number, number>();
  const pendingLinks: { kind: 'aggregation' | 'translation'; parent: number; child: number; position: number | null }[] = [];
  const writtenFiles: string[] = [];
  let batch: EntryLine[] = [];

  const flush = () => {
    const records: IngestRecord[] = [];
    const owners: { entry: EntryLine; ds: EntryLine['data_sources'][number] }[] = [];
    for (const e of batch) {
      for (const ds of e.data_sources) {
        const muse = ds.muse_file ? fs.readFileSync(path.resolve(dir, ds.muse_file), 'utf8') : null;
        const downloads = [...(ds.downloads ?? [])];
        if (muse) downloads.push('muse', 'zip');
        if (ds.pdf_file) downloads.push('pdf');
        records.push({
          siteId: siteOf.get(ds.library_id)!,
          identifier: ds.identifier,
          title: e.title,
          subtitle: e.subtitle,
          authors: e.authors,
          languages: e.languages,
          year_edition: ds.year_edition ?? e.year ?? null,
          year_first_edition: ds.year_first_edition ?? (e.year != null && e.year !== ds.year_edition ? e.year : null),
          description: ds.description,
          publisher: ds.publisher,
          isbn: ds.isbn,
          shelf_location_code: ds.shelf_location_code,
          material_description: ds.material_description,
          edition_statement: ds.edition_statement,
          place_date_of_publication_distribution: ds.place_date_of_publication_distribution,
          uri: ds.uri,
          uri_label: ds.uri_label,
          content_type: ds.content_type,
          downloads,
          full_text: muse ?? e.fulltext ?? null,
          datestamp: ds.datestamp,
        });
        owners.push({ entry: e, ds });
      }
    }
    const { entryIds, touched, dataSourceIds } = ingest.store(records);
    owners.forEach((o, i) => {
      if (!entryOfFileId.has(o.entry.id)) entryOfFileId.set(o.entry.id, entryIds[i]);
      if (o.ds.muse_file) {
        const musePath = path.resolve(dir, o.ds.muse_file);
        const muse = fs.readFileSync(musePath);
        const base = path.basename(musePath, '.muse');
        const zipEntries: Record<string, Uint8Array> = { [`${base}/${base}.muse`]: muse };
        for (const img of referencedImages(muse.toString('utf8'))) {
          const p = path.join(path.dirname(musePath), img);
          if (fs.existsSync(p)) zipEntries[`${base}/${img}`] = fs.readFileSync(p);
        }
        writtenFiles.push(files.put(dataSourceIds[i], '.muse', muse));
        writtenFiles.push(files.put(dataSourceIds[i], '.zip', zipSync(zipEntries)));
      }
      if (o.ds.pdf_file) writtenFiles.push(files.put(dataSourceIds[i], '.pdf', fs.readFileSync(path.resolve(dir, o.ds.pdf_file))));
    });
    for (const e of batch) {
      if (e.aggregation_id != null) pendingLinks.push({ kind: 'aggregation', parent: e.aggregation_id, child: e.id, position: e.aggregation_position ?? null });
      if (e.translation_of != null) pendingLinks.push({ kind: 'translation', parent: e.translation_of, child: e.id, position: null });
    }
    ingest.reindex(touched);
    summary.entries += batch.length;
    summary.dataSources += records.length;
    onProgress?.({ entries: summary.entries, bytes: read.bytes, totalBytes });
    batch = [];
  };

  /** Checks what a single line cannot tell; after the first problem nothing more is stored. */
  const check = (n: number, rec: Line): boolean => {
    if (rec.type === 'library') libraries.add(rec.id);
    if (rec.type !== 'entry') return true;
    const before = problems.length;
    if (fileIds.has(rec.id)) problems.push(`line ${n}: entry id ${rec.id} appears twice`);
    fileIds.add(rec.id);
    for (const ds of rec.data_sources) {
      if (!libraries.has(ds.library_id)) problems.push(`line ${n}: library ${ds.library_id} is not defined before this entry`);
      for (const f of [ds.muse_file, ds.pdf_file]) {
        if (f && !fs.existsSync(path.resolve(dir, f))) problems.push(`line ${n}: file ${f} not found`);
      }
    }
    if (rec.aggregation_id != null) links.push([n, rec.aggregation_id, 'aggregation_id']);
    if (rec.translation_of != null) links.push([n, rec.translation_of, 'translation_of']);
    return problems.length === before;
  };

  const run = async () => {
    for await (const [n, text] of readLines(file, read)) {
      if (problems.length >= 20) break;
      const rec = parseLine(n, text);
      if (typeof rec === 'string') {
        problems.push(rec);
        continue;
      }
      // After a problem only the file's other problems matter: nothing more is stored.
      if (!check(n, rec) || problems.length) continue;
      switch (rec.type) {
        case 'settings':
          pages.setSettings({
            site_name: rec.site_name ?? undefined, site_logo: rec.site_logo ?? undefined,
            description: rec.description ?? undefined, contact_email: rec.contact_email ?? undefined,
          });
          break;
        case 'library': {
          const id = upsertLibrary(db, {
            id: rec.id, name: rec.name, url: rec.url ?? null, logo_url: rec.logo_url ?? null,
            library_type: rec.library_type ?? 'digital', public: rec.public === false ? 0 : 1, active: rec.active === false ? 0 : 1,
            email_public: rec.email_public ?? null, email_internal: rec.email_internal ?? null,
            opening_hours: rec.opening_hours ?? null, description: rec.description ?? null, short_desc: rec.short_desc ?? null,
            pgp_public_key: rec.pgp_public_key ?? null, address_line_1: rec.address_line_1 ?? null,
            address_line_2: rec.address_line_2 ?? null, address_zip: rec.address_zip ?? null,
            address_city: rec.city ?? null, address_state: rec.address_state ?? null, address_country: rec.country ?? null,
            latitude: rec.latitude ?? null, longitude: rec.longitude ?? null, languages: (rec.languages ?? []).join(', ') || null,
            year_established: rec.year_established ? (rec.year_established.length === 4 ? `${rec.year_established}-01-01` : rec.year_established) : null,
            region: rec.region ?? null,
          });
          siteOf.set(id, ensureSite(db, id, rec.site_type ?? 'generic', rec.site_url ?? rec.url ?? null, rec.name));
          summary.libraries++;
          break;
        }
        case 'page':
          pages.upsertPage({ ...rec, summary: rec.summary ?? '', language: rec.language ?? 'ALL' });
          summary.pages++;
          break;
        case 'entry':
          batch.push(rec);
          if (batch.length >= 2000) flush();
          break;
      }
    }
    if (batch.length && !problems.length) flush();
    for (const [n, id, field] of links) {
      if (problems.length >= 20) break;
      if (!fileIds.has(id)) problems.push(`line ${n}: ${field} ${id} names no entry of this file`);
    }
    if (problems.length) throw new ImportError(problems);
    const linkRequests: LinkRequest[] = pendingLinks.map((l) => ({
      kind: l.kind,
      parentEntryId: entryOfFileId.get(l.parent)!,
      childEntryId: entryOfFileId.get(l.child)!,
      position: l.position,
    }));
    ingest.reindex(ingest.link(linkRequests));
  };

  // One transaction around everything: a failure half-way leaves the catalogue as it was.
  db.sqlite.exec('BEGIN IMMEDIATE');
  try {
    await run();
    db.sqlite.exec('COMMIT');
  } catch (err) {
    db.sqlite.exec('ROLLBACK');
    ingest.forgetCaches();
    for (const f of writtenFiles) files.remove(f);
    throw err;
  }
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}
