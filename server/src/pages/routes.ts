import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, generalSchema, idParamSchema, pageResponseSchema, pagesResponseSchema, UI_LANGUAGES } from '@uc/shared';
import type { PagesService } from './service.ts';
import { viewerOf } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { sanitizeHtml } from '../http/sanitize.ts';

/** The map's tile server, when one is configured (the built-in basemap otherwise), and the password rule. */
export interface SiteRules { tileUrl: string; tileAttribution: string; passwordMinLength?: number }

export const pageRoutes = (pages: PagesService, rules: SiteRules = { tileUrl: '', tileAttribution: '' }): FastifyPluginAsyncZod => async (app) => {
  app.get('/general', { schema: { response: { 200: generalSchema } } }, async () => ({
    ...pages.general(), tile_url: rules.tileUrl, tile_attribution: rules.tileAttribution,
    ...(rules.passwordMinLength ? { password_min_length: rules.passwordMinLength } : {}),
  }));

  app.get('/pages/:id', {
    schema: { params: idParamSchema, response: { 200: pageResponseSchema, 404: errorSchema } },
  }, async (req) => {
    const page = pages.get(req.params.id, viewerOf(req).userId !== null);
    if (!page) throw notFound('No such page');
    return { page: { ...page, content: sanitizeHtml(page.content) } };
  });

  app.get('/pages/:location/:language', {
    schema: {
      params: z.object({ location: z.enum(['footer', 'user_menu']), language: z.enum(UI_LANGUAGES) }),
      response: { 200: pagesResponseSchema },
    },
  }, async (req) => ({ pages: pages.list(req.params.location, req.params.language, viewerOf(req).userId !== null) }));
};
