// A stand-in for the search Indexer in tests of modules that hand entries to it (ingest, harvest): it
// records which entries it is asked to reindex instead of writing the index (the search module's).
import type { Indexer } from '../search/indexer.ts';

export class RecordingIndexer {
  /** The entries of each reindex() call, sorted. */
  calls: number[][] = [];

  reindex(ids: Iterable<number>): number {
    const list = [...ids].sort((a, b) => a - b);
    this.calls.push(list);
    return list.length;
  }

  bulkSettings(): () => void {
    return () => {};
  }

  /** No index here, so no library's copies to move between layers. */
  syncLibraryVisibility(): number {
    return 0;
  }

  entryImage(): null {
    return null;
  }

  /** Every entry reindexed so far, once, sorted. */
  get reindexed(): number[] {
    return [...new Set(this.calls.flat())].sort((a, b) => a - b);
  }

  get asIndexer(): Indexer {
    return this as unknown as Indexer;
  }
}
