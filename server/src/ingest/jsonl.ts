// Reads the catalogue import format (docs/import-format.md): the bench generator's JSONL plus optional
// fields. One pass: each line is parsed and checked once and stored as it comes, all in one
// transaction; any problem (up to 20 are listed) rolls everything back, so a failed import changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import type { Db } from '../db/index.ts';
import { beginImmediate } from '../db/connection.ts';
import { ensureSite, upsertLibrary } from '../libraries/service.ts';
import type { PagesService } from '../pages/service.ts';
import type { FileStore } from '../catalogue/files.ts';
import { StoredKeys, type IngestRecord, type IngestService, type LinkRequest } from './service.ts';
import type { Indexer } from '../search/indexer.ts';
import { FtsFingerprints } from '../search/fts-text.ts';
import { FtsBuilder } from '../search/fts-builder.ts';
import type { EntryImage } from '../search/entry-image.ts';
import type { EntryLine, Line } from './format.ts';
import { readCheckedLines } from './reader.ts';
import { deferOaiRecords } from '../publish/oai-bulk.ts';
import { PgFtsStage } from '../search/pg-fts-stage.ts';
import { PgSuspendedKeys } from './pg-foreign-keys.ts';
import { pumpWrites, type PgConnection } from '../db/postgres.ts';

/** The import holds one transaction over everything (see below): no savepoint per batch. */
const BULK = { inTransaction: true } as const;
/** The import's SQLite page cache, in KiB as cache_size takes it (negative: KiB, not pages). */
const IMPORT_CACHE_KIB = -512 * 1024;
/** Entries indexed together: the full-text rows of a chunk make one FTS5 segment (fewer merges). */
const INDEX_CHUNK = 10_000;

export class ImportError extends Error {
  constructor(public problems: string[]) {
    super(`The file cannot be imported:\n${problems.join('\n')}`);
  }
}

export interface ImportDeps {
  db: Db;
  indexer: Indexer;
  ingest: IngestService;
  pages: PagesService;
  files: FileStore;
}

export interface ImportSummary { libraries: number; entries: number; dataSources: number; pages: number; seconds: number }
/** 'records' while the file is read (bytes of totalBytes); 'finishing' once, before the links, the last indexing and the commit. */
export interface ImportProgress { phase: 'records' | 'finishing'; entries: number; bytes: number; totalBytes: number }

/** Images a Muse text references ([[name.png]]), to pack with it. */
function referencedImages(muse: string): string[] {
  return [...new Set([...muse.matchAll(/\[\[([\w.-]+\.(?:png|jpe?g))(?:\]\[|\]\]|\s)/gi)].map((m) => m[1]))];
}

/**
 * SQLite's in-memory statement journals and larger page cache for the import, and no foreign key
 * checks: every row the import writes names rows it found or made in its own transaction (the ingest
 * caches of agent ids and languages are emptied first), and the checks cost two lookups per data source,
 * author and language row (about 5 s of a 1,000,000-entry import). Into an empty catalogue, the file is
 * written directly when it can be (writeDirectlyIfAlone). Set outside the transaction (SQLite ignores
 * foreign_keys and journal_mode inside one); returns what puts them back, after the commit or rollback.
 */
function importSettings(db: Db): () => void {
  const tempStore = db.sqlite.pragma('temp_store', { simple: true }) as number;
  const cacheSize = db.sqlite.pragma('cache_size', { simple: true }) as number;
  const foreignKeys = db.sqlite.pragma('foreign_keys', { simple: true }) as number;
  db.sqlite.pragma('temp_store = MEMORY');
  db.sqlite.pragma(`cache_size = ${IMPORT_CACHE_KIB}`);
  db.sqlite.pragma('foreign_keys = OFF');
  const restoreWal = writeDirectlyIfAlone(db);
  return () => {
    db.sqlite.pragma(`temp_store = ${tempStore}`);
    db.sqlite.pragma(`cache_size = ${cacheSize}`);
    db.sqlite.pragma(`foreign_keys = ${foreignKeys}`);
    restoreWal();
  };
}

/**
 * An import into an empty catalogue that has the database to itself writes the database file directly
 * (a rollback journal instead of the WAL): with the WAL every page of the new catalogue was written
 * twice, into the WAL and then by the commit's checkpoint into the file. At 1,000,000 entries the
 * commit took 24.9 s, 2.4 s this way, and the whole import 272 s, 236 s. The journal keeps the few
 * pages that were there before, so a failure or a kill still rolls everything back. Leaving WAL needs
 * the only connection: with another one open (a running server, another process) SQLite refuses at
 * once and the import keeps the WAL. Returns what goes back to WAL.
 */
function writeDirectlyIfAlone(db: Db): () => void {
  const s = db.sqlite;
  if (s.prepare('SELECT EXISTS (SELECT 1 FROM entries)').pluck().get()) return () => {};
  try {
    if (s.pragma('journal_mode = DELETE', { simple: true }) !== 'delete') return () => {};
  } catch {
    return () => {};
  }
  return () => {
    // A process that opened the database meanwhile may hold it: the next open makes it WAL again (db/index.ts).
    try {
      s.pragma('journal_mode = WAL');
    } catch { /* left for the next open */ }
  };
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
  /** Entries stored and not yet indexed; entries of lines that link (indexed after the links). */
  let toIndex = new Set<number>();
  const linked = new Set<number>();
  // Full-text rows written by this import: an entry indexed again for its doc alone keeps its row.
  // Into an empty catalogue they are written by a thread of their own (set once the transaction is open).
  // On PostgreSQL they are staged and written at the end (pgFts).
  // PostgreSQL, into an empty catalogue: foreign keys checked once at the end (pg-foreign-keys.ts).
  let suspendedKeys: PgSuspendedKeys | null = null;
  // And there, what it has stored (a batch asks the server only about keys it may have written).
  let stored: StoredKeys | null = null;
  const bulkIndex: { inTransaction: true; ftsWritten: FtsFingerprints; ftsBuilder: FtsBuilder | null; image: EntryImage | null; pgFts: PgFtsStage | null } = {
    ...BULK, ftsWritten: new FtsFingerprints(), ftsBuilder: null, image: null, pgFts: null,
  };

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
          groupingKey: e.groupingKey,
        });
        owners.push({ entry: e, ds });
      }
    }
    const { entryIds, touched, dataSourceIds } = ingest.store(records, { ...BULK, image: bulkIndex.image, stored });
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
    // Entries whose lines link to another are indexed once, after the links; the rest in chunks.
    const linking = new Set<number>();
    owners.forEach((o, i) => {
      if (o.entry.aggregation_id != null || o.entry.translation_of != null) linking.add(entryIds[i]);
    });
    for (const id of touched) (linking.has(id) || linked.has(id) ? linked : toIndex).add(id);
    if (toIndex.size >= INDEX_CHUNK) {
      deps.indexer.reindex(toIndex, bulkIndex);
      toIndex = new Set();
      // Indexed: an entry of them touched again is read from the tables.
      bulkIndex.image?.clear();
    }
    summary.entries += batch.length;
    summary.dataSources += records.length;
    onProgress?.({ phase: 'records', entries: summary.entries, bytes: read.bytes, totalBytes });
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
    for await (const [n, rec] of readCheckedLines(file, read)) {
      if (problems.length >= 20) break;
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
            description_de: rec.descriptions?.de ?? undefined, description_el: rec.descriptions?.el ?? undefined,
            description_fr: rec.descriptions?.fr ?? undefined, description_hr: rec.descriptions?.hr ?? undefined,
            description_it: rec.descriptions?.it ?? undefined,
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
          for (const site of rec.sites ?? []) ensureSite(db, id, site.site_type, site.url ?? null, site.title);
          summary.libraries++;
          break;
        }
        case 'page':
          pages.upsertPage({ ...rec, summary: rec.summary ?? '', language: rec.language ?? 'ALL' });
          summary.pages++;
          break;
        case 'entry':
          // PostgreSQL: the writes of the batches before move on while lines are read.
          if (batch.length % 250 === 0) pumpWrites(db.sqlite);
          batch.push(rec);
          if (batch.length >= 2000) {
            flush();
            await bulkIndex.ftsBuilder?.keepUp();
          }
          break;
      }
    }
    if (batch.length && !problems.length) flush();
    for (const [n, id, field] of links) {
      if (problems.length >= 20) break;
      if (!fileIds.has(id)) problems.push(`line ${n}: ${field} ${id} names no entry of this file`);
    }
    if (problems.length) throw new ImportError(problems);
    onProgress?.({ phase: 'finishing', entries: summary.entries, bytes: read.bytes, totalBytes });
    // The links change what the image holds (parents, originals): the rest is indexed from the tables.
    bulkIndex.image = null;
    const linkRequests: LinkRequest[] = pendingLinks.map((l) => ({
      kind: l.kind,
      parentEntryId: entryOfFileId.get(l.parent)!,
      childEntryId: entryOfFileId.get(l.child)!,
      position: l.position,
    }));
    // In id order: neighbouring entries share table pages (the last indexing at 1,000,000 entries: 6.3-6.5 s, 7.3-7.6 s in file order).
    const last = new Set([...toIndex, ...linked, ...ingest.link(linkRequests, BULK)]);
    // PostgreSQL: the links were written just now, in this transaction, so the planner knew nothing of
    // them and joined the last indexing's reads of parents through all of `entries` (256 ms a read, 56 s
    // at 1,000,000 entries); with their statistics it goes by the indexes.
    if (db.sqlite.dialect === 'postgres' && linkRequests.length) db.sqlite.exec('ANALYZE aggregation_links, entries (original_entry_id)');
    deps.indexer.reindex([...last].sort((a, b) => a - b), bulkIndex);
    await bulkIndex.ftsBuilder?.finishInto();
    bulkIndex.pgFts?.finish();
    stored?.finish(db.sqlite as unknown as PgConnection);
    suspendedKeys?.restore();
  };

  // One transaction around everything: a failure half-way leaves the catalogue as it was. Statement
  // journals (every statement that fires a trigger has one) stay in memory: on disk each such
  // statement wrote ~16 pages to a temporary file.
  // A larger page cache too: at 1,000,000 entries the indexes written at random places (grouping
  // keys, agents, holdings per site) no longer fit the usual 64 MiB and pages went back and forth.
  // (SQLite's settings only: PostgreSQL has no statement journal file and sizes its cache itself.)
  const restoreSettings = db.sqlite.dialect === 'sqlite' ? importSettings(db) : () => {};
  // Attached before the transaction (SQLite attaches outside one only), used when the index is empty.
  let ftsBuilder: FtsBuilder | null = null;
  try {
    ftsBuilder = FtsBuilder.attach(db);
    const transaction = beginImmediate(db.sqlite);
    // Agent ids and languages cached before (by a rolled-back import, or deleted since by a curator or
    // another process): the import's rows name only what it finds or makes inside its transaction.
    ingest.forgetCaches();
    try {
      bulkIndex.ftsBuilder = ftsBuilder?.start() ? ftsBuilder : null;
      bulkIndex.image = deps.indexer.entryImage();
      bulkIndex.pgFts = db.sqlite.dialect === 'postgres' ? new PgFtsStage(db) : null;
      suspendedKeys = db.sqlite.dialect === 'postgres' ? PgSuspendedKeys.suspendIfEmpty(db.sqlite as unknown as PgConnection) : null;
      if (suspendedKeys) stored = StoredKeys.open(db.sqlite as unknown as PgConnection);
      const restoreIndexSettings = bulkIndex.ftsBuilder ? () => {} : deps.indexer.bulkSettings();
      // The OAI-PMH record state of everything indexed is written once at the end, not per index row.
      const oaiRecords = deferOaiRecords(db);
      await run();
      if (stored) ingest.releaseIds(stored);
      oaiRecords.finish();
      restoreIndexSettings();
      transaction.commit();
    } catch (err) {
      transaction.rollback();
      for (const f of writtenFiles) files.remove(f);
      throw err;
    }
  } finally {
    await ftsBuilder?.close();
    restoreSettings();
  }
  // A library the file made private (or public): its copies move between the index's public rows and its layers.
  if (summary.libraries) deps.indexer.syncLibraryVisibility();
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}
