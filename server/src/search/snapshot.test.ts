// Issue 28, snapshot start: a node restarted from the search snapshot answers as one that read every
// document; a change made after the snapshot is seen; a damaged, foreign, future or older-format file is
// refused (with the reason logged) and the index is read from the documents; while the index is loaded,
// /readyz says not ready and searches answer 503 with Retry-After through a real server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, createServices, databaseTarget, type Services } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { importJsonl } from '../ingest/jsonl.ts';
import { APP_BACKENDS, dropTestDatabase, migratedTestDatabase } from '../test/backends.ts';
import { ANONYMOUS, type Viewer } from '../http/viewer.ts';
import { ExclusionStore } from '../curation/exclusions.ts';
import { AuthorResolver } from '../agents/resolve.ts';
import { SearchService, type SearchParams } from './service.ts';
import { snapshotPath } from './snapshot.ts';

const DEMO = path.resolve(import.meta.dirname, '../../../demo/catalogue.jsonl');
/** The demo's private library (its entries are seen only by its members). */
const PRIVATE_LIBRARY = 8;
const MEMBER: Viewer = { ...ANONYMOUS, userId: 1, username: 'member', libraryIds: [PRIVATE_LIBRARY] };

const params = (query: string, more: Partial<SearchParams> = {}): SearchParams => ({ query, page: 1, filters: {}, ...more });
/** The query mix: words, wildcards, facets, sorts, a deep page, translations, misspellings ("did you mean"). */
const QUERIES: SearchParams[] = [
  params(''),
  params('', { sortBy: 'title_asc' }),
  params('', { sortBy: 'title_desc', page: 3 }),
  params('', { sortBy: 'datestamp', filters: { language: ['en'] } }),
  params('kropotkin'),
  params('anarch*', { sortBy: 'title_asc' }),
  params('the', { filters: { download: ['text'] } }),
  params('translate:translated'),
  params('aggregate:aggregation'),
  params('crime', { translations: true }),
  params('kropotkn'),
  params('raskolnikow'),
  params('delitti'),
  params('suttner'),
  params('bertha von sutner'),
];
const TYPED = ['kro', 'ras', 'wey', 'dei', 'su', 'an'];

function answers(search: SearchService) {
  const out: unknown[] = [];
  for (const viewer of [ANONYMOUS, MEMBER]) {
    for (const q of QUERIES) out.push(search.search(q, viewer));
    for (const t of TYPED) out.push(search.suggest(t, viewer));
  }
  return out;
}

/** Rewrites fields of a snapshot file's header (the header is outside the checksum, as a writer's mistake would be). */
function editHeader(file: string, change: (h: Record<string, unknown>) => void) {
  const buf = fs.readFileSync(file);
  const len = buf.readUInt32LE(8);
  const header = JSON.parse(buf.subarray(12, 12 + len).toString('utf8')) as Record<string, unknown>;
  const bodyAt = (12 + len + 7) & ~7;
  change(header);
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc((12 + head.length + 7) & ~7);
  buf.copy(prefix, 0, 0, 8);
  prefix.writeUInt32LE(head.length, 8);
  head.copy(prefix, 12);
  fs.writeFileSync(file, Buffer.concat([prefix, buf.subarray(bodyAt)]));
}

describe.each(APP_BACKENDS)('the search snapshot (%s)', (dialect) => {
  let services: Services;
  let config: Config;
  let dir: string;
  let databaseUrl: string | undefined;
  let file: string;
  let expected: unknown[];
  const fresh = () => new SearchService(services.db, services.libraries, services.agents, new ExclusionStore(services.db), new AuthorResolver(services.db));
  /** A node's start: the index loaded by `load`, with what it logged. */
  async function start(snapshotFile: string | null) {
    const search = fresh();
    const log: string[] = [];
    const from = await search.load({ snapshotFile, log: (m) => log.push(m) });
    return { search, from, log: log.join('\n') };
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-snapshot-'));
    databaseUrl = dialect === 'postgres' ? await migratedTestDatabase('postgres') : undefined;
    config = { ...loadConfig({}), dataDir: path.join(dir, 'data'), logLevel: 'silent', webDist: path.join(dir, 'no-web'), ...(databaseUrl ? { databaseUrl } : {}) };
    if (!config.databaseUrl) await migratedTestDatabase('sqlite', databaseTarget(config));
    services = await createServices(config);
    await importJsonl(DEMO, services);
    file = snapshotPath(config.dataDir);
    // The reference: a start from the documents.
    const reference = await start(null);
    expect(reference.from).toBe('documents');
    expected = answers(reference.search);
  }, 120_000);

  afterAll(async () => {
    await services?.db.close();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a start from the snapshot answers every query, facet, sort, private view, suggestion and correction as a start from the documents', async () => {
    const writer = (await start(null)).search;
    const written = await writer.writeSnapshot(file);
    expect(written?.entries).toBeGreaterThan(500);
    expect(fs.existsSync(file)).toBe(true);
    const node = await start(file);
    expect(node.from, node.log).toBe('snapshot');
    expect(node.log).toMatch(/from the snapshot at seq \d+, 0 later changes/);
    expect(node.search.indexedSeq).toBe(writer.indexedSeq);
    expect(answers(node.search)).toEqual(expected);
  });

  it('a change made after the snapshot is seen by a node started from it', async () => {
    const writer = (await start(null)).search;
    await writer.writeSnapshot(file);
    const id = services.db.sqlite.prepare("SELECT id FROM entries WHERE canonical_entry_id IS NULL AND title LIKE 'Mutual Aid%' ORDER BY id").pluck().get() as number;
    const before = services.db.sqlite.prepare('SELECT title FROM entries WHERE id = ?').pluck().get(id) as string;
    services.db.sqlite.prepare('UPDATE entries SET title = ? WHERE id = ?').run('Zorblaxian Snapshotted Reciprocity', id);
    services.indexer.reindex([id]);
    try {
      const node = await start(file);
      expect(node.from).toBe('snapshot');
      expect(node.log).toMatch(/[1-9]\d* later changes applied/);
      const found = node.search.search(params('zorblaxian reciprocity'), ANONYMOUS);
      expect(found.matches.map((m) => m.entry_id)).toEqual([id]);
      expect(node.search.suggest('zorbla', ANONYMOUS).map((s) => s.id)).toContain(id);
      expect(node.search.search(params('zorblaxan'), ANONYMOUS).did_you_mean).toBe('zorblaxian');
    } finally {
      services.db.sqlite.prepare('UPDATE entries SET title = ? WHERE id = ?').run(before, id);
      services.indexer.reindex([id]);
    }
  });

  it.each([
    ['a damaged file', 'checksum does not match', (f: string) => {
      const buf = fs.readFileSync(f);
      buf[buf.length - 100] ^= 0x5a;
      fs.writeFileSync(f, buf);
    }],
    ['a file cut short', 'length', (f: string) => fs.truncateSync(f, fs.statSync(f).size - 64)],
    ['a file of another database', 'another database', (f: string) => editHeader(f, (h) => { h.catalogue = '00000000-0000-4000-8000-000000000000'; })],
    ['a snapshot ahead of the database', 'ahead of the database', (f: string) => editHeader(f, (h) => { h.seq = Number(h.seq) + 1000; })],
    ['an older index format', 'index format 2', (f: string) => editHeader(f, (h) => { h.indexFormat = 2; })],
    ['another back end', 'made on', (f: string) => editHeader(f, (h) => { h.backend = h.backend === 'sqlite' ? 'postgres' : 'sqlite'; })],
    ['no snapshot file', 'there is none', (f: string) => fs.rmSync(f)],
  ])('%s is refused, said in the log, and the index read from the documents', async (_what, reason, spoil) => {
    const writer = (await start(null)).search;
    await writer.writeSnapshot(file);
    spoil(file);
    const node = await start(file);
    expect(node.from).toBe('documents');
    expect(node.log).toContain('not starting from the snapshot');
    expect(node.log).toContain(reason);
    expect(answers(node.search)).toEqual(expected);
  });

  it('a re-created database (a new catalogue id) does not use the old snapshot', async () => {
    const writer = (await start(null)).search;
    await writer.writeSnapshot(file);
    const s = services.db.sqlite;
    const id = s.prepare("SELECT value FROM settings WHERE name = 'catalogue_id'").pluck().get() as string;
    s.prepare("UPDATE settings SET value = 'another-catalogue' WHERE name = 'catalogue_id'").run();
    try {
      const node = await start(file);
      expect(node.from).toBe('documents');
      expect(node.log).toContain('another database');
    } finally {
      s.prepare("UPDATE settings SET value = ? WHERE name = 'catalogue_id'").run(id);
    }
  });

  it('is written again when the index moved past it and the minutes passed; one writer at a time', async () => {
    const search = (await start(null)).search;
    fs.rmSync(file, { force: true });
    const log: string[] = [];
    // As in `serve`: the background catch-up folds the correction words, then the snapshot is written.
    const stopFollowing = search.followChanges();
    const stop = search.keepSnapshot(file, { minutes: 0, checkMs: 50, log: (m) => log.push(m) });
    try {
      const deadline = Date.now() + 10_000;
      while (!fs.existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(log.join('\n')).toMatch(/Search snapshot written: \d+ entries at seq \d+/);
    } finally {
      stop();
      stopFollowing();
    }
    // Another node holding the lock: nothing written by this one.
    fs.writeFileSync(`${file}.lock`, '1');
    try {
      expect(await search.writeSnapshot(file)).toBeNull();
    } finally {
      fs.rmSync(`${file}.lock`);
    }
  });

  // Last: closing the app closes the database.
  it('while loading, /readyz says not ready and search and suggest answer 503 with Retry-After and a translated error', async () => {
    const search = fresh();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    search.markLoading();
    const app: FastifyInstance = await buildApp(config, { ...services, search });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const loading = search.load({ snapshotFile: file, beforeLoad: () => held });
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', problems: ['search index: loading'] });
      const t0 = Date.now();
      const s = await fetch(`${base}/collector/api/search?query=kropotkin`);
      expect(s.status).toBe(503);
      expect(Date.now() - t0, 'waited briefly first').toBeGreaterThanOrEqual(1500);
      expect(s.headers.get('retry-after')).toBe('2');
      expect(await s.json()).toEqual({ error: 'The search index is being loaded; try again in a few seconds' });
      const de = await fetch(`${base}/collector/api/suggest?q=kro`, { headers: { 'accept-language': 'de' } });
      expect(de.status).toBe(503);
      expect(de.headers.get('retry-after')).toBe('2');
      expect((await de.json() as { error: string }).error).toMatch(/^Der Suchindex wird geladen/);
      // Released while a search waits: it is answered whole.
      const waiting = fetch(`${base}/collector/api/search?query=kropotkin`);
      await new Promise((r) => setTimeout(r, 200));
      release();
      const answered = await waiting;
      expect(answered.status).toBe(200);
      expect(((await answered.json()) as { total_entries: number }).total_entries).toBe((expected[4] as { total_entries: number }).total_entries);
      await loading;
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
    } finally {
      release();
      await app.close();
    }
  }, 30_000);
});
