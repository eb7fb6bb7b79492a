// Curation's SQL on each back end: every operation's effects and refusals, the entries it reindexes,
// the dashboards' listings, exclusions, the change log with undo, and duplicate suggestions
// (curation.test.ts checks the same through the API and search on the full app).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { CatalogueRows } from '../test/catalogue-rows.ts';
import { ANONYMOUS, type Viewer } from '../http/viewer.ts';
import { LibraryService } from '../libraries/service.ts';
import { AuthorResolver } from '../agents/resolve.ts';
import { AgentService } from '../agents/service.ts';
import { CatalogueService } from '../catalogue/service.ts';
import { FileStore } from '../catalogue/files.ts';
import type { Indexer } from '../search/indexer.ts';
import { CurationService } from './service.ts';
import { ExclusionStore } from './exclusions.ts';

afterAll(() => dropTestDatabases());

describe.each(BACKENDS)('curation on %s', (dialect) => {
  let db: Db;
  let dir: string;
  let rows: CatalogueRows;
  let curation: CurationService;
  const reindexed: number[][] = [];
  const id: Record<string, number> = {};
  let curator: Viewer;
  let reader: Viewer;
  let reader2: Viewer;
  const lastReindex = () => new Set(reindexed.at(-1));
  /** An entry with one record in the public library (an entry no library holds is visible to superusers only). */
  const held = (title: string, o: Parameters<CatalogueRows['entry']>[1] = {}) => {
    const e = rows.entry(title, o);
    rows.record(id.site, e);
    return e;
  };
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return { status: (e as { statusCode: number }).statusCode, message: (e as Error).message };
    }
    throw new Error('not refused');
  };

  beforeAll(async () => {
    db = openDatabase(await migratedTestDatabase(dialect));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-cur-'));
    rows = new CatalogueRows(db);
    const user = (username: string) => Number(db.sqlite.prepare('INSERT INTO users (username) VALUES (?)').run(username).lastInsertRowid);
    curator = { ...ANONYMOUS, userId: user('curator'), username: 'curator', canMerge: true, canSetExclusions: true };
    reader = { ...ANONYMOUS, userId: user('reader'), username: 'reader', canSetExclusions: true };
    reader2 = { ...ANONYMOUS, userId: user('reader2'), username: 'reader2', canSetExclusions: true };

    const one = rows.library('Biblioteca Uno');
    id.library = one.id;
    id.site = one.site;
    const add = (title: string, authors: string[], languages = ['en']) => {
      const e = rows.entry(title, { authors, languages });
      rows.record(one.site, e);
      db.sqlite.prepare(`INSERT INTO search_docs (entry_id, seq, doc, libraries) VALUES (?, ?, '{}', ?)`).run(e, e, JSON.stringify([one.id]));
      return e;
    };
    id.bread1 = add('Conquest of Bread, The', ['Kropotkin, Peter']);
    id.bread2 = add('The Conquest of Bread', ['Peter Kropotkin']);
    id.pane = add('La conquista del pane', ['Пётр Кропоткин'], ['it']);
    id.letters = add('Letters on Order', ['Ada Writer & Bo Writer']);
    id.ada = add('Ada Alone', ['Ada Writer']);
    id.essay1 = add('First Essay', ['Emma Goldman']);
    id.essay2 = add('Second Essay', ['Emma Goldman']);
    id.essay3 = add('Third Essay', ['Emma Goldman']);
    for (const name of ['Kropotkin, Peter', 'Peter Kropotkin', 'Пётр Кропоткин', 'Ada Writer & Bo Writer', 'Ada Writer', 'Emma Goldman']) id[name] = rows.agent(name);
    // A spelling already merged into another one: it follows when that one is merged.
    id['Pyotr Kropotkin'] = rows.agent('Pyotr Kropotkin');
    db.sqlite.prepare('UPDATE agents SET canonical_agent_id = ? WHERE id = ?').run(id['Kropotkin, Peter'], id['Pyotr Kropotkin']);

    const indexer = { reindex: (ids: Iterable<number>) => { reindexed.push([...ids]); return 0; } } as unknown as Indexer;
    const libraries = new LibraryService(db);
    const resolver = new AuthorResolver(db);
    const catalogue = new CatalogueService(db, libraries, new FileStore(db, dir), resolver);
    curation = new CurationService(db, indexer, new AgentService(db), libraries, resolver, catalogue);
  });
  afterAll(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('merges authors (variants follow), reindexes every entry they are shown on, lists and reverts the merge', () => {
    expect(refusal(() => curation.mergeAgents(reader, [id['Peter Kropotkin'], id['Kropotkin, Peter']]))).toMatchObject({ status: 403 });
    const reply = curation.mergeAgents(curator, [id['Peter Kropotkin'], id['Kropotkin, Peter'], id['Пётр Кропоткин']]);
    expect(reply).toMatchObject({ op: 'merge-agents', main_id: id['Peter Kropotkin'], other_ids: [id['Kropotkin, Peter'], id['Пётр Кропоткин']], success: 'Merged' });
    expect(lastReindex()).toEqual(new Set([id.bread1, id.bread2, id.pane]));
    const canonicalOf = (name: string) => db.sqlite.prepare('SELECT canonical_agent_id FROM agents WHERE id = ?').pluck().get(id[name]);
    expect(canonicalOf('Pyotr Kropotkin')).toBe(id['Peter Kropotkin']);
    expect(refusal(() => curation.mergeAgents(curator, [id['Peter Kropotkin'], id['Kropotkin, Peter']])).message).toBe('Nothing to do: these authors are merged already');
    expect(refusal(() => curation.mergeAgents(curator, [id['Peter Kropotkin'], 99_999])).message).toBe('Author 99999 does not exist');

    const listing = curation.listing(curator, 'merged-agents');
    expect(listing.records.map((r) => r.name)).toEqual(['Kropotkin, Peter', 'Pyotr Kropotkin', 'Пётр Кропоткин']);
    curation.revert(curator, 'merged-agents', id['Пётр Кропоткин']);
    expect(canonicalOf('Пётр Кропоткин')).toBeNull();
    expect(lastReindex()).toEqual(new Set([id.pane, id.bread1, id.bread2]));
  });

  it('merges entries, moves the merged one\'s translations to the canonical, and refuses merging a translation', () => {
    curation.setTranslations(curator, [id.bread2, id.pane]);
    expect(db.sqlite.prepare('SELECT original_entry_id FROM entries WHERE id = ?').pluck().get(id.pane)).toBe(id.bread2);
    expect(refusal(() => curation.mergeEntries(curator, [id.pane, id.bread2])).message).toMatch(/is a translation of/);
    const reply = curation.mergeEntries(curator, [id.bread1, id.bread2]);
    expect(reply).toMatchObject({ main_id: id.bread1, other_ids: [id.bread2] });
    expect(lastReindex()).toEqual(new Set([id.bread1, id.bread2, id.pane]));
    expect(db.sqlite.prepare('SELECT original_entry_id FROM entries WHERE id = ?').pluck().get(id.pane)).toBe(id.bread1);
    const merged = curation.listing(curator, 'merged-entries').records;
    expect(merged).toEqual([{ id: id.bread2, title: 'The Conquest of Bread — Peter Kropotkin', canonical_id: id.bread1,
      canonical_title: 'Conquest of Bread, The — Peter Kropotkin', revert: { id: id.bread2 } }]);
    expect(curation.listing(curator, 'translations').records.map((r) => [r.id, r.original_id])).toEqual([[id.pane, id.bread1]]);
  });

  it('creates an author with a fresh id, splits a joint name into parts in their order, and lists the split', () => {
    const bo = curation.create(curator, 'agent', '  Bo   Writer ');
    expect(bo.created).toMatchObject({ value: 'Bo Writer', type: 'agent' });
    expect(bo.created.id).toBeGreaterThan(id['Pyotr Kropotkin']);
    id['Bo Writer'] = bo.created.id;
    // The same name again is the existing author, without a change.
    expect(curation.create(curator, 'agent', 'Bo Writer')).toEqual({ created: { id: bo.created.id, value: 'Bo Writer', type: 'agent' }, change_id: null });
    // The next author imported gets an id of its own, not the created one's.
    expect(rows.agent('Cleo Writer')).toBeGreaterThan(bo.created.id);

    curation.splitAgent(curator, [id['Ada Writer & Bo Writer'], id['Bo Writer'], id['Ada Writer']]);
    expect(lastReindex()).toEqual(new Set([id.letters, id.ada]));
    expect(curation.listing(curator, 'split-agents').records).toEqual([
      { id: id['Ada Writer & Bo Writer'], name: 'Ada Writer & Bo Writer', splat: 'Bo Writer | Ada Writer', revert: { id: id['Ada Writer & Bo Writer'] } },
    ]);
    expect(refusal(() => curation.splitAgent(curator, [id['Ada Writer'], id['Ada Writer']])).message).toBe('An author cannot be split into itself');
    // The created author is a part now: undoing its creation is refused.
    const created = curation.changes(curator, { operation: 'create-agent' }).changes[0];
    expect(created).toMatchObject({ id: bo.change_id, can_undo: false, blocked_reason: 'in-use' });
  });

  it('creates an aggregation, adds parts at the next positions, refuses a cycle, and undo and redo keep its id', () => {
    const agg = curation.create(curator, 'aggregation', 'Essays');
    id.essays = agg.created.id;
    expect(id.essays).toBeGreaterThan(id.essay3);
    curation.setAggregated(curator, [{ id: id.essays }, { id: id.essay2 }, { id: id.essay1 }]);
    curation.setAggregated(curator, [{ id: id.essays }, { id: id.essay3 }]);
    expect(lastReindex()).toEqual(new Set([id.essays, id.essay3]));
    expect(curation.listing(curator, 'aggregations').records.map((r) => [r.title, r.position])).toEqual([
      ['Second Essay — Emma Goldman', 1], ['First Essay — Emma Goldman', 2], ['Third Essay — Emma Goldman', 3],
    ]);
    const inner = held('Inner Collection');
    curation.setAggregated(curator, [{ id: inner }, { id: id.essays }]);
    expect(refusal(() => curation.setAggregated(curator, [{ id: id.essay1 }, { id: inner }])).message).toBe('“First Essay” is part of “Inner Collection”: an aggregation cannot contain itself');

    // Undo the parts and the creation, then the undos: the aggregation comes back under its id.
    const log = curation.changes(curator, { object_id: id.essays }).changes;
    for (const c of log) curation.undo(curator, c.id);
    expect(db.sqlite.prepare('SELECT count(*) FROM entries WHERE id = ?').pluck().get(id.essays)).toBe(0);
    const undos = curation.changes(curator, { operation: 'undo' }).changes.slice(0, log.length);
    for (const u of undos) curation.undo(curator, u.id);
    expect(db.sqlite.prepare('SELECT title FROM entries WHERE id = ?').pluck().get(id.essays)).toBe('Essays');
    expect(curation.listing(curator, 'aggregations').records.filter((r) => r.aggregation_id === id.essays)).toHaveLength(3);
    expect(rows.entry('Imported Later')).toBeGreaterThan(inner);
  });

  it('lists an aggregation\'s parts without a position after the numbered ones, as the entry page shows them', () => {
    const zines = held('Zines of the Year', { languages: ['en'] });
    const loose = held('A Loose Zine', { languages: ['en'] });
    const first = held('Zine One', { languages: ['en'] });
    rows.part(zines, loose, null);
    rows.part(zines, first, 1);
    expect(curation.listing(curator, 'aggregations').records.filter((r) => r.aggregation_id === zines).map((r) => [r.title, r.position]))
      .toEqual([['Zine One', 1], ['A Loose Zine', null]]);
  });

  it('blocks undoing a Wikidata edit a later one changed, until that one is undone', () => {
    const agent = id['Emma Goldman'];
    const first = curation.editAgent(curator, agent, 'Q1').change_id!;
    const second = curation.editAgent(curator, agent, 'Q2').change_id!;
    expect(curation.editAgent(curator, agent, 'Q2').change_id).toBeNull();
    const older = curation.changes(curator, { object_type: 'agent', object_id: agent }).changes.find((c) => c.id === first)!;
    expect(older).toMatchObject({ can_undo: false, blocked_reason: 'later-change', blocking_change_id: second });
    expect(refusal(() => curation.undo(curator, first)).status).toBe(400);
    curation.undo(curator, second);
    curation.undo(curator, first);
    expect(db.sqlite.prepare('SELECT wikidata_id FROM agents WHERE id = ?').pluck().get(agent)).toBeNull();
  });

  it('keeps each user\'s exclusions: a merged alias counts as its canonical, listed to the owner only, private in the log', () => {
    const store = new ExclusionStore(db);
    expect(store.ofViewer(reader)).toBeNull();
    curation.addExclusion(reader, 'author', id['Kropotkin, Peter'], 'not for me');
    curation.addExclusion(reader, 'entry', id.bread2, 'duplicate');
    curation.addExclusion(reader, 'library', id.library, 'too far');
    expect(refusal(() => curation.addExclusion(reader, 'library', id.library, 'again')).message).toBe('Biblioteca Uno is in your exclusions already');
    expect(refusal(() => curation.addExclusion(reader, 'entry', 99_999, 'x')).message).toBe('Entry 99999 does not exist');
    const mine = store.ofViewer(reader)!;
    expect(mine).toMatchObject({ agents: new Set([id['Peter Kropotkin']]), entries: new Set([id.bread1]), libraries: new Set([id.library]) });
    expect(curation.exclusions(reader).map((x) => x.target)).toEqual(['Biblioteca Uno', 'The Conquest of Bread — Peter Kropotkin', 'Kropotkin, Peter']);
    expect(store.ofViewer(reader2)).toBeNull();

    const libraryExclusion = curation.exclusions(reader)[0].id;
    expect(refusal(() => curation.removeExclusion(reader2, libraryExclusion)).message).toBe('No such exclusion');
    curation.removeExclusion(reader, libraryExclusion);
    expect(store.ofViewer(reader)!.libraries.size).toBe(0);

    expect(curation.changes(curator, {}).changes.some((c) => c.operation.includes('exclusion'))).toBe(false);
    const own = curation.changes(reader, {});
    expect(own.changes.map((c) => c.operation)).toEqual(['revert-exclusions', 'add-exclusion', 'add-exclusion', 'add-exclusion']);
    // Without the merge right the curators' changes are not listed, nor their names.
    expect(own.users).toEqual(['reader']);
    expect(curation.changes(reader2, {}).total).toBe(0);
  });

  it('filters the change log by user, operation, object and day, and names the operations and users it holds', () => {
    const all = curation.changes(curator, {});
    expect(all.total).toBeGreaterThan(10);
    expect(all.users).toEqual(['curator']);
    expect(all.operations).toEqual([...all.operations].sort());
    expect(all.operations).toContain('split-agent');
    expect(curation.changes(curator, { operation: 'split-agent' }).total).toBe(1);
    expect(curation.changes(curator, { user: 'reader' }).total).toBe(0);
    expect(curation.changes(curator, { object_type: 'entry', object_id: id.bread2 }).changes.map((c) => c.operation)).toEqual(['add-merge-entry', 'add-translation']);
    const today = new Date().toISOString().slice(0, 10);
    expect(curation.changes(curator, { from: today, to: today }).total).toBe(all.total);
    expect(curation.changes(curator, { from: '2000-01-01', to: '2000-01-02' }).total).toBe(0);
    expect(curation.listing(curator, 'changes').records[0]).toMatchObject({ id: all.changes[0].id, username: 'curator' });
    expect(refusal(() => curation.changes(ANONYMOUS, {})).status).toBe(401);
  });

  it('suggests spellings of one author and entries with one title, author and language', () => {
    const authors = curation.duplicates(curator, 'author');
    const kropotkin = authors.find((g) => g.key === 'kropotkin p')!;
    // Merged spellings are one author already: the canonical and the spelling split off again remain.
    expect(kropotkin.items.map((i) => i.label).sort()).toEqual(['Peter Kropotkin', 'Пётр Кропоткин']);
    const twin = held('Ada alone', { authors: ['Ada Writer'], languages: ['en'] });
    db.sqlite.prepare(`INSERT INTO search_docs (entry_id, seq, doc, libraries) VALUES (?, ?, '{}', '[]')`).run(twin, 1000);
    const entries = curation.duplicates(curator, 'entry');
    expect(entries.find((g) => g.key === 'ada alone')?.items.map((i) => [i.id, i.entries])).toEqual([[id.ada, 1], [twin, 1]]);
    // What a curator compares side by side: the copies' years, the languages, the holding libraries.
    const item = entries.find((g) => g.key === 'ada alone')!.items[1];
    expect(item).toMatchObject({ languages: ['en'] });
    expect(item.libraries).toHaveLength(1);
    expect(Array.isArray(item.years)).toBe(true);
    expect(refusal(() => curation.duplicates(reader, 'author')).status).toBe(403);
  });
});
