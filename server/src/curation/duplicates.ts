// Likely duplicates for curators: authors whose names fold to the same surname and first initial
// (across scripts by transliteration: "Kropotkin, Peter", "Pyotr Kropotkin", "Пётр Кропоткин"), and
// entries with the same folded title (articles ignored), a shared author and a shared language.
// Only suggestions: merging them goes through the normal merge operation and its change log.
// A curator is suggested only what they may see (a DuplicateScope: visibility.ts), counted over what they may see.
import anyAscii from 'any-ascii';
import type { DuplicateGroup } from '@uc/shared';
import type { Db } from '../db/index.ts';
import { idList } from '../db/dialect.ts';
import type { AuthorResolver } from '../agents/resolve.ts';

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

/** What a viewer may see: which of these entries (raw ids), and the libraries whose copies count. Null: everything. */
export interface DuplicateScope {
  entries(ids: number[]): Set<number>;
  libraries: Set<number>;
}

export function findDuplicates(db: Db, resolver: AuthorResolver, kind: 'author' | 'entry', scope: DuplicateScope | null = null): DuplicateGroup[] {
  return kind === 'author' ? authorDuplicates(db, scope) : entryDuplicates(db, resolver, scope);
}

function authorDuplicates(db: Db, scope: DuplicateScope | null): DuplicateGroup[] {
  const s = db.sqlite;
  // Entries per shown author (its variants' entries included), then the canonical, unsplit authors.
  const counts = new Map((s.prepare(`SELECT coalesce(v.canonical_agent_id, v.id) AS id, count(DISTINCT ea.entry_id) AS n
    FROM entry_agents ea JOIN agents v ON v.id = ea.agent_id GROUP BY 1`).raw().all() as [number, number][]));
  const rows = s.prepare(`SELECT a.id, a.name FROM agents a WHERE a.canonical_agent_id IS NULL
    AND NOT EXISTS (SELECT 1 FROM agent_children ch WHERE ch.agent_id = a.id)`).all() as { id: number; name: string }[];
  const groups = new Map<string, Item[]>();
  for (const r of rows) {
    const entries = counts.get(r.id) ?? 0;
    const key = entries ? personKey(r.name) : '';
    if (key) push(groups, key, { id: r.id, label: r.name, entries });
  }
  if (scope) {
    // Recounted over the entries the viewer may see (their own copies): an author on none of them is not suggested.
    const candidates = [...groups.values()].filter((items) => items.length > 1).flat().map((i) => i.id);
    const json = JSON.stringify(candidates);
    const IDS = idList(s.dialect);
    const pairs = s.prepare(`SELECT coalesce(v.canonical_agent_id, v.id), coalesce(e.canonical_entry_id, e.id), e.id FROM entry_agents ea
      JOIN agents v ON v.id = ea.agent_id JOIN entries e ON e.id = ea.entry_id WHERE v.id IN ${IDS} OR v.canonical_agent_id IN ${IDS}`).raw().all(json, json) as [number, number, number][];
    const seen = scope.entries([...new Set(pairs.map((p) => p[2]))]);
    const visible = new Map<number, Set<number>>();
    for (const [agent, entry, raw] of pairs) {
      if (!seen.has(raw)) continue;
      const set = visible.get(agent);
      if (set) set.add(entry);
      else visible.set(agent, new Set([entry]));
    }
    for (const [key, items] of groups) {
      groups.set(key, items.map((i) => ({ ...i, entries: visible.get(i.id)?.size ?? 0 })).filter((i) => i.entries > 0));
    }
  }
  return finish('author', groups);
}

function entryDuplicates(db: Db, resolver: AuthorResolver, scope: DuplicateScope | null): DuplicateGroup[] {
  const s = db.sqlite;
  // Titles first (one cheap pass); authors, languages and holdings only for entries sharing a title.
  const byTitle = new Map<string, number[]>();
  for (const [id, title] of s.prepare(`SELECT e.id, e.title FROM entries e JOIN search_docs d ON d.entry_id = e.id AND d.doc IS NOT NULL
    WHERE e.canonical_entry_id IS NULL`).raw().iterate() as Iterable<[number, string]>) {
    const key = titleKey(title);
    if (key) {
      const list = byTitle.get(key);
      if (list) list.push(id);
      else byTitle.set(key, [id]);
    }
  }
  let candidates = [...byTitle.values()].filter((l) => l.length > 1).flat();
  if (scope) {
    const seen = scope.entries(candidates);
    candidates = candidates.filter((id) => seen.has(id));
    for (const [key, ids] of byTitle) byTitle.set(key, ids.filter((id) => seen.has(id)));
  }
  if (candidates.length === 0) return [];
  const json = JSON.stringify(candidates);
  const IDS = idList(s.dialect);
  const info = new Map<number, { title: string; authors: string[]; languages: Set<string>; holdings: number; years: Set<number>; libraries: Set<string> }>();
  for (const [id, title] of s.prepare(`SELECT id, title FROM entries WHERE id IN ${IDS}`).raw().all(json) as [number, string][]) {
    info.set(id, { title, authors: [], languages: new Set(), holdings: 0, years: new Set(), libraries: new Set() });
  }
  for (const [id, authors] of resolver.resolve(candidates)) {
    const i = info.get(id);
    if (i) i.authors = authors.shown.map((a) => a.value);
  }
  for (const [id, code] of s.prepare(`SELECT entry_id, language_code FROM entry_languages WHERE entry_id IN ${IDS}`).raw().all(json) as [number, string][]) {
    info.get(id)?.languages.add(code);
  }
  // Holdings: the copies in libraries the viewer may see, with their years and libraries (to compare the records).
  for (const [id, library, name, year] of s.prepare(`SELECT coalesce(e.canonical_entry_id, e.id), s.library_id, l.name, d.year_edition FROM data_sources d
    JOIN entries e ON e.id = d.entry_id JOIN sites s ON s.id = d.site_id JOIN libraries l ON l.id = s.library_id
    WHERE e.id IN ${IDS} OR e.canonical_entry_id IN ${IDS}`).raw().all(json, json) as [number, number, string, number | null][]) {
    const i = info.get(id);
    if (!i || (scope && !scope.libraries.has(library))) continue;
    i.holdings++;
    i.libraries.add(name);
    if (year) i.years.add(year);
  }
  const groups = new Map<string, Item[]>();
  for (const [key, ids] of byTitle) {
    if (ids.length < 2) continue;
    // Within one title: join entries sharing an author (or both anonymous) and a language (or one unknown).
    const clusters: number[][] = [];
    for (const id of ids) {
      const r = info.get(id)!;
      const ra = new Set(r.authors.map(personKey));
      const home = clusters.find((c) => c.some((other) => {
        const o = info.get(other)!;
        const oa = new Set(o.authors.map(personKey));
        const authorsMatch = ra.size === 0 && oa.size === 0 ? true : [...ra].some((a) => oa.has(a));
        const langsMatch = r.languages.size === 0 || o.languages.size === 0 || [...r.languages].some((l) => o.languages.has(l));
        return authorsMatch && langsMatch;
      }));
      if (home) home.push(id);
      else clusters.push([id]);
    }
    clusters.filter((c) => c.length > 1).forEach((c, i) => {
      for (const id of c) {
        const r = info.get(id)!;
        push(groups, `${key}#${i}`, {
          id, label: r.authors.length ? `${r.title} — ${r.authors.join('; ')}` : r.title, entries: r.holdings,
          years: [...r.years].sort((a, b) => a - b), languages: [...r.languages].sort(), libraries: [...r.libraries].sort((a, b) => a.localeCompare(b)),
        });
      }
    });
  }
  return finish('entry', groups);
}

interface Item { id: number; label: string; entries: number; years?: number[]; languages?: string[]; libraries?: string[] }

function push(groups: Map<string, Item[]>, key: string, item: Item) {
  const list = groups.get(key);
  if (list) list.push(item);
  else groups.set(key, [item]);
}

function finish(kind: 'author' | 'entry', groups: Map<string, Item[]>): DuplicateGroup[] {
  const out: DuplicateGroup[] = [];
  for (const [key, items] of groups) {
    if (items.length < 2) continue;
    items.sort((a, b) => b.entries - a.entries || a.id - b.id);
    out.push({ kind, key: key.replace(/#\d+$/, ''), items });
  }
  out.sort((a, b) => b.items.reduce((n, i) => n + i.entries, 0) - a.items.reduce((n, i) => n + i.entries, 0) || a.key.localeCompare(b.key));
  return out.slice(0, DUPLICATE_GROUP_LIMIT);
}
