// Harvesting routes: a library's sites for its admins (superusers edit them in /admin too), starting a
// run and reading the runs' reports. Thin: the permission is THE library-admin rule, the rest is in services.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, harvestRunSchema, harvestStartBodySchema, idParamSchema, siteBodySchema, siteSchema, siteTestBodySchema, siteTestResponseSchema } from '@uc/shared';
import { viewerOf } from '../http/context.ts';
import { messageLanguage } from '../http/messages.ts';
import type { LibraryService } from '../libraries/service.ts';
import { assertLibraryAdmin } from '../libraryadmin/service.ts';
import type { SiteStore } from './sites.ts';
import type { HarvestService } from './service.ts';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema };
const id = idParamSchema.shape.id;
const libraryParams = z.object({ library_id: id });
const siteParams = z.object({ library_id: id, site_id: id });

export const harvestRoutes = (sites: SiteStore, harvests: HarvestService, libraries: LibraryService): FastifyPluginAsyncZod => async (app) => {
  /** The site, after checking that the viewer administers its library (404 for a site that does not exist). */
  /** The language of the runs' reports in an answer. */
  const lang = (req: { headers: { 'accept-language'?: string } }) => messageLanguage(req.headers['accept-language']);
  const siteFor = (req: Parameters<typeof viewerOf>[0], siteId: number) => {
    const row = sites.row(siteId);
    // Library 0 does not exist: anonymous → 401, others → 403, superusers → 404 (as for a missing library).
    assertLibraryAdmin(viewerOf(req), row?.library_id ?? 0, libraries);
    return sites.get(siteId);
  };

  app.get('/library/sites/:library_id', { schema: { params: libraryParams, response: { 200: z.object({ sites: z.array(siteSchema) }), ...errors } } },
    async (req) => {
      assertLibraryAdmin(viewerOf(req), req.params.library_id, libraries);
      return { sites: sites.list(req.params.library_id, lang(req)) };
    });
  app.post('/library/sites/:library_id', { schema: { params: libraryParams, body: siteBodySchema, response: { 200: z.object({ site: siteSchema }), ...errors } } },
    async (req) => {
      const viewer = viewerOf(req);
      assertLibraryAdmin(viewer, req.params.library_id, libraries);
      return { site: sites.create(req.params.library_id, req.body, viewer.isSuperuser, lang(req)) };
    });
  app.put('/library/sites/:library_id/:site_id', { schema: { params: siteParams, body: siteBodySchema, response: { 200: z.object({ site: siteSchema }), ...errors } } },
    async (req) => {
      const viewer = viewerOf(req);
      assertLibraryAdmin(viewer, req.params.library_id, libraries);
      return { site: sites.update(req.params.library_id, req.params.site_id, req.body, viewer.isSuperuser, lang(req)) };
    });

  // "Test connection" before a site is saved: what the address offers, or why it cannot be harvested.
  app.post('/library/sites/:library_id/test', { schema: { params: libraryParams, body: siteTestBodySchema, response: { 200: siteTestResponseSchema, ...errors } } },
    async (req) => {
      assertLibraryAdmin(viewerOf(req), req.params.library_id, libraries);
      return harvests.testConnection(req.body, lang(req));
    });
  app.post('/admin/sites/:id/harvest', { schema: { params: idParamSchema, body: harvestStartBodySchema, response: { 202: z.object({ run: harvestRunSchema }), ...errors } } },
    async (req, reply) => {
      const site = siteFor(req, req.params.id);
      return reply.code(202).send({ run: harvests.start(site.id, req.body?.force ?? false, lang(req)) });
    });
  app.get('/admin/sites/:id/harvests', { schema: { params: idParamSchema, response: { 200: z.object({ runs: z.array(harvestRunSchema) }), ...errors } } },
    async (req) => {
      const site = siteFor(req, req.params.id);
      return { runs: harvests.runs(site.id, 50, lang(req)) };
    });
};
