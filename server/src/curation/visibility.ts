// What a curator may see, name and change: the catalogue's visibility rule (LibraryService.isVisible via
// CatalogueService.visibleEntries) applied to the entries and authors of curation, so an outside curator
// neither lists, nor changes, nor reads in the change log what only a library hidden from them holds.
// - An entry row is visible when one of its copies (its own, or those of entries merged into it) is in a
//   library the viewer may see; a curated aggregation through its parts (an aggregation of aggregations
//   through theirs), and while it has no parts yet, always (a curator typed its title; no library holds it).
// - An author is visible when one of the entries it is shown on (its own, its aliases', those of the
//   joint names split into it) is visible, or when it is on no entry at all (created by a curator).
// - An id that names no row (only an undone creation deletes one) is "visible": nothing of a library to
//   hide; the callers answer it as unknown on their own.
// - Superusers see everything (inactive libraries included: the curation history stays whole for them).
import type { Db } from '../db/index.ts';
import { idList } from '../db/dialect.ts';
import type { Viewer } from '../http/viewer.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import { aggregationKey } from './state.ts';

export class CurationVisibility {
  private q;

  constructor(db: Db, private catalogue: CatalogueService) {
    const s = db.sqlite;
    const IDS = idList(s.dialect);
    this.q = {
      entries: s.prepare(`SELECT e.id, e.canonical_entry_id, e.grouping_key,
          CASE WHEN EXISTS (SELECT 1 FROM aggregation_links l WHERE l.aggregation_entry_id = e.id) THEN 1 ELSE 0 END AS has_parts
        FROM entries e WHERE e.id IN ${IDS}`),
      agents: s.prepare(`SELECT id FROM agents WHERE id IN ${IDS}`).pluck(),
      parts: s.prepare(`SELECT aggregation_entry_id AS aggregation, aggregated_entry_id AS part FROM aggregation_links WHERE aggregation_entry_id IN ${IDS}`),
      // (author, entry) for every entry an author is shown on: its own, its aliases', those of authors split into it (and their aliases').
      agentEntries: s.prepare(`SELECT ea.agent_id AS agent, ea.entry_id FROM entry_agents ea WHERE ea.agent_id IN ${IDS}
        UNION ALL SELECT v.canonical_agent_id, ea.entry_id FROM agents v JOIN entry_agents ea ON ea.agent_id = v.id WHERE v.canonical_agent_id IN ${IDS}
        UNION ALL SELECT ch.child_id, ea.entry_id FROM agent_children ch JOIN entry_agents ea ON ea.agent_id = ch.agent_id WHERE ch.child_id IN ${IDS}
        UNION ALL SELECT ch.child_id, ea.entry_id FROM agent_children ch JOIN agents v ON v.canonical_agent_id = ch.agent_id
          JOIN entry_agents ea ON ea.agent_id = v.id WHERE ch.child_id IN ${IDS}`),
    };
  }

  /** Which of these entry ids (canonical or merged alias) the viewer may see. */
  entries(ids: Iterable<number>, viewer: Viewer, depth = 0): Set<number> {
    const all = [...new Set(ids)];
    if (viewer.isSuperuser || all.length === 0) return new Set(all);
    const rows = this.q.entries.all(JSON.stringify(all)) as { id: number; canonical_entry_id: number | null; grouping_key: string; has_parts: number }[];
    const found = new Set(rows.map((r) => r.id));
    const out = new Set(all.filter((id) => !found.has(id)));
    for (const r of rows) if (r.grouping_key === aggregationKey(r.id) && !r.has_parts) out.add(r.id);
    // visibleEntries counts the copies of entries merged into each id it is given: asked for a canonical and
    // its alias at once it would credit the alias's copies to the canonical, so the two kinds go separately.
    for (const kind of [rows.filter((r) => r.canonical_entry_id === null), rows.filter((r) => r.canonical_entry_id !== null)]) {
      for (const id of this.catalogue.visibleEntries(kind.map((r) => r.id), viewer)) out.add(id);
    }
    // visibleEntries sees a curated aggregation through parts that hold records; one whose parts are
    // curated aggregations themselves is visible through theirs (cycles are refused; the depth is a guard).
    const nested = rows.filter((r) => r.grouping_key === aggregationKey(r.id) && r.has_parts && !out.has(r.id)).map((r) => r.id);
    if (nested.length && depth < 8) {
      const links = this.q.parts.all(JSON.stringify(nested)) as { aggregation: number; part: number }[];
      const seen = this.entries(links.map((l) => l.part), viewer, depth + 1);
      for (const l of links) if (seen.has(l.part)) out.add(l.aggregation);
    }
    return out;
  }

  /** Which of these author ids the viewer may see. */
  agents(ids: Iterable<number>, viewer: Viewer): Set<number> {
    const all = [...new Set(ids)];
    if (viewer.isSuperuser || all.length === 0) return new Set(all);
    const json = JSON.stringify(all);
    const found = new Set(this.q.agents.all(json) as number[]);
    const shownOn = new Map<number, Set<number>>();
    for (const r of this.q.agentEntries.all(json, json, json, json) as { agent: number; entry_id: number }[]) {
      const list = shownOn.get(r.agent);
      if (list) list.add(r.entry_id);
      else shownOn.set(r.agent, new Set([r.entry_id]));
    }
    const visible = this.entries([...shownOn.values()].flatMap((s) => [...s]), viewer);
    return new Set(all.filter((id) => {
      if (!found.has(id)) return true;
      const entries = shownOn.get(id);
      return !entries || [...entries].some((e) => visible.has(e));
    }));
  }

  entry(id: number, viewer: Viewer): boolean {
    return this.entries([id], viewer).has(id);
  }

  agent(id: number, viewer: Viewer): boolean {
    return this.agents([id], viewer).has(id);
  }
}
