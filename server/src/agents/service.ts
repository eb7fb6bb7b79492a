// Agents (authors): lookups for other modules and the author search; curation of agents comes with its own module.
import { AGENT_SEARCH_LIMIT, foldText, type Agent, type AgentListItem, type AgentsResponse } from '@uc/shared';
import type { Db } from '../db/index.ts';
import { jsonIds } from '../db/dialect.ts';
import type { Viewer } from '../http/viewer.ts';

interface AgentRow { id: number; name: string; wikidata_id: string | null; canonical_agent_id: number | null; canonical_name: string | null; canonical_wikidata_id?: string | null }

/** Counts visible entries per creator id (the search index does this: SearchService.countVisible). */
export interface CreatorCounter {
  countVisible(name: 'creator', values: string[], viewer: Viewer): { counts: Map<string, number>; total: number };
}

/** Most agents a search looks at; a search this broad is capped anyway. */
const SEARCH_SCAN_LIMIT = 20_000;

export const PLEASE_SEARCH = 'Please search';
export const TOO_MANY = 'Too many results, continue searching';

export class AgentService {
  private byId;
  private namesStmt;
  private searchStmts = new Map<number, { all(...args: unknown[]): unknown[] }>();

  constructor(private db: Db) {
    this.byId = db.sqlite.prepare(`SELECT a.id, a.name, a.wikidata_id, a.canonical_agent_id, c.name AS canonical_name,
        c.wikidata_id AS canonical_wikidata_id
      FROM agents a LEFT JOIN agents c ON c.id = a.canonical_agent_id WHERE a.id = ?`);
    this.namesStmt = db.sqlite.prepare(`SELECT id, name FROM agents WHERE id IN (${jsonIds(db.sqlite.dialect, '?')})`);
  }

  get(id: number): Agent | null {
    const row = this.byId.get(id) as AgentRow | undefined;
    return row ? toAgent(row) : null;
  }

  /** The Wikidata id shown for an agent: its own, else (for a merged agent) its canonical's. */
  wikidataIdOf(id: number): { found: boolean; wikidataId: string | null } {
    const row = this.byId.get(id) as AgentRow | undefined;
    if (!row) return { found: false, wikidataId: null };
    const q = [row.wikidata_id, row.canonical_wikidata_id].map((v) => v?.trim()).find((v) => v && /^Q\d+$/.test(v));
    return { found: true, wikidataId: q ?? null };
  }

  names(ids: number[]): Map<number, string> {
    if (ids.length === 0) return new Map();
    const rows = this.namesStmt.all(JSON.stringify(ids)) as { id: number; name: string }[];
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /**
   * Author search: every word of the text (folded: case, accents) must occur in the author's name.
   * Only authors with visible entries are listed (counted under the canonical author, as their
   * 'See all entries' search finds them); most entries first, at most AGENT_SEARCH_LIMIT.
   */
  search(text: string, viewer: Viewer, counter: CreatorCounter): AgentsResponse {
    const words = [...new Set(foldText(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean))].slice(0, 8);
    const empty = { agents: [], matches: 0, total_agents: 0, can_merge: viewer.canMerge };
    if (words.length === 0) return { ...empty, warning: PLEASE_SEARCH };
    const rows = this.searchStmt(words.length).all(...words.map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`), SEARCH_SCAN_LIMIT) as AgentRow[];
    const linkIds = [...new Set(rows.map((r) => String(r.canonical_agent_id ?? r.id)))];
    const { counts, total } = counter.countVisible('creator', linkIds, viewer);
    const found: AgentListItem[] = [];
    for (const r of rows) {
      const n = counts.get(String(r.canonical_agent_id ?? r.id)) ?? 0;
      if (n > 0) found.push({ ...toAgent(r), entries_count: n });
    }
    found.sort((a, b) => b.entries_count - a.entries_count || Number(a.canonical !== null) - Number(b.canonical !== null)
      || foldText(a.name).localeCompare(foldText(b.name)) || a.id - b.id);
    return {
      agents: found.slice(0, AGENT_SEARCH_LIMIT),
      matches: total,
      total_agents: found.length,
      warning: found.length > AGENT_SEARCH_LIMIT ? TOO_MANY : null,
      can_merge: viewer.canMerge,
    };
  }

  private searchStmt(nWords: number) {
    let stmt = this.searchStmts.get(nWords);
    if (!stmt) {
      const where = Array.from({ length: nWords }, () => "a.normalized_name LIKE ? ESCAPE '\\'").join(' AND ');
      stmt = this.db.sqlite.prepare(`SELECT a.id, a.name, a.wikidata_id, a.canonical_agent_id, c.name AS canonical_name
        FROM agents a LEFT JOIN agents c ON c.id = a.canonical_agent_id WHERE ${where} LIMIT ?`);
      this.searchStmts.set(nWords, stmt);
    }
    return stmt;
  }
}

function toAgent(row: AgentRow): Agent {
  return {
    id: row.id,
    name: row.name,
    wikidata_id: row.wikidata_id,
    canonical: row.canonical_agent_id !== null && row.canonical_name !== null ? { id: row.canonical_agent_id, name: row.canonical_name } : null,
    search_link_id: row.canonical_agent_id ?? row.id,
  };
}
