// One in-memory structure's share of the search snapshot (search/snapshot.ts writes and checks the file):
// small JSON-able facts in `meta`, bulk data as typed arrays, written and read back without copying
// through JavaScript objects. Each structure saves and restores its own part, so its layout stays its own.
export interface SnapshotPart {
  meta: unknown;
  arrays: Record<string, ArrayBufferView>;
}
