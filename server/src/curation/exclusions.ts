// A user's exclusions as the search applies them (anchor §3.6, without its bugs): an excluded library
// counts as not visible to that user (so only the entries no other visible library holds disappear), an
// excluded author hides the entries it is shown on (a merged alias counts as its canonical), an excluded
// entry hides that entry (a merged variant counts as its canonical).
import type { Db } from '../db/index.ts';
import type { Viewer } from '../http/viewer.ts';

export interface ViewerExclusions {
  libraries: Set<number>;
  agents: Set<number>;
  entries: Set<number>;
  /** Changes whenever the user's exclusions change (cache keys). */
  signature: string;
}

export class ExclusionStore {
  private q;

  constructor(db: Db) {
    this.q = db.sqlite.prepare(`SELECT x.id, x.type,
        CASE x.type WHEN 'author' THEN coalesce(a.canonical_agent_id, x.target_id)
                    WHEN 'entry' THEN coalesce(e.canonical_entry_id, x.target_id) ELSE x.target_id END AS target
      FROM exclusions x LEFT JOIN agents a ON x.type = 'author' AND a.id = x.target_id
        LEFT JOIN entries e ON x.type = 'entry' AND e.id = x.target_id
      WHERE x.user_id = ? ORDER BY x.id`);
  }

  /** Null for anonymous visitors and users without exclusions. */
  ofViewer(viewer: Viewer): ViewerExclusions | null {
    if (viewer.userId === null) return null;
    const rows = this.q.all(viewer.userId) as { id: number; type: string; target: number }[];
    if (rows.length === 0) return null;
    const out: ViewerExclusions = { libraries: new Set(), agents: new Set(), entries: new Set(), signature: '' };
    for (const r of rows) {
      if (r.type === 'library') out.libraries.add(r.target);
      else if (r.type === 'author') out.agents.add(r.target);
      else if (r.type === 'entry') out.entries.add(r.target);
    }
    out.signature = rows.map((r) => `${r.type[0]}${r.target}`).join(',');
    return out;
  }
}
