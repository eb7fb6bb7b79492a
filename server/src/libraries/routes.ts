import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, idParamSchema, librariesResponseSchema, libraryResponseSchema } from '@uc/shared';
import type { LibraryService } from './service.ts';
import { viewerOf } from '../http/context.ts';
import { notFound } from '../http/errors.ts';

export const libraryRoutes = (libraries: LibraryService): FastifyPluginAsyncZod => async (app) => {
  app.get('/libraries', { schema: { response: { 200: librariesResponseSchema } } }, async (req) => ({
    libraries: libraries.listPublic(viewerOf(req)),
  }));

  app.get('/libraries/:id', {
    schema: { params: idParamSchema, response: { 200: libraryResponseSchema, 404: errorSchema } },
  }, async (req) => {
    const viewer = viewerOf(req);
    const lib = libraries.get(req.params.id);
    if (!lib || !libraries.isListed(lib, viewer)) throw notFound('No such library');
    return { library: libraries.toPublic(lib, viewer) };
  });
};
