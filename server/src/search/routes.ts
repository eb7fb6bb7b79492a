import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FILTER_NAMES, searchQuerySchema, searchResponseSchema, suggestQuerySchema, suggestResponseSchema, errorSchema, type FilterName, type SortBy } from '@uc/shared';
import type { SearchService } from './service.ts';
import { viewerOf } from '../http/context.ts';
import type { Metrics } from '../metrics/metrics.ts';

export const searchRoutes = (search: SearchService, metrics?: Metrics): FastifyPluginAsyncZod => async (app) => {
  app.get('/search', {
    schema: { querystring: searchQuerySchema, response: { 200: searchResponseSchema, 400: errorSchema, 503: errorSchema } },
  }, async (req) => {
    // While the index is loaded at start: wait a little, then 503 with Retry-After (SearchIndexLoading).
    await search.untilReady();
    const q = req.query as Record<string, unknown>;
    const filters: Partial<Record<FilterName, string[]>> = {};
    for (const f of FILTER_NAMES) {
      const v = q[`filter_${f}`];
      if (v !== undefined) filters[f] = (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string' && x !== '');
    }
    const began = performance.now();
    const answer = search.search(
      {
        query: req.query.query ?? '', sortBy: sortOf(req.query.sort_by, req.query.sort_direction), page: req.query.page_number ?? 1, pageSize: req.query.page_size, filters,
        exact: req.query.exact === '1', translations: req.query.translations === '1',
      },
      viewerOf(req),
    );
    metrics?.searchAnswered((performance.now() - began) / 1000, answer.total_entries);
    return answer;
  });

  app.get('/suggest', {
    schema: { querystring: suggestQuerySchema, response: { 200: suggestResponseSchema, 400: errorSchema, 503: errorSchema } },
  }, async (req) => {
    await search.untilReady();
    return { suggestions: search.suggest(req.query.q ?? '', viewerOf(req)) };
  });
};

/** The anchor client's `sort_by=title` with its `sort_direction` is one of our title sorts; the others pass as they are. */
function sortOf(sortBy: SortBy | 'title' | undefined, direction: 'asc' | 'desc' | undefined): SortBy | undefined {
  if (sortBy === 'title') return direction === 'desc' ? 'title_desc' : 'title_asc';
  return sortBy;
}
