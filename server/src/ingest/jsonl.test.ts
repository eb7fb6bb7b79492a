import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../app.ts';
import { loadConfig } from '../config.ts';
import { importJsonl, ImportError } from './jsonl.ts';
import { fixtureLines, writeFixture } from '../test/fixture.ts';
import { APP_BACKENDS, dropTestDatabases, testDatabaseTarget } from '../test/backends.ts';
import { openDatabase } from '../db/index.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { foldText } from '@uc/shared';
import { STEM_TAG } from '../search/analysis.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

afterAll(() => dropTestDatabases());
const count = (s: Services, table: string) => s.db.sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

describe.each(APP_BACKENDS)('JSONL import on %s', (dialect) => {
  async function fresh(): Promise<{ services: Services; dir: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-import-'));
    dirs.push(dir);
    const databaseUrl = dialect === 'postgres' ? testDatabaseTarget('postgres') : null;
    return { services: await createServices({ ...loadConfig({}), dataDir: path.join(dir, 'data'), databaseUrl }), dir };
  }

  it('indexes the entries it made from what it stored, as the Indexer would from the tables', { timeout: 120_000 }, async () => {
    const { services, dir } = await fresh();
    const lines: object[] = fixtureLines().filter((l) => (l as { type: string }).type === 'library');
    // Line `id` is work `w` (title, authors, languages), held in ways that vary with the line.
    const entry = (id: number, w = id) => ({
      type: 'entry', id, title: `Tract ${w}`, subtitle: id % 7 ? null : `Part ${id}`, authors: [`Writer ${w % 300}`, ...(w % 11 ? [] : [`Editor ${w % 13}`, `Writer ${w % 300}`])],
      languages: w % 9 ? ['en'] : ['en', 'it'], year: 1900 + (id % 80),
      data_sources: [{ library_id: 1 + (id % 3), identifier: `t-${id}`, description: id % 5 ? `About ${id}` : null, downloads: id % 4 ? ['pdf'] : ['epub', 'pdf'],
        datestamp: `20${10 + (id % 15)}-01-01T00:00:00Z`, isbn: id % 6 ? null : `978-${id}` }],
    });
    // More entries than one indexed chunk (10,000): those are indexed during the reading, from memory.
    // Every 97th line is the work of 50 lines before (it joins that entry), two lines give again the
    // identifier of an earlier record (it moves to this line's entry, leaving its entry empty, or
    // holding an older record under the later date), and one title is in Cyrillic.
    const works = new Set<number>();
    for (let id = 1; id <= 12_000; id++) {
      const w = id % 97 === 0 ? id - 50 : id;
      works.add(w);
      lines.push(entry(id, w));
    }
    Object.assign((lines.at(-3000) as { data_sources: object[] }).data_sources[0]!, { library_id: 1, identifier: 't-120' });
    Object.assign((lines.at(-3001) as { data_sources: object[] }).data_sources[0]!, { library_id: 2, identifier: 't-970' });
    lines.push({ ...entry(20_002), title: 'Хлеб и воля', authors: ['Пётр Кропоткин'], languages: ['ru'] });
    await importJsonl(writeFixture(dir, lines), services);
    const s = services.db.sqlite;
    const docs = () => s.prepare('SELECT entry_id, doc, libraries FROM search_docs ORDER BY entry_id').raw().all();
    const imported = docs();
    expect(s.prepare('SELECT count(*) FROM entries').pluck().get()).toBe(works.size + 1);
    expect(s.prepare('SELECT count(*) FROM search_docs WHERE doc IS NOT NULL').pluck().get()).toBe(works.size);
    const datestampOf = (title: string) => JSON.parse(s.prepare('SELECT doc FROM search_docs d JOIN entries e ON e.id = d.entry_id WHERE e.title = ?').pluck().get(title) as string).datestamp;
    expect(datestampOf('Tract 920')).toBe('2020-01-01T00:00:00Z');
    services.indexer.reindex(s.prepare('SELECT id FROM entries').pluck().all() as number[]);
    expect(docs()).toEqual(imported);
    await services.db.close();
  });

  it('imports libraries, entries, data sources and files, and is idempotent', async () => {
    const { services, dir } = await fresh();
    const file = writeFixture(dir);
    const s = await importJsonl(file, services);
    expect(s).toMatchObject({ libraries: 4, entries: 12, dataSources: 14 });
    expect(count(services, 'entries')).toBe(11); // two file entries grouped into one
    expect(count(services, 'data_source_files')).toBe(3);
    // The same file again changes nothing: no entry reindexed (OAI-PMH datestamps stay), links included.
    const one = (sql: string) => services.db.sqlite.prepare(sql).pluck().get();
    expect(one('SELECT count(*) FROM aggregation_links')).toBe(2);
    expect(one('SELECT count(*) FROM entries WHERE original_entry_id IS NOT NULL')).toBe(1);
    const seq = one('SELECT max(seq) FROM search_docs');
    const oai = one("SELECT string_agg(entry_id || datestamp, ',' ORDER BY entry_id) FROM oai_records");
    await new Promise((r) => setTimeout(r, 1100)); // OAI-PMH datestamps have whole seconds
    await importJsonl(file, services);
    expect(count(services, 'entries')).toBe(11);
    expect(count(services, 'data_sources')).toBe(14);
    expect(one('SELECT max(seq) FROM search_docs')).toBe(seq);
    expect(one("SELECT string_agg(entry_id || datestamp, ',' ORDER BY entry_id) FROM oai_records")).toBe(oai);
    await services.db.close();
  });

  it('groups as the store does: lines whose works differ only in case, accents, spacing or author order are one entry, and a record stored later joins it', async () => {
    const { services, dir } = await fresh();
    const lib = { type: 'library', id: 7, name: 'Archivio' };
    const work = (id: number, title: string, authors: string[], languages: string[]) => ({
      type: 'entry', id, title, authors, languages, data_sources: [{ library_id: 7, identifier: `rec-${id}` }],
    });
    const file = path.join(dir, 'works.jsonl');
    fs.writeFileSync(file, [lib,
      work(1, 'La Libertà  e il lavoro', ['Errico Malatesta', ', Luigi Fabbri'], ['it']),
      work(2, '  LA LIBERTA E IL LAVORO.', ['Luigi  Fabbri', 'Errico Malatesta', 'Errico Malatesta'], ['IT', 'xx-1']),
      work(3, 'La libertà e il lavoro', ['Errico Malatesta'], ['it']),
    ].map((l) => JSON.stringify(l)).join('\n'));
    await importJsonl(file, services);
    expect(count(services, 'entries')).toBe(2);
    const entryOf = (identifier: string) => services.db.sqlite.prepare('SELECT entry_id FROM data_sources WHERE identifier = ?').pluck().get(identifier);
    expect(entryOf('rec-2')).toBe(entryOf('rec-1'));
    const site = services.db.sqlite.prepare('SELECT site_id FROM data_sources WHERE identifier = ?').pluck().get('rec-1') as number;
    const later = services.ingest.store([{ siteId: site, identifier: 'later', title: 'la liberta e il lavoro', authors: ['Luigi Fabbri', 'Errico Malatesta'], languages: ['it'] }]);
    expect(later.entryIds[0]).toBe(entryOf('rec-1'));
  });

  it('reads the bench generator format', async () => {
    const generator = path.resolve(import.meta.dirname, '../../../../shared/bench/gen-catalogue.mjs');
    if (!fs.existsSync(generator)) {
      console.log('skipped: ../shared/bench/gen-catalogue.mjs not found');
      return;
    }
    const { execFileSync } = await import('node:child_process');
    const { services, dir } = await fresh();
    const file = path.join(dir, 'gen.jsonl');
    fs.writeFileSync(file, execFileSync('node', [generator, 'catalogue', '--entries', '300', '--libraries', '10']));
    const s = await importJsonl(file, services);
    expect(s.entries).toBe(300);
    services.search.sync();
    expect(services.search.index.count).toBeGreaterThan(200);
    await services.db.close();
  });

  it('rejects a bad file with line numbers and changes nothing', async () => {
    const { services, dir } = await fresh();
    const lines = fixtureLines();
    const bad = [...lines.slice(0, 6), { type: 'entry', id: 99, title: '', authors: [], languages: [], data_sources: [] }, { type: 'entry', id: 100, title: 'x', authors: [], languages: [], data_sources: [{ library_id: 77, identifier: 'q' }] }, ...lines.slice(6)];
    const file = writeFixture(dir, bad);
    fs.appendFileSync(file, '{not json\n');
    const err = await importJsonl(file, services).catch((e) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).problems.join('\n')).toMatch(/line 7: .*title/);
    expect((err as ImportError).problems.join('\n')).toMatch(/line 8: library 77 is not defined/);
    expect((err as ImportError).problems.join('\n')).toMatch(/not valid JSON/);
    expect(count(services, 'libraries')).toBe(0);
    expect(count(services, 'entries')).toBe(0);
    await services.db.close();
  });

  it('refuses script links in a library\'s url and site_url and a record\'s uri, with the line number (issue 27)', async () => {
    const { services, dir } = await fresh();
    const lines = fixtureLines();
    lines[1] = { ...lines[1], url: 'javascript:alert(document.cookie)' };
    lines[2] = { ...lines[2], url: 'https://ok.example/', site_url: ' JaVaScRiPt:alert(1)' };
    lines[5] = { ...(lines[5] as { data_sources: object[] }), data_sources: [{ library_id: 1, identifier: 'x-1', uri: 'data:text/html;base64,PHNjcmlwdD4=' }] };
    const err = await importJsonl(writeFixture(dir, lines), services).catch((e) => e);
    expect(err).toBeInstanceOf(ImportError);
    const problems = (err as ImportError).problems.join('\n');
    expect(problems).toMatch(/line 2: url: Invalid URL \(http or https\)/);
    expect(problems).toMatch(/line 3: site_url: Invalid URL/);
    expect(problems).toMatch(/line 6: data_sources\.0\.uri: Invalid URL/);
    expect(count(services, 'libraries')).toBe(0);
    await services.db.close();
  });

  it('rolls back everything when a link names a missing entry', async () => {
    const { services, dir } = await fresh();
    const lines = fixtureLines();
    lines.push({ type: 'entry', id: 500, title: 'Orphan part', authors: [], languages: ['en'], aggregation_id: 404, data_sources: [{ library_id: 1, identifier: 'o-1' }] });
    const err = await importJsonl(writeFixture(dir, lines), services).catch((e) => e);
    expect(String(err)).toMatch(/aggregation_id 404 names no entry/);
    expect(count(services, 'entries')).toBe(0);
    await services.db.close();
  });

  it('a work or an identifier met again thousands of lines later (another batch) is the same entry and the same data source', async () => {
    const { services, dir } = await fresh();
    const lib = { type: 'library', id: 4, name: 'Infoshop' };
    const line = (id: number, title: string, identifier: string) => ({ type: 'entry', id, title, authors: ['Emma Goldman'], languages: ['en'], data_sources: [{ library_id: 4, identifier }] });
    const filler = Array.from({ length: 2100 }, (_, i) => line(100 + i, `Pamphlet ${i}`, `p-${i}`));
    // Lines in other batches of 2,000: the same work again (joins the entry), the same identifier again (moves the record).
    await importJsonl(writeFixture(dir, [lib, line(1, 'Living My Life', 'dup'), ...filler, line(5000, 'Living  my life.', 'a2'), line(5001, 'Anarchism and Other Essays', 'dup')]), services);
    const one = (sql: string) => services.db.sqlite.prepare(sql).pluck().get();
    expect(count(services, 'data_sources')).toBe(2102);
    expect(count(services, 'entries')).toBe(2102);
    expect(one("SELECT string_agg(d.identifier, ',') FROM data_sources d JOIN entries e ON e.id = d.entry_id WHERE e.title = 'Living My Life'")).toBe('a2');
    expect(one("SELECT string_agg(d.identifier, ',') FROM data_sources d JOIN entries e ON e.id = d.entry_id WHERE e.title = 'Anarchism and Other Essays'")).toBe('dup');
    await services.db.close();
  });

  it('links an author deleted since the last import to a new agent, never to the deleted one', async () => {
    const { services, dir } = await fresh();
    const lib = { type: 'library', id: 3, name: 'Biblioteca' };
    const work = (id: number, title: string) => ({ type: 'entry', id, title, authors: ['Voltairine de Cleyre'], languages: ['en'], data_sources: [{ library_id: 3, identifier: `w-${id}` }] });
    await importJsonl(writeFixture(dir, [lib, work(1, 'Anarchism and American Traditions')]), services);
    const one = (sql: string, ...p: unknown[]) => services.db.sqlite.prepare(sql).pluck().get(...p);
    const first = one("SELECT id FROM agents WHERE name = 'Voltairine de Cleyre'");
    // A curator (or another process) removes the agent between two imports.
    services.db.sqlite.prepare('DELETE FROM entry_agents WHERE agent_id = ?').run(first);
    services.db.sqlite.prepare('DELETE FROM agents WHERE id = ?').run(first);
    await importJsonl(writeFixture(dir, [lib, work(2, 'The Dominant Idea')]), services);
    const now = one("SELECT id FROM agents WHERE name = 'Voltairine de Cleyre'");
    expect(now).not.toBe(first);
    expect(one("SELECT a.name FROM entry_agents ea JOIN agents a ON a.id = ea.agent_id JOIN entries e ON e.id = ea.entry_id WHERE e.title = 'The Dominant Idea'")).toBe('Voltairine de Cleyre');
    expect(one('SELECT count(*) FROM entry_agents ea WHERE NOT EXISTS (SELECT 1 FROM agents a WHERE a.id = ea.agent_id)')).toBe(0);
    await services.db.close();
  });

  it('a problem after thousands of stored entries rolls them all back, and the next import is whole', async () => {
    const { services, dir } = await fresh();
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({
      type: 'entry', id: 1000 + i, title: `Pamphlet ${i}`, authors: [`Writer ${i % 50}`], languages: ['en'], data_sources: [{ library_id: 1, identifier: `p-${i}` }],
    }));
    const lib = fixtureLines().filter((l) => (l as { type: string }).type === 'library');
    // 2,100 good entries (one batch is stored before the bad line is read), then a broken one.
    const err = await importJsonl(writeFixture(dir, [...lib, ...many(2100), { type: 'entry', id: 5, title: 'Broken' }]), services).catch((e) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).problems).toEqual([expect.stringMatching(/^line \d+: authors: /)]);
    for (const table of ['entries', 'data_sources', 'agents', 'search_docs']) expect(count(services, table)).toBe(0);
    // The authors written by the rolled-back import are not remembered: the next import links real rows.
    const ok = await importJsonl(writeFixture(dir, [...lib, ...many(30)]), services);
    expect(ok.entries).toBe(30);
    expect(count(services, 'agents')).toBe(30);
    // (PostgreSQL checks every reference as it is written.)
    if (dialect === 'sqlite') expect(services.db.sqlite.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    expect(services.db.sqlite.prepare('SELECT count(*) FROM entry_agents ea JOIN agents a ON a.id = ea.agent_id').pluck().get()).toBe(30);
    await services.db.close();
  });
});

describe('JSONL import into an empty SQLite catalogue', () => {
  async function fresh(): Promise<{ services: Services; dir: string; dbFile: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-import-'));
    dirs.push(dir);
    const services = await createServices({ ...loadConfig({}), dataDir: path.join(dir, 'data'), databaseUrl: null });
    return { services, dir, dbFile: path.join(dir, 'data', 'catalogue.sqlite') };
  }
  const journal = (s: Services) => s.db.sqlite.pragma('journal_mode', { simple: true });

  it('writes the file directly when it has the database to itself, keeps the WAL otherwise, and is in WAL after', async () => {
    const { services, dir, dbFile } = await fresh();
    const file = writeFixture(dir);
    const during: unknown[] = [];
    let opened: unknown = null;
    await importJsonl(file, services, (p) => {
      during.push(journal(services));
      // Another process starting now is told why it cannot open the database (not a bare "locked").
      if (p.phase === 'finishing') opened = (() => { try { return openDatabase(dbFile); } catch (e) { return e; } })();
    });
    expect(new Set(during)).toEqual(new Set(['delete']));
    expect(String(opened)).toMatch(/busy: an import into the empty catalogue holds it until it ends/);
    expect(journal(services)).toBe('wal');
    expect(fs.existsSync(`${dbFile}-journal`)).toBe(false);
    // Another connection reads the committed catalogue.
    const other = openDatabase(dbFile);
    expect(other.sqlite.prepare('SELECT count(*) FROM entries').pluck().get()).toBe(11);
    // A catalogue that holds entries is imported into through the WAL, and is readable meanwhile.
    const seen: unknown[] = [];
    await importJsonl(file, services, () => {
      seen.push(journal(services), other.sqlite.prepare('SELECT count(*) FROM entries').pluck().get());
    });
    expect(new Set(seen)).toEqual(new Set(['wal', 11]));
    await other.close();
    await services.db.close();
  });

  it('keeps the WAL while another connection is open, so that one reads on during the import', async () => {
    const { services, dir, dbFile } = await fresh();
    const other = openDatabase(dbFile);
    const seen: unknown[] = [];
    const s = await importJsonl(writeFixture(dir), services, () => {
      seen.push(journal(services), other.sqlite.prepare('SELECT count(*) FROM entries').pluck().get());
    });
    expect(s.entries).toBe(12);
    expect(new Set(seen)).toEqual(new Set(['wal', 0]));
    expect(other.sqlite.prepare('SELECT count(*) FROM entries').pluck().get()).toBe(11);
    await other.close();
    await services.db.close();
  });

  it('builds the full-text index in a thread: the index the Indexer writes itself, found at once on every connection', async () => {
    const { services, dir, dbFile } = await fresh();
    const search = (query: string) => services.search.search({ query, page: 1, pageSize: 50, filters: {}, exact: true }, ANONYMOUS).total_entries;
    // A search before the import: this connection has read the (empty) index's layout.
    expect(search('Kropotkin')).toBe(0);
    const lines = fixtureLines();
    // Cyrillic (indexed in both scripts), descriptions, and enough entries for several batches and messages.
    lines.push({ type: 'entry', id: 300, title: 'Хлеб и воля', authors: ['Пётр Кропоткин'], languages: ['ru'], data_sources: [{ library_id: 1, identifier: 'r-1', description: 'Очерки' }] });
    for (let i = 0; i < 2500; i++) {
      lines.push({ type: 'entry', id: 1000 + i, title: `Pamphlet ${i} on ${['bread', 'land', 'freedom'][i % 3]}`, authors: [`Writer ${i % 40}`], languages: ['en'],
        data_sources: [{ library_id: 1 + (i % 2), identifier: `p-${i}`, description: i % 5 ? `Notes of ${i} pages` : null }] });
    }
    await importJsonl(writeFixture(dir, lines), services);
    expect(fs.readdirSync(path.dirname(dbFile)).filter((f) => f.includes('-import-fts'))).toEqual([]);
    // Three of his works, and the Russian one through its Latin form (and the other way round).
    expect(search('Kropotkin')).toBe(4);
    expect(search('Кропоткин')).toBe(4);
    expect(search('pamphlet AND freedom')).toBe(833);
    const other = openDatabase(dbFile);
    expect(other.sqlite.prepare("SELECT count(*) FROM entry_fts WHERE entry_fts MATCH 'pamphlet'").pluck().get()).toBe(2500);
    await other.close();
    expect(() => services.db.sqlite.exec("INSERT INTO entry_fts (entry_fts, rank) VALUES ('integrity-check', 1)")).not.toThrow();

    // Every word, prefix and title phrase answers the same entries with the same scores as an index the
    // Indexer writes itself, row by row on this connection, from empty.
    const s = services.db.sqlite;
    s.exec("CREATE VIRTUAL TABLE temp.fts_words USING fts5vocab('main', 'entry_fts', 'row')");
    const words = s.prepare('SELECT term FROM temp.fts_words ORDER BY term').pluck().all() as string[];
    const titles = s.prepare('SELECT title FROM entries ORDER BY id').pluck().all() as string[];
    // Each distinct query once: the prefix of a stem token (search/analysis.ts: '00' + language + stem)
    // keeps its tag and language, else the 2,500 stems each asked '"00"*', every row ranked each time
    // (about 40 of this test's 44 s after the word forms landed; the import itself takes 3 s).
    const prefix = (w: string) => (w.startsWith(STEM_TAG) ? w.slice(0, STEM_TAG.length + 4) : w.slice(0, 2));
    const queries = [...new Set([...words.map((w) => `"${w}"`), ...words.map((w) => `"${prefix(w)}"*`), ...titles.map((t) => `"${foldText(t).replace(/"/g, '')}"`)])];
    const answers = () => queries.map((q) => JSON.stringify(s.prepare('SELECT rowid, round(bm25(entry_fts), 9) FROM entry_fts WHERE entry_fts MATCH ? ORDER BY rowid').raw().all(q)));
    const built = answers();
    expect(words.length).toBeGreaterThan(2500);
    expect(built.filter((a) => a !== '[]').length).toBe(queries.length);
    s.exec("INSERT INTO entry_fts (entry_fts) VALUES ('delete-all')");
    s.exec('UPDATE search_docs SET doc = NULL');
    services.indexer.reindex(s.prepare('SELECT id FROM entries').pluck().all() as number[]);
    expect(answers()).toEqual(built);
    await services.db.close();
  }, 30_000);

  it('a failed import into the empty catalogue leaves it empty, in WAL, with no journal left', async () => {
    const { services, dir, dbFile } = await fresh();
    const lines = fixtureLines();
    lines.push({ type: 'entry', id: 500, title: 'Orphan part', authors: [], languages: ['en'], aggregation_id: 404, data_sources: [{ library_id: 1, identifier: 'o-1' }] });
    const err = await importJsonl(writeFixture(dir, lines), services).catch((e) => e);
    expect(err).toBeInstanceOf(ImportError);
    for (const table of ['libraries', 'entries', 'data_sources', 'search_docs']) expect(count(services, table)).toBe(0);
    expect(journal(services)).toBe('wal');
    expect(fs.existsSync(`${dbFile}-journal`)).toBe(false);
    expect(fs.readdirSync(path.dirname(dbFile)).filter((f) => f.includes('-import-fts'))).toEqual([]);
    expect(services.db.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    await services.db.close();
  });
});
