// After a curation change the catalogue reads differently: what the pages show is fetched again.
import type { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../../api/client';

/** Query keys starting with these are refetched after a merge, split, translation or aggregation. */
export const CHANGED_BY_MERGE = ['search', 'entry', 'agents', 'agent', 'curation'] as const;

export function invalidateKeys(queryClient: QueryClient, keys: readonly string[]): void {
  void queryClient.invalidateQueries({ predicate: (q) => keys.includes(String(q.queryKey[0])) });
}

/** The server's own error text, else the fallback (translated by the caller). */
export function serverErrorOr(err: unknown, fallback: string): string {
  return (isApiError(err) && err.serverError) || fallback;
}
