// Curation follows the visibility rule (issue 27, item 7): a curator outside a private library neither
// lists its private-only entries and authors in the dashboards and duplicate suggestions, nor merges them
// or makes them translations (refused exactly as an unknown id), nor reads them in the change log, nor
// undoes the changes that name them. A curator of that library and a superuser curate them as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangesResponse, CurationReply, DuplicateGroup, ListingResponse } from '@uc/shared';
import { CSRF_HEADERS, fixtureLines, testApp, type TestApp } from '../test/fixture.ts';
import { loginCookie, TEST_PASSWORD } from '../libraryadmin/test-helpers.ts';
import { BACKENDS } from '../test/backends.ts';

const ds = (library_id: number, identifier: string) => ({ library_id, identifier, year_edition: 1900, downloads: [] });
const entry = (id: number, title: string, authors: string[], languages: string[], data_sources: object[], extra: object = {}) => ({
  type: 'entry', id, title, subtitle: null, authors, languages, year: 1900, aggregation_id: null, translation_of: null, data_sources, fulltext: null, ...extra,
});
// Library 3 of the fixture is private. Held only there: a translation of the public "Mutual Aid", a
// second "Mutual Aid" under a spelling of Kropotkin no public record uses, and the fixture's
// "Secret Private Work" by "Hidden Author".
const lines = () => [
  ...fixtureLines(),
  entry(30, 'Gegenseitige Hilfe', ['Peter Kropotkin'], ['de'], [ds(3, 'c-30')], { translation_of: 2 }),
  entry(31, 'Mutual Aid', ['Kropotkin, P.'], ['en'], [ds(3, 'c-31')]),
  entry(32, 'Conquest of Bread', ['Peter Kropotkin'], ['en'], [ds(1, 'a-32')]),
];
const SECRETS = ['Gegenseitige Hilfe', 'Kropotkin, P.', 'Secret Private Work', 'Hidden Author', 'Hidden Bundle'];

describe.each(BACKENDS)('curation privacy on %s', (dialect) => {
  let t: TestApp;
  const cookie: Record<string, string> = {};
  const id: Record<string, number> = {};

  beforeAll(async () => {
    t = await testApp(lines(), {}, dialect);
    const a = t.services.accounts;
    await a.createUser({ username: 'outsider', email: 'out@example.org', password: TEST_PASSWORD, can_merge: true });
    await a.createUser({ username: 'insider', email: 'in@example.org', password: TEST_PASSWORD, can_merge: true, libraryIds: [3] });
    await a.createUser({ username: 'root', email: 'root@example.org', password: TEST_PASSWORD, is_superuser: true, can_merge: true });
    for (const u of ['outsider', 'insider', 'root']) cookie[u] = await loginCookie(t, u);
    const s = t.services.db.sqlite;
    const entryOf = (identifier: string) => s.prepare('SELECT entry_id FROM data_sources WHERE identifier = ?').pluck().get(identifier) as number;
    const agentOf = (name: string) => s.prepare('SELECT id FROM agents WHERE name = ?').pluck().get(name) as number;
    Object.assign(id, {
      mutualAid: entryOf('a-2'), entraide: entryOf('b-3'), fields: entryOf('b-4'), secret: entryOf('c-5'), hilfe: entryOf('c-30'),
      privateAid: entryOf('c-31'), bread: entryOf('a-32'),
      kropotkin: agentOf('Peter Kropotkin'), privateSpelling: agentOf('Kropotkin, P.'), hidden: agentOf('Hidden Author'),
    });
  }, 60_000);
  afterAll(async () => t.close());

  async function get<T>(url: string, who: string): Promise<{ status: number; body: T }> {
    const res = await t.app.inject({ url: `/collector/api${url}`, headers: { cookie: cookie[who] } });
    return { status: res.statusCode, body: res.json() as T };
  }
  async function post<T = CurationReply & { error?: string }>(url: string, payload: unknown, who: string): Promise<{ status: number; body: T }> {
    const res = await t.app.inject({
      method: 'POST', url: `/collector/api${url}`, payload: payload as object,
      headers: { ...CSRF_HEADERS, ...(payload === undefined ? {} : { 'content-type': 'application/json' }), cookie: cookie[who] },
    });
    return { status: res.statusCode, body: res.json() as T };
  }
  const listing = async (type: string, who: string) => (await get<ListingResponse>(`/listing/${type}`, who)).body;
  const ids = (l: ListingResponse) => l.records.map((r) => r.id);
  const named = (body: unknown) => SECRETS.filter((s) => JSON.stringify(body).includes(s));
  /** The same refusal as for an id that names nothing. */
  async function refusedAsUnknown(url: string, body: (x: number) => unknown, hidden: number, kind: 'Entry' | 'Author') {
    const unknown = await post(url, body(999_999), 'outsider');
    const res = await post(url, body(hidden), 'outsider');
    expect(unknown.body.error).toBe(`${kind} 999999 does not exist`);
    expect(res).toEqual({ status: unknown.status, body: { ...unknown.body, error: `${kind} ${hidden} does not exist` } });
  }

  it('suggests duplicates among what each curator may see, counted over what they may see', async () => {
    const groups = async (kind: string, who: string) => (await get<{ groups: DuplicateGroup[] }>(`/curation/duplicates?kind=${kind}`, who)).body.groups;
    const aid = (g: DuplicateGroup[]) => g.find((x) => x.items.some((i) => i.id === id.mutualAid));
    expect(aid(await groups('entry', 'insider'))?.items.map((i) => i.id).sort()).toEqual([id.mutualAid, id.privateAid].sort());
    expect(aid(await groups('entry', 'root'))?.items.map((i) => i.id).sort()).toEqual([id.mutualAid, id.privateAid].sort());
    expect(aid(await groups('entry', 'outsider'))).toBeUndefined();
    // The records side by side name their holding libraries: the private one only to those who may see it.
    const privateName = t.services.db.sqlite.prepare('SELECT name FROM libraries WHERE id = 3').pluck().get() as string;
    expect(aid(await groups('entry', 'insider'))?.items.find((i) => i.id === id.privateAid)?.libraries).toEqual([privateName]);
    expect(JSON.stringify(await groups('entry', 'outsider'))).not.toContain(privateName);
    const kropotkin = (g: DuplicateGroup[]) => g.find((x) => x.key === 'kropotkin p');
    expect(kropotkin(await groups('author', 'insider'))?.items.map((i) => i.label).sort()).toEqual(['Kropotkin, P.', 'Peter Kropotkin']);
    const outside = await groups('author', 'outsider');
    expect(kropotkin(outside)).toBeUndefined();
    expect(named(outside)).toEqual([]);
  });

  it('lets the library\'s own curator and a superuser curate its private entries and authors', async () => {
    expect((await post('/merge/author', [{ id: id.kropotkin }, { id: id.privateSpelling }], 'insider')).body).toMatchObject({ success: 'Merged', error: null });
    const bundle = (await post<{ created: { id: number } }>('/create/aggregation', { value: 'Hidden Bundle' }, 'insider')).body.created.id;
    id.bundle = bundle;
    expect((await post('/set-aggregated', [{ id: bundle }, { id: id.secret }], 'insider')).body).toMatchObject({ success: 'Aggregation set!' });
    expect((await post('/set-translations', [{ id: id.mutualAid }, { id: id.privateAid }], 'root')).body).toMatchObject({ success: 'Translations set!' });
    for (const who of ['insider', 'root']) {
      expect(ids(await listing('translations', who))).toEqual(expect.arrayContaining([id.entraide, id.hilfe, id.privateAid]));
      expect(ids(await listing('merged-agents', who))).toContain(id.privateSpelling);
      expect((await listing('aggregations', who)).records.map((r) => r.aggregation_id)).toContain(bundle);
      expect(named((await get<ChangesResponse>('/changes', who)).body)).toEqual(expect.arrayContaining(['Hidden Bundle', 'Kropotkin, P.', 'Secret Private Work']));
    }
  });

  it('does not list private-only entries and authors to a curator outside the library', async () => {
    const translations = await listing('translations', 'outsider');
    expect(ids(translations)).toContain(id.entraide);
    expect(ids(translations)).not.toContain(id.hilfe);
    expect(ids(translations)).not.toContain(id.privateAid);
    for (const type of ['translations', 'merged-agents', 'merged-entries', 'aggregations', 'split-agents', 'changes']) {
      expect(named(await listing(type, 'outsider')), type).toEqual([]);
    }
  });

  it('refuses merging them or making them translations exactly as an unknown id, and changes nothing', async () => {
    // A public entry made a translation of a private one (by a superuser): the outsider sees no original.
    expect((await post('/revert/translations', { id: id.privateAid }, 'root')).body.success).toBe('Removed translations');
    expect((await post('/set-translations', [{ id: id.privateAid }, { id: id.fields }], 'root')).body.success).toBe('Translations set!');
    const before = t.services.db.sqlite.prepare('SELECT count(*) FROM changes').pluck().get();
    await refusedAsUnknown('/merge/entry', (x) => [{ id: id.mutualAid }, { id: x }], id.privateAid, 'Entry');
    await refusedAsUnknown('/merge/entry', (x) => [{ id: x }, { id: id.mutualAid }], id.secret, 'Entry');
    await refusedAsUnknown('/set-translations', (x) => [{ id: id.bread }, { id: x }], id.secret, 'Entry');
    await refusedAsUnknown('/set-translations', (x) => [{ id: x }, { id: id.bread }], id.hilfe, 'Entry');
    await refusedAsUnknown('/set-aggregated', (x) => [{ id: x }, { id: id.fields }], id.bundle, 'Entry');
    await refusedAsUnknown('/set-aggregated', (x) => [{ id: id.bread }, { id: x }], id.secret, 'Entry');
    await refusedAsUnknown('/merge/author', (x) => [{ id: id.kropotkin }, { id: x }], id.hidden, 'Author');
    await refusedAsUnknown('/merge/author', (x) => [{ id: id.kropotkin }, { id: x }], id.privateSpelling, 'Author');
    await refusedAsUnknown('/split-author', (x) => [{ id: id.kropotkin }, { id: x }], id.hidden, 'Author');
    await refusedAsUnknown('/revert/translations', (x) => ({ id: x }), id.hilfe, 'Entry');
    await refusedAsUnknown('/revert/merged-agents', (x) => ({ id: x }), id.privateSpelling, 'Author');
    // An author edit answers 404 for both.
    const unknown = await post(`/agents/999999`, { wikidata_id: 'Q1' }, 'outsider');
    expect(unknown.status).toBe(404);
    expect(await post(`/agents/${id.hidden}`, { wikidata_id: 'Q1' }, 'outsider')).toEqual(unknown);
    // A visible translation whose original is hidden is not made an original (that would name or move it),
    // and its link to that original is not the outsider's to remove.
    expect((await post('/set-translations', [{ id: id.fields }, { id: id.bread }], 'outsider')).body.error)
      .toBe('“Fields, Factories and Workshops” is a translation of an entry you cannot see, so it cannot have translations of its own');
    expect((await post('/revert/translations', { id: id.fields }, 'outsider')).body.error).toBe('Nothing to do');
    expect(ids(await listing('translations', 'outsider'))).not.toContain(id.fields);
    expect(t.services.db.sqlite.prepare('SELECT count(*) FROM changes').pluck().get()).toBe(before);
    expect((await post('/revert/translations', { id: id.fields }, 'root')).body.success).toBe('Removed translations');
  });

  it('keeps the change log of private entries from the outsider: no row, no name, no undo', async () => {
    const outside = (await get<ChangesResponse>('/changes', 'outsider')).body;
    expect(named(outside)).toEqual([]);
    expect(outside.users).not.toContain('insider');
    const inside = (await get<ChangesResponse>('/changes', 'insider')).body;
    expect(outside.total).toBeLessThan(inside.total);
    expect((await get<ChangesResponse>(`/changes?object_type=entry&object_id=${id.secret}`, 'outsider')).body.total).toBe(0);
    expect((await get<ChangesResponse>(`/changes?object_type=entry&object_id=${id.secret}`, 'insider')).body.total).toBe(1);
    // Undo of a change naming them: refused as an unknown change.
    const merge = inside.changes.find((c) => c.operation === 'add-merge-agent')!;
    const unknown = await post('/changes/999999/undo', undefined, 'outsider');
    expect(unknown.status).toBe(404);
    expect(await post(`/changes/${merge.id}/undo`, undefined, 'outsider')).toEqual(unknown);
    expect((await post(`/changes/${merge.id}/undo`, undefined, 'insider')).body).toMatchObject({ success: 'Undone' });
    // The outsider's own curation of public entries is logged and shown to them as before.
    const own = await post('/set-translations', [{ id: id.mutualAid }, { id: id.bread }], 'outsider');
    expect(own.body.success).toBe('Translations set!');
    expect((await get<ChangesResponse>('/changes', 'outsider')).body.changes[0]).toMatchObject({ id: own.body.change_id, can_undo: true });
  });
});
