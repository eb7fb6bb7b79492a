// After a curation change the catalogue reads differently: what the pages show is fetched again.
import type { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../../api/client';

/** Query keys starting with these are refetched after a merge, split, translation or aggregation. */
export const CHANGED_BY_MERGE = ['search', 'entry', 'agents', 'agent', 'curation'] as const;

export function invalidateKeys(queryClient: QueryClient, keys: readonly string[]): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (q) => keys.includes(String(q.queryKey[0])) });
}

/**
 * After a curation change: everything CHANGED_BY_MERGE names is fetched again; the returned promise waits
 * for the curation tables only (the search and entry pages refresh in the background).
 */
export function catalogueChanged(queryClient: QueryClient): Promise<void> {
  void invalidateKeys(queryClient, CHANGED_BY_MERGE.filter((k) => k !== 'curation'));
  return invalidateKeys(queryClient, ['curation']);
}

/** The server's own error text, else the fallback (translated by the caller). */
export function serverErrorOr(err: unknown, fallback: string): string {
  return (isApiError(err) && err.serverError) || fallback;
}
