// THE rule of how an entry's authors are shown after curation (one place; the index, the entry page and
// exclusions use it): each author is replaced by its canonical author (merges are one level deep), and
// an author that was split is replaced by its parts, each resolved to its canonical in turn.
import type { Db } from '../db/index.ts';
import { idList } from '../db/dialect.ts';

export interface ResolvedAuthor { id: number; value: string }
export interface ResolvedAuthors {
  /** What readers see: resolved, in the record's order, each once. */
  shown: ResolvedAuthor[];
  /** Every agent id an author exclusion may name for this entry: the canonical authors before any split, and the shown ones. */
  keys: number[];
}


/**
 * One entry's authors (canonical already, in the record's order) as shown, with the parts of the split
 * ones (`parts`, by agent id); null when it has none.
 */
export function resolveAuthors(authors: ResolvedAuthor[], parts: Map<number, ResolvedAuthor[]> = new Map()): ResolvedAuthors | null {
  if (authors.length === 0) return null;
  const e: ResolvedAuthors = { shown: [], keys: [] };
  for (const r of authors) {
    for (const a of parts.get(r.id) ?? [r]) {
      if (!e.shown.some((s) => s.id === a.id)) e.shown.push(a);
      if (!e.keys.includes(a.id)) e.keys.push(a.id);
    }
    if (!e.keys.includes(r.id)) e.keys.push(r.id);
  }
  return e;
}

export class AuthorResolver {
  private q;

  constructor(db: Db) {
    const s = db.sqlite;
    const IDS = idList(s.dialect);
    this.q = {
      canonical: s.prepare(`SELECT ea.entry_id, coalesce(c.id, a.id) AS id, coalesce(c.name, a.name) AS name
        FROM entry_agents ea JOIN agents a ON a.id = ea.agent_id LEFT JOIN agents c ON c.id = a.canonical_agent_id
        WHERE ea.entry_id IN ${IDS} ORDER BY ea.entry_id, ea.position`),
      parts: s.prepare(`SELECT ch.agent_id AS parent, coalesce(c.id, a.id) AS id, coalesce(c.name, a.name) AS name
        FROM agent_children ch JOIN agents a ON a.id = ch.child_id LEFT JOIN agents c ON c.id = a.canonical_agent_id
        WHERE ch.agent_id IN ${IDS} ORDER BY ch.agent_id, ch.position, ch.child_id`),
      canonicalOf: s.prepare('SELECT coalesce(canonical_agent_id, id) FROM agents WHERE id = ?').pluck(),
    };
  }

  /** Resolved authors of each entry (entries without authors are absent). */
  resolve(entryIds: number[]): Map<number, ResolvedAuthors> {
    const out = new Map<number, ResolvedAuthors>();
    if (entryIds.length === 0) return out;
    const rows = this.q.canonical.all(JSON.stringify(entryIds)) as { entry_id: number; id: number; name: string }[];
    if (rows.length === 0) return out;
    const parts = new Map<number, ResolvedAuthor[]>();
    for (const p of this.q.parts.all(JSON.stringify([...new Set(rows.map((r) => r.id))])) as { parent: number; id: number; name: string }[]) {
      const list = parts.get(p.parent);
      if (list) list.push({ id: p.id, value: p.name });
      else parts.set(p.parent, [{ id: p.id, value: p.name }]);
    }
    const byEntry = new Map<number, ResolvedAuthor[]>();
    for (const r of rows) {
      const list = byEntry.get(r.entry_id);
      if (list) list.push({ id: r.id, value: r.name });
      else byEntry.set(r.entry_id, [{ id: r.id, value: r.name }]);
    }
    for (const [entryId, authors] of byEntry) out.set(entryId, resolveAuthors(authors, parts)!);
    return out;
  }

  /** The id an author is shown (and searched, and excluded) under: its canonical, or itself. Null when unknown. */
  canonicalId(agentId: number): number | null {
    return (this.q.canonicalOf.get(agentId) as number | undefined) ?? null;
  }
}
