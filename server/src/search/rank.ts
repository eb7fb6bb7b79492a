// The rank step of a search: the entries matching a text subtree of the query in entry_fts (FTS5, or the
// tsvector on PostgreSQL: fts.ts, pg-fts.ts), with their relevance (bm25 / ts_rank) added to the scores.
import type { Db } from '../db/index.ts';
import { RANK_SCALE, addRankList, parseIdList, textSearch, type IdListAnswer, type TextSearch } from './fts.ts';
import { LAYER_STRIDE, addLayeredRankList, parseLayeredIdList } from './layers.ts';
import type { QueryNode } from './parser.ts';

/** Up to this many matches of one text expression are ranked by bm25 (about 60 ms); see `match`. */
export const EXACT_RANK_LIMIT = 20_000;
/** Every rowid (public rows and layers). */
const ALL_ROWS = Number.MAX_SAFE_INTEGER;
/** A `rankedIdListSql` row: ids, their ranks, the title-and-author tier's ids and its ranks. */
type RankedAnswer = [IdListAnswer, IdListAnswer, IdListAnswer, IdListAnswer];

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
      ftsRankedIds: this.text.rankedIdListSql === null ? null : s.prepare(this.text.rankedIdListSql).raw(),
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
    const bits = new Uint8Array(capacity);
    const n = bits.length;
    const limit = this.exactRankLimit;
    // PostgreSQL: one statement answers the matches, their ranks and the title-and-author tier (`rankedIdListSql`).
    const answer = scores && this.q.ftsRankedIds
      ? this.q.ftsRankedIds.get(match, this.text.compile(node, 'strong'), layers.size ? ALL_ROWS : LAYER_STRIDE, limit) as RankedAnswer
      : null;
    const ids = answer ? this.entriesOf(answer[0], layers) : scores ? this.rankedEntries(match, scores, layers) : this.matchingEntries(match, layers);
    for (let i = 0; i < ids.length; i++) if (ids[i] < n) bits[ids[i]] = 1; // a larger id is not yet synced
    if (!scores) return bits;
    if (ids.length <= limit) {
      if (answer) this.addRanksOf(answer[1], match, scores, layers);
      return bits;
    }
    const strong = answer ? this.entriesOf(answer[2], layers) : this.rankedEntries(this.text.compile(node, 'strong'), scores, layers);
    if (strong.length > limit) {
      for (let i = 0; i < strong.length; i++) if (strong[i] < n) scores[strong[i]] += 1;
    } else if (answer) this.addRanksOf(answer[3], this.text.compile(node, 'strong'), scores, layers);
    return bits;
  }

  /** `matchingEntries`, and when they are at most `exactRankLimit` their ranks added to `scores` (FTS5: two statements that cost nothing more in-process). */
  private rankedEntries(match: string, scores: Float64Array, layers: ReadonlySet<number>): Int32Array {
    const ids = this.matchingEntries(match, layers);
    if (ids.length <= this.exactRankLimit) this.addRanks(match, scores, layers);
    return ids;
  }

  private entriesOf(list: IdListAnswer, layers: ReadonlySet<number>): Int32Array {
    return layers.size ? parseLayeredIdList(list, layers) : parseIdList(list);
  }

  /**
   * The ranks a `rankedIdListSql` answer holds, or (null: a viewer's layer rows outnumbered the limit
   * while their entries did not) read by themselves.
   */
  private addRanksOf(list: IdListAnswer, match: string, scores: Float64Array, layers: ReadonlySet<number>): void {
    if (list != null) this.addRankAnswer(list, scores, layers);
    else this.addRanks(match, scores, layers);
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
