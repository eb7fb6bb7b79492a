// Issue 27, item 7, beyond the search core: no other surface names, counts or betrays what only a private
// library holds. The demo's private library (8, Archivio Operaio del Porto) holds entries no public library
// holds ("Raskolnikow", a translation of "Преступление и наказание"; "Dei delitti e delle pene", the
// original of two public translations) and the only entries of three authors (Antonio Labriola, Friedrich
// Ludwig Weidig, Bertha von Suttner). Each surface is replayed over HTTP through the full app.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, createServices, databaseTarget, type Services } from '../app.ts';
import { loadConfig } from '../config.ts';
import { importJsonl } from '../ingest/jsonl.ts';
import { APP_BACKENDS, dropTestDatabase, migratedTestDatabase } from '../test/backends.ts';

const DEMO = path.resolve(import.meta.dirname, '../../../demo/catalogue.jsonl');
const PRIVATE_LIBRARY = 8;
/** Entries only library 8 holds, and authors only on such entries. */
const RASKOLNIKOW = 532;
const DEI_DELITTI = 164;
const HIDDEN_TITLES = ['Raskolnikow', 'Dei delitti e delle pene', 'Il Corsaro Nero', 'Woyzeck', 'Die Waffen nieder', 'Bugarkinje'];
const HIDDEN_AUTHORS = ['Antonio Labriola', 'Friedrich Ludwig Weidig', 'Bertha von Suttner'];
/** Words of library 8's copies only (descriptions) and of its name and addresses. */
const HIDDEN_WORDS = ['Linda Brent', 'cholera epidemic', 'apprezzato', 'Archivio Operaio', 'porto-archivio', 'AOP-00'];
const HIDDEN = [...HIDDEN_TITLES, ...HIDDEN_AUTHORS, ...HIDDEN_WORDS].map((s) => s.toLowerCase());
const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="A union catalogue" />
    <title>Union catalogue</title>
  </head>
  <body><div id="root"></div></body>
</html>
`;

interface SearchAnswer {
  total_entries: number;
  did_you_mean: string | null;
  matches: { entry_id: number; title: { value: string }[]; related?: { relation: string; entry_id: number; title: string } }[];
}

describe.each(APP_BACKENDS)('private libraries on every other surface (%s)', (dialect) => {
  let app: FastifyInstance;
  let services: Services;
  let dir: string;
  let databaseUrl: string | undefined;
  const cookie: Record<'member' | 'reader', string> = { member: '', reader: '' };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-surfaces-'));
    const web = path.join(dir, 'web');
    fs.mkdirSync(web);
    fs.writeFileSync(path.join(web, 'index.html'), TEMPLATE);
    databaseUrl = dialect === 'postgres' ? await migratedTestDatabase('postgres') : undefined;
    const config = { ...loadConfig({}), dataDir: path.join(dir, 'data'), logLevel: 'silent', webDist: web, publicUrl: 'https://shelves.example.org', ...(databaseUrl ? { databaseUrl } : {}) };
    if (!config.databaseUrl) await migratedTestDatabase('sqlite', databaseTarget(config));
    services = await createServices(config);
    await importJsonl(DEMO, services);
    app = await buildApp(config, services);
    const password = 'a long enough password';
    await services.accounts.createUser({ username: 'member', email: 'member@example.org', password, libraryIds: [PRIVATE_LIBRARY] });
    await services.accounts.createUser({ username: 'reader', email: 'reader@example.org', password, libraryIds: [1] });
    for (const who of ['member', 'reader'] as const) {
      cookie[who] = `sessionid=${((await services.accounts.login(who, password)) as { token: string }).token}`;
    }
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    if (databaseUrl) dropTestDatabase(databaseUrl);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = async (url: string, who: keyof typeof cookie | null = null) => {
    const res = await app.inject({ url, headers: who ? { cookie: cookie[who] } : {} });
    return { status: res.statusCode, body: res.body };
  };
  const search = async (query: string, who: keyof typeof cookie | null, extra = ''): Promise<SearchAnswer> => {
    const res = await get(`/collector/api/search?query=${encodeURIComponent(query)}${extra}`, who);
    expect(res.status, res.body).toBe(200);
    return JSON.parse(res.body) as SearchAnswer;
  };
  /** The hidden names in a body, leaving out what the visitor typed (the answer repeats the query). */
  const hiddenIn = (body: string, typed = '') => HIDDEN.filter((h) => body.toLowerCase().replaceAll(typed.toLowerCase(), '').includes(h));

  it('"Did you mean" never proposes a word only hidden entries hold (nor recognises one); the library\'s member gets it', async () => {
    // A misspelt public word next to the hidden one makes the correction find something, so the
    // correction of the hidden word would be shown.
    for (const [typed, hidden] of [['Raskolnikov OR Twistt', 'raskolnikow'], ['Labriolla OR Twistt', 'labriola'], ['Weidigg OR Twistt', 'weidig'], ['Sutner OR Twistt', 'suttner']]) {
      for (const who of [null, 'reader'] as const) {
        const answer = await search(typed, who);
        expect(answer.did_you_mean ?? '', `${typed} (${who ?? 'anonymous'})`).not.toContain(hidden);
        expect(answer.did_you_mean, `${typed} (${who ?? 'anonymous'})`).toBe(typed.replace('Twistt', 'twist'));
      }
      expect((await search(typed, 'member')).did_you_mean, typed).toContain(hidden);
    }
    // Alone, a misspelt hidden word is corrected for nobody else (the correction would find nothing anyway).
    expect((await search('Raskolnikov', null)).did_you_mean).toBeNull();
    expect((await search('Raskolnikov', 'member')).did_you_mean).toBe('raskolnikow');
  });

  it('translations=1 widens only from entries the viewer may see and names no hidden entry as the reason', async () => {
    // The private-only translation's title used to bring in its public original and siblings,
    // "Listed as the original of Raskolnikow".
    for (const who of [null, 'reader'] as const) {
      const raskolnikow = await search('Raskolnikow', who, '&translations=1');
      expect(raskolnikow.total_entries).toBe(0);
      // A public translation of the private-only original: no sibling listed "as a translation of Dei delitti e delle pene".
      const delits = await search('délits', who, '&translations=1');
      expect(delits.matches.map((m) => m.entry_id)).toEqual([548]);
      for (const m of [...delits.matches, ...(await search('Dostoevsky', who, '&translations=1')).matches]) {
        expect([RASKOLNIKOW, DEI_DELITTI]).not.toContain(m.related?.entry_id);
        expect(hiddenIn(JSON.stringify(m))).toEqual([]);
      }
    }
    const member = await search('Raskolnikow', 'member', '&translations=1');
    expect(member.matches.map((m) => m.entry_id)).toContain(RASKOLNIKOW);
    expect(member.matches.find((m) => m.entry_id === 350)?.related).toEqual({ relation: 'original_of', entry_id: RASKOLNIKOW, title: 'Raskolnikow' });
    const delits = await search('délits', 'member', '&translations=1');
    expect(delits.matches.find((m) => m.entry_id === DEI_DELITTI)?.related?.relation).toBe('original_of');
  });

  it('suggestions, author lookups and author pages leave out hidden entries and their only authors', async () => {
    const agentId = (name: string) => Number(services.db.sqlite.prepare('SELECT id FROM agents WHERE name = ?').pluck().get(name));
    for (const typed of ['Rask', 'Raskolnikow', 'Dei deli', 'Corsaro', 'Woyz', 'Labri', 'Weidi', 'Suttn', 'Bertha von', 'apprez', 'cholera', 'Linda Bre']) {
      for (const who of [null, 'reader'] as const) {
        const res = await get(`/collector/api/suggest?q=${encodeURIComponent(typed)}`, who);
        expect(res.status).toBe(200);
        expect(hiddenIn(res.body), typed).toEqual([]);
      }
    }
    expect((await get('/collector/api/suggest?q=Raskol', 'member')).body).toContain('Raskolnikow');
    expect((await get('/collector/api/suggest?q=Labriol', 'member')).body).toContain('Antonio Labriola');
    for (const name of HIDDEN_AUTHORS) {
      const found = await get(`/collector/api/agents?search=${encodeURIComponent(name)}`);
      expect(JSON.parse(found.body).agents, name).toEqual([]);
      const id = agentId(name);
      expect((await get(`/collector/api/agents/${id}`)).status, name).toBe(404);
      expect((await get(`/collector/api/agents/${id}/wikidata/en`)).status, name).toBe(404);
      expect((await search(`creator:${id}`, null)).total_entries, name).toBe(0);
      expect((await get(`/collector/api/agents/${id}`, 'member')).status, name).toBe(200);
    }
    // An author on public and hidden entries counts the public ones only (Beccaria: two translations, not the original).
    const beccaria = JSON.parse((await get('/collector/api/agents?search=Beccaria')).body) as { agents: { entries_count: number }[] };
    expect(beccaria.agents.map((a) => a.entries_count)).toEqual([2]);
    const member = JSON.parse((await get('/collector/api/agents?search=Beccaria', 'member')).body) as { agents: { entries_count: number }[] };
    expect(member.agents.map((a) => a.entries_count)).toEqual([3]);
  });

  it('entry pages, citations, feeds, OPDS, sitemaps and OAI-PMH hold nothing of the private library', async () => {
    for (const id of [RASKOLNIKOW, DEI_DELITTI]) {
      for (const url of [`/collector/api/entry/${id}`, `/collector/api/entry/${id}/cite?format=bibtex`, `/entry/${id}`]) {
        const res = await get(url);
        expect(res.status, url).toBe(404);
        expect(hiddenIn(res.body), url).toEqual([]);
      }
      expect((await get(`/collector/api/entry/${id}`, 'member')).status).toBe(200);
    }
    // Public entries related to hidden ones (original, translations, copies of library 8) as pages and data.
    for (const id of [350, 548, 549, 102, 191, 192]) {
      for (const url of [`/collector/api/entry/${id}`, `/collector/api/entry/${id}/cite?format=bibtex`, `/collector/api/entry/${id}/cite?format=ris`, `/entry/${id}`]) {
        const res = await get(url);
        expect(res.status, url).toBe(200);
        expect(hiddenIn(res.body), url).toEqual([]);
      }
    }
    const privateCopy = Number(services.db.sqlite.prepare(`SELECT d.id FROM data_sources d JOIN sites s ON s.id = d.site_id
      WHERE s.library_id = ? ORDER BY d.id LIMIT 1`).pluck().get(PRIVATE_LIBRARY));
    for (const url of [`/collector/api/full-text/${privateCopy}`, `/collector/api/download/${privateCopy}.pdf`, `/collector/api/file/${privateCopy}/a.png`]) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(res.body, url).toBe((await get(url.replace(String(privateCopy), '99999999'))).body);
    }
    const listings = ['/feed.atom', '/opds', '/opds/latest', '/opds/libraries', '/opds/languages', '/opds/language/de', '/opds/language/it', '/opds/language/hr',
      '/sitemap.xml', '/sitemap-1.xml', '/robots.txt', '/oai?verb=ListRecords&metadataPrefix=oai_dc', '/oai?verb=ListSets',
      '/oai?verb=ListIdentifiers&metadataPrefix=oai_dc', '/collector/api/libraries', '/collector/api/general', '/collector/api/latest?page_size=100',
      '/collector/api/search?query=&page_size=100&sort_by=datestamp', '/collector/api/search?query=&page_size=100&sort_by=title_asc'];
    for (const url of listings) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(hiddenIn(res.body), url).toEqual([]);
    }
    // The private library itself answers as a library that does not exist.
    for (const url of [`/opds/library/${PRIVATE_LIBRARY}`, `/collector/api/libraries/${PRIVATE_LIBRARY}`, `/collector/api/libraries/${PRIVATE_LIBRARY}/logo`]) {
      expect(await get(url), url).toEqual(await get(url.replace(`/${PRIVATE_LIBRARY}`, '/9999')));
    }
    const record = await get(`/oai?verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(`oai:shelves.example.org:${DEI_DELITTI}`)}`);
    expect(hiddenIn(record.body)).toEqual([]);
  });
});
