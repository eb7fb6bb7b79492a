// The rank step of a search: the entries matching a text subtree of the query in entry_fts (FTS5, or the
// tsvector on PostgreSQL: fts.ts, pg-fts.ts), with their relevance (bm25 / ts_rank) added to the scores.
import type { Db } from '../db/index.ts';
import { RANK_SCALE, addRankList, parseIdList, parseRankedRows, textSearch, type IdListAnswer, type TextSearch } from './fts.ts';
import { LAYER_STRIDE, addLayeredRankList, parseLayeredIdList, splitRowid } from './layers.ts';
import type { QueryNode } from './parser.ts';

/** Up to this many matches of one text expression are ranked by bm25 (about 60 ms); see `match`. */
export const EXACT_RANK_LIMIT = 20_000;
/** Every rowid (public rows and layers). */
const ALL_ROWS = Number.MAX_SAFE_INTEGER;

export class TextRanker {
  readonly text: TextSearch;
  /** See `match` (a test lowers it). */
  exactRankLimit = EXACT_RANK_LIMIT;
  private q;

  constructor(db: Db) {
    const s = db.sqlite;
    this.text = textSearch(s.dialect);
    this.q = {
      ftsIdList: s.prepare(this.text.idListSql).pluck(),
      ftsRanks: s.prepare(this.text.rankListSql).pluck(),
      ftsRankedRows: this.text.rankedRowsSql === null ? null : s.prepare(this.text.rankedRowsSql).pluck(),
    };
  }

  /**
   * The rows matching a pure text subtree; with `scores`, adds each one's relevance (higher = better).
   * bm25 costs about 3 µs a row: up to `exactRankLimit` matches are ranked exactly. Past that (a short
   * wildcard, a common word at a million entries) the matches in titles and authors come first, ranked
   * exactly when they are few enough, and the rest after them; ties go to the newest (order.ts).
   */
  match(node: QueryNode, scores: Float64Array | null, layers: ReadonlySet<number>, capacity: number): Uint8Array {
    const match = this.text.compile(node);
    if (scores && this.q.ftsRankedRows) return this.rankedRows(node, match, scores, layers, capacity);
    const bits = new Uint8Array(capacity);
    const n = bits.length;
    const ids = scores ? this.rankedEntries(match, scores, layers) : this.matchingEntries(match, layers);
    for (let i = 0; i < ids.length; i++) if (ids[i] < n) bits[ids[i]] = 1; // a larger id is not yet synced
    if (!scores || ids.length <= this.exactRankLimit) return bits;
    const strong = this.rankedEntries(this.text.compile(node, 'strong'), scores, layers);
    if (strong.length > this.exactRankLimit) for (let i = 0; i < strong.length; i++) if (strong[i] < n) scores[strong[i]] += 1;
    return bits;
  }

  /** `matchingEntries`, and when they are at most `exactRankLimit` their ranks added to `scores` (FTS5: two statements that cost nothing more in-process). */
  private rankedEntries(match: string, scores: Float64Array, layers: ReadonlySet<number>): Int32Array {
    const ids = this.matchingEntries(match, layers);
    if (ids.length <= this.exactRankLimit) this.addRanks(match, scores, layers);
    return ids;
  }

  /**
   * `match` with scores on PostgreSQL: every matching row with its rank and whether the title-and-author
   * tier holds it, from one statement (`rankedRowsSql`); then the same rule: up to `exactRankLimit`
   * entries ranked, past it the tier first, ranked when within the limit. An entry found by several of
   * its rows (public and the viewer's private layers) scores its best one.
   */
  private rankedRows(node: QueryNode, match: string, scores: Float64Array, layers: ReadonlySet<number>, capacity: number): Uint8Array {
    const bits = new Uint8Array(capacity);
    const below = layers.size ? ALL_ROWS : LAYER_STRIDE;
    const rows = parseRankedRows(this.q.ftsRankedRows!.get(match, this.text.compile(node, 'strong'), below) as IdListAnswer);
    // Each row's entry; -1: a private library's row the viewer may not see.
    const entry = new Int32Array(rows.rowids.length);
    for (let i = 0; i < entry.length; i++) {
      if (!layers.size) entry[i] = rows.rowids[i];
      else {
        const { entryId, libraryId } = splitRowid(rows.rowids[i]);
        entry[i] = libraryId === 0 || layers.has(libraryId) ? entryId : -1;
      }
    }
    if (markEntries(entry, null, bits) <= this.exactRankLimit) {
      addBestRanks(entry, rows.ranks, scores);
      return bits;
    }
    const tier = new Uint8Array(capacity);
    if (markEntries(entry, rows.tier, tier) <= this.exactRankLimit) addBestRanks(entry, rows.tier, scores);
    else for (let e = 0; e < tier.length; e++) if (tier[e]) scores[e] += 1;
    return bits;
  }

  /**
   * The entries whose full-text rows match: their own rows (what anyone may find) and the layer rows of
   * the private libraries in `layers` (search/layers.ts). Anonymous visitors read the own rows only.
   */
  matchingEntries(match: string, layers: ReadonlySet<number>): Int32Array {
    if (layers.size === 0) return parseIdList(this.q.ftsIdList.get(match, LAYER_STRIDE) as IdListAnswer);
    return parseLayeredIdList(this.q.ftsIdList.get(match, ALL_ROWS) as IdListAnswer, layers);
  }

  /** Adds each row's relevance (-bm25, which FTS5 gives negative; ts_rank on PostgreSQL) for the rows matching `match`. */
  private addRanks(match: string, scores: Float64Array, layers: ReadonlySet<number>): void {
    this.addRankAnswer(this.q.ftsRanks.get(match, layers.size ? ALL_ROWS : LAYER_STRIDE) as IdListAnswer, scores, layers);
  }

  private addRankAnswer(list: IdListAnswer, scores: Float64Array, layers: ReadonlySet<number>): void {
    if (layers.size === 0) addRankList(list, scores);
    else addLayeredRankList(list, scores, layers, RANK_SCALE);
  }
}

/**
 * Sets `bits` for the entries of `entry` (-1: none) whose `only` value is not negative (every row when
 * null) and returns how many distinct entries those are, ids past `bits` (not yet synced) included.
 */
function markEntries(entry: Int32Array, only: Float64Array | null, bits: Uint8Array): number {
  let count = 0;
  let unsynced: Set<number> | null = null;
  for (let i = 0; i < entry.length; i++) {
    const e = entry[i];
    if (e < 0 || (only && only[i] < 0)) continue;
    if (e < bits.length) {
      if (!bits[e]) {
        bits[e] = 1;
        count++;
      }
    } else if (!(unsynced ??= new Set()).has(e)) {
      unsynced.add(e);
      count++;
    }
  }
  return count;
}

/** Adds to each entry's score the best of its rows' ranks (millionths; negative: none). */
function addBestRanks(entry: Int32Array, ranks: Float64Array, scores: Float64Array): void {
  const best = new Map<number, number>();
  for (let i = 0; i < entry.length; i++) {
    const e = entry[i];
    if (e < 0 || e >= scores.length || ranks[i] < 0) continue;
    const before = best.get(e);
    if (before === undefined || ranks[i] > before) best.set(e, ranks[i]);
  }
  for (const [e, r] of best) scores[e] += r / RANK_SCALE;
}
