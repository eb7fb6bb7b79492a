// Likely duplicates for curators: authors whose names fold to the same surname and first initial
// (across scripts by transliteration: "Kropotkin, Peter", "Pyotr Kropotkin", "Пётр Кропоткин"), and
// entries with the same folded title (articles ignored), a shared author and a shared language.
// Only suggestions: merging them goes through the normal merge operation and its change log.
import anyAscii from 'any-ascii';
import type { DuplicateGroup } from '@uc/shared';
import type { Db } from '../db/index.ts';

/** Most groups suggested at once. */
export const DUPLICATE_GROUP_LIMIT = 200;

const ARTICLES = new Set(['the', 'a', 'an', 'la', 'le', 'les', 'l', 'il', 'lo', 'gli', 'i', 'el', 'los', 'las', 'der', 'die', 'das', 'un', 'une', 'una', 'uno', 'ein', 'eine', 'o', 'to', 'ta', 'oi', 'h']);

const words = (s: string) => anyAscii(s).toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
/** Words of a name: a hyphenated surname stays one word ("Brlić-Mažuranić" is not "Mažuranić"). */
const nameWords = (s: string) => anyAscii(s).toLowerCase().split(/\s+/).map((w) => w.replace(/[^a-z0-9]/g, '')).filter(Boolean);

/** "surname initial" of a personal name; a single word stands for itself. */
export function personKey(name: string): string {
  const [before, after] = anyAscii(name).split(',', 2);
  if (after !== undefined && nameWords(before).length && nameWords(after).length) return `${nameWords(before).join(' ')} ${nameWords(after)[0][0]}`;
  const w = nameWords(name);
  if (w.length <= 1) return w.join('');
  return `${w[w.length - 1]} ${w[0][0]}`;
}

/**
 * A title without case, accents, script, punctuation or articles ("Conquest of Bread, The" = "The Conquest
 * of Bread"), and without a subtitle run into it ("Mutual Aid: A Factor of Evolution" = "Mutual Aid").
 */
export function titleKey(title: string): string {
  const main = title.split(/\s*[:;—–]\s+|\s+-\s+/)[0];
  return words(main || title).filter((w) => !ARTICLES.has(w)).join(' ');
}

export function findDuplicates(db: Db, kind: 'author' | 'entry'): DuplicateGroup[] {
  return kind === 'author' ? authorDuplicates(db) : entryDuplicates(db);
}

function authorDuplicates(db: Db): DuplicateGroup[] {
  // Canonical, unsplit authors with their entries (their variants' entries included).
  const rows = db.sqlite.prepare(`SELECT a.id, a.name, (SELECT count(DISTINCT ea.entry_id) FROM entry_agents ea JOIN agents v ON v.id = ea.agent_id
      WHERE v.id = a.id OR v.canonical_agent_id = a.id) AS entries
    FROM agents a WHERE a.canonical_agent_id IS NULL AND NOT EXISTS (SELECT 1 FROM agent_children ch WHERE ch.agent_id = a.id)`).all() as { id: number; name: string; entries: number }[];
  const groups = new Map<string, { id: number; label: string; entries: number }[]>();
  for (const r of rows) {
    if (r.entries === 0) continue;
    const key = personKey(r.name);
    if (!key) continue;
    const list = groups.get(key);
    const item = { id: r.id, label: r.name, entries: r.entries };
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  return finish('author', groups);
}

function entryDuplicates(db: Db): DuplicateGroup[] {
  const rows = db.sqlite.prepare(`SELECT e.id, e.title,
      (SELECT group_concat(coalesce(c.name, a.name), '|') FROM entry_agents ea JOIN agents a ON a.id = ea.agent_id
        LEFT JOIN agents c ON c.id = a.canonical_agent_id WHERE ea.entry_id = e.id) AS authors,
      (SELECT group_concat(language_code, '|') FROM entry_languages l WHERE l.entry_id = e.id) AS languages,
      (SELECT count(*) FROM data_sources d WHERE d.entry_id IN (SELECT id FROM entries v WHERE v.id = e.id OR v.canonical_entry_id = e.id)) AS holdings
    FROM entries e JOIN search_docs s ON s.entry_id = e.id AND s.doc IS NOT NULL WHERE e.canonical_entry_id IS NULL`).all() as
    { id: number; title: string; authors: string | null; languages: string | null; holdings: number }[];
  const byTitle = new Map<string, typeof rows>();
  for (const r of rows) {
    const key = titleKey(r.title);
    if (!key) continue;
    const list = byTitle.get(key);
    if (list) list.push(r);
    else byTitle.set(key, [r]);
  }
  const groups = new Map<string, { id: number; label: string; entries: number }[]>();
  for (const [key, list] of byTitle) {
    if (list.length < 2) continue;
    // Within one title: join entries sharing an author (or both anonymous) and a language (or one unknown).
    const authorsOf = (r: (typeof rows)[number]) => new Set((r.authors ?? '').split('|').filter(Boolean).map(personKey));
    const langsOf = (r: (typeof rows)[number]) => new Set((r.languages ?? '').split('|').filter(Boolean));
    const clusters: (typeof rows)[] = [];
    for (const r of list) {
      const ra = authorsOf(r);
      const rl = langsOf(r);
      const home = clusters.find((c) => c.some((o) => {
        const oa = authorsOf(o);
        const ol = langsOf(o);
        const authorsMatch = ra.size === 0 && oa.size === 0 ? true : [...ra].some((a) => oa.has(a));
        const langsMatch = rl.size === 0 || ol.size === 0 || [...rl].some((l) => ol.has(l));
        return authorsMatch && langsMatch;
      }));
      if (home) home.push(r);
      else clusters.push([r]);
    }
    clusters.filter((c) => c.length > 1).forEach((c, i) => {
      groups.set(`${key}#${i}`, c.map((r) => ({ id: r.id, label: r.authors ? `${r.title} — ${r.authors.split('|').join('; ')}` : r.title, entries: r.holdings })));
    });
  }
  return finish('entry', groups);
}

function finish(kind: 'author' | 'entry', groups: Map<string, { id: number; label: string; entries: number }[]>): DuplicateGroup[] {
  const out: DuplicateGroup[] = [];
  for (const [key, items] of groups) {
    if (items.length < 2) continue;
    items.sort((a, b) => b.entries - a.entries || a.id - b.id);
    out.push({ kind, key: key.replace(/#\d+$/, ''), items });
  }
  out.sort((a, b) => b.items.reduce((n, i) => n + i.entries, 0) - a.items.reduce((n, i) => n + i.entries, 0) || a.key.localeCompare(b.key));
  return out.slice(0, DUPLICATE_GROUP_LIMIT);
}
