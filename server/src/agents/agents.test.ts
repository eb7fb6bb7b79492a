import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_SEARCH_LIMIT, agentsResponseSchema, wikidataResponseSchema } from '@uc/shared';
import { fixtureLines, testApp, type TestApp } from '../test/fixture.ts';
import { startFakeWikidata, type FakeWikidata } from '../test/wikidata-fake.ts';
import { PLEASE_SEARCH, TOO_MANY } from './service.ts';
import { safeLink, WIKIDATA_MISSING, WIKIDATA_UNREACHABLE } from './wikidata.ts';

const CAP = AGENT_SEARCH_LIMIT + 5;
const extraLines = [
  // Two found authors share this entry: it counts once in `matches`.
  { type: 'entry', id: 13, title: 'Joint Work', authors: ['Errico Malatesta', 'Emma Goldman'], languages: ['en'], year: 1912, data_sources: [{ library_id: 1, identifier: 'a-13' }] },
  ...Array.from({ length: CAP }, (_, i) => ({
    type: 'entry', id: 100 + i, title: `Pamphlet ${i}`, authors: [`Capped Writer ${String(i).padStart(3, '0')}`], languages: ['en'], year: 1900,
    data_sources: [{ library_id: 2, identifier: `cap-${i}` }],
  })),
];

let wd: FakeWikidata;
let t: TestApp;
const agentId = (name: string) => t.services.db.sqlite.prepare('SELECT id FROM agents WHERE name = ?').pluck().get(name) as number;
beforeAll(async () => {
  wd = await startFakeWikidata();
  t = await testApp([...fixtureLines(), ...extraLines], { wikidataUrl: wd.url, wikidataTimeoutMs: 2000 });
  const db = t.services.db.sqlite;
  db.prepare("UPDATE agents SET wikidata_id = 'Q5752' WHERE name = 'Peter Kropotkin'").run();
  db.prepare("UPDATE agents SET wikidata_id = 'Q999999999' WHERE name = 'Emma Goldman'").run();
  // A variant name merged into Kropotkin, with no entries of its own.
  db.prepare("INSERT INTO agents (name, normalized_name, canonical_agent_id) VALUES ('Kropotkin, Pëtr', 'kropotkin, petr', ?)").run(agentId('Peter Kropotkin'));
});
afterAll(async () => {
  await t.close();
  await wd.close();
});

const get = (url: string) => t.app.inject(`/collector/api${url}`);
const search = async (q: string) => {
  const res = await get(`/agents?search=${encodeURIComponent(q)}`);
  expect(res.statusCode).toBe(200);
  return agentsResponseSchema.parse(res.json());
};

describe('GET /agents?search=', () => {
  it('asks for a search when the text is empty', async () => {
    for (const q of ['', '   ', '--']) expect(await search(q)).toEqual({ agents: [], matches: 0, total_agents: 0, warning: PLEASE_SEARCH, can_merge: false });
    expect(agentsResponseSchema.parse((await get('/agents')).json()).warning).toBe(PLEASE_SEARCH);
  });

  it('finds authors by every word, ignoring case and accents, with their visible entry counts', async () => {
    const r = await search('KROPOTKIN');
    expect(r.agents.map((a) => [a.name, a.canonical?.name ?? null, a.entries_count])).toEqual([
      ['Peter Kropotkin', null, 3],
      ['Kropotkin, Pëtr', 'Peter Kropotkin', 3],
    ]);
    expect(r.matches).toBe(3);
    expect(r.warning).toBeNull();
    expect(r.can_merge).toBe(false);
    expect((await search('magon')).agents.map((a) => a.name)).toEqual(['Ricardo Flores Magón']);
    expect((await search('Flores MAGÓN')).agents.map((a) => a.name)).toEqual(['Ricardo Flores Magón']);
    expect((await search('peter goldman')).agents).toEqual([]);
    expect((await search('%')).agents).toEqual([]);
  });

  it('shows a merged author with its canonical name and the canonical id for its entries', async () => {
    const [alias] = (await search('petr')).agents;
    expect(alias).toMatchObject({ name: 'Kropotkin, Pëtr', canonical: { id: agentId('Peter Kropotkin'), name: 'Peter Kropotkin' }, search_link_id: agentId('Peter Kropotkin'), entries_count: 3 });
  });

  it('counts each visible entry once in matches, and hides authors with no visible entry', async () => {
    const r = await search('m');
    const counts = Object.fromEntries(r.agents.map((a) => [a.name, a.entries_count]));
    expect(counts).toMatchObject({ 'Errico Malatesta': 2, 'Emma Goldman': 2, 'Ricardo Flores Magón': 1 });
    expect(r.matches).toBe(Object.values(counts).reduce((a, b) => a + b, 0) - 1);
    expect((await search('hidden author')).agents).toEqual([]);
    expect((await search('hidden author')).matches).toBe(0);
  });

  it('caps the list with a warning, most entries first, and still counts every match', async () => {
    const r = await search('capped writer');
    expect(r.agents).toHaveLength(AGENT_SEARCH_LIMIT);
    expect(r.total_agents).toBe(CAP);
    expect(r.matches).toBe(CAP);
    expect(r.warning).toBe(TOO_MANY);
    expect(r.agents[0].name).toBe('Capped Writer 000');
  });

  it('rejects a search that is too long', async () => {
    expect((await get(`/agents?search=${'a'.repeat(201)}`)).statusCode).toBe(400);
  });
});

describe('GET /agents/:id', () => {
  it('keeps the agent shape; merged agents carry their canonical', async () => {
    const id = agentId('Kropotkin, Pëtr');
    expect((await get(`/agents/${id}`)).json()).toEqual({
      agent: { id, name: 'Kropotkin, Pëtr', wikidata_id: null, canonical: { id: agentId('Peter Kropotkin'), name: 'Peter Kropotkin' }, search_link_id: agentId('Peter Kropotkin') },
    });
    expect((await get('/agents/0')).statusCode).toBe(400);
  });
});

describe('GET /agents/:id/wikidata/:language', () => {
  it('builds the card from wbgetentities: labels in the language, English fallback, statements in order', async () => {
    const res = await get(`/agents/${agentId('Peter Kropotkin')}/wikidata/it`);
    expect(res.statusCode).toBe(200);
    const card = wikidataResponseSchema.parse(res.json());
    expect(card).toMatchObject({
      wikidata_id: 'Q5752',
      name: 'Pëtr Kropotkin',
      desc: 'Russian anarchist, geographer and writer (1842–1921)',
      link: 'https://it.wikipedia.org/wiki/P%C3%ABtr_Alekseevi%C4%8D_Kropotkin',
    });
    expect(card.error).toBeUndefined();
    expect(card.statements.map((s) => [s.property, s.name, s.data_type, s.values])).toEqual([
      ['P18', 'immagine', 'commonsMedia', ['https://commons.wikimedia.org/w/thumb.php?width=300&f=Peter_Kropotkin_circa_1900.jpg']],
      ['P856', 'official website', 'url', ['https://kropotkin.example.org/', 'https://bad.example.org/a b', 'javascript:alert(1)']],
      ['P800', 'notable work', 'wikibase-item', ['Mutual Aid: A Factor of Evolution']],
      ['P19', 'luogo di nascita', 'wikibase-item', ['Mosca']],
      ['P569', 'data di nascita', 'time', ['1842-12-09']],
      ['P571', 'inception', 'time', ['-500']],
      ['P570', 'date of death', 'time', ['1921-02-08']],
      ['P214', 'VIAF cluster ID', 'external-id', ['https://viaf.org/viaf/66477850']],
      ['P1412', 'languages spoken, written or signed', 'wikibase-item', ['russo']],
    ]);
    // Links only for http(s) values without spaces.
    expect(card.statements.find((s) => s.property === 'P856')!.links).toEqual(['https://kropotkin.example.org/', null, null]);
    expect(card.statements.find((s) => s.property === 'P19')!.links).toEqual([null]);
    // English: English labels and the English article.
    const en = wikidataResponseSchema.parse((await get(`/agents/${agentId('Peter Kropotkin')}/wikidata/en`)).json());
    expect(en.name).toBe('Peter Kropotkin');
    expect(en.link).toBe('https://en.wikipedia.org/wiki/Peter_Kropotkin');
    expect(en.statements.find((s) => s.property === 'P19')!.values).toEqual(['Moscow']);
  });

  it('serves the card from the database cache for a week, then fetches it again', async () => {
    const url = `/agents/${agentId('Peter Kropotkin')}/wikidata/it`;
    const before = wd.requests.length;
    expect((await get(url)).json().name).toBe('Pëtr Kropotkin');
    expect(wd.requests.length).toBe(before);
    const weekAndMore = Date.now() - (7 * 24 * 3600 + 60) * 1000;
    t.services.db.sqlite.prepare("UPDATE wikidata_cache SET fetched_at = ? WHERE wikidata_id = 'Q5752' AND language = 'it'").run(weekAndMore);
    expect((await get(url)).json().name).toBe('Pëtr Kropotkin');
    expect(wd.requests.length).toBeGreaterThan(before);
    const fetched = t.services.db.sqlite.prepare("SELECT fetched_at FROM wikidata_cache WHERE wikidata_id = 'Q5752' AND language = 'it'").pluck().get() as number;
    expect(fetched).toBeGreaterThan(weekAndMore);
  });

  it('uses the canonical author’s identifier for a merged author', async () => {
    const card = wikidataResponseSchema.parse((await get(`/agents/${agentId('Kropotkin, Pëtr')}/wikidata/en`)).json());
    expect(card.wikidata_id).toBe('Q5752');
  });

  it('answers an empty card for an author without an identifier, without asking Wikidata', async () => {
    const before = wd.requests.length;
    expect((await get(`/agents/${agentId('Errico Malatesta')}/wikidata/en`)).json()).toEqual({ wikidata_id: null, name: 'Errico Malatesta', desc: null, link: null, statements: [] });
    expect(wd.requests.length).toBe(before);
  });

  it('says so when Wikidata does not know the identifier', async () => {
    const card = wikidataResponseSchema.parse((await get(`/agents/${agentId('Emma Goldman')}/wikidata/en`)).json());
    expect(card).toMatchObject({ wikidata_id: 'Q999999999', name: 'Emma Goldman', statements: [], error: WIKIDATA_MISSING, link: 'https://www.wikidata.org/wiki/Q999999999' });
  });

  it('rejects unknown authors and bad languages', async () => {
    expect((await get('/agents/999999/wikidata/en')).statusCode).toBe(404);
    expect((await get(`/agents/${agentId('Peter Kropotkin')}/wikidata/EN'`)).statusCode).toBe(400);
    expect((await get(`/agents/${agentId('Peter Kropotkin')}/wikidata/english`)).statusCode).toBe(400);
  });

  it('serves the old card when Wikidata fails after the week (and then backs off)', async () => {
    t.services.db.sqlite.prepare("UPDATE wikidata_cache SET fetched_at = 0 WHERE wikidata_id = 'Q5752' AND language = 'en'").run();
    wd.mode = 'fail';
    const card = wikidataResponseSchema.parse((await get(`/agents/${agentId('Peter Kropotkin')}/wikidata/en`)).json());
    expect(card.name).toBe('Peter Kropotkin');
    expect(card.error).toBeUndefined();
    // Not cached yet in German, Wikidata down: a card with an error the page can show.
    const before = wd.requests.length;
    const de = await get(`/agents/${agentId('Peter Kropotkin')}/wikidata/de`);
    expect(de.statusCode).toBe(200);
    expect(de.json()).toEqual({ wikidata_id: 'Q5752', name: 'Peter Kropotkin', desc: null, link: 'https://www.wikidata.org/wiki/Q5752', statements: [], error: WIKIDATA_UNREACHABLE });
    expect(wd.requests.length).toBe(before); // backing off after the failure
    wd.mode = 'ok';
  });
});

describe('Wikidata unreachable', () => {
  it('answers 200 with an error within the timeout when Wikidata does not answer', async () => {
    const slow = await startFakeWikidata();
    slow.mode = 'hang';
    const t2 = await testApp(undefined, { wikidataUrl: slow.url, wikidataTimeoutMs: 300 });
    try {
      t2.services.db.sqlite.prepare("UPDATE agents SET wikidata_id = 'Q5752' WHERE name = 'Peter Kropotkin'").run();
      const id = t2.services.db.sqlite.prepare("SELECT id FROM agents WHERE name = 'Peter Kropotkin'").pluck().get();
      const started = Date.now();
      const res = await t2.app.inject(`/collector/api/agents/${id}/wikidata/en`);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.statusCode).toBe(200);
      expect(res.json().error).toBe(WIKIDATA_UNREACHABLE);
      expect(t2.services.db.sqlite.prepare('SELECT count(*) FROM wikidata_cache').pluck().get()).toBe(0);
    } finally {
      await t2.close();
      await slow.close();
    }
  });

  it('accepts only http(s) links without spaces', () => {
    expect(safeLink('https://example.org/x?y=1')).toBe('https://example.org/x?y=1');
    expect(safeLink('HTTP://example.org')).toBe('HTTP://example.org');
    for (const bad of ['javascript:alert(1)', 'https://a b', 'ftp://example.org', ' https://example.org', 'https://x"onmouseover="y', 'data:text/html,x']) {
      expect(safeLink(bad)).toBeNull();
    }
  });
});
