// A small catalogue written for the tests, and an app built on a temporary database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, createServices, databaseTarget, type Services } from '../app.ts';
import { loadConfig, repoRoot, type Config } from '../config.ts';
import { importJsonl } from '../ingest/jsonl.ts';
import type { FastifyInstance } from 'fastify';
import type { Dialect } from '../db/connection.ts';
import { dropTestDatabase, migratedTestDatabase } from './backends.ts';

export const MUSE_TEXT = `#title A Small Guide
#author Test Writer
#lang en

* First chapter

Some text with a footnote.[1]

[[picture.png]]

[1] The note.
`;

/** 1x1 PNG. */
export const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

export function fixtureLines(): object[] {
  const lib = (id: number, name: string, extra: object = {}) => ({
    type: 'library', id, name, country: 'Italy', city: 'Milano', latitude: 45.46, longitude: 9.19,
    library_type: 'digital', public: true, languages: ['it'], ...extra,
  });
  const ds = (library_id: number, identifier: string, extra: object = {}) => ({
    library_id, identifier, year_edition: 1900, publisher: null, isbn: null, description: null, shelf_location_code: null, downloads: [], ...extra,
  });
  const entry = (id: number, title: string, authors: string[], languages: string[], data_sources: object[], extra: object = {}) => ({
    type: 'entry', id, title, subtitle: null, authors, languages, year: 1890, aggregation_id: null, translation_of: null, data_sources, fulltext: null, ...extra,
  });
  return [
    { type: 'settings', site_name: 'Test Catalogue', contact_email: 'info@example.org' },
    lib(1, 'Biblioteca Uno'),
    lib(2, 'Archive Two', { country: 'France', city: 'Paris' }),
    lib(3, 'Private Three', { public: false }),
    lib(4, 'Closed Four', { active: false }),
    entry(1, 'La libertà e il lavoro', ['Errico Malatesta'], ['it'], [ds(1, 'a-1', { year_edition: 1920, downloads: ['pdf'] }), ds(2, 'b-1', { year_edition: 1925 })]),
    entry(2, 'Mutual Aid', ['Peter Kropotkin'], ['en'], [ds(1, 'a-2', { year_edition: 1902, description: 'A factor of evolution' })]),
    entry(3, "L'Entraide", ['Peter Kropotkin'], ['fr'], [ds(2, 'b-3', { year_edition: 1906 })], { translation_of: 2 }),
    entry(4, 'Fields, Factories and Workshops', ['Peter Kropotkin'], ['en'], [ds(2, 'b-4', { year_edition: 1899, downloads: ['epub'] })]),
    entry(5, 'Secret Private Work', ['Hidden Author'], ['en'], [ds(3, 'c-5')]),
    entry(6, 'Inactive Library Work', ['Hidden Author'], ['en'], [ds(4, 'd-6')]),
    entry(7, 'Anthology of Essays', [], ['en'], [ds(1, 'a-7', { year_edition: 1930 })]),
    entry(8, 'First Essay', ['Emma Goldman'], ['en'], [ds(1, 'a-8', { year_edition: 1910 })], { aggregation_id: 7, aggregation_position: 2 }),
    entry(9, 'Second Essay', ['Voltairine de Cleyre'], ['en'], [ds(1, 'a-9', { year_edition: 1911 })], { aggregation_id: 7, aggregation_position: 1 }),
    // Same normalised title, authors and languages as entry 2: grouped into the same entry.
    entry(10, 'MUTUAL AID', ['Peter  Kropotkin'], ['en'], [ds(2, 'b-10', { year_edition: 1955 })]),
    entry(11, 'A Small Guide', ['Test Writer'], ['en'], [ds(1, 'a-11', { muse_file: 'guide.muse', pdf_file: 'guide.pdf' })]),
    entry(12, 'Zapata and the Land', ['Ricardo Flores Magón'], ['es'], [ds(1, 'a-12', { year_edition: 1913 }), ds(3, 'c-12')]),
  ];
}

export function writeFixture(dir: string, lines: object[] = fixtureLines()): string {
  fs.writeFileSync(path.join(dir, 'guide.muse'), MUSE_TEXT);
  fs.writeFileSync(path.join(dir, 'picture.png'), PNG);
  fs.writeFileSync(path.join(dir, 'guide.pdf'), '%PDF-1.4\n% test\n');
  const file = path.join(dir, 'catalogue.jsonl');
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

/** `target`: the app's database (a SQLite file or a postgres:// URL), for a second process's services on it. */
export interface TestApp { app: FastifyInstance; services: Services; dir: string; target: string; close(): Promise<void> }

/**
 * The app on a new database with the fixture catalogue imported. `dialect` 'postgres': a fresh database on
 * the run's test cluster (test/backends.ts, BACKENDS), dropped again by close(); 'sqlite' (default): a file in `dir`.
 */
export async function testApp(lines?: object[], settings: Partial<Config> = {}, dialect: Dialect = 'sqlite'): Promise<TestApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-test-'));
  // A migrated copy (test/backends.ts): createServices' migrate() then finds nothing to do.
  const databaseUrl = dialect === 'postgres' ? await migratedTestDatabase('postgres') : undefined;
  const config = { ...loadConfig({}), dataDir: path.join(dir, 'data'), logLevel: 'silent', webDist: path.join(dir, 'no-web'), ...(databaseUrl ? { databaseUrl } : {}), ...settings };
  if (!config.databaseUrl) await migratedTestDatabase('sqlite', databaseTarget(config));
  const services = await createServices(config);
  await importJsonl(writeFixture(dir, lines), services);
  const app = await buildApp(config, services);
  return {
    app, services, dir, target: databaseTarget(config),
    async close() {
      await app.close();
      if (databaseUrl) dropTestDatabase(databaseUrl);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Entry id (in the database) of the entry with this title. */
export function entryId(services: Services, title: string): number {
  return services.db.sqlite.prepare('SELECT id FROM entries WHERE title = ?').pluck().get(title) as number;
}

/** Data source id (in the database) of the data source with this identifier. */
export function dataSourceId(services: Services, identifier: string): number {
  return services.db.sqlite.prepare('SELECT id FROM data_sources WHERE identifier = ?').pluck().get(identifier) as number;
}

/**
 * An import line: an entry whose one data source (`muse-<id>`, library 1 unless given) holds a Muse text,
 * `file` a demo text's name (demo/texts) or a path.
 */
export function museEntryLine(id: number, title: string, file: string, lang = 'en', library = 1): object {
  return {
    type: 'entry', id, title, subtitle: null, authors: ['Demo Author'], languages: [lang], year: 2026, aggregation_id: null, translation_of: null, fulltext: null,
    data_sources: [{ library_id: library, identifier: `muse-${id}`, year_edition: 2026, downloads: [], muse_file: path.isAbsolute(file) ? file : path.join(repoRoot, 'demo', 'texts', file) }],
  };
}

/** Two entries whose data sources hold the fixture's Muse text (MUSE_TEXT): 'Muse Only' (m-40, library 1) and 'Muse Hidden' (p-41, the private library 3). */
export function museOnlyLines(): object[] {
  const ds = (library_id: number, identifier: string) => ({
    library_id, identifier, year_edition: 1900, publisher: null, isbn: null, description: null, shelf_location_code: null, downloads: [], muse_file: 'guide.muse',
  });
  const entry = (id: number, title: string, dss: object[]) => ({
    type: 'entry', id, title, subtitle: null, authors: ['Test Writer'], languages: ['en'], year: 1890, aggregation_id: null, translation_of: null, data_sources: dss, fulltext: null,
  });
  return [entry(40, 'Muse Only', [ds(1, 'm-40')]), entry(41, 'Muse Hidden', [ds(3, 'p-41')])];
}

/** Headers of a browser that got its CSRF cookie and echoes it (double-submit), for POSTs in tests. */
export const CSRF_HEADERS = { cookie: 'csrftoken=test-csrf-token', 'x-csrftoken': 'test-csrf-token' } as const;

/** A multipart/form-data body for inject(): text fields and at most one file under `file.field`. */
export function multipartBody(fields: Record<string, string>, file?: { field: string; name: string; content: Uint8Array | string; type?: string }) {
  const boundary = '----uctest' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`));
    parts.push(Buffer.from(file.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
