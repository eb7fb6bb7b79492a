// Agents (authors): lookups for other modules; curation of agents comes with its own module.
import type { Agent } from '@uc/shared';
import type { Db } from '../db/index.ts';

interface AgentRow { id: number; name: string; wikidata_id: string | null; canonical_agent_id: number | null; canonical_name: string | null }

export class AgentService {
  private byId;
  private namesStmt;
  constructor(db: Db) {
    this.byId = db.sqlite.prepare(`SELECT a.id, a.name, a.wikidata_id, a.canonical_agent_id, c.name AS canonical_name
      FROM agents a LEFT JOIN agents c ON c.id = a.canonical_agent_id WHERE a.id = ?`);
    this.namesStmt = db.sqlite.prepare('SELECT id, name FROM agents WHERE id IN (SELECT value FROM json_each(?))');
  }

  get(id: number): Agent | null {
    const row = this.byId.get(id) as AgentRow | undefined;
    if (!row) return null;
    return {
      id: row.id,
      name: row.name,
      wikidata_id: row.wikidata_id,
      canonical: row.canonical_name,
      search_link_id: row.canonical_agent_id ?? row.id,
    };
  }

  names(ids: number[]): Map<number, string> {
    if (ids.length === 0) return new Map();
    const rows = this.namesStmt.all(JSON.stringify(ids)) as { id: number; name: string }[];
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
