// GET /latest: the newest entries the viewer may see (the home page's latest additions, searched as
// the visitor types). GET /check-internal-url: the entry holding a text at a given address, so that
// links to catalogued sites in descriptions become entry links.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  checkInternalUrlQuerySchema, checkInternalUrlResponseSchema, errorSchema, latestQuerySchema, latestResponseSchema,
  LATEST_DEFAULT_PAGE_SIZE, type LatestResponse, type SortBy,
} from '@uc/shared';
import type { Db } from '../db/index.ts';
import type { Viewer } from '../http/viewer.ts';
import type { LibraryService } from '../libraries/service.ts';
import type { SearchService } from '../search/service.ts';
import { viewerOf } from '../http/context.ts';

const OPERATORS = new Set(['AND', 'OR', 'NOT']);

/**
 * The query with its last word also matching as a word's beginning (the anchor's partial matching),
 * when that word is plain letters or digits (not an operator, a filter such as library:3, a phrase
 * or an already wildcarded word).
 */
export function partialQuery(query: string): string {
  const q = query.trim();
  const m = /(?:^|\s)([\p{L}\p{N}]+)$/u.exec(q);
  if (!m || OPERATORS.has(m[1])) return q;
  // Inside an unclosed phrase the word is part of the phrase.
  if ((q.match(/"/g) ?? []).length % 2 === 1) return q;
  return `${q}*`;
}

export class LatestService {
  private byUri;

  constructor(db: Db, private search: SearchService, private libraries: LibraryService) {
    this.byUri = db.sqlite.prepare(`SELECT coalesce(e.canonical_entry_id, e.id) AS entry_id, s.library_id
      FROM data_sources d JOIN sites s ON s.id = d.site_id JOIN entries e ON e.id = d.entry_id
      WHERE d.uri = ? ORDER BY d.id`);
  }

  latest(p: { query?: string; page_size?: number; page_number?: number; sort_by?: SortBy }, viewer: Viewer): LatestResponse {
    const res = this.search.search({
      query: partialQuery(p.query ?? ''),
      sortBy: p.sort_by ?? 'datestamp',
      page: p.page_number ?? 1,
      pageSize: p.page_size ?? LATEST_DEFAULT_PAGE_SIZE,
      filters: {},
    }, viewer);
    return {
      entries: res.matches,
      total_entries: res.total_entries,
      total_languages: res.facets.language?.values.filter((v) => v.count > 0).length ?? 0,
    };
  }

  /** The entry of the first text at exactly this address in a library the viewer may see. */
  entryOfUrl(url: string, viewer: Viewer): number | null {
    const visible = this.libraries.visibleIds(viewer);
    for (const row of this.byUri.iterate(url) as Iterable<{ entry_id: number; library_id: number }>) {
      if (visible.has(row.library_id)) return row.entry_id;
    }
    return null;
  }
}

export const latestRoutes = (latest: LatestService): FastifyPluginAsyncZod => async (app) => {
  app.get('/latest', {
    schema: { querystring: latestQuerySchema, response: { 200: latestResponseSchema, 400: errorSchema } },
  }, async (req) => latest.latest(req.query, viewerOf(req)));

  app.get('/check-internal-url', {
    schema: { querystring: checkInternalUrlQuerySchema, response: { 200: checkInternalUrlResponseSchema, 400: errorSchema } },
  }, async (req) => {
    const entryId = latest.entryOfUrl(req.query.url, viewerOf(req));
    return entryId === null ? {} : { entry_id: entryId };
  });
};
