// Curation through the API as each role: every operation, its refusals, its effect on search, facets,
// entry pages and counts, the dashboards' listings, revert, and the change log with undo.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangesResponse, CurationReply, Entry, ListingResponse, SearchResponse } from '@uc/shared';
import { CSRF_HEADERS, fixtureLines, testApp, type TestApp } from '../test/fixture.ts';
import { loginCookie, TEST_PASSWORD } from '../libraryadmin/test-helpers.ts';
import { personKey, titleKey } from './duplicates.ts';
import { BACKENDS } from '../test/backends.ts';

const ds = (library_id: number, identifier: string) => ({ library_id, identifier, year_edition: 1900, downloads: [] });
const entry = (id: number, title: string, authors: string[], languages: string[], data_sources: object[], extra: object = {}) => ({
  type: 'entry', id, title, subtitle: null, authors, languages, year: 1900, aggregation_id: null, translation_of: null, data_sources, fulltext: null, ...extra,
});
/** The test catalogue plus what curators fix: spellings, a work held twice, an untied translation, a joint author. */
const lines = () => [
  ...fixtureLines(),
  entry(20, 'Conquest of Bread, The', ['Kropotkin, Peter'], ['en'], [ds(1, 'a-20')]),
  entry(21, 'The Conquest of Bread', ['Peter Kropotkin'], ['en'], [ds(2, 'b-21')]),
  entry(22, 'La conquista del pane', ['Пётр Кропоткин'], ['it'], [ds(1, 'a-22')]),
  entry(23, 'Letters on Order', ['Ada Writer & Bo Writer'], ['en'], [ds(1, 'a-23')]),
  entry(24, 'Ada Alone', ['Ada Writer'], ['en'], [ds(2, 'b-24')]),
  entry(25, 'Bulletin no. 3', [], ['en'], [ds(1, 'a-25')]),
];

describe.each(BACKENDS)('curation routes on %s', (dialect) => {
  let t: TestApp;
  const cookie: Record<string, string> = {};

  beforeAll(async () => {
    t = await testApp(lines(), {}, dialect);
    const a = t.services.accounts;
    await a.createUser({ username: 'reader', email: 'reader@example.org', password: TEST_PASSWORD });
    await a.createUser({ username: 'reader2', email: 'reader2@example.org', password: TEST_PASSWORD });
    await a.createUser({ username: 'curator', email: 'curator@example.org', password: TEST_PASSWORD, can_merge: true });
    await a.createUser({ username: 'librarian', email: 'lib@example.org', password: TEST_PASSWORD, library_admin: true, libraryIds: [1] });
    for (const u of ['reader', 'reader2', 'curator', 'librarian']) cookie[u] = await loginCookie(t, u);
  }, 60_000);
  afterAll(async () => t.close());

  async function get<T>(url: string, who?: string): Promise<{ status: number; body: T }> {
    const res = await t.app.inject({ url: `/collector/api${url}`, headers: who ? { cookie: cookie[who] } : {} });
    return { status: res.statusCode, body: res.json() as T };
  }
  async function post<T = CurationReply & { error?: string }>(url: string, payload: unknown, who?: string): Promise<{ status: number; body: T }> {
    const res = await t.app.inject({
      method: 'POST', url: `/collector/api${url}`, payload: payload as object,
      headers: { ...CSRF_HEADERS, 'content-type': 'application/json', ...(who ? { cookie: cookie[who] } : {}) },
    });
    return { status: res.statusCode, body: res.json() as T };
  }
  const search = async (q: string, who?: string) => (await get<SearchResponse>(`/search?page_size=100&${q}`, who)).body;
  const titles = (r: SearchResponse) => r.matches.map((m) => m.title[0].value);
  async function entryId(title: string): Promise<number> {
    const r = await search(`query=${encodeURIComponent(`title:"${title}"`)}`, 'curator');
    const m = r.matches.find((x) => x.title[0].value === title);
    if (!m) throw new Error(`no entry ${title}`);
    return m.entry_id;
  }
  function agentId(name: string): number {
    return t.services.db.sqlite.prepare('SELECT id FROM agents WHERE name = ?').pluck().get(name) as number;
  }

  describe('who may curate', () => {
    it('refuses anonymous callers (401) and users without the merge right (403), and changes nothing', async () => {
      const body = [{ id: agentId('Peter Kropotkin') }, { id: agentId('Kropotkin, Peter') }];
      expect((await post('/merge/author', body)).status).toBe(401);
      expect((await post('/merge/author', body, 'reader')).status).toBe(403);
      expect((await post('/create/agent', { value: 'Someone' }, 'reader')).status).toBe(403);
      expect((await post(`/agents/${agentId('Peter Kropotkin')}`, { wikidata_id: 'Q5682' }, 'reader')).status).toBe(403);
      expect((await get('/listing/merged-agents', 'reader')).status).toBe(403);
      expect(t.services.db.sqlite.prepare('SELECT count(*) FROM agents WHERE canonical_agent_id IS NOT NULL').pluck().get()).toBe(0);
    });

    it('tells the UI the truth in the search answer', async () => {
      expect(await search('')).toMatchObject({ can_merge: false, can_set_exclusions: false });
      expect(await search('', 'reader')).toMatchObject({ can_merge: false, can_set_exclusions: true });
      expect(await search('', 'curator')).toMatchObject({ can_merge: true, can_set_exclusions: true });
      expect(await search('', 'librarian')).toMatchObject({ can_merge: true, can_set_exclusions: true });
    });
  });

  describe('merging authors', () => {
    it('refuses self-merges and unknown ids the spec\'s way (200 with error), wrong bodies with a 400', async () => {
      const k = agentId('Peter Kropotkin');
      expect((await post('/merge/author', [{ id: k }, { id: k }], 'curator')).body.error).toBe('An author cannot be merged into itself');
      expect((await post('/merge/author', [{ id: k }, { id: 999999 }], 'curator'))).toMatchObject({ status: 200, body: { error: 'Author 999999 does not exist' } });
      expect((await post('/merge/author', [{ id: k }], 'curator'))).toMatchObject({ status: 200, body: { error: expect.stringMatching(/at least one other item/) } });
      expect((await post('/merge/author', { id: k }, 'curator')).status).toBe(400);
      expect((await post('/merge/publisher', [{ id: k }, { id: 2 }], 'curator')).status).toBe(400);
    });

    it('shows merged authors as their canonical in cards, facets and creator: searches, at once', async () => {
      const canonical = agentId('Peter Kropotkin');
      const alias = agentId('Kropotkin, Peter');
      const cyrillic = agentId('Пётр Кропоткин');
      const before = await search(`query=creator:${canonical}`);
      const res = await post('/merge/author', [{ id: canonical, label: 'Peter Kropotkin' }, { id: alias }, { id: String(cyrillic) }], 'curator');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: 'Merged', error: null, main_id: canonical, other_ids: [alias, cyrillic], username: 'curator' });
      const after = await search(`query=creator:${canonical}`);
      expect(after.total_entries).toBe(before.total_entries + 2);
      expect(titles(after)).toEqual(expect.arrayContaining(['Conquest of Bread, The', 'La conquista del pane']));
      // The alias's own id finds the same entries; facets count one author.
      expect((await search(`query=creator:${alias}`)).total_entries).toBe(after.total_entries);
      const facet = (await search('query=bread')).facets.creator.values;
      expect(facet).toEqual([expect.objectContaining({ id: String(canonical), term: 'Peter Kropotkin', count: 2 })]);
      const card = (await search('query=conquista')).matches[0];
      expect(card.creator).toEqual([{ id: canonical, value: 'Peter Kropotkin' }]);
      // The author overview names the canonical for the alias.
      const agent = (await get<{ agent: { canonical: string; search_link_id: number } }>(`/agents/${alias}`)).body.agent;
      expect(agent).toMatchObject({ canonical: { id: canonical, name: 'Peter Kropotkin' }, search_link_id: canonical });
    });

    it('follows a merged canonical to its own canonical and answers Nothing to do for a repeat', async () => {
      const canonical = agentId('Peter Kropotkin');
      const alias = agentId('Kropotkin, Peter');
      const repeat = await post('/merge/author', [{ id: alias }, { id: canonical }], 'curator');
      expect(repeat).toMatchObject({ status: 200, body: { error: 'Nothing to do: these authors are merged already' } });
    });

    it('lists the merge on the dashboard, and Remove (revert) undoes it', async () => {
      const listing = (await get<ListingResponse>('/listing/merged-agents', 'curator')).body;
      expect(listing.fields.map((f) => f.label)).toEqual(['Canonical Name', 'Canonical ID', 'Name', 'ID']);
      const row = listing.records.find((r) => r.name === 'Пётр Кропоткин')!;
      expect(row).toMatchObject({ canonical_name: 'Peter Kropotkin', revert: { id: agentId('Пётр Кропоткин') } });
      const res = await post('/revert/merged-agents', row.revert, 'curator');
      expect(res.body).toMatchObject({ success: 'Removed merge' });
      const card = (await search('query=conquista')).matches[0];
      expect(card.creator[0].value).toBe('Пётр Кропоткин');
      expect((await post('/revert/merged-agents', row.revert, 'curator')).body.error).toBe('Nothing to do');
    });
  });

  describe('merging entries', () => {
    it('hides the merged entry, shows its holdings under the canonical, and redirects its page', async () => {
      const main = await entryId('The Conquest of Bread');
      const other = await entryId('Conquest of Bread, The');
      const total = (await search('')).total_entries;
      const res = await post('/merge/entry', [{ id: main }, { id: other }], 'curator');
      expect(res.body.success).toBe('Merged');
      const r = await search('');
      expect(r.total_entries).toBe(total - 1);
      const bread = await search('query=bread');
      expect(bread.matches.map((m) => m.entry_id)).toEqual([main]);
      expect(bread.matches[0].data_sources.map((d) => d.library_id).sort()).toEqual([1, 2]);
      const page = (await get<Entry>(`/entry/${other}`)).body;
      expect(page.id).toBe(main);
      expect(page.data_sources).toHaveLength(2);
    });

    it('refuses self-merges and merging an entry with its own translation', async () => {
      const main = await entryId('The Conquest of Bread');
      expect((await post('/merge/entry', [{ id: main }, { id: main }], 'curator')).body.error).toBe('An entry cannot be merged into itself');
      const mutual = await entryId('Mutual Aid');
      const entraide = await entryId("L'Entraide");
      expect((await post('/merge/entry', [{ id: mutual }, { id: entraide }], 'curator')).body.error).toMatch(/is a translation of/);
    });

    it('survives a re-import of the same records', async () => {
      const { importJsonl } = await import('../ingest/jsonl.ts');
      const { writeFixture } = await import('../test/fixture.ts');
      await importJsonl(writeFixture(t.dir, lines()), t.services);
      const main = await entryId('The Conquest of Bread');
      expect((await search('query=bread')).matches.map((m) => m.entry_id)).toEqual([main]);
    });
  });

  describe('translations', () => {
    it('marks the original and the translation in the translate facet and on the entry page', async () => {
      const original = await entryId('The Conquest of Bread');
      const translation = await entryId('La conquista del pane');
      expect((await post('/set-translations', [{ id: translation }, { id: translation }], 'curator')).body.error).toBe('An entry cannot be a translation of itself');
      const res = await post('/set-translations', [{ id: original }, { id: translation }], 'curator');
      expect(res.body.success).toBe('Translations set!');
      expect((await search('query=conquista')).matches[0].translate.map((x) => x.id)).toEqual(['translation']);
      expect((await search('query=bread')).matches[0].translate.map((x) => x.id)).toEqual(['translated']);
      const page = (await get<Entry>(`/entry/${translation}`)).body;
      expect(page.original_entry?.id).toBe(original);
    });

    it('sets translations of a translation on the original (no chains, no cycles)', async () => {
      const original = await entryId('The Conquest of Bread');
      const translation = await entryId('La conquista del pane');
      const cycle = await post('/set-translations', [{ id: translation }, { id: original }], 'curator');
      expect(cycle.status).toBe(200);
      expect(cycle.body.error).toBe('An entry cannot be a translation of itself');
    });
  });

  describe('aggregations', () => {
    it('creates an aggregation, fills it in order, and the aggregate facet follows', async () => {
      const created = await post<{ created: { id: number; value: string; type: string } }>('/create/aggregation', { value: 'Bulletin Collection' }, 'curator');
      expect(created.body.created).toMatchObject({ value: 'Bulletin Collection', type: 'aggregation' });
      const agg = created.body.created.id;
      const issue = await entryId('Bulletin no. 3');
      const letters = await entryId('Letters on Order');
      expect((await post('/set-aggregated', [{ id: agg }, { id: agg }], 'curator')).body.error).toBe('An aggregation cannot contain itself');
      const res = await post('/set-aggregated', [{ id: agg }, { id: letters, position: 2 }, { id: issue, position: 1 }], 'curator');
      expect(res.body.success).toBe('Aggregation set!');
      // The new aggregation is visible through the libraries holding its parts, and lists them in order.
      const page = (await get<Entry>(`/entry/${agg}`)).body;
      expect(page.aggregated.map((e) => e.title[0].value)).toEqual(['Bulletin no. 3', 'Letters on Order']);
      expect((await search(`query=aggregate:${agg}`)).total_entries).toBe(2);
      expect(titles(await search('query=aggregate:aggregation'))).toContain('Bulletin Collection');
      // It follows its parts: a new holding of a part in another library makes it visible there too.
      expect(titles(await search('query=library:2 AND aggregate:aggregation'))).not.toContain('Bulletin Collection');
      const { importJsonl } = await import('../ingest/jsonl.ts');
      const { writeFixture } = await import('../test/fixture.ts');
      await importJsonl(writeFixture(t.dir, [...lines(), entry(26, 'Bulletin no. 3', [], ['en'], [ds(2, 'b-26')])]), t.services);
      expect(titles(await search('query=library:2 AND aggregate:aggregation'))).toContain('Bulletin Collection');
      // An aggregation cannot contain what contains it.
      const sub = (await post<{ created: { id: number } }>('/create/aggregation', { value: 'Outer' }, 'curator')).body.created.id;
      await post('/set-aggregated', [{ id: sub }, { id: agg }], 'curator');
      expect((await post('/set-aggregated', [{ id: agg }, { id: sub }], 'curator')).body.error).toMatch(/an aggregation cannot contain itself/);

      // The dashboard removes one item at a time; a body naming only a row's id (the item, as the anchor's
      // dashboard sends it) is refused and empties nothing, even when that item is itself an aggregation.
      const rows = (await get<ListingResponse>('/listing/aggregations', 'curator')).body.records as { id: number; aggregation_id: number; revert: { id: number; item: number } }[];
      const letterRow = rows.find((r) => r.id === letters && r.aggregation_id === agg)!;
      expect(letterRow.revert).toEqual({ id: agg, item: letters });
      const refused = await post('/revert/aggregations', { id: agg }, 'curator');
      expect(refused.body.error).toMatch(/Name the item/);
      expect((await get<Entry>(`/entry/${agg}`)).body.aggregated.map((e) => e.title[0].value)).toEqual(['Bulletin no. 3', 'Letters on Order']);
      expect((await post('/revert/aggregations', letterRow.revert, 'curator')).body).toMatchObject({ success: 'Removed', error: null });
      expect((await get<Entry>(`/entry/${agg}`)).body.aggregated.map((e) => e.title[0].value)).toEqual(['Bulletin no. 3']);
    });
  });

  describe('splitting an author', () => {
    it('shows the parts instead of the joint name, each counting the entry', async () => {
      const joint = agentId('Ada Writer & Bo Writer');
      const bo = (await post<{ created: { id: number } }>('/create/agent', { value: 'Bo Writer' }, 'curator')).body.created.id;
      const ada = (await post<{ created: { id: number } }>('/create/agent', { value: 'Ada Writer' }, 'curator')).body.created.id;
      expect(ada).toBe(agentId('Ada Writer')); // an existing name is found, not created twice
      expect((await post('/split-author', [{ id: joint }, { id: joint }], 'curator')).body.error).toBe('An author cannot be split into itself');
      expect((await post('/split-author', [{ id: joint }, { id: ada }, { id: bo }], 'curator')).body.success).toBe('Done');
      const card = (await search('query=letters')).matches[0];
      expect(card.creator.map((c) => c.value)).toEqual(['Ada Writer', 'Bo Writer']);
      expect((await search(`query=creator:${ada}`)).total_entries).toBe(2);
      expect((await search(`query=creator:${bo}`)).total_entries).toBe(1);
      expect((await get<ListingResponse>('/listing/splat-agents', 'curator')).body.records).toEqual([
        expect.objectContaining({ name: 'Ada Writer & Bo Writer', splat: 'Ada Writer | Bo Writer' }),
      ]);
    });
  });

  describe('author edits', () => {
    it('stores a well-formed Wikidata id, refuses a malformed one, and clears on empty', async () => {
      const id = agentId('Errico Malatesta');
      // A typing mistake is answered the spec's way: 200 with the reason in `error`, nothing stored.
      expect(await post(`/agents/${id}`, { wikidata_id: 'Malatesta' }, 'curator')).toMatchObject({ status: 200, body: { error: expect.stringMatching(/wikidata_id/) } });
      expect((await post<{ agent: { wikidata_id: string } }>(`/agents/${id}`, { wikidata_id: ' Q312781 ', name: 'ignored' }, 'curator')).body.agent.wikidata_id).toBe('Q312781');
      expect((await get<{ agent: { wikidata_id: string | null } }>(`/agents/${id}`)).body.agent.wikidata_id).toBe('Q312781');
      expect((await post<{ agent: { wikidata_id: string | null } }>(`/agents/${id}`, { wikidata_id: '' }, 'curator')).body.agent.wikidata_id).toBeNull();
    });
  });

  describe('exclusions', () => {
    it('hides what a user excluded from their own searches, facets and counts only', async () => {
      const all = await search('', 'reader');
      const fields = await entryId('Fields, Factories and Workshops'); // held by library 2 only
      const libertà = await entryId('La libertà e il lavoro'); // held by libraries 1 and 2
      expect((await post('/exclusions', { op: 'add', type: 'library', id: 2, comment: '' }, 'reader')).status).toBe(400);
      const add = await post('/exclusions', { op: 'add', type: 'library', id: 2, comment: 'not my area' }, 'reader');
      expect(add.body.success).toBe('library Archive Two created');
      const mine = await search('', 'reader');
      expect(mine.matches.map((m) => m.entry_id)).not.toContain(fields);
      expect(mine.matches.map((m) => m.entry_id)).toContain(libertà);
      expect(mine.facets.library.values.map((v) => v.id)).not.toContain('2');
      expect(mine.matches.find((m) => m.entry_id === libertà)!.data_sources.map((d) => d.library_id)).toEqual([1]);
      expect(mine.total_entries).toBeLessThan(all.total_entries);
      // The library page counts what the user still sees there.
      expect((await get<{ library: { entries_count: number } }>('/libraries/2', 'reader')).body.library.entries_count).toBe(0);
      expect((await get<{ library: { entries_count: number } }>('/libraries/2', 'reader2')).body.library.entries_count).toBeGreaterThan(0);
      // Nobody else is affected.
      expect((await search('', 'reader2')).total_entries).toBe(all.total_entries);
      expect((await search('')).matches.map((m) => m.entry_id)).toContain(fields);
    });

    it('hides an excluded author (named through a merged alias too) and an excluded entry', async () => {
      const malatesta = agentId('Errico Malatesta');
      await post('/exclusions', { op: 'add', type: 'author', id: malatesta, comment: 'read already' }, 'reader');
      expect(titles(await search('query=libertà', 'reader'))).toEqual([]);
      // The author search no longer counts (nor lists) the hidden author for this user.
      expect((await get<{ agents: { name: string }[] }>('/agents?search=malatesta', 'reader')).body.agents).toEqual([]);
      expect((await get<{ agents: { name: string }[] }>('/agents?search=malatesta', 'reader2')).body.agents.map((a) => a.name)).toEqual(['Errico Malatesta']);
      const zapata = await entryId('Zapata and the Land');
      await post('/exclusions', { op: 'add', type: 'entry', id: zapata, comment: 'duplicate' }, 'reader');
      expect((await search('query=zapata', 'reader')).total_entries).toBe(0);
      expect((await post('/exclusions', { op: 'add', type: 'entry', id: zapata, comment: 'again' }, 'reader')).status).toBe(400);
      expect((await post('/exclusions', { op: 'add', type: 'entry', id: 999999, comment: 'x' }, 'reader')).body.error).toBe('Entry 999999 does not exist');
      // A private library the reader cannot see is not confirmed to exist.
      expect((await post('/exclusions', { op: 'add', type: 'library', id: 3, comment: 'x' }, 'reader')).body.error).toBe('Library 3 does not exist');
      // Nor an author only hidden libraries hold: no name given away.
      const hidden = t.services.db.sqlite.prepare("SELECT id FROM agents WHERE name = 'Hidden Author'").pluck().get() as number;
      expect((await post('/exclusions', { op: 'add', type: 'author', id: hidden, comment: 'x' }, 'reader')).body.error).toBe(`Author ${hidden} does not exist`);
    });

    it('lists own exclusions, restores them, and never touches another user’s', async () => {
      const list = (await get<{ exclusions: { id: number; type: string; target: string; comment: string }[] }>('/exclusions', 'reader')).body.exclusions;
      expect(list.map((x) => x.type).sort()).toEqual(['author', 'entry', 'library']);
      expect((await get('/exclusions', 'reader2')).body).toEqual({ exclusions: [] });
      expect((await get('/exclusions')).status).toBe(401);
      const lib = list.find((x) => x.type === 'library')!;
      expect((await post('/exclusions', { op: 'delete', id: lib.id }, 'reader2')).body.error).toBe('No such exclusion');
      expect((await post('/exclusions', { op: 'delete', id: lib.id }, 'reader')).body.success).toBe('Removed');
      const fields = await entryId('Fields, Factories and Workshops');
      expect((await search('', 'reader')).matches.map((m) => m.entry_id)).toContain(fields);
      const listing = (await get<ListingResponse>('/listing/exclusions', 'reader')).body;
      expect(listing.records).toHaveLength(2);
      const entryRow = listing.records.find((r) => r.type === 'entry')!;
      const revert = await post('/revert/exclusions', entryRow.revert, 'reader');
      expect(revert.body, JSON.stringify(revert.body)).toMatchObject({ success: 'Removed' });
    });
  });

  describe('the change log and undo', () => {
    it('records every change with its user, and undoes a merge when nothing later depends on it', async () => {
      const log = (await get<ChangesResponse>('/changes?operation=add-merge-entry', 'curator')).body;
      expect(log.changes).toHaveLength(1);
      const merge = log.changes[0];
      expect(merge).toMatchObject({ username: 'curator', can_undo: true, blocked_by: null });
      expect(merge.comment).toMatch(/^canonical: The Conquest of Bread/);
      const main = await entryId('The Conquest of Bread');
      const count = (await search('')).total_entries;
      const undo = await post(`/changes/${merge.id}/undo`, {}, 'curator');
      expect(undo.body.success).toBe('Undone');
      expect((await search('')).total_entries).toBe(count + 1);
      expect((await search('query=bread')).matches.map((m) => m.entry_id)).toContain(main);
      const again = (await get<ChangesResponse>(`/changes?operation=add-merge-entry`, 'curator')).body.changes[0];
      expect(again).toMatchObject({ undone_by: undo.body.change_id, can_undo: false });
      // Undoing the undo merges them again.
      expect((await post(`/changes/${undo.body.change_id}/undo`, {}, 'curator')).body.success).toBe('Undone');
      expect((await search('query=bread')).total_entries).toBe(1);
    });

    it('refuses to undo a change that a later one depends on, and says which', async () => {
      const id = agentId('Voltairine de Cleyre');
      const first = await post(`/agents/${id}`, { wikidata_id: 'Q1' }, 'curator');
      const second = await post(`/agents/${id}`, { wikidata_id: 'Q2' }, 'curator');
      const log = (await get<ChangesResponse>(`/changes?object_type=agent&object_id=${id}`, 'curator')).body.changes;
      const older = log.find((c) => c.id === first.body.change_id)!;
      expect(older).toMatchObject({
        can_undo: false, blocked_by: `Change #${second.body.change_id} changed this later: undo it first`,
        blocked_reason: 'later-change', blocking_change_id: second.body.change_id,
      });
      expect((await post(`/changes/${older.id}/undo`, {}, 'curator'))).toMatchObject({ status: 400 });
      expect((await post(`/changes/${second.body.change_id}/undo`, {}, 'curator')).body.success).toBe('Undone');
      expect((await post(`/changes/${older.id}/undo`, {}, 'curator')).body.success).toBe('Undone');
      expect((await get<{ agent: { wikidata_id: string | null } }>(`/agents/${id}`)).body.agent.wikidata_id).toBeNull();
    });

    it('keeps exclusion changes private to their owner and filters by user and date', async () => {
      const curatorView = (await get<ChangesResponse>('/changes', 'curator')).body;
      expect(curatorView.changes.some((c) => c.operation === 'add-exclusion')).toBe(false);
      expect(curatorView.users).toEqual(['curator']);
      const readerView = (await get<ChangesResponse>('/changes', 'reader')).body;
      expect(readerView.changes.every((c) => c.operation.includes('exclusion'))).toBe(true);
      expect(readerView.changes.length).toBeGreaterThan(0);
      expect((await get<ChangesResponse>('/changes?from=2000-01-01&to=2000-01-02', 'curator')).body.total).toBe(0);
      expect((await get('/changes')).status).toBe(401);
      expect((await get('/changes?from=yesterday', 'curator')).status).toBe(400);
    });

    it('does not delete a created author that is still in use', async () => {
      const created = (await get<ChangesResponse>('/changes?operation=create-agent', 'curator')).body.changes;
      const bo = created.find((c) => c.comment.startsWith('created: Bo Writer'))!;
      expect(bo.can_undo).toBe(false);
      expect(bo.blocked_by).toMatch(/is in use/);
    });
  });

  describe('duplicate suggestions', () => {
    it('folds names across order and script, and titles without articles', () => {
      expect(personKey('Kropotkin, Peter')).toBe(personKey('Pyotr Kropotkin'));
      expect(personKey('Пётр Кропоткин')).toBe(personKey('Peter Kropotkin'));
      expect(personKey('Emma Goldman')).not.toBe(personKey('Errico Malatesta'));
      expect(titleKey('Conquest of Bread, The')).toBe(titleKey('The Conquest of Bread'));
      expect(titleKey('Mutual Aid: A Factor of Evolution')).toBe(titleKey('Mutual Aid'));
      expect(personKey('Ivana Brlić-Mažuranić')).not.toBe(personKey('Ivan Mažuranić'));
    });

    it('suggests the spellings of one author to curators only', async () => {
      expect((await get('/curation/duplicates?kind=author', 'reader')).status).toBe(403);
      const { groups } = (await get<{ groups: { key: string; items: { label: string }[] }[] }>('/curation/duplicates?kind=author', 'curator')).body;
      const kropotkin = groups.find((g) => g.key === 'kropotkin p')!;
      expect(kropotkin.items.map((i) => i.label).sort()).toEqual(['Peter Kropotkin', 'Пётр Кропоткин']);
    });
  });
});
