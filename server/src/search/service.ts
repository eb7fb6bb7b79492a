// Faceted search: the query AST is evaluated to a set of entries (text parts by FTS5, filters by the
// in-memory columns), cut to what the viewer may see, counted per facet (each facet's counts reflect
// the other active filters), sorted and paged.
import {
  DEFAULT_PAGE_SIZE, FACET_NAMES, type FacetName, type FilterName, type SearchResponse, type SortBy, type Suggestion,
} from '@uc/shared';
import fs from 'node:fs';
import type { Db } from '../db/index.ts';
import type { Viewer } from '../http/viewer.ts';
import type { LibraryService } from '../libraries/service.ts';
import type { AgentService } from '../agents/service.ts';
import type { IndexDoc } from './doc.ts';
import type { ExclusionStore, ViewerExclusions } from '../curation/exclusions.ts';
import type { AuthorResolver } from '../agents/resolve.ts';
import type { TextSearch } from './fts.ts';
import type { FacetColumn } from './memory-index.ts';
import { idList } from '../db/dialect.ts';
import { MemoryIndex } from './memory-index.ts';
import { buildPager } from './pager.ts';
import { hasText, normaliseFilterValue, parseQuery } from './parser.ts';
import { Vocabulary, type WordScope } from './vocabulary.ts';
import { SuggestIndex } from './suggest.ts';
import { SnippetFinder } from './snippet.ts';
import { MatchReader } from './matches.ts';
import { buildFacets } from './facets.ts';
import { orderMatches } from './order.ts';
import { correctQuery, formsMatcher } from './correct.ts';
import { evaluateQuery, type EvaluateStep } from './evaluate.ts';
import { TextRanker } from './rank.ts';
import { TextMirror } from './text-mirror.ts';
import { MatchCounter, type ActiveFilter } from './count.ts';
import { HttpError } from '../http/errors.ts';
import { INDEX_FORMAT, catalogueId } from './indexer.ts';
import { catalogueStemLanguages } from './analysis.ts';
import { SnapshotRejected, lockSnapshot, readSnapshot, readSnapshotHeader, writeSnapshot, type SnapshotIdentity } from './snapshot.ts';

export interface SearchParams {
  query: string;
  sortBy?: SortBy;
  page: number;
  pageSize?: number;
  filters: Partial<Record<FilterName, string[]>>;
  /** No spelling correction (the reader refused it). */
  exact?: boolean;
  /** Widen the matches to every translation and the original of each matching work. */
  translations?: boolean;
}

/** Below this many matches a query is checked for misspelt words ("Did you mean …?"). */
export const FEW_MATCHES = 3;
/** The correction's matches are answered instead when it finds this many times more (or the query nothing). */
const REPLACE_RATIO = 5;
/** Background catch-up (`followChanges`): documents per slice, time per slice, pause when idle. */
const CATCH_UP_DOCS = 200;
const CATCH_UP_MS = 10;
const CATCH_UP_IDLE_MS = 100;
/** Documents per read when a request (or the start) syncs everything left. */
const SYNC_DOCS = 10_000;
/** Documents per slice while `load` syncs at start (the event loop answers /readyz between slices). */
const LOAD_DOCS = 2_000;
/**
 * While the background catch-up runs, a search finding the index further behind than this (another
 * process's large import) is answered 503 with Retry-After and /readyz says not ready, rather than
 * holding the node for the whole catch-up (about a minute per 500,000 documents with the text mirror).
 */
const LARGE_CHANGE_DOCS = 50_000;
/** A snapshot is written as soon as the index moved this many documents past it (a large import, a harvest). */
const SNAPSHOT_CHANGES = 20_000;
/** How long a search waits for the index being loaded before it is answered 503. */
const READY_WAIT_MS = 2_000;
/** Seconds a client is told to wait (Retry-After) while the index is loaded. */
export const LOADING_RETRY_S = 2;

/** A search or count asked before the index is complete: 503 with Retry-After, never a partial answer. */
export class SearchIndexLoading extends HttpError {
  constructor() {
    super(503, 'The search index is being loaded; try again in a few seconds', { headers: { 'Retry-After': String(LOADING_RETRY_S) } });
  }
}

/**
 * What one viewer's search reads: the private libraries whose full-text layers they may search
 * (search/layers.ts; empty for anonymous visitors) and the facet columns with those libraries' copies.
 */
interface SearchView {
  layers: ReadonlySet<number>;
  columns: Record<FilterName, FacetColumn>;
}

export { FACET_LIMIT } from './facets.ts';

export class SearchService {
  index = new MemoryIndex();
  vocabulary = new Vocabulary();
  suggestions = new SuggestIndex();
  private q;
  /** entry_fts's statements (FTS5 on both back ends). */
  private text: TextSearch;
  /** PostgreSQL: this node's FTS5 file made from the catalogue's texts (text-mirror.ts); null on SQLite. */
  readonly mirror: TextMirror | null;
  private pages: MatchReader;
  private snippets: SnippetFinder;
  private countCache: { key: string; value: { counts: Map<string, number>; total: number } } | null = null;
  /** Per-search scores over every entry id, reused (a search runs to its end before the next starts). */
  private scratch = { scores: new Float64Array(0) };
  private counter = new MatchCounter();
  private ranker: TextRanker;
  /** Up to this many matches of one text expression are ranked exactly (rank.ts; a test lowers it). */
  get exactRankLimit(): number {
    return this.ranker.exactRankLimit;
  }
  set exactRankLimit(n: number) {
    this.ranker.exactRankLimit = n;
  }
  /** Documents per read of `sync` (a field for tests). */
  syncDocs = SYNC_DOCS;
  /** See LARGE_CHANGE_DOCS (a field for tests). */
  largeChangeDocs = LARGE_CHANGE_DOCS;
  /** False from `markLoading` until `load` has made the index complete. */
  private complete = true;
  private loaded: Promise<void> | null = null;

  /** `textFile`: PostgreSQL only, where this node keeps its text mirror (by default in memory, for tests). */
  constructor(
    private db: Db, private libraries: LibraryService, private agents: AgentService,
    private exclusions: ExclusionStore, private resolver: AuthorResolver, opts: { textFile?: string } = {},
  ) {
    const s = db.sqlite;
    const ids = idList(s.dialect);
    this.mirror = s.dialect === 'postgres' ? new TextMirror(db, opts.textFile ?? ':memory:') : null;
    this.ranker = new TextRanker(() => this.mirror?.conn ?? s);
    this.text = this.ranker.text;
    this.q = {
      maxSeq: s.prepare('SELECT coalesce(max(seq), 0) FROM search_docs').pluck(),
      // With the entry it translates (canonical id), as the catalogue says now: a change of it reindexes the entry.
      since: s.prepare(`SELECT s.entry_id, s.doc, s.seq, coalesce(o.canonical_entry_id, o.id) FROM search_docs s
        LEFT JOIN entries e ON e.id = s.entry_id LEFT JOIN entries o ON o.id = e.original_entry_id
        WHERE s.seq > ? ORDER BY s.seq LIMIT ?`).raw(),
    };
    this.pages = new MatchReader(db, libraries);
    this.snippets = new SnippetFinder(db, this.ranker);
  }

  /** Brings the in-memory columns up to date with search_docs (cheap when nothing changed). */
  sync(): void {
    if (!this.complete) throw new SearchIndexLoading();
    this.followLibraryFlags();
    const max = this.q.maxSeq.get() as number;
    if (this.following && max - Math.min(this.index.seq, this.mirror?.seq ?? this.index.seq) > this.largeChangeDocs) {
      this.catchingUp = true;
      throw new SearchIndexLoading();
    }
    if (max > this.index.seq) while (this.applyChanges(this.syncDocs) === this.syncDocs);
    // The text mirror holds at least what the columns hold (it may be ahead: another node sharing it).
    if (this.mirror) while (this.mirror.advance(this.index.seq, this.syncDocs) === this.syncDocs);
  }

  /** Applies up to `limit` changed documents, in seq order; returns how many there were. */
  private applyChanges(limit: number): number {
    let applied = 0;
    const libraries = this.followLibraryFlags();
    for (const [id, doc, seq, original] of this.q.since.iterate(this.index.seq, limit) as Iterable<[number, string | null, number, number | null]>) {
      this.apply(id, doc, libraries, original === null ? null : Number(original));
      this.index.seq = seq; // everything up to here is applied
      applied++;
    }
    // The same documents' full-text rows into the text mirror (more when it is behind: a new file).
    if (this.mirror) applied = Math.max(applied, this.mirror.advance(this.index.seq, limit));
    return applied;
  }

  /**
   * Says the index is about to be loaded (by `load`): until then searches and counts answer 503 and
   * /readyz says not ready. `serve` calls it before it listens, then `load` once it listens.
   */
  markLoading(): void {
    this.complete = false;
  }

  /** Null when searches can be answered; else why not (for /readyz). */
  notReady(): string | null {
    if (!this.complete) return 'search index: loading';
    return this.catchingUp ? 'search index: catching up with a large change' : null;
  }

  /** `followChanges` runs (it catches up a large change in the background: see LARGE_CHANGE_DOCS). */
  private following = false;
  /** A search found the index far behind; cleared when the background catch-up has caught up. */
  private catchingUp = false;

  /** Waits up to `ms` for the index to be complete; true when it is. */
  async untilReady(ms = READY_WAIT_MS): Promise<boolean> {
    if (this.complete) return true;
    if (!this.loaded) return false;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.loaded.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
    return this.complete;
  }

  /**
   * Fills the index at start: from the snapshot file when it passes every check (snapshot.ts), else from
   * the documents (and says why in the log); then syncs what is newer than it, in slices so that the
   * event loop answers (/readyz, 503s) meanwhile. `beforeLoad`: a hook (tests hold the loading there).
   * Answers where the index came from.
   */
  load(opts: { snapshotFile: string | null; log?: (msg: string) => void; beforeLoad?: () => Promise<void> }): Promise<'snapshot' | 'documents'> {
    this.complete = false;
    const run = async (): Promise<'snapshot' | 'documents'> => {
      await opts.beforeLoad?.();
      await new Promise((r) => setImmediate(r));
      const t0 = performance.now();
      let from: 'snapshot' | 'documents' = 'documents';
      if (opts.snapshotFile) {
        const why = this.restoreSnapshot(opts.snapshotFile);
        if (why === null) from = 'snapshot';
        else opts.log?.(`Search index: not starting from the snapshot (${why}); reading every document instead.`);
      }
      const restored = this.index.seq;
      // A new text mirror (or one far behind) is made by its thread meanwhile (text-mirror.ts).
      const fill = this.fillMirror(opts.log);
      while (this.applyChanges(LOAD_DOCS) === LOAD_DOCS) await new Promise((r) => setImmediate(r));
      await fill;
      while (this.applyChanges(LOAD_DOCS) === LOAD_DOCS) await new Promise((r) => setImmediate(r));
      this.complete = true;
      const seconds = ((performance.now() - t0) / 1000).toFixed(1);
      opts.log?.(from === 'snapshot'
        ? `Search index: ${this.index.count} entries from the snapshot at seq ${restored}, ${this.index.seq - restored} later changes applied, in ${seconds} s.`
        : `Search index: ${this.index.count} entries read from the documents in ${seconds} s.`);
      return from;
    };
    const p = run();
    this.loaded = p.then(() => undefined);
    // A failed load leaves searching to the requests' own sync (as before snapshots), never stuck at 503.
    p.catch(() => {
      this.complete = true;
    });
    return p;
  }

  /** Restores the snapshot into empty structures; null when done, else why it was not used. */
  private restoreSnapshot(file: string): string | null {
    if (!fs.existsSync(file)) return 'there is none';
    const catalogue = this.catalogueId(false);
    if (catalogue === null) return 'the database has no catalogue id yet';
    try {
      const { parts } = readSnapshot(file, this.identity(catalogue), this.q.maxSeq.get() as number);
      if (!parts.index || !parts.vocabulary || !parts.suggest) throw new SnapshotRejected('a part is missing');
      this.index.restore(parts.index);
      this.vocabulary.restore(parts.vocabulary);
      this.suggestions.restore(parts.suggest);
      this.suggestionsBuilt = false;
      this.flagsOf = null;
      return null;
    } catch (e) {
      // Whatever was restored in part is dropped: the documents are read into new structures.
      this.index = new MemoryIndex();
      this.vocabulary = new Vocabulary();
      this.suggestions = new SuggestIndex();
      this.flagsOf = null;
      return e instanceof SnapshotRejected ? e.message : `it cannot be read: ${(e as Error).message}`;
    }
  }

  private identity(catalogue: string): SnapshotIdentity {
    return { indexFormat: INDEX_FORMAT, backend: this.db.sqlite.dialect, catalogue };
  }

  private catalogueId(create: boolean): string | null {
    return catalogueId(this.db.sqlite, create);
  }

  /**
   * Writes the snapshot of the index as it is now (complete only). Answers the file's size and the time
   * the event loop was held (gathering and copying; the checksum and the write follow in slices and
   * the thread pool), or null when another node sharing DATA_DIR is writing.
   */
  async writeSnapshot(file: string): Promise<{ bytes: number; seq: number; entries: number; heldMs: number; ms: number } | null> {
    if (!this.complete) return null;
    const release = lockSnapshot(file);
    if (!release) return null;
    try {
      const t0 = performance.now();
      const catalogue = this.catalogueId(true)!;
      const seq = this.index.seq;
      const entries = this.index.count;
      const parts = { index: this.index.snapshot(), vocabulary: this.vocabulary.snapshot(), suggest: this.suggestions.snapshot() };
      const written = writeSnapshot(file, { ...this.identity(catalogue), seq, entries }, parts);
      const heldMs = performance.now() - t0; // writeSnapshot's synchronous part: the gathering and copying
      const { bytes } = await written;
      return { bytes, seq, entries, heldMs, ms: performance.now() - t0 };
    } finally {
      release();
    }
  }

  /**
   * Keeps the snapshot file fresh: checks every `checkMs` whether the index moved past the file's seq
   * by SNAPSHOT_CHANGES documents (a large import or harvest), or at all and `minutes` passed since the
   * file was written, or the file is missing or of another database; then writes it. Nodes sharing
   * DATA_DIR read the file's header and take the lock, so one writes. Returns the function that stops it.
   */
  keepSnapshot(file: string, opts: { minutes: number; checkMs?: number; log?: (msg: string) => void }): () => void {
    let stopped = false;
    let busy = false;
    let checked = false;
    const check = async () => {
      // After the background catch-up folded the correction words (else the snapshot would fold them all at once).
      if (stopped || busy || !this.complete || !this.vocabulary.folded || !this.db.sqlite.open) return;
      busy = true;
      checked = true;
      try {
        const header = readSnapshotHeader(file);
        const catalogue = this.catalogueId(false);
        const mine = header && catalogue !== null && header.catalogue === catalogue && header.backend === this.db.sqlite.dialect
          && header.indexFormat === INDEX_FORMAT ? header : null;
        const moved = this.index.seq - (mine?.seq ?? -1);
        const due = !mine || moved >= SNAPSHOT_CHANGES
          || (moved > 0 && Date.now() - Date.parse(mine.written) >= opts.minutes * 60_000);
        if (!due || moved <= 0) return;
        const w = await this.writeSnapshot(file);
        if (w) opts.log?.(`Search snapshot written: ${w.entries} entries at seq ${w.seq}, ${(w.bytes / 1e6).toFixed(1)} MB in ${(w.ms / 1000).toFixed(1)} s (searches held ${Math.round(w.heldMs)} ms).`);
      } catch (e) {
        opts.log?.(`Search snapshot not written: ${(e as Error).message}`);
      } finally {
        busy = false;
      }
    };
    const timer = setInterval(() => void check(), opts.checkMs ?? 60_000);
    timer.unref();
    // The first check soon after the index is complete: a start from the documents writes one at once.
    const first = setInterval(() => {
      if (checked) clearInterval(first);
      else void check();
    }, 500);
    first.unref();
    return () => {
      stopped = true;
      clearInterval(timer);
      clearInterval(first);
    };
  }

  /** The last change of search_docs the in-memory index holds. */
  get indexedSeq(): number {
    return this.index.seq;
  }

  /**
   * Tells the index which libraries anyone may see (its translation and aggregation values count
   * the related entries those hold; a library's flags change no document). Answers the libraries.
   */
  private followLibraryFlags(): ReturnType<LibraryService['all']> {
    const libraries = this.libraries.all();
    if (libraries !== this.flagsOf) {
      this.flagsOf = libraries;
      this.index.setPublicLibraries(new Set([...libraries.values()].filter((l) => l.active && l.public).map((l) => l.id)));
    }
    return libraries;
  }

  private flagsOf: ReturnType<LibraryService['all']> | null = null;

  private apply(id: number, doc: string | null, libraries: ReturnType<LibraryService['all']>, original: number | null): void {
    if (doc) {
      const d = JSON.parse(doc) as IndexDoc;
      this.index.put(d, original);
      this.vocabulary.add(d, wordScope(d, libraries));
      this.suggestions.put(d);
    } else {
      this.index.remove(id);
      this.suggestions.remove(id);
    }
  }

  /**
   * One slice of background work: up to CATCH_UP_DOCS changed documents, the correction words and (after
   * a start) the suggest keys, for about CATCH_UP_MS. Answers whether more is left, nothing but the text
   * mirror's fill (its thread works on), or nothing.
   */
  private catchUp(): 'more' | 'waiting' | 'done' {
    const until = performance.now() + CATCH_UP_MS;
    if (this.applyChanges(CATCH_UP_DOCS) === CATCH_UP_DOCS) return 'more';
    // The text mirror's thread is still writing a large change: searches keep answering 503 until it is done.
    if (this.mirrorFill) return 'waiting';
    this.catchingUp = false;
    if (!this.vocabulary.step(Math.max(1, until - performance.now()))) return 'more';
    // The suggest keys are built here once, after a start; later changes are merged by the next
    // suggest request (sorting buckets again after every harvest batch cost more than a core's fifth).
    if (!this.suggestionsBuilt) this.suggestionsBuilt = this.suggestions.step(Math.max(1, until - performance.now()));
    return this.suggestionsBuilt ? 'done' : 'more';
  }

  private suggestionsBuilt = false;

  /** The text mirror's fill while one runs. */
  private mirrorFill: Promise<void> | null = null;

  /**
   * Starts the text mirror's fill thread when the file is more than `largeChangeDocs` behind the
   * catalogue (a new file; another process's large import), unless one runs; answers it (it never rejects:
   * a failed fill leaves the rest to `advance`).
   */
  private fillMirror(log?: (msg: string) => void): Promise<void> {
    if (this.mirrorFill || !this.mirror) return this.mirrorFill ?? Promise.resolve();
    const upTo = this.q.maxSeq.get() as number;
    if (!this.mirror.shouldFill(upTo, this.largeChangeDocs)) return Promise.resolve();
    const t0 = performance.now();
    const from = this.mirror.seq;
    this.mirrorFill = this.mirror.fill(upTo)
      .then(() => log?.(`Search text mirror: ${upTo - from} documents written in ${((performance.now() - t0) / 1000).toFixed(1)} s.`))
      .catch((e: Error) => log?.(`Search text mirror: the fill stopped (${e.message}); the rest is read as changes.`))
      .finally(() => {
        this.mirrorFill = null;
      });
    return this.mirrorFill;
  }

  /**
   * Keeps the index, the correction words and the suggest keys up to date between requests, in slices,
   * so that a search after another thread's or process's large write (a harvest's batch of 1,000
   * records) finds little left to do on its own path; it still syncs what remains, so answers are never
   * stale. Builds the suggest keys after a start the same way. Returns the function that stops it.
   */
  followChanges(): () => void {
    let timer: NodeJS.Timeout | null = null;
    let stopped = false;
    const tick = () => {
      if (stopped || !this.db.sqlite.open) return;
      if (!this.complete) {
        // `load` fills the index meanwhile.
        timer = setTimeout(tick, CATCH_UP_IDLE_MS);
        timer.unref();
        return;
      }
      let state: ReturnType<SearchService['catchUp']> = 'done';
      try {
        void this.fillMirror();
        state = this.catchUp();
      } catch {
        // A read failing between requests is retried at the next idle tick; requests sync on their own.
      }
      timer = setTimeout(tick, state === 'more' ? 1 : CATCH_UP_IDLE_MS);
      timer.unref();
    };
    timer = setTimeout(tick, 1);
    timer.unref();
    this.following = true;
    return () => {
      stopped = true;
      this.following = false;
      this.catchingUp = false;
      if (timer) clearTimeout(timer);
    };
  }

  /**
   * A search; when it finds fewer than FEW_MATCHES entries, its misspelt words are replaced by the
   * catalogue's closest ones: if that finds more, it is offered as `did_you_mean`, and when the query as
   * typed found nothing (or REPLACE_RATIO times fewer: a misspelt author's name found only inside a
   * text) the correction's matches are answered instead (`corrected`), after the query's own ones (exact
   * matches always rank first). `exact` refuses the correction.
   */
  search(params: SearchParams, viewer: Viewer): SearchResponse {
    // The libraries are asked for several times per search: their version is read once (a round trip on PostgreSQL).
    return this.libraries.steadily(() => this.searchOnce(params, viewer));
  }

  private searchOnce(params: SearchParams, viewer: Viewer): SearchResponse {
    const answer = this.run(params, viewer);
    if (params.exact || answer.total_entries >= FEW_MATCHES || !hasText(parseQuery(params.query.trim()))) return { ...answer, did_you_mean: null };
    // Only words of entries the viewer may see are known and proposed (vocabulary.ts); a word whose
    // other forms match an entry the viewer may see is not corrected (analysis.ts).
    const { visibleLibs, libVisible } = this.scope(viewer);
    const fixed = this.correctQuery(params.query.trim(), this.view(visibleLibs).layers, this.entryVisible(libVisible));
    if (fixed === null) return { ...answer, did_you_mean: null };
    const other = this.run({ ...params, query: fixed }, viewer, answer.total_entries > 0 ? params.query.trim() : null);
    if (other.total_entries <= answer.total_entries) return { ...answer, did_you_mean: null };
    if (answer.total_entries === 0 || other.total_entries >= REPLACE_RATIO * answer.total_entries) {
      // pretty_query stays the query as typed: the spec's client heads the results with it beside its
      // search box, and only `corrected` (our addition) says the matches are those of did_you_mean.
      return { ...other, querystring: answer.querystring, pretty_query: answer.pretty_query, did_you_mean: fixed, corrected: true };
    }
    return { ...answer, did_you_mean: fixed, corrected: false };
  }

  /**
   * Suggest as you type: up to 3 authors and 8 entries in all whose title or name has a word starting
   * with what was typed (as typed first, then shorter ones), only what the viewer may see.
   */
  suggest(typed: string, viewer: Viewer): Suggestion[] {
    this.sync();
    if (typed.trim().length < 2) return [];
    const candidates = this.suggestions.candidates(typed);
    const rank = (a: { whole: boolean; value: string }, b: { whole: boolean; value: string }) =>
      Number(b.whole) - Number(a.whole) || a.value.length - b.value.length || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
    const { libVisible, hidden } = this.scope(viewer);
    const seen = this.entryVisible(libVisible);
    const visible = (id: number) => seen(id) && !(hidden && hidden(id));
    const authorIds = candidates.filter((c) => c.type === 'author').map((c) => String(c.id));
    const counts = authorIds.length ? this.countVisible('creator', authorIds, viewer).counts : new Map<string, number>();
    const authors = candidates.filter((c) => c.type === 'author' && (counts.get(String(c.id)) ?? 0) > 0).sort(rank).slice(0, 3);
    const titles = candidates.filter((c) => c.type === 'title' && visible(c.id)).sort(rank).slice(0, 8 - authors.length);
    return [
      ...authors.map((c) => ({ type: 'author' as const, id: c.id, value: c.value, detail: null })),
      ...titles.map((c) => ({ type: 'title' as const, id: c.id, value: c.value, detail: this.suggestions.titleOf(c.id)?.author ?? null })),
    ];
  }

  /** The query with its misspelt words replaced (correct.ts); null when nothing changed. */
  correctQuery(query: string, layers: ReadonlySet<number> = new Set(), visible: ((id: number) => boolean) | null = null): string | null {
    return correctQuery(query, this.vocabulary, layers, visible ? formsMatcher(this.ranker, this.stemLanguages(), layers, visible) : undefined);
  }

  private stemLangs = { seen: -1, langs: [] as string[] };
  /** The stemming languages of the catalogue's records (search/analysis.ts), kept until a new language is indexed. */
  stemLanguages(): string[] {
    const codes = this.index.dicts.language.ids;
    if (codes.length !== this.stemLangs.seen) this.stemLangs = { seen: codes.length, langs: catalogueStemLanguages(codes) };
    return this.stemLangs.langs;
  }

  /** One search; `prefer`: a query whose matches are added and ranked before all others. */
  private run(params: SearchParams, viewer: Viewer, prefer: string | null = null): SearchResponse {
    this.sync();
    const index = this.index;
    const query = params.query.trim();
    const ast = parseQuery(query, this.stemLanguages()); // throws QuerySyntaxError -> 400
    const textual = hasText(ast);
    const sortBy: SortBy = params.sortBy ?? (query ? 'relevance' : 'datestamp');
    const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
    const page = Math.max(1, params.page);
    // Filter values naming what the viewer may not see answer as nonexistent ids do.
    const named = this.namer(viewer);
    const { visibleLibs, libVisible, hidden, signature } = this.scope(viewer);
    const view = this.view(visibleLibs);

    // 1. The query's own match set.
    // Scores are only needed to sort by relevance; bm25 is skipped otherwise.
    let scores: Float64Array | null = null;
    let candidates: Uint8Array | null = null;
    if (ast) {
      scores = textual && sortBy === 'relevance' ? this.zeroedScores(index.capacity) : null;
      const step = this.evaluateStep(named, view);
      candidates = evaluateQuery(ast, scores, step);
      const preferred = prefer ? parseQuery(prefer, this.stemLanguages()) : null;
      if (preferred) {
        const own = evaluateQuery(preferred, null, step);
        for (let i = 0; i < own.length; i++) {
          if (!own[i]) continue;
          candidates[i] = 1;
          if (scores) scores[i] += 1e9;
        }
      }
    }
    // Every translation and the original of each matching work; they rank after the works that match.
    const related = params.translations && candidates ? this.pages.widenToTranslations(index, candidates, this.entryVisible(libVisible)) : null;

    // 2. Active filters (filter_<facet>), values OR-ed within a facet, facets AND-ed.
    const filters: Record<string, string[]> = {};
    const active: ActiveFilter[] = [];
    for (const [name, raw] of Object.entries(params.filters) as [FilterName, string[]][]) {
      // A malformed value (filter_date=abc) names nothing, as a nonexistent id: it matches nothing.
      if (raw.length === 0) continue;
      const values = [...new Set(raw.map((v) => this.filterValue(name, normaliseFilterValue(name, v))).filter((v): v is string => v !== null))];
      filters[name] = values;
      const dict = index.dicts[name];
      const codes = new Uint8Array(dict.size + 1);
      for (const v of values) {
        const c = dict.codeOf.get(v);
        if (c !== undefined && named(name, v)) codes[c] = 1;
      }
      active.push({ name, codes, facetIndex: FACET_NAMES.indexOf(name as FacetName) });
    }
    if (active.length > 30) throw new Error('too many filters');

    // 3. One pass: visibility (the viewer's exclusions included), filter failures; then facet counts (count.ts).
    const whole = candidates === null && active.length === 0
      ? `${[...visibleLibs].sort((a, b) => a - b).join(',')}|${signature}`
      : null;
    const { results, counts } = this.counter.count(index, { candidates, active, hidden, libVisible, columns: view.columns, whole });

    // 4. Sort and page.
    const ordered = orderMatches(index, results, sortBy, textual ? scores : null);
    const offset = (page - 1) * pageSize;
    const pageIds = ordered(offset, pageSize);
    const matches = this.pages.page(index, pageIds, visibleLibs, related, view.columns.translate);
    if (textual && matches.length) this.snippets.add(matches, ast, view.layers);

    return {
      matches,
      facets: buildFacets(index, counts, filters, visibleLibs, {
        libraries: this.libraries.all(), named,
        agentName: (id) => this.agents.get(id)?.name,
        entryTitles: (ids) => this.pages.keptEntryTitles(index.seq, ids),
      }),
      filters,
      pager: buildPager(page, results.length, pageSize),
      total_entries: results.length,
      page_number: page,
      page_size: pageSize,
      sort_by: sortBy,
      can_merge: viewer.canMerge,
      can_set_exclusions: viewer.canSetExclusions,
      is_authenticated: viewer.userId !== null,
      pretty_query: this.prettyQuery(query, named),
      querystring: query,
    };
  }

  /**
   * Visible entries per value of one column (library or creator ids, as `library:<id>` / `creator:<id>`
   * find them), for the library list and the author search. `values` null = every value. `total` counts
   * the entries having at least one of the values, each once. Library counts are only made for libraries
   * the viewer can see (the others are absent from `counts`).
   */
  countVisible(name: 'library' | 'creator', values: string[] | null, viewer: Viewer): { counts: Map<string, number>; total: number } {
    this.sync();
    const index = this.index;
    const { visibleLibs, libVisible, hidden, signature } = this.scope(viewer);
    const key = values === null ? `${name}|${index.seq}|${[...visibleLibs].join(',')}|${signature}` : null;
    if (key !== null && this.countCache?.key === key) return this.countCache.value;
    const dict = index.dicts[name];
    const wanted = new Uint8Array(dict.size + 1);
    if (values === null) wanted.fill(1);
    else for (const v of values) {
      const c = dict.codeOf.get(v);
      if (c !== undefined) wanted[c] = 1;
    }
    if (name === 'library') for (let c = 0; c < dict.size; c++) wanted[c] &= libVisible[c];
    const cnt = new Int32Array(dict.size + 1);
    const libCol = index.columns.library;
    const col = index.columns[name];
    let total = 0;
    for (let id = 0; id < index.capacity; id++) {
      if (!index.present[id]) continue;
      const n = col.len[id];
      if (!n) continue;
      if (hidden && hidden(id)) continue;
      let vis = false;
      for (let i = libCol.start[id], e = i + libCol.len[id]; i < e; i++) if (libVisible[libCol.pool[i]]) { vis = true; break; }
      if (!vis) continue;
      let any = false;
      for (let i = col.start[id], e = i + n; i < e; i++) {
        const c = col.pool[i];
        if (wanted[c]) {
          cnt[c]++;
          any = true;
        }
      }
      if (any) total++;
    }
    const counts = new Map<string, number>();
    for (let c = 0; c < dict.size; c++) if (wanted[c]) counts.set(dict.ids[c], cnt[c]);
    const value = { counts, total };
    if (key !== null) this.countCache = { key, value };
    return value;
  }

  /** The private libraries whose copies this viewer searches and counts (see SearchView). */
  private view(visibleLibs: Set<number>): SearchView {
    const libs = this.libraries.all();
    const layers = new Set<number>();
    for (const id of visibleLibs) if (!libs.get(id)?.public) layers.add(id);
    return { layers, columns: this.index.viewColumns(layers) };
  }

  /**
   * What the viewer may see: the visible libraries minus those they excluded, and a test for the entries
   * their author and entry exclusions hide (null when they have none).
   */
  private scope(viewer: Viewer): { visibleLibs: Set<number>; libVisible: Uint8Array; hidden: ((id: number) => boolean) | null; signature: string } {
    const ex = this.exclusions.ofViewer(viewer);
    const visibleLibs = this.libraries.visibleIds(viewer);
    if (ex) for (const l of ex.libraries) visibleLibs.delete(l);
    const libDict = this.index.dicts.library;
    const libVisible = new Uint8Array(libDict.size + 1);
    for (let c = 0; c < libDict.size; c++) if (visibleLibs.has(Number(libDict.ids[c]))) libVisible[c] = 1;
    return { visibleLibs, libVisible, hidden: ex ? this.hiddenTest(ex) : null, signature: ex?.signature ?? '' };
  }

  /**
   * Which filter values name something the viewer may see, by the visibility rule alone
   * (`LibraryService.isVisible`; the viewer's own exclusions do not hide names): a visible library; an
   * author with at least one visible entry (or with no entry at all: nothing of a library to hide); an
   * aggregation that is itself visible. Other values (languages, dates…) name nothing hidden. A value
   * naming something hidden answers exactly as a nonexistent id: it matches nothing and has no name.
   */
  private namer(viewer: Viewer): (name: FilterName, value: string) => boolean {
    const index = this.index;
    const libs = this.libraries.visibleIds(viewer);
    const libDict = index.dicts.library;
    const libSeen = new Uint8Array(libDict.size + 1);
    for (let c = 0; c < libDict.size; c++) if (libs.has(Number(libDict.ids[c]))) libSeen[c] = 1;
    const entrySeen = this.entryVisible(libSeen);
    const creators = new Map<string, boolean>();
    const creatorSeen = (value: string) => {
      const code = index.dicts.creator.codeOf.get(value);
      if (code === undefined) return true;
      const col = index.columns.creator;
      let any = false;
      for (let id = 0; id < index.capacity; id++) {
        if (!index.present[id]) continue;
        for (let i = col.start[id], e = i + col.len[id]; i < e; i++) {
          if (col.pool[i] !== code) continue;
          if (entrySeen(id)) return true;
          any = true;
          break;
        }
      }
      return !any;
    };
    return (name, value) => {
      switch (name) {
        case 'library':
          return libs.has(Number(value));
        case 'aggregate':
          return !/^\d+$/.test(value) || entrySeen(Number(value));
        case 'creator': {
          let seen = creators.get(value);
          if (seen === undefined) creators.set(value, (seen = creatorSeen(value)));
          return seen;
        }
        default:
          return true;
      }
    };
  }

  /** True when the visibility rule hides this author from the viewer (see `namer`): answer as for a nonexistent author. */
  hidesCreator(agentId: number, viewer: Viewer): boolean {
    this.sync();
    return !this.namer(viewer)('creator', this.filterValue('creator', String(agentId))!);
  }

  /** An entry is in the index and has a copy in one of the libraries of `libVisible` (see `scope`). */
  private entryVisible(libVisible: Uint8Array): (id: number) => boolean {
    const index = this.index;
    const { start, len, pool } = index.columns.library;
    return (id) => {
      if (!(id < index.capacity && index.present[id])) return false;
      for (let i = start[id], e = i + len[id]; i < e; i++) if (libVisible[pool[i]]) return true;
      return false;
    };
  }

  private hiddenTest(ex: ViewerExclusions): ((id: number) => boolean) | null {
    if (ex.entries.size === 0 && ex.agents.size === 0) return null;
    const keys = this.index.agentKeys;
    return (id) => {
      if (ex.entries.has(id)) return true;
      if (ex.agents.size) {
        for (let i = keys.start[id], e = i + keys.len[id]; i < e; i++) if (ex.agents.has(keys.pool[i])) return true;
      }
      return false;
    };
  }

  /** A merged author is searched as its canonical (`creator:<alias>` finds what its 'See all entries' link shows). */
  private filterValue(name: FilterName, value: string | null): string | null {
    if (value === null || name !== 'creator') return value;
    const id = this.resolver.canonicalId(Number(value));
    return id === null ? value : String(id);
  }

  /** The evaluate step's reads of the index for this search (evaluate.ts, rank.ts). */
  private evaluateStep(named: (name: FilterName, value: string) => boolean, view: SearchView): EvaluateStep {
    const index = this.index;
    return {
      capacity: index.capacity,
      text: (node, scores) => this.ranker.match(node, scores, view.layers, index.capacity),
      filter: (name, raw, bits) => {
        const value = this.filterValue(name, raw);
        if (value !== null && named(name, value)) index.markValue(name, value, bits, view.columns[name]);
      },
    };
  }

  private zeroedScores(capacity: number): Float64Array {
    if (this.scratch.scores.length < capacity) this.scratch.scores = new Float64Array(capacity);
    else this.scratch.scores.fill(0, 0, capacity);
    return this.scratch.scores.subarray(0, capacity);
  }

  /** "library:3" and "creator:12" shown with their names: "Name (library:3)"; no name for what the viewer may not see. */
  private prettyQuery(query: string, named: (name: FilterName, value: string) => boolean): string {
    const libs = this.libraries.all();
    const creatorIds = [...query.matchAll(/\bcreator:(\d+)/g)].map((m) => Number(m[1]));
    const names = this.agents.names(creatorIds);
    const libraryName = (id: string) => (named('library', String(Number(id))) ? libs.get(Number(id))?.name : undefined);
    const creatorName = (id: string) => (named('creator', this.filterValue('creator', String(Number(id)))!) ? names.get(Number(id)) : undefined);
    return query
      .replace(/\blibrary:(\d+)/g, (m, id: string) => (libraryName(id) ? `${libraryName(id)} (${m})` : m))
      .replace(/\bcreator:(\d+)/g, (m, id: string) => (creatorName(id) ? `${creatorName(id)} (${m})` : m));
  }
}


/** Who may see an entry's title and author words (see WordScope): its libraries' flags as they are now. */
function wordScope(d: IndexDoc, libraries: ReturnType<LibraryService['all']>): WordScope {
  const layers: number[] = [];
  for (const id of d.values.library) {
    const lib = libraries.get(Number(id));
    if (!lib?.active) continue;
    if (lib.public) return null;
    layers.push(lib.id);
  }
  return layers;
}
