// The rank step of a search: the entries matching a text subtree of the query in entry_fts (FTS5: the
// catalogue's on SQLite, the node's text mirror on PostgreSQL), with their relevance (bm25) added to the scores.
import type { SqlConnection } from '../db/connection.ts';
import { FTS5_SEARCH, RANK_SCALE, addRankList, parseIdList, type IdListAnswer, type TextSearch } from './fts.ts';
import { LAYER_STRIDE, addLayeredRankList, parseLayeredIdList } from './layers.ts';
import type { QueryNode } from './parser.ts';

/** Up to this many matches of one text expression are ranked by bm25 (about 60 ms); see `match`. */
export const EXACT_RANK_LIMIT = 20_000;
/** Every rowid (public rows and layers). */
const ALL_ROWS = Number.MAX_SAFE_INTEGER;

export class TextRanker {
  readonly text: TextSearch = FTS5_SEARCH;
  /** See `match` (a test lowers it). */
  exactRankLimit = EXACT_RANK_LIMIT;
  private statements: ReturnType<TextRanker['prepare']> | null = null;

  /** `connect`: where entry_fts is (the catalogue on SQLite, the text mirror on PostgreSQL: opened at first use). */
  constructor(private connect: () => SqlConnection) {}

  private get q() {
    return (this.statements ??= this.prepare(this.connect()));
  }

  private prepare(conn: SqlConnection) {
    return {
      ftsIdList: conn.prepare(this.text.idListSql).pluck(),
      ftsRanks: conn.prepare(this.text.rankListSql).pluck(),
      matchingIds: conn.prepare(this.text.matchingIdsSql).pluck(),
    };
  }

  /** Which of these rowids match an expression (`TextSearch.matchingIdsSql`). */
  matchingRowids(rowids: readonly number[], match: string): number[] {
    return this.q.matchingIds.all(JSON.stringify(rowids), match) as number[];
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
   * The entries whose full-text rows match: their own rows (what anyone may find) and the layer rows of
   * the private libraries in `layers` (search/layers.ts). Anonymous visitors read the own rows only.
   */
  matchingEntries(match: string, layers: ReadonlySet<number>): Int32Array {
    if (layers.size === 0) return parseIdList(this.q.ftsIdList.get(match, LAYER_STRIDE) as IdListAnswer);
    return parseLayeredIdList(this.q.ftsIdList.get(match, ALL_ROWS) as IdListAnswer, layers);
  }

  /** Adds each row's relevance (-bm25, which FTS5 gives negative) for the rows matching `match`. */
  private addRanks(match: string, scores: Float64Array, layers: ReadonlySet<number>): void {
    this.addRankAnswer(this.q.ftsRanks.get(match, layers.size ? ALL_ROWS : LAYER_STRIDE) as IdListAnswer, scores, layers);
  }

  private addRankAnswer(list: IdListAnswer, scores: Float64Array, layers: ReadonlySet<number>): void {
    if (layers.size === 0) addRankList(list, scores);
    else addLayeredRankList(list, scores, layers, RANK_SCALE);
  }
}
