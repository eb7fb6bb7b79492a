// TanStack Query hooks over the client. The QueryClient's 5-minute staleTime is the spec's client cache.
import { QueryClient, keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, isApiError, type SearchParams } from './client';

export const FIVE_MINUTES = 5 * 60 * 1000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: FIVE_MINUTES,
        gcTime: 2 * FIVE_MINUTES,
        refetchOnWindowFocus: false,
        // A 4xx answer will not change on retry; network and 5xx failures get one more try.
        retry: (count, error) => !(isApiError(error) && error.status >= 400 && error.status < 500) && count < 1,
      },
    },
  });
}

export const queryKeys = {
  general: ['general'] as const,
  search: (p: SearchParams) => ['search', p] as const,
  latest: (p: { query?: string; page_size?: number }) => ['latest', p] as const,
  entry: (id: string) => ['entry', id] as const,
  fullText: (id: number) => ['full-text', id] as const,
  library: (id: string) => ['library', id] as const,
  libraries: ['libraries'] as const,
  agents: (search: string) => ['agents', search] as const,
  wikidata: (id: number, language: string) => ['wikidata', id, language] as const,
  agent: (id: string) => ['agent', id] as const,
  footerPages: (lang: string) => ['pages', 'footer', lang] as const,
  page: (id: string) => ['page', id] as const,
};

export function useGeneral() {
  return useQuery({ queryKey: queryKeys.general, queryFn: ({ signal }) => api.general(signal) });
}

export function useSearch(p: SearchParams) {
  return useQuery({
    queryKey: queryKeys.search(p),
    queryFn: ({ signal }) => api.search(p, signal),
    placeholderData: keepPreviousData,
  });
}

export function useEntry(id: string) {
  return useQuery({ queryKey: queryKeys.entry(id), queryFn: ({ signal }) => api.entry(id, signal) });
}

/** The full text is fetched on the first toggle only, then kept for the whole visit. */
export function useFullText(dataSourceId: number, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.fullText(dataSourceId),
    queryFn: ({ signal }) => api.fullText(dataSourceId, signal),
    enabled,
    staleTime: Infinity,
  });
}

export function useLibrary(id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.library(id ?? ''),
    queryFn: ({ signal }) => api.library(id!, signal),
    enabled: !!id,
    select: (d) => d.library,
  });
}

export function useLibraries() {
  return useQuery({
    queryKey: queryKeys.libraries,
    queryFn: ({ signal }) => api.libraries(signal),
    select: (d) => d.libraries,
  });
}

/** Author search; nothing is asked for an empty search (the page says 'Please search'). */
export function useAgentSearch(search: string) {
  const q = search.trim();
  return useQuery({
    queryKey: queryKeys.agents(q),
    queryFn: ({ signal }) => api.agents(q, signal),
    enabled: q !== '',
    placeholderData: keepPreviousData,
  });
}

/** Linked data of an author, fetched on the first toggle. */
export function useWikidata(id: number, language: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.wikidata(id, language),
    queryFn: ({ signal }) => api.wikidata(id, language, signal),
    enabled,
  });
}

export function useAgent(id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.agent(id ?? ''),
    queryFn: ({ signal }) => api.agent(id!, signal),
    enabled: !!id,
    select: (d) => d.agent,
  });
}

export function useFooterPages(lang: string) {
  return useQuery({
    queryKey: queryKeys.footerPages(lang),
    queryFn: ({ signal }) => api.footerPages(lang, signal),
    select: (d) => d.pages,
  });
}

export function usePage(id: string) {
  return useQuery({
    queryKey: queryKeys.page(id),
    queryFn: ({ signal }) => api.page(id, signal),
    select: (d) => d.page,
  });
}
