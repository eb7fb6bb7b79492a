// Curation (spec §7 "Curation", anchor §3 without its bugs): merges, splits, translations, aggregations,
// author edits, exclusions, the dashboards' listings, and the change log with undo. Every operation is
// one transaction that plans its effects on the curation state (state.ts), applies them, logs them, and
// reindexes the touched entries before answering, so the next search already shows the change.
import {
  CHANGES_PAGE_SIZE, LISTING_LIMIT,
  type Agent, type BlockedReason, type Change, type ChangesResponse, type CreateReply, type CurationReply, type Exclusion, type ExclusionType,
  type ListingResponse, type ListingType, type RevertType,
} from '@uc/shared';
import type { Db } from '../db/index.ts';
import { idList, nextIdSql } from '../db/dialect.ts';
import type { Viewer } from '../http/viewer.ts';
import { HttpError } from '../http/errors.ts';
import type { MessageValues } from '../http/messages.ts';
import type { Indexer } from '../search/indexer.ts';
import type { AgentService } from '../agents/service.ts';
import type { LibraryService } from '../libraries/service.ts';
import type { AuthorResolver } from '../agents/resolve.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import { normaliseAuthorName } from '../ingest/grouping.ts';
import { CurationState, sameValue, type Effect, type StateValue } from './state.ts';
import { findDuplicates } from './duplicates.ts';
import { CurationVisibility } from './visibility.ts';

type ObjectType = 'agent' | 'entry' | 'exclusion';
interface ChangeObject { type: ObjectType; id: number; label: string }

/** What an operation will do, computed inside its transaction. */
interface Plan {
  op: string;
  operation: string;
  effects: Effect[];
  objects: ChangeObject[];
  comment: string;
  success: string;
  mainId: number | null;
  otherIds: number[];
  msg?: string | null;
  private?: boolean;
  undoes?: number;
}

interface AgentRow { id: number; name: string; canonical_agent_id: number | null; wikidata_id: string | null }
interface EntryRow { id: number; title: string; canonical_entry_id: number | null; original_entry_id: number | null }
interface ChangeRow {
  id: number; user_id: number | null; username: string | null; operation: string; comment: string; objects: string;
  effects: string; private: number; undone_by: number | null; undoes: number | null; created: string;
}

const bad = (message: string, values?: MessageValues) => new HttpError(400, message, { values });

/** Who may curate (spec §6): logged in (401 otherwise) and allowed to merge (403 otherwise). */
export function assertCanMerge(viewer: Viewer): void {
  if (viewer.userId === null) throw new HttpError(401, 'Please log in');
  if (!viewer.canMerge) throw new HttpError(403, 'Cannot do that');
}

/** Exclusions are for every logged-in user (their own). */
export function assertCanSetExclusions(viewer: Viewer): void {
  if (viewer.userId === null) throw new HttpError(401, 'Please log in');
  if (!viewer.canSetExclusions) throw new HttpError(403, 'Cannot do that');
}

export class CurationService {
  readonly state: CurationState;
  /** What the viewer may see (visibility.ts): anything else is answered exactly as an unknown id. */
  readonly visibility: CurationVisibility;
  private q;

  constructor(
    private db: Db, private indexer: Indexer, private agents: AgentService, private libraries: LibraryService,
    private resolver: AuthorResolver, catalogue: CatalogueService,
  ) {
    this.state = new CurationState(db);
    this.visibility = new CurationVisibility(db, catalogue);
    const s = db.sqlite;
    const IDS = idList(s.dialect);
    this.q = {
      agent: s.prepare('SELECT id, name, canonical_agent_id, wikidata_id FROM agents WHERE id = ?'),
      agentByName: s.prepare('SELECT id, name FROM agents WHERE name = ?'),
      variantAgents: s.prepare('SELECT id FROM agents WHERE canonical_agent_id = ? ORDER BY id').pluck(),
      entry: s.prepare('SELECT id, title, canonical_entry_id, original_entry_id FROM entries WHERE id = ?'),
      variantEntries: s.prepare('SELECT id FROM entries WHERE canonical_entry_id = ? ORDER BY id').pluck(),
      translationsOf: s.prepare(`SELECT id FROM entries WHERE original_entry_id IN ${IDS} ORDER BY id`).pluck(),
      parentsOf: s.prepare(`SELECT DISTINCT coalesce(p.canonical_entry_id, p.id) FROM aggregation_links l JOIN entries p ON p.id = l.aggregation_entry_id
        WHERE l.aggregated_entry_id IN (SELECT id FROM entries WHERE id = @id OR canonical_entry_id = @id)`).pluck(),
      maxPosition: s.prepare('SELECT max(position) FROM aggregation_links WHERE aggregation_entry_id = ?').pluck(),
      linksOf: s.prepare('SELECT aggregated_entry_id AS item, position FROM aggregation_links WHERE aggregation_entry_id = ? ORDER BY position NULLS LAST, aggregated_entry_id'),
      nextId: (table: string) => s.prepare(nextIdSql(s.dialect, table)).pluck(),
      // Entries whose shown authors depend on these agents: their own, their variants', and those of authors split into them.
      agentClosure: s.prepare(`SELECT id FROM agents WHERE id IN ${IDS} OR canonical_agent_id IN ${IDS}
        UNION SELECT agent_id FROM agent_children WHERE child_id IN ${IDS} OR child_id IN (SELECT id FROM agents WHERE canonical_agent_id IN ${IDS})`).pluck(),
      entriesOfAgents: s.prepare(`SELECT DISTINCT entry_id FROM entry_agents WHERE agent_id IN ${IDS}`).pluck(),
      exclusionOf: s.prepare('SELECT id FROM exclusions WHERE user_id = ? AND type = ? AND target_id = ?').pluck(),
      myExclusions: s.prepare('SELECT id, type, target_id, comment, created FROM exclusions WHERE user_id = ? ORDER BY created DESC, id DESC'),
      exclusionRow: s.prepare('SELECT id, user_id, type, target_id, comment, created FROM exclusions WHERE id = ?'),
      insertChange: s.prepare(`INSERT INTO changes (user_id, username, operation, comment, objects, effects, private, undoes)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      insertKey: s.prepare('INSERT INTO change_keys (change_id, key) VALUES (?, ?)'),
      insertObject: s.prepare('INSERT INTO change_objects (change_id, object_type, object_id) VALUES (?, ?, ?)'),
      markUndone: s.prepare('UPDATE changes SET undone_by = ? WHERE id = ?'),
      change: s.prepare('SELECT * FROM changes WHERE id = ?'),
      laterChange: s.prepare('SELECT max(change_id) FROM change_keys WHERE key = ? AND change_id > ?').pluck(),
    };
  }

  // ---------------------------------------------------------------- lookups
  private agentRow(id: number): AgentRow | undefined {
    return this.q.agent.get(id) as AgentRow | undefined;
  }

  private entryRow(id: number): EntryRow | undefined {
    return this.q.entry.get(id) as EntryRow | undefined;
  }

  /** An author named in a request: one the viewer may not see is refused exactly as an unknown id. */
  private namedAgent(viewer: Viewer, id: number): AgentRow {
    const row = this.agentRow(id);
    if (!row || !this.visibility.agent(id, viewer)) throw bad('Author {{id}} does not exist', { id });
    return row;
  }

  private namedEntry(viewer: Viewer, id: number): EntryRow {
    const row = this.entryRow(id);
    if (!row || !this.visibility.entry(id, viewer)) throw bad('Entry {{id}} does not exist', { id });
    return row;
  }

  /** The author as shown (its canonical when merged: merges are kept one level deep). */
  private canonicalAgent(viewer: Viewer, id: number): AgentRow {
    const row = this.namedAgent(viewer, id);
    return row.canonical_agent_id ? this.agentRow(row.canonical_agent_id) ?? row : row;
  }

  private canonicalEntry(viewer: Viewer, id: number): EntryRow {
    const row = this.namedEntry(viewer, id);
    return row.canonical_entry_id ? this.entryRow(row.canonical_entry_id) ?? row : row;
  }

  /** "Title — Author; Author" (authors as readers see them), for many entries at once. */
  private entryLabels(rows: Pick<EntryRow, 'id' | 'title'>[]): Map<number, string> {
    const authors = this.resolver.resolve([...new Set(rows.map((r) => r.id))]);
    return new Map(rows.map((r) => {
      const names = (authors.get(r.id)?.shown ?? []).map((a) => a.value).join('; ');
      return [r.id, names ? `${r.title} — ${names}` : r.title];
    }));
  }

  private entryLabel(row: Pick<EntryRow, 'id' | 'title'>): string {
    return this.entryLabels([row]).get(row.id)!;
  }

  private children(id: number): number[] {
    return this.state.get(`agent:${id}:children`) as number[];
  }

  // ---------------------------------------------------------------- the one way a change happens
  /** Plans (inside the transaction), applies, logs and reindexes; answers the anchor's reply shape. */
  private commit(viewer: Viewer, plan: () => Plan): CurationReply {
    let reply!: CurationReply;
    this.db.sqlite.transaction(() => {
      const p = plan();
      for (const e of p.effects) this.state.set(e.key, e.after);
      const changeId = this.log(viewer, p);
      if (p.undoes) {
        this.q.markUndone.run(changeId, p.undoes);
        // Undoing an undo makes the change it had undone undoable again.
        const undone = this.q.change.get(p.undoes) as ChangeRow | undefined;
        if (undone?.undoes) this.q.markUndone.run(null, undone.undoes);
      }
      this.indexer.reindex(this.affectedEntries(p.effects));
      reply = {
        op: p.op, main_id: p.mainId, other_ids: p.otherIds, error: null, msg: p.msg ?? null,
        username: viewer.username, success: p.success, change_id: changeId,
      };
    }).immediate();
    return reply;
  }

  private log(viewer: Viewer, p: Plan): number {
    const id = Number(this.q.insertChange.run(
      viewer.userId, viewer.username, p.operation, p.comment, JSON.stringify(p.objects), JSON.stringify(p.effects),
      p.private ? 1 : 0, p.undoes ?? null,
    ).lastInsertRowid);
    for (const key of new Set(p.effects.map((e) => e.key))) this.q.insertKey.run(id, key);
    for (const o of p.objects) this.q.insertObject.run(id, o.type, o.id);
    return id;
  }

  /** Entries whose index rows these effects change. */
  private affectedEntries(effects: Effect[]): Set<number> {
    const entries = new Set<number>();
    const agents = new Set<number>();
    const nums = (v: StateValue) => (typeof v === 'number' ? [v] : Array.isArray(v) ? v : []);
    for (const e of effects) {
      const [kind, a, b] = e.key.split(':');
      if (kind === 'agent') {
        if (b === 'wikidata') continue; // not part of the index
        agents.add(Number(a));
        for (const n of [...nums(e.before), ...nums(e.after)]) agents.add(n);
      } else if (kind === 'entry') {
        entries.add(Number(a));
        for (const n of [...nums(e.before), ...nums(e.after)]) entries.add(n);
      } else if (kind === 'aggregation') {
        entries.add(Number(a));
        entries.add(Number(b));
      }
    }
    if (agents.size) {
      const json = JSON.stringify([...agents]);
      const closure = this.q.agentClosure.all(json, json, json, json) as number[];
      for (const id of this.q.entriesOfAgents.all(JSON.stringify(closure)) as number[]) entries.add(id);
    }
    return entries;
  }

  // ---------------------------------------------------------------- merges, splits, translations, aggregations
  mergeAgents(viewer: Viewer, ids: number[]): CurationReply {
    assertCanMerge(viewer);
    return this.commit(viewer, () => {
      const [first, ...rest] = ids;
      const main = this.canonicalAgent(viewer, first);
      const effects: Effect[] = [];
      const objects: ChangeObject[] = [{ type: 'agent', id: main.id, label: main.name }];
      const lines = [`canonical: ${main.name} (${main.id})`];
      const others: number[] = [];
      let wikidata = main.wikidata_id;
      for (const id of rest) {
        const row = this.namedAgent(viewer, id);
        if (row.id === main.id) {
          if (id === first) throw bad('An author cannot be merged into itself');
          continue;
        }
        if (others.includes(id) || row.canonical_agent_id === main.id) continue;
        others.push(id);
        effects.push({ key: `agent:${id}:canonical`, before: row.canonical_agent_id, after: main.id });
        // Its own variants follow it to the new canonical: merges stay one level deep.
        for (const v of this.q.variantAgents.all(id) as number[]) effects.push({ key: `agent:${v}:canonical`, before: id, after: main.id });
        if (row.wikidata_id && !wikidata) {
          effects.push({ key: `agent:${main.id}:wikidata`, before: main.wikidata_id, after: row.wikidata_id });
          wikidata = row.wikidata_id;
        }
        objects.push({ type: 'agent', id, label: row.name });
        lines.push(`alias: ${row.name} (${id})`);
      }
      if (others.length === 0) throw bad('Nothing to do: these authors are merged already');
      return { op: 'merge-agents', operation: 'add-merge-agent', effects, objects, comment: lines.join('\n'), success: 'Merged', mainId: main.id, otherIds: others };
    });
  }

  mergeEntries(viewer: Viewer, ids: number[]): CurationReply {
    assertCanMerge(viewer);
    return this.commit(viewer, () => {
      const [first, ...rest] = ids;
      const main = this.canonicalEntry(viewer, first);
      const effects: Effect[] = [];
      const objects: ChangeObject[] = [{ type: 'entry', id: main.id, label: this.entryLabel(main) }];
      const lines = [`canonical: ${main.title} (${main.id})`];
      const others: number[] = [];
      for (const id of rest) {
        const row = this.namedEntry(viewer, id);
        if (row.id === main.id) {
          if (id === first) throw bad('An entry cannot be merged into itself');
          continue;
        }
        if (others.includes(id) || row.canonical_entry_id === main.id) continue;
        const group = [id, ...(this.q.variantEntries.all(id) as number[])];
        if (main.original_entry_id !== null && group.includes(main.original_entry_id)) {
          throw bad('“{{translation}}” is a translation of “{{original}}”: remove the translation before merging', { translation: main.title, original: row.title });
        }
        if (row.original_entry_id === main.id) throw bad('“{{translation}}” is a translation of “{{original}}”: remove the translation before merging', { translation: row.title, original: main.title });
        others.push(id);
        effects.push({ key: `entry:${id}:canonical`, before: row.canonical_entry_id, after: main.id });
        for (const v of group.slice(1)) effects.push({ key: `entry:${v}:canonical`, before: id, after: main.id });
        // Translations of the merged entries become translations of the canonical one.
        for (const t of this.q.translationsOf.all(JSON.stringify(group)) as number[]) {
          if (t !== main.id) effects.push({ key: `entry:${t}:original`, before: this.entryRow(t)!.original_entry_id, after: main.id });
        }
        objects.push({ type: 'entry', id, label: this.entryLabel(row) });
        lines.push(`alias: ${row.title} (${id})`);
      }
      if (others.length === 0) throw bad('Nothing to do: these entries are merged already');
      return { op: 'merge-entries', operation: 'add-merge-entry', effects, objects, comment: lines.join('\n'), success: 'Merged', mainId: main.id, otherIds: others };
    });
  }

  splitAgent(viewer: Viewer, ids: number[]): CurationReply {
    assertCanMerge(viewer);
    return this.commit(viewer, () => {
      const [first, ...rest] = ids;
      const main = this.canonicalAgent(viewer, first);
      const parts: number[] = [];
      const objects: ChangeObject[] = [{ type: 'agent', id: main.id, label: main.name }];
      const lines = [`split: ${main.name} (${main.id})`];
      for (const id of rest) {
        const part = this.canonicalAgent(viewer, id);
        if (part.id === main.id) throw bad('An author cannot be split into itself');
        if (this.children(part.id).length) throw bad('{{name}} is split itself: split it separately', { name: part.name });
        if (parts.includes(part.id)) continue;
        parts.push(part.id);
        objects.push({ type: 'agent', id: part.id, label: part.name });
        lines.push(`part: ${part.name} (${part.id})`);
      }
      const before = this.children(main.id);
      if (sameValue(before, parts)) throw bad('Nothing to do: the author is split into these parts already');
      return {
        op: 'split-author', operation: 'split-agent', effects: [{ key: `agent:${main.id}:children`, before, after: parts }],
        objects, comment: lines.join('\n'), success: 'Done', mainId: main.id, otherIds: parts,
      };
    });
  }

  setTranslations(viewer: Viewer, ids: number[]): CurationReply {
    assertCanMerge(viewer);
    return this.commit(viewer, () => {
      const [first, ...rest] = ids;
      let original = this.canonicalEntry(viewer, first);
      let msg: string | null = null;
      // A translation of a translation is a translation of the same original: no chains, no cycles.
      if (original.original_entry_id !== null) {
        // An original the viewer may not see is neither named nor changed (its id would be an oracle too).
        if (!this.visibility.entry(original.original_entry_id, viewer)) {
          throw bad('“{{title}}” is a translation of an entry you cannot see, so it cannot have translations of its own', { title: original.title });
        }
        const top = this.canonicalEntry(viewer, original.original_entry_id);
        msg = `“${original.title}” is a translation of “${top.title}”: the translations were set on the original`;
        original = top;
      }
      const effects: Effect[] = [];
      const objects: ChangeObject[] = [{ type: 'entry', id: original.id, label: this.entryLabel(original) }];
      const lines = [`original: ${original.title} (${original.id})`];
      const others: number[] = [];
      for (const id of rest) {
        const t = this.canonicalEntry(viewer, id);
        if (t.id === original.id) throw bad('An entry cannot be a translation of itself');
        if (others.includes(t.id) || t.original_entry_id === original.id) continue;
        others.push(t.id);
        effects.push({ key: `entry:${t.id}:original`, before: t.original_entry_id, after: original.id });
        for (const x of this.q.translationsOf.all(JSON.stringify([t.id])) as number[]) {
          effects.push({ key: `entry:${x}:original`, before: t.id, after: original.id });
        }
        objects.push({ type: 'entry', id: t.id, label: this.entryLabel(t) });
        lines.push(`translation: ${t.title} (${t.id})`);
      }
      if (others.length === 0) throw bad('Nothing to do: these translations are set already');
      return {
        op: 'add-translations', operation: 'add-translation', effects, objects, comment: lines.join('\n'),
        success: 'Translations set!', mainId: original.id, otherIds: others, msg,
      };
    });
  }

  setAggregated(viewer: Viewer, items: { id: number; position?: number | null }[]): CurationReply {
    assertCanMerge(viewer);
    return this.commit(viewer, () => {
      const [first, ...rest] = items;
      const agg = this.canonicalEntry(viewer, first.id);
      const ancestors = this.ancestors(agg.id);
      let next = ((this.q.maxPosition.get(agg.id) as number | null) ?? 0) + 1;
      const effects: Effect[] = [];
      const objects: ChangeObject[] = [{ type: 'entry', id: agg.id, label: this.entryLabel(agg) }];
      const lines = [`aggregation: ${agg.title} (${agg.id})`];
      const others: number[] = [];
      for (const item of rest) {
        const part = this.canonicalEntry(viewer, item.id);
        if (part.id === agg.id) throw bad('An aggregation cannot contain itself');
        if (ancestors.has(part.id)) throw bad('“{{aggregation}}” is part of “{{part}}”: an aggregation cannot contain itself', { aggregation: agg.title, part: part.title });
        if (others.includes(part.id)) continue;
        const key = `aggregation:${agg.id}:${part.id}`;
        const before = this.state.get(key) as { position: number | null } | null;
        const position = item.position ?? before?.position ?? next++;
        const after = { position };
        if (sameValue(before, after)) continue;
        others.push(part.id);
        effects.push({ key, before, after });
        objects.push({ type: 'entry', id: part.id, label: this.entryLabel(part) });
        lines.push(`aggregated: ${part.title} (${part.id}), position ${position}`);
      }
      if (others.length === 0) throw bad('Nothing to do: these entries are in the aggregation already');
      return { op: 'add-aggregations', operation: 'add-aggregation', effects, objects, comment: lines.join('\n'), success: 'Aggregation set!', mainId: agg.id, otherIds: others };
    });
  }

  /** Every aggregation an entry is part of, directly or through others (to refuse cycles). */
  private ancestors(id: number): Set<number> {
    const seen = new Set<number>();
    let frontier = [id];
    for (let depth = 0; frontier.length && depth < 50; depth++) {
      const next: number[] = [];
      for (const x of frontier) {
        for (const p of this.q.parentsOf.all({ id: x }) as number[]) if (!seen.has(p)) { seen.add(p); next.push(p); }
      }
      frontier = next;
    }
    return seen;
  }

  // ---------------------------------------------------------------- creation and author edits
  create(viewer: Viewer, target: 'agent' | 'aggregation', value: string): CreateReply {
    assertCanMerge(viewer);
    if (target === 'agent') {
      const name = normaliseAuthorName(value);
      if (!name) throw bad('No data received');
      const existing = this.q.agentByName.get(name) as { id: number; name: string } | undefined;
      if (existing) return { created: { id: existing.id, value: existing.name, type: 'agent' }, change_id: null };
    }
    let id = 0;
    const reply = this.commit(viewer, () => {
      if (target === 'agent') {
        const name = normaliseAuthorName(value);
        id = this.q.nextId('agents').get() as number;
        return {
          op: 'create-agent', operation: 'create-agent', effects: [{ key: `agent:${id}:exists`, before: null, after: { name } }],
          objects: [{ type: 'agent', id, label: name }], comment: `created: ${name} (${id})`, success: 'Created', mainId: id, otherIds: [],
        };
      }
      const title = value.trim().replace(/\s+/g, ' ');
      id = this.q.nextId('entries').get() as number;
      return {
        op: 'create-aggregation', operation: 'create-aggregation', effects: [{ key: `entry:${id}:exists`, before: null, after: { title } }],
        objects: [{ type: 'entry', id, label: title }], comment: `created: ${title} (${id})`, success: 'Created', mainId: id, otherIds: [],
      };
    });
    const row = target === 'agent' ? this.agentRow(id)!.name : this.entryRow(id)!.title;
    return { created: { id, value: row, type: target }, change_id: reply.change_id };
  }

  /** POST /agents/{id}: sets or clears (empty) the Wikidata id; the caller validated its shape. */
  editAgent(viewer: Viewer, id: number, wikidataId: string): { agent: Agent; error: null; change_id: number | null } {
    assertCanMerge(viewer);
    const row = this.agentRow(id);
    if (!row || !this.visibility.agent(id, viewer)) throw new HttpError(404, 'No such author');
    const value = wikidataId || null;
    let changeId: number | null = null;
    if (!sameValue(row.wikidata_id, value)) {
      changeId = this.commit(viewer, () => ({
        op: 'update-agent', operation: 'update-agent',
        effects: [{ key: `agent:${id}:wikidata`, before: row.wikidata_id, after: value }],
        objects: [{ type: 'agent', id, label: row.name }],
        comment: `${row.name} (${id}): Wikidata ${row.wikidata_id ?? '(none)'} → ${value ?? '(none)'}`,
        success: 'Updated', mainId: id, otherIds: [],
      })).change_id ?? null;
    }
    return { agent: this.agents.get(id)!, error: null, change_id: changeId };
  }

  // ---------------------------------------------------------------- exclusions (the user's own)
  exclusions(viewer: Viewer): Exclusion[] {
    assertCanSetExclusions(viewer);
    return (this.q.myExclusions.all(viewer.userId) as { id: number; type: ExclusionType; target_id: number; comment: string; created: string }[])
      .map((r) => ({ ...r, target: this.targetLabel(r.type, r.target_id, viewer) ?? `${r.type} ${r.target_id}` }));
  }

  /** The display name of an exclusion target, or null when the viewer may not know it exists. */
  private targetLabel(type: ExclusionType, id: number, viewer: Viewer): string | null {
    if (type === 'library') {
      const lib = this.libraries.get(id);
      return lib && this.libraries.isVisible(lib, viewer) ? lib.name : null;
    }
    if (type === 'author') return this.visibility.agent(id, viewer) ? (this.agentRow(id)?.name ?? null) : null;
    const row = this.entryRow(id);
    return row && this.visibility.entry(id, viewer) ? this.entryLabel(row) : null;
  }

  addExclusion(viewer: Viewer, type: ExclusionType, targetId: number, comment: string): CurationReply {
    assertCanSetExclusions(viewer);
    return this.commit(viewer, () => {
      const label = this.targetLabel(type, targetId, viewer);
      if (label === null) {
        if (type === 'library') throw bad('Library {{id}} does not exist', { id: targetId });
        throw type === 'author' ? bad('Author {{id}} does not exist', { id: targetId }) : bad('Entry {{id}} does not exist', { id: targetId });
      }
      if (this.q.exclusionOf.get(viewer.userId, type, targetId)) throw bad('{{name}} is in your exclusions already', { name: label });
      const id = this.q.nextId('exclusions').get() as number;
      const value = { user_id: viewer.userId!, type, target_id: targetId, comment, created: new Date().toISOString() };
      const objects: ChangeObject[] = [{ type: 'exclusion', id, label: `${type} ${label}` }];
      if (type !== 'library') objects.push({ type: type === 'author' ? 'agent' : 'entry', id: targetId, label });
      return {
        op: 'add-exclusion', operation: 'add-exclusion', effects: [{ key: `exclusion:${id}`, before: null, after: value }], objects,
        comment: `excluded: ${type} ${label} (${targetId})\nreason: ${comment}`, success: `${type} ${label} created`,
        mainId: id, otherIds: [], private: true,
      };
    });
  }

  removeExclusion(viewer: Viewer, id: number): CurationReply {
    assertCanSetExclusions(viewer);
    return this.commit(viewer, () => {
      const row = this.q.exclusionRow.get(id) as { id: number; user_id: number; type: ExclusionType; target_id: number; comment: string; created: string } | undefined;
      // Someone else's exclusion is not even said to exist.
      if (!row || row.user_id !== viewer.userId) throw bad('No such exclusion');
      const label = this.targetLabel(row.type, row.target_id, viewer) ?? `${row.type} ${row.target_id}`;
      const { id: _id, ...before } = row;
      return {
        op: 'revert-exclusions', operation: 'revert-exclusions', effects: [{ key: `exclusion:${id}`, before, after: null }],
        objects: [{ type: 'exclusion', id, label: `${row.type} ${label}` }], comment: `restored: ${row.type} ${label} (${row.target_id})`,
        success: 'Removed', mainId: id, otherIds: [], private: true,
      };
    });
  }

  // ---------------------------------------------------------------- revert one relation (the dashboards' Remove)
  revert(viewer: Viewer, type: RevertType, id: number, item?: number): CurationReply {
    if (type === 'exclusions') return this.removeExclusion(viewer, id);
    assertCanMerge(viewer);
    return this.commit(viewer, () => {
      const one = (op: string, operation: string, success: string, key: string, object: ChangeObject, comment: string): Plan => {
        const before = this.state.get(key);
        const after = key.endsWith(':children') ? [] : null;
        if (sameValue(before, after)) throw bad('Nothing to do');
        return { op, operation, success, effects: [{ key, before, after }], objects: [object], comment, mainId: id, otherIds: [] };
      };
      switch (type) {
        case 'merged-agents': {
          const row = this.namedAgent(viewer, id);
          return one('revert-merged-agents', 'remove-merge-agent', 'Removed merge', `agent:${id}:canonical`, { type: 'agent', id, label: row.name }, `alias removed: ${row.name} (${id})`);
        }
        case 'merged-entries': {
          const row = this.namedEntry(viewer, id);
          return one('revert-merged-entries', 'remove-merge-entry', 'Removed merge', `entry:${id}:canonical`, { type: 'entry', id, label: this.entryLabel(row) }, `alias removed: ${row.title} (${id})`);
        }
        case 'translations': {
          const row = this.namedEntry(viewer, id);
          // A link to an original the viewer may not see is not listed for them: answered as no link.
          if (row.original_entry_id !== null && !this.visibility.entry(row.original_entry_id, viewer)) throw bad('Nothing to do');
          return one('revert-translations', 'remove-translation', 'Removed translations', `entry:${id}:original`, { type: 'entry', id, label: this.entryLabel(row) }, `translation removed: ${row.title} (${id})`);
        }
        case 'split-agents': {
          const row = this.namedAgent(viewer, id);
          return one('revert-splat-agents', 'unsplit-agent', 'Removed', `agent:${id}:children`, { type: 'agent', id, label: row.name }, `split removed: ${row.name} (${id})`);
        }
        case 'aggregations': {
          // One link at a time: a dashboard row names its item, and a body without it (the anchor's
          // dashboard sends the row's `id`, the item) must not empty a whole aggregation.
          if (item === undefined) throw bad('Name the item to remove from the aggregation ({"id": aggregation, "item": entry})');
          const agg = this.namedEntry(viewer, id);
          const links = (this.q.linksOf.all(id) as { item: number; position: number | null }[])
            .filter((l) => l.item === item && this.visibility.entry(l.item, viewer));
          if (links.length === 0) throw bad('Nothing to do');
          return {
            op: 'revert-aggregations', operation: 'remove-aggregation', success: 'Removed',
            effects: links.map((l) => ({ key: `aggregation:${id}:${l.item}`, before: { position: l.position }, after: null })),
            objects: [{ type: 'entry', id, label: this.entryLabel(agg) }, ...links.map((l) => ({ type: 'entry' as const, id: l.item, label: this.entryRow(l.item)?.title ?? String(l.item) }))],
            comment: [`aggregation: ${agg.title} (${id})`, ...links.map((l) => `removed: ${this.entryRow(l.item)?.title ?? ''} (${l.item})`)].join('\n'),
            mainId: id, otherIds: links.map((l) => l.item),
          };
        }
      }
    });
  }

  // ---------------------------------------------------------------- dashboards
  listing(viewer: Viewer, type: ListingType): ListingResponse {
    if (type === 'exclusions') {
      const records = this.exclusions(viewer).map((x) => ({ ...x, username: viewer.username, revert: { id: x.id } }));
      return {
        target: type, records, fields: [
          { name: 'target', label: 'Name' }, { name: 'type', label: 'Type' }, { name: 'comment', label: 'Reason' }, { name: 'created', label: 'Date' },
        ],
      };
    }
    assertCanMerge(viewer);
    const s = this.db.sqlite;
    const limit = LISTING_LIMIT + 1;
    let fields: ListingResponse['fields'];
    let records: Record<string, unknown>[];
    switch (type) {
      case 'merged-agents':
        fields = [
          { name: 'canonical_name', label: 'Canonical Name' }, { name: 'canonical_id', label: 'Canonical ID', link: 'agent' },
          { name: 'name', label: 'Name' }, { name: 'id', label: 'ID', link: 'agent' },
        ];
        records = this.visibleRows<{ id: number; canonical_id: number }>(`SELECT a.id, a.name, c.id AS canonical_id, c.name AS canonical_name
          FROM agents a JOIN agents c ON c.id = a.canonical_agent_id ORDER BY c.name, a.name, a.id`, limit, (rows) => {
          const seen = this.visibility.agents(rows.flatMap((r) => [r.id, r.canonical_id]), viewer);
          return rows.filter((r) => seen.has(r.id) && seen.has(r.canonical_id));
        }).map((r) => ({ ...r, revert: { id: r.id } }));
        break;
      case 'merged-entries':
      case 'translations': {
        const col = type === 'merged-entries' ? 'canonical_entry_id' : 'original_entry_id';
        const prefix = type === 'merged-entries' ? 'canonical' : 'original';
        const label = type === 'merged-entries' ? 'Canonical' : 'Original';
        fields = [
          { name: `${prefix}_title`, label: `${label} Title` }, { name: `${prefix}_id`, label: `${label} ID`, link: 'entry' },
          { name: 'title', label: 'Title' }, { name: 'id', label: 'ID', link: 'entry' },
        ];
        const rows = this.visibleRows<{ id: number; title: string; other_id: number; other_title: string }>(`SELECT e.id, e.title, o.id AS other_id, o.title AS other_title
          FROM entries e JOIN entries o ON o.id = e.${col} ORDER BY o.title, e.title, e.id`, limit, (batch) => {
          const seen = this.visibility.entries(batch.flatMap((r) => [r.id, r.other_id]), viewer);
          return batch.filter((r) => seen.has(r.id) && seen.has(r.other_id));
        });
        const labels = this.entryLabels(rows.flatMap((r) => [r, { id: r.other_id, title: r.other_title }]));
        records = rows.map((r) => ({
          id: r.id, title: labels.get(r.id), [`${prefix}_id`]: r.other_id, [`${prefix}_title`]: labels.get(r.other_id), revert: { id: r.id },
        }));
        break;
      }
      case 'aggregations': {
        fields = [
          { name: 'aggregation_title', label: 'Aggregation' }, { name: 'aggregation_id', label: 'Aggregation ID', link: 'entry' },
          { name: 'position', label: 'Position' }, { name: 'title', label: 'Title' }, { name: 'id', label: 'ID', link: 'entry' },
        ];
        const rows = this.visibleRows<{ aggregation_id: number; id: number; title: string }>(`SELECT l.aggregation_entry_id AS aggregation_id, a.title AS aggregation_title, l.position, e.id, e.title
          FROM aggregation_links l JOIN entries a ON a.id = l.aggregation_entry_id JOIN entries e ON e.id = l.aggregated_entry_id
          ORDER BY a.title, l.aggregation_entry_id, l.position NULLS LAST, e.title, e.id`, limit, (batch) => {
          const seen = this.visibility.entries(batch.flatMap((r) => [r.aggregation_id, r.id]), viewer);
          return batch.filter((r) => seen.has(r.aggregation_id) && seen.has(r.id));
        });
        const labels = this.entryLabels(rows);
        records = rows.map((r) => ({ ...r, title: labels.get(r.id), revert: { id: r.aggregation_id, item: r.id } }));
        break;
      }
      case 'split-agents':
        fields = [{ name: 'id', label: 'ID', link: 'agent' }, { name: 'name', label: 'Original Name' }, { name: 'splat', label: 'Split into' }];
        // The parts are shown on the split author's entries: visible whenever it is.
        records = this.visibleRows<{ id: number }>(`SELECT a.id, a.name, string_agg(c.name, ' | ' ORDER BY ch.position, ch.child_id) AS splat
          FROM agents a JOIN agent_children ch ON ch.agent_id = a.id JOIN agents c ON c.id = ch.child_id GROUP BY a.id, a.name ORDER BY a.name, a.id`, limit, (rows) => {
          const seen = this.visibility.agents(rows.map((r) => r.id), viewer);
          return rows.filter((r) => seen.has(r.id));
        }).map((r) => ({ ...r, revert: { id: r.id } }));
        break;
      case 'changes': {
        fields = [
          { name: 'id', label: 'ID' }, { name: 'created', label: 'Date' }, { name: 'username', label: 'User' },
          { name: 'operation', label: 'Operation' }, { name: 'comment', label: 'Description' },
        ];
        const hidden = this.hiddenChanges(viewer);
        records = (s.prepare(`SELECT c.id, c.created, c.username, c.operation, c.comment FROM changes c WHERE (c.private = 0 OR c.user_id = ?)${hidden.sql}
          ORDER BY c.id DESC LIMIT ?`).all(viewer.userId, ...hidden.args, limit) as Record<string, unknown>[]);
        break;
      }
    }
    const truncated = records.length > LISTING_LIMIT;
    return { target: type, fields, records: records.slice(0, LISTING_LIMIT), truncated };
  }

  /**
   * Up to `limit` rows of an ordered query that `keep` lets through (the visible ones), read in batches so
   * that hidden rows neither fill the page nor show through a total.
   */
  private visibleRows<T>(sql: string, limit: number, keep: (rows: T[]) => T[]): T[] {
    const statement = this.db.sqlite.prepare(`${sql} LIMIT ? OFFSET ?`);
    const out: T[] = [];
    const batch = Math.max(limit, 500);
    for (let offset = 0; out.length < limit; offset += batch) {
      const rows = statement.all(batch, offset) as T[];
      out.push(...keep(rows));
      if (rows.length < batch) break;
    }
    return out.slice(0, limit);
  }

  /** Likely duplicates for curators (duplicates.ts). */
  duplicates(viewer: Viewer, kind: 'author' | 'entry') {
    assertCanMerge(viewer);
    const scope = viewer.isSuperuser ? null : { entries: (ids: number[]) => this.visibility.entries(ids, viewer), libraries: this.libraries.visibleIds(viewer) };
    return findDuplicates(this.db, this.resolver, kind, scope);
  }

  // ---------------------------------------------------------------- the change log and undo
  private visibleChange(viewer: Viewer, row: ChangeRow | undefined): row is ChangeRow {
    if (!row || viewer.userId === null) return false;
    if (!(row.private ? row.user_id === viewer.userId : viewer.canMerge)) return false;
    const objects = JSON.parse(row.objects) as ChangeObject[];
    const entries = objects.filter((o) => o.type === 'entry').map((o) => o.id);
    const agents = objects.filter((o) => o.type === 'agent').map((o) => o.id);
    const seenEntries = this.visibility.entries(entries, viewer);
    const seenAgents = this.visibility.agents(agents, viewer);
    return entries.every((id) => seenEntries.has(id)) && agents.every((id) => seenAgents.has(id));
  }

  /**
   * A condition on `changes c` leaving out the changes that name an entry or author the viewer may not see
   * (whole rows: their comments name them too), with its arguments; empty for a superuser.
   */
  private hiddenChanges(viewer: Viewer): { sql: string; args: unknown[] } {
    if (viewer.isSuperuser) return { sql: '', args: [] };
    const s = this.db.sqlite;
    const named = s.prepare(`SELECT DISTINCT object_type, object_id FROM change_objects WHERE object_type IN ('entry', 'agent')`).raw().all() as [string, number][];
    const entries = named.filter(([t]) => t === 'entry').map(([, id]) => id);
    const agents = named.filter(([t]) => t === 'agent').map(([, id]) => id);
    const seenEntries = this.visibility.entries(entries, viewer);
    const seenAgents = this.visibility.agents(agents, viewer);
    const hiddenEntries = entries.filter((id) => !seenEntries.has(id));
    const hiddenAgents = agents.filter((id) => !seenAgents.has(id));
    if (hiddenEntries.length === 0 && hiddenAgents.length === 0) return { sql: '', args: [] };
    const IDS = idList(s.dialect);
    return {
      sql: ` AND NOT EXISTS (SELECT 1 FROM change_objects o WHERE o.change_id = c.id
        AND ((o.object_type = 'entry' AND o.object_id IN ${IDS}) OR (o.object_type = 'agent' AND o.object_id IN ${IDS})))`,
      args: [JSON.stringify(hiddenEntries), JSON.stringify(hiddenAgents)],
    };
  }

  /** Why this change cannot be undone now (English text, a code for the UI, the blocking change), or null. */
  private undoBlocker(viewer: Viewer, row: ChangeRow): { text: string; reason: BlockedReason; change: number | null } | null {
    if (row.undone_by) return { text: `Undone already (change #${row.undone_by})`, reason: 'undone', change: row.undone_by };
    if (row.private ? row.user_id !== viewer.userId : !viewer.canMerge) return { text: 'Cannot do that', reason: 'not-allowed', change: null };
    const effects = JSON.parse(row.effects) as Effect[];
    if (effects.length === 0) return { text: 'Nothing to undo', reason: 'nothing', change: null };
    for (const e of effects) {
      if (sameValue(this.state.get(e.key), e.after)) continue;
      const later = this.q.laterChange.get(e.key, row.id) as number | null;
      return later
        ? { text: `Change #${later} changed this later: undo it first`, reason: 'later-change', change: later }
        : { text: 'Changed since by an import or a removed record: it cannot be undone', reason: 'changed-outside', change: null };
    }
    for (const e of effects) {
      const blocker = e.before === null ? this.state.deletionBlocker(e.key) : null;
      if (blocker) return { text: `${blocker}: undo the later changes first`, reason: 'in-use', change: null };
    }
    return null;
  }

  changes(viewer: Viewer, f: { user?: string; operation?: string; object_type?: ObjectType; object_id?: number; from?: string; to?: string; page_number?: number }): ChangesResponse {
    if (viewer.userId === null) throw new HttpError(401, 'Please log in');
    const where = ['(c.private = 0 AND ? = 1) OR (c.private = 1 AND c.user_id = ?)'];
    const args: unknown[] = [viewer.canMerge ? 1 : 0, viewer.userId];
    const clauses: string[] = [];
    if (f.user) { clauses.push('c.username = ?'); args.push(f.user); }
    if (f.operation) { clauses.push('c.operation = ?'); args.push(f.operation); }
    if (f.object_type) {
      clauses.push(`EXISTS (SELECT 1 FROM change_objects o WHERE o.change_id = c.id AND o.object_type = ?${f.object_id ? ' AND o.object_id = ?' : ''})`);
      args.push(f.object_type);
      if (f.object_id) args.push(f.object_id);
    } else if (f.object_id) {
      clauses.push('EXISTS (SELECT 1 FROM change_objects o WHERE o.change_id = c.id AND o.object_id = ?)');
      args.push(f.object_id);
    }
    if (f.from) { clauses.push('c.created >= ?'); args.push(f.from); }
    if (f.to) { clauses.push('c.created < ?'); args.push(nextDay(f.to)); }
    const hidden = this.hiddenChanges(viewer);
    const sqlWhere = `(${where[0]})${hidden.sql}${clauses.map((c) => ` AND ${c}`).join('')}`;
    args.splice(2, 0, ...hidden.args);
    const s = this.db.sqlite;
    const total = s.prepare(`SELECT count(*) FROM changes c WHERE ${sqlWhere}`).pluck().get(...args) as number;
    const page = f.page_number ?? 1;
    const rows = s.prepare(`SELECT c.* FROM changes c WHERE ${sqlWhere} ORDER BY c.id DESC LIMIT ? OFFSET ?`)
      .all(...args, CHANGES_PAGE_SIZE, (page - 1) * CHANGES_PAGE_SIZE) as ChangeRow[];
    const visibleArgs = [viewer.canMerge ? 1 : 0, viewer.userId, ...hidden.args];
    const distinct = (col: string) => s.prepare(`SELECT DISTINCT ${col} FROM changes c WHERE (${where[0]})${hidden.sql} AND ${col} IS NOT NULL ORDER BY 1`).pluck().all(...visibleArgs) as string[];
    return {
      changes: rows.map((r) => this.toChange(viewer, r)),
      total, page_number: page, page_size: CHANGES_PAGE_SIZE,
      operations: distinct('operation'), users: distinct('username'),
    };
  }

  private toChange(viewer: Viewer, r: ChangeRow): Change {
    const blocked = this.undoBlocker(viewer, r);
    return {
      id: r.id, created: r.created, username: r.username, operation: r.operation, comment: r.comment,
      objects: JSON.parse(r.objects) as ChangeObject[], undone_by: r.undone_by, undoes: r.undoes,
      can_undo: blocked === null, blocked_by: blocked?.text ?? null,
      blocked_reason: blocked?.reason ?? null, blocking_change_id: blocked?.change ?? null,
    };
  }

  undo(viewer: Viewer, changeId: number): CurationReply {
    if (viewer.userId === null) throw new HttpError(401, 'Please log in');
    return this.commit(viewer, () => {
      const row = this.q.change.get(changeId) as ChangeRow | undefined;
      if (!this.visibleChange(viewer, row)) throw new HttpError(404, 'No such change');
      const blocked = this.undoBlocker(viewer, row);
      if (blocked) throw bad(blocked.text);
      const effects = (JSON.parse(row.effects) as Effect[]).map((e) => ({ key: e.key, before: e.after, after: e.before })).reverse();
      return {
        op: 'undo', operation: 'undo', effects, objects: JSON.parse(row.objects) as ChangeObject[],
        comment: `undo of change #${row.id} (${row.operation})\n${row.comment}`, success: 'Undone',
        mainId: row.id, otherIds: [], private: !!row.private, undoes: row.id,
      };
    });
  }
}

function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
