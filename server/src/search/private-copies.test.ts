// Issue 27, item 7: a private library's copy of an entry is searched, shown and counted only for the
// viewers who may see that library. The demo catalogue's private library (8, Archivio Operaio del Porto)
// holds copies of entries that public libraries hold too, with words and years of their own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, createServices, databaseTarget, type Services } from '../app.ts';
import { loadConfig } from '../config.ts';
import { importJsonl } from '../ingest/jsonl.ts';
import { APP_BACKENDS, dropTestDatabase, migratedTestDatabase } from '../test/backends.ts';
import { CSRF_HEADERS } from '../test/fixture.ts';

const DEMO = path.resolve(import.meta.dirname, '../../../demo/catalogue.jsonl');
const PRIVATE_LIBRARY = 8;
/** Words found only in library 8's copies, and the years only its copies have. */
const HIDDEN_QUERIES = ['"Linda Brent"', 'cholera epidemic', 'apprezzato', '"Marx stesso"', '"poor quarters"'];
const HIDDEN_YEARS = ['1968', '2022', '1962'];

interface SearchAnswer {
  total_entries: number;
  matches: { entry_id: number; title: { value: string }[]; date: { id: number }[]; data_sources: { library_id: number }[]; snippet?: unknown }[];
  facets: Record<string, { values: { id: string; count: number }[] }>;
}

describe.each(APP_BACKENDS)('private copies (%s)', (dialect) => {
  let app: FastifyInstance;
  let services: Services;
  let dir: string;
  let databaseUrl: string | undefined;
  const cookie: Record<'member' | 'superuser' | 'admin' | 'reader', string> = { member: '', superuser: '', admin: '', reader: '' };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-private-'));
    databaseUrl = dialect === 'postgres' ? await migratedTestDatabase('postgres') : undefined;
    const config = { ...loadConfig({}), dataDir: path.join(dir, 'data'), logLevel: 'silent', webDist: path.join(dir, 'no-web'), ...(databaseUrl ? { databaseUrl } : {}) };
    if (!config.databaseUrl) await migratedTestDatabase('sqlite', databaseTarget(config));
    services = await createServices(config);
    await importJsonl(DEMO, services);
    app = await buildApp(config, services);
    const a = services.accounts;
    const password = 'a long enough password';
    await a.createUser({ username: 'member', email: 'member@example.org', password, libraryIds: [PRIVATE_LIBRARY] });
    await a.createUser({ username: 'reader', email: 'reader@example.org', password, libraryIds: [1] });
    await a.createUser({ username: 'root', email: 'root@example.org', password, is_superuser: true });
    for (const [role, username] of [['member', 'member'], ['reader', 'reader'], ['superuser', 'root'], ['admin', 'root']] as const) {
      cookie[role] = `sessionid=${((await a.login(username, password)) as { token: string }).token}`;
    }
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    if (databaseUrl) dropTestDatabase(databaseUrl);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const search = async (query: string, who: keyof typeof cookie | null, extra = ''): Promise<SearchAnswer> => {
    const res = await app.inject({
      url: `/collector/api/search?query=${encodeURIComponent(query)}&exact=1${extra}`,
      headers: who ? { cookie: cookie[who] } : {},
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as SearchAnswer;
  };
  const setPublic = async (pub: boolean) => {
    const res = await app.inject({
      method: 'PUT', url: `/collector/api/admin/libraries/${PRIVATE_LIBRARY}`,
      headers: { ...CSRF_HEADERS, cookie: `${CSRF_HEADERS.cookie}; ${cookie.admin}` },
      payload: { name: 'Archivio Operaio del Porto', public: pub },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const years = (a: SearchAnswer) => a.facets.date.values.map((v) => v.id);
  const hiddenYearsIn = (a: SearchAnswer) => [...years(a), ...a.matches.flatMap((m) => m.date.map((d) => String(d.id)))].filter((y) => HIDDEN_YEARS.includes(y));

  const anonymousSeesNothingHidden = async () => {
    for (const q of [...HIDDEN_QUERIES, 'apprez*', 'title:ventre AND cholera']) {
      expect((await search(q, null)).total_entries, q).toBe(0);
      expect((await search(q, 'reader')).total_entries, q).toBe(0);
    }
    // The entries themselves are public (held by public libraries too): found by their titles, without the hidden years.
    for (const q of ['Incidents in the Life of a Slave Girl', 'Il ventre di Napoli', 'Il Capitale di Carlo Marx brevemente compendiato']) {
      const a = await search(`"${q}"`, null);
      expect(a.total_entries, q).toBeGreaterThan(0);
      expect(hiddenYearsIn(a), q).toEqual([]);
      expect(a.matches.flatMap((m) => m.data_sources.map((d) => d.library_id))).not.toContain(PRIVATE_LIBRARY);
    }
    // Other entries have these years in public copies: each year counts exactly one entry less than
    // for the library's member (the one whose only copy of that year is the private one).
    const hiddenTitles = ['Incidents in the Life of a Slave Girl', 'Il ventre di Napoli', 'Il Capitale di Carlo Marx brevemente compendiato'];
    const count = (a: SearchAnswer, y: string) => a.facets.date.values.find((v) => v.id === y)?.count ?? 0;
    for (const y of HIDDEN_YEARS) {
      const [anonymous, member] = [await search('', null, `&filter_date=${y}&page_size=100`), await search('', 'member', `&filter_date=${y}&page_size=100`)];
      expect(anonymous.total_entries, `filter_date=${y}`).toBe(member.total_entries - 1);
      expect(count(anonymous, y), `date facet ${y}`).toBe(count(member, y) - 1);
      expect(anonymous.matches.map((m) => m.title[0].value).filter((t) => hiddenTitles.includes(t))).toEqual([]);
      expect((await search(`date:${y}`, null)).total_entries, `date:${y}`).toBe(member.total_entries - 1);
      const whole = [await search('', null, '&page_size=1'), await search('', 'member', '&page_size=1')];
      expect(count(whole[0], y)).toBeLessThanOrEqual(count(whole[1], y));
    }
  };

  it('anonymous visitors and unaffiliated users find no word, year or copy of a private library', async () => {
    await anonymousSeesNothingHidden();
  });

  it('an affiliated user and a superuser find them, with the years of the private copies', async () => {
    for (const who of ['member', 'superuser'] as const) {
      for (const q of [...HIDDEN_QUERIES, 'apprez*', 'title:ventre AND cholera']) {
        const a = await search(q, who);
        expect(a.total_entries, `${who} ${q}`).toBe(1);
        expect(a.matches[0].data_sources.map((d) => d.library_id)).toContain(PRIVATE_LIBRARY);
      }
      const brent = await search('"Linda Brent"', who);
      expect(brent.matches[0].date.map((d) => d.id)).toContain(1968);
      expect(years(brent)).toContain('1968');
      expect((await search('', who, '&filter_date=2022')).matches.map((m) => m.title[0].value)).toContain('Il ventre di Napoli');
      expect((await search('date:1962 AND Cafiero', who)).total_entries).toBe(1);
    }
  });

  it('follows the library made public (found by everyone) and private again (gone)', async () => {
    await setPublic(true);
    expect((await search('"Linda Brent"', null)).total_entries).toBe(1);
    expect((await search('', null, '&filter_date=2022')).total_entries).toBeGreaterThan(0);
    await setPublic(false);
    await anonymousSeesNothingHidden();
    expect((await search('cholera epidemic', 'member')).total_entries).toBe(1);
  });

  it('a malformed filter value matches nothing (as a nonexistent id), not everything', async () => {
    const everything = (await search('', null)).total_entries;
    expect(everything).toBeGreaterThan(0);
    for (const bad of ['filter_date=abc', 'filter_library=x', 'filter_creator=-1', 'filter_download=everything', 'filter_aggregate=%25']) {
      const a = await search('', null, `&${bad}`);
      expect(a.total_entries, bad).toBe(0);
    }
    // A malformed value beside a good one: the good one still counts.
    expect((await search('', null, '&filter_library=x&filter_library=1')).total_entries).toBeGreaterThan(0);
  });
});
