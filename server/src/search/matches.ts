// The page step of a search: one page's matches in the spec's shape (their index documents read by id,
// cut to the copies the viewer may see), the translation families a search may widen to, and entry
// titles (the reason a related entry was added, the aggregate facet's names).
import { TRANSLATE_VALUES, type Match } from '@uc/shared';
import type { Db } from '../db/index.ts';
import { idList } from '../db/dialect.ts';
import type { LibraryService } from '../libraries/service.ts';
import type { IndexDoc } from './doc.ts';
import type { FacetColumn, MemoryIndex } from './memory-index.ts';

type Related = NonNullable<Match['related']>;
/** Entries added to a match set as relatives of a member: why (the relation and the member). */
export type RelatedEntries = Map<number, { relation: Related['relation']; entry_id: number }>;

export class MatchReader {
  private q;
  private families: { seq: number; originalOf: Map<number, number>; translationsOf: Map<number, number[]> } | null = null;
  private titlesKept = { seq: -1, titles: new Map<number, string | null>() };

  constructor(db: Db, private libraries: LibraryService) {
    const s = db.sqlite;
    const ids = idList(s.dialect);
    this.q = {
      docs: s.prepare(`SELECT entry_id, doc FROM search_docs WHERE entry_id IN ${ids}`).raw(),
      titles: s.prepare(`SELECT id, title FROM entries WHERE id IN ${ids}`).raw(),
      // Translation links between the entries the index shows (merged entries count as their canonical one).
      translations: s.prepare(`SELECT coalesce(e.canonical_entry_id, e.id), coalesce(o.canonical_entry_id, o.id)
        FROM entries e JOIN entries o ON o.id = e.original_entry_id`).raw(),
    };
  }

  /**
   * Adds to the match set the original and the translations of each member; says why each was added.
   * Only from members the viewer may see, and through an original they may see: a hidden entry's title
   * matched by the query, or named as the reason, would tell what a private library holds.
   */
  widenToTranslations(index: MemoryIndex, members: Uint8Array, visible: (id: number) => boolean): RelatedEntries {
    const seq = index.seq;
    if (this.families?.seq !== seq) {
      const originalOf = new Map<number, number>();
      const translationsOf = new Map<number, number[]>();
      for (const [member, original] of this.q.translations.iterate() as Iterable<[number, number]>) {
        if (member === original) continue;
        originalOf.set(member, original);
        const list = translationsOf.get(original);
        if (list) list.push(member);
        else translationsOf.set(original, [member]);
      }
      this.families = { seq, originalOf, translationsOf };
    }
    const { originalOf, translationsOf } = this.families;
    const related: RelatedEntries = new Map();
    const direct = members.slice();
    const n = members.length;
    for (let id = 0; id < n; id++) {
      if (!direct[id] || !visible(id)) continue;
      const root = originalOf.get(id) ?? id;
      if (root !== id && !visible(root)) continue;
      if (root !== id && root < n && !direct[root]) {
        members[root] = 1;
        if (!related.has(root)) related.set(root, { relation: 'original_of', entry_id: id });
      }
      for (const t of translationsOf.get(root) ?? []) {
        if (t === id || t >= n || direct[t] || !visible(t)) continue;
        members[t] = 1;
        related.set(t, { relation: 'translation_of', entry_id: root });
      }
    }
    return related;
  }

  /** The matches of a page's entry ids, in their order; `translate`: the viewer's translation column. */
  page(index: MemoryIndex, ids: number[], visibleLibs: Set<number>, related: RelatedEntries | null, translate: FacetColumn): Match[] {
    if (ids.length === 0) return [];
    const why = related ? ids.filter((id) => related.has(id)) : [];
    const whyTitles = this.entryTitles(why.map((id) => related!.get(id)!.entry_id));
    const rows = this.q.docs.all(JSON.stringify(ids)) as [number, string | null][];
    const byId = new Map(rows.map(([id, doc]) => [id, doc ? (JSON.parse(doc) as IndexDoc) : null]));
    const libs = this.libraries.all();
    // The translation flags as this viewer's columns count them (only related entries they may see).
    const tdict = index.dicts.translate;
    const translateOf = (id: number) => Array.from(translate.pool.subarray(translate.start[id], translate.start[id] + translate.len[id]))
      .map((c) => tdict.ids[c]).filter((v): v is Match['translate'][number]['id'] => v === 'translated' || v === 'translation');
    const out: Match[] = [];
    for (const id of ids) {
      const d = byId.get(id);
      if (!d) continue;
      // The spec's shape: lists of {id, value} (the anchor's client reads title[0].value, translate[i].id).
      out.push({
        entry_id: d.entry_id,
        title: [{ id: d.entry_id, value: d.title }, { id: d.entry_id, value: d.subtitle }],
        creator: d.creator,
        language: d.language,
        translate: translateOf(id).map((id) => ({ id, value: TRANSLATE_VALUES[id] })),
        date: visibleYears(d, visibleLibs).map((y) => ({ id: y, value: y })),
        data_sources: d.data_sources
          .filter((s) => visibleLibs.has(s.library_id))
          .map((s) => ({
            data_source_id: s.data_source_id,
            library_id: s.library_id,
            year_edition: s.year_edition,
            library_name: libs.get(s.library_id)?.name ?? '',
            library_type: libs.get(s.library_id)?.library_type ?? 'digital',
          })),
        ...(related?.has(id) ? { related: { ...related.get(id)!, title: whyTitles.get(related.get(id)!.entry_id) ?? '' } } : {}),
      });
    }
    return out;
  }

  entryTitles(ids: number[]): Map<number, string> {
    if (ids.length === 0) return new Map();
    return new Map(this.q.titles.all(JSON.stringify(ids)) as [number, string][]);
  }

  /**
   * `entryTitles` kept until the index changes (a title is written with its entry's reindex, which moves
   * `seq`): the aggregate facet names the same aggregations on most pages, a statement each on PostgreSQL.
   */
  keptEntryTitles(seq: number, ids: number[]): Map<number, string> {
    const kept = this.titlesKept;
    if (kept.seq !== seq || kept.titles.size > 10_000) {
      kept.seq = seq;
      kept.titles.clear();
    }
    const missing = ids.filter((id) => !kept.titles.has(id));
    if (missing.length) {
      const found = this.entryTitles(missing);
      for (const id of missing) kept.titles.set(id, found.get(id) ?? null);
    }
    const out = new Map<number, string>();
    for (const id of ids) {
      const title = kept.titles.get(id);
      if (title != null) out.set(id, title);
    }
    return out;
  }
}

/** The years of the copies the viewer may see (the public ones' in a document written before index format 3). */
function visibleYears(d: IndexDoc, visibleLibs: Set<number>): number[] {
  if (!d.data_sources.some((s) => s.download !== undefined)) return d.date;
  const years = new Set<number>();
  for (const s of d.data_sources) {
    if (!visibleLibs.has(s.library_id)) continue;
    if (s.year_edition) years.add(s.year_edition);
    if (s.year_first_edition) years.add(s.year_first_edition);
  }
  return [...years].sort((a, b) => a - b);
}
