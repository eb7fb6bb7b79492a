// Authors on each back end: lookups, the author search's SQL, THE author-resolution rule and the
// Wikidata card cache (agents.test.ts checks the routes on the full app).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { startFakeWikidata, type FakeWikidata } from '../test/wikidata-fake.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { AgentService, type CreatorCounter } from './service.ts';
import { AuthorResolver } from './resolve.ts';
import { WikidataService } from './wikidata.ts';

let wd: FakeWikidata;
beforeAll(async () => {
  wd = await startFakeWikidata();
});
afterAll(async () => {
  await wd.close();
  dropTestDatabases();
});

/** Every found author has as many visible entries as its id's last digit. */
const counter: CreatorCounter = {
  countVisible: (_name, values) => ({ counts: new Map(values.map((v) => [v, Number(v) % 10])), total: values.length }),
};

describe.each(BACKENDS)('agents on %s', (dialect) => {
  let db: Db;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    db = openDatabase(await migratedTestDatabase(dialect));
    const s = db.sqlite;
    const agent = s.prepare('INSERT INTO agents (name, normalized_name, wikidata_id, canonical_agent_id) VALUES (?, ?, ?, ?)');
    ids.kropotkin = Number(agent.run('Peter Kropotkin', 'peter kropotkin', 'Q5752', null).lastInsertRowid);
    ids.variant = Number(agent.run('Kropotkin, Pëtr', 'kropotkin, petr', null, ids.kropotkin).lastInsertRowid);
    ids.pair = Number(agent.run('Marx and Engels', 'marx and engels', null, null).lastInsertRowid);
    ids.marx = Number(agent.run('Karl Marx', 'karl marx', null, null).lastInsertRowid);
    ids.engels = Number(agent.run('Friedrich Engels', 'friedrich engels', null, null).lastInsertRowid);
    s.prepare('INSERT INTO agent_children (agent_id, child_id, position) VALUES (?, ?, ?)').run(ids.pair, ids.marx, 0);
    s.prepare('INSERT INTO agent_children (agent_id, child_id, position) VALUES (?, ?, ?)').run(ids.pair, ids.engels, 1);
    const entry = s.prepare('INSERT INTO entries (title, grouping_key) VALUES (?, ?)');
    ids.bread = Number(entry.run('The Conquest of Bread', 'k1').lastInsertRowid);
    ids.manifesto = Number(entry.run('Manifesto', 'k2').lastInsertRowid);
    const by = s.prepare('INSERT INTO entry_agents (entry_id, agent_id, position) VALUES (?, ?, ?)');
    by.run(ids.bread, ids.variant, 0);
    by.run(ids.manifesto, ids.pair, 0);
    by.run(ids.manifesto, ids.engels, 1);
  });
  afterAll(async () => {
    await db.close();
  });

  it('looks authors up by id and by ids, with the canonical author and its Wikidata id', () => {
    const agents = new AgentService(db);
    expect(agents.get(ids.variant)).toMatchObject({ name: 'Kropotkin, Pëtr', canonical: { id: ids.kropotkin, name: 'Peter Kropotkin' }, search_link_id: ids.kropotkin });
    expect(agents.wikidataIdOf(ids.variant)).toEqual({ found: true, wikidataId: 'Q5752' });
    expect(agents.get(9999)).toBeNull();
    expect(agents.names([ids.marx, ids.engels, 9999])).toEqual(new Map([[ids.marx, 'Karl Marx'], [ids.engels, 'Friedrich Engels']]));
  });

  it('searches names word by word, folded (case, accents)', () => {
    const agents = new AgentService(db);
    expect(agents.search('KROPOTKIN', ANONYMOUS, counter).agents.map((a) => a.name).sort()).toEqual(['Kropotkin, Pëtr', 'Peter Kropotkin']);
    expect(agents.search('engels marx', ANONYMOUS, counter).agents.map((a) => a.name)).toEqual(['Marx and Engels']);
    expect(agents.search('PËTR', ANONYMOUS, counter).agents.map((a) => a.name)).toEqual(['Kropotkin, Pëtr']);
    expect(agents.search('marxist', ANONYMOUS, counter).agents).toEqual([]);
  });

  it('resolves an entry\'s authors: merged ones to their canonical, split ones to their parts, each once', () => {
    const resolver = new AuthorResolver(db);
    const got = resolver.resolve([ids.bread, ids.manifesto, 9999]);
    expect(got.get(ids.bread)?.shown).toEqual([{ id: ids.kropotkin, value: 'Peter Kropotkin' }]);
    expect(got.get(ids.manifesto)?.shown).toEqual([{ id: ids.marx, value: 'Karl Marx' }, { id: ids.engels, value: 'Friedrich Engels' }]);
    expect(got.get(ids.manifesto)?.keys.sort((a, b) => a - b)).toEqual([ids.pair, ids.marx, ids.engels].sort((a, b) => a - b));
    expect(got.has(9999)).toBe(false);
    expect(resolver.canonicalId(ids.variant)).toBe(ids.kropotkin);
    expect(resolver.canonicalId(9999)).toBeNull();
  });

  it('keeps fetched Wikidata cards in the database for the cache period', async () => {
    let now = 1_000_000;
    const wikidata = new WikidataService(db, { wikidataUrl: wd.url, wikidataTimeoutMs: 2000, wikidataCacheSeconds: 60 }, () => now);
    const before = wd.requests.length;
    const card = await wikidata.card('Q5752', 'en');
    expect(card).toMatchObject({ name: 'Peter Kropotkin', link: 'https://en.wikipedia.org/wiki/Peter_Kropotkin' });
    // Another process (a new service on the same database) answers from the cache.
    expect(await new WikidataService(db, { wikidataUrl: wd.url, wikidataTimeoutMs: 2000, wikidataCacheSeconds: 60 }, () => now).card('Q5752', 'en')).toEqual(card);
    const fetched = wd.requests.length - before;
    expect(fetched).toBeGreaterThan(0);
    now += 61_000;
    await wikidata.card('Q5752', 'en');
    expect(wd.requests.length - before).toBeGreaterThan(fetched);
    expect(db.sqlite.prepare('SELECT count(*) FROM wikidata_cache WHERE wikidata_id = ?').pluck().get('Q5752')).toBe(1);
  });
});
