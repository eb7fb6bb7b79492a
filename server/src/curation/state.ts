// The curation state, addressed by keys: every curation change is a list of effects {key, before, after}
// on these keys, so applying, logging, undoing and checking "did anything change it since" are one
// mechanism (docs/curation.md). This file is the only place that reads and writes that state.
import { foldText } from '@uc/shared';
import type { Db } from '../db/index.ts';

/**
 * Keys:
 * - `agent:<id>:canonical`  number|null   the author it is merged into
 * - `agent:<id>:wikidata`   string|null   its Wikidata id
 * - `agent:<id>:children`   number[]      the parts it is split into ([] = not split)
 * - `agent:<id>:exists`     {name}|null   created by a curator (undo deletes it)
 * - `entry:<id>:canonical`  number|null   the entry it is merged into
 * - `entry:<id>:original`   number|null   the original it is a translation of
 * - `entry:<id>:exists`     {title}|null  an aggregation created by a curator
 * - `aggregation:<agg>:<item>` {position}|null  item is part of the aggregation
 * - `exclusion:<id>`        {user_id, type, target_id, comment, created}|null
 */
export type StateValue = null | number | string | number[] | Record<string, unknown>;
export interface Effect { key: string; before: StateValue; after: StateValue }

export class CurationState {
  private q;

  constructor(private db: Db) {
    const s = db.sqlite;
    this.q = {
      agent: s.prepare('SELECT id, name, canonical_agent_id, wikidata_id FROM agents WHERE id = ?'),
      setAgentCanonical: s.prepare(`UPDATE agents SET canonical_agent_id = ?, last_modified = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?`),
      setAgentWikidata: s.prepare(`UPDATE agents SET wikidata_id = ?, last_modified = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?`),
      children: s.prepare('SELECT child_id FROM agent_children WHERE agent_id = ? ORDER BY position, child_id').pluck(),
      clearChildren: s.prepare('DELETE FROM agent_children WHERE agent_id = ?'),
      addChild: s.prepare('INSERT INTO agent_children (agent_id, child_id, position) VALUES (?, ?, ?)'),
      insertAgent: s.prepare('INSERT INTO agents (id, name, normalized_name) VALUES (?, ?, ?)'),
      deleteAgent: s.prepare('DELETE FROM agents WHERE id = ?'),
      entry: s.prepare('SELECT id, title, canonical_entry_id, original_entry_id FROM entries WHERE id = ?'),
      setEntryCanonical: s.prepare(`UPDATE entries SET canonical_entry_id = ?, last_modified = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?`),
      setEntryOriginal: s.prepare(`UPDATE entries SET original_entry_id = ?, last_modified = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?`),
      insertEntry: s.prepare('INSERT INTO entries (id, title, grouping_key) VALUES (?, ?, ?)'),
      deleteEntry: s.prepare('DELETE FROM entries WHERE id = ?'),
      link: s.prepare('SELECT position FROM aggregation_links WHERE aggregation_entry_id = ? AND aggregated_entry_id = ?'),
      putLink: s.prepare(`INSERT INTO aggregation_links (aggregation_entry_id, aggregated_entry_id, position) VALUES (?, ?, ?)
        ON CONFLICT (aggregation_entry_id, aggregated_entry_id) DO UPDATE SET position = excluded.position`),
      deleteLink: s.prepare('DELETE FROM aggregation_links WHERE aggregation_entry_id = ? AND aggregated_entry_id = ?'),
      exclusion: s.prepare('SELECT user_id, type, target_id, comment, created FROM exclusions WHERE id = ?'),
      putExclusion: s.prepare(`INSERT INTO exclusions (id, user_id, type, target_id, comment, created) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET comment = excluded.comment`),
      deleteExclusion: s.prepare('DELETE FROM exclusions WHERE id = ?'),
      agentUse: s.prepare(`SELECT (SELECT count(*) FROM entry_agents WHERE agent_id = @id) + (SELECT count(*) FROM agents WHERE canonical_agent_id = @id)
        + (SELECT count(*) FROM agent_children WHERE agent_id = @id OR child_id = @id)
        + (SELECT count(*) FROM exclusions WHERE type = 'author' AND target_id = @id)`).pluck(),
      entryUse: s.prepare(`SELECT (SELECT count(*) FROM data_sources WHERE entry_id = @id) + (SELECT count(*) FROM aggregation_links
          WHERE aggregation_entry_id = @id OR aggregated_entry_id = @id) + (SELECT count(*) FROM entries WHERE canonical_entry_id = @id OR original_entry_id = @id)
        + (SELECT count(*) FROM exclusions WHERE type = 'entry' AND target_id = @id)`).pluck(),
    };
  }

  get(key: string): StateValue {
    const [kind, a, b] = key.split(':');
    const id = Number(a);
    const q = this.q;
    if (kind === 'agent') {
      const row = q.agent.get(id) as { name: string; canonical_agent_id: number | null; wikidata_id: string | null } | undefined;
      if (b === 'exists') return row ? { name: row.name } : null;
      if (!row) return null;
      if (b === 'canonical') return row.canonical_agent_id;
      if (b === 'wikidata') return row.wikidata_id;
      if (b === 'children') return q.children.all(id) as number[];
    } else if (kind === 'entry') {
      const row = q.entry.get(id) as { title: string; canonical_entry_id: number | null; original_entry_id: number | null } | undefined;
      if (b === 'exists') return row ? { title: row.title } : null;
      if (!row) return null;
      if (b === 'canonical') return row.canonical_entry_id;
      if (b === 'original') return row.original_entry_id;
    } else if (kind === 'aggregation') {
      const row = q.link.get(id, Number(b)) as { position: number | null } | undefined;
      return row ? { position: row.position } : null;
    } else if (kind === 'exclusion') {
      const row = q.exclusion.get(id) as Record<string, unknown> | undefined;
      return row ? { ...row } : null;
    }
    throw new Error(`unknown state key ${key}`);
  }

  set(key: string, value: StateValue): void {
    const [kind, a, b] = key.split(':');
    const id = Number(a);
    const q = this.q;
    if (kind === 'agent') {
      if (b === 'canonical') q.setAgentCanonical.run(value as number | null, id);
      else if (b === 'wikidata') q.setAgentWikidata.run(value as string | null, id);
      else if (b === 'children') {
        q.clearChildren.run(id);
        (value as number[]).forEach((child, i) => q.addChild.run(id, child, i));
      } else if (b === 'exists') {
        if (value === null) q.deleteAgent.run(id);
        else {
          const name = String((value as { name: string }).name);
          q.insertAgent.run(id, name, foldText(name));
        }
      }
    } else if (kind === 'entry') {
      if (b === 'canonical') q.setEntryCanonical.run(value as number | null, id);
      else if (b === 'original') q.setEntryOriginal.run(value as number | null, id);
      else if (b === 'exists') {
        if (value === null) q.deleteEntry.run(id);
        else q.insertEntry.run(id, String((value as { title: string }).title), aggregationKey(id));
      }
    } else if (kind === 'aggregation') {
      if (value === null) q.deleteLink.run(id, Number(b));
      else q.putLink.run(id, Number(b), (value as { position: number | null }).position ?? null);
    } else if (kind === 'exclusion') {
      if (value === null) q.deleteExclusion.run(id);
      else {
        const v = value as { user_id: number; type: string; target_id: number; comment: string; created: string };
        q.putExclusion.run(id, v.user_id, v.type, v.target_id, v.comment, v.created);
      }
    } else {
      throw new Error(`unknown state key ${key}`);
    }
  }

  /**
   * Why a created author or aggregation cannot be deleted now (something refers to it), or null.
   * Deleting is the undo of a creation; the generic "state unchanged" test cannot see references.
   */
  deletionBlocker(key: string): string | null {
    const [kind, a, b] = key.split(':');
    if (b !== 'exists') return null;
    if (kind === 'agent' && (this.q.agentUse.get({ id: Number(a) }) as number) > 0) return `Author ${a} is in use (entries, merges, splits or exclusions refer to it)`;
    if (kind === 'entry' && (this.q.entryUse.get({ id: Number(a) }) as number) > 0) return `Entry ${a} is in use (it has records, parts, merges or translations)`;
    return null;
  }
}

export const sameValue = (a: StateValue, b: StateValue) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The grouping key of a curated aggregation: unique, so imported records never join it. */
export const aggregationKey = (id: number) => `curated-aggregation:${id}`;
