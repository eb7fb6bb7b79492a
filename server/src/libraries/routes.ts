import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamSchema, librariesResponseSchema, libraryResponseSchema } from '@uc/shared';
import type { LibraryService } from './service.ts';
import type { SearchService } from '../search/service.ts';
import { viewerOf } from '../http/context.ts';

export const libraryRoutes = (libraries: LibraryService, search: SearchService): FastifyPluginAsyncZod => async (app) => {
  // entries_count comes from the search index, so it is exactly what `library:<id>` finds.
  app.get('/libraries', { schema: { response: { 200: librariesResponseSchema } } }, async (req) => {
    const viewer = viewerOf(req);
    return { libraries: libraries.listPublic(viewer, search.countVisible('library', null, viewer).counts) };
  });

  app.get('/libraries/:id', {
    schema: { params: idParamSchema, response: { 200: libraryResponseSchema } },
  }, async (req) => {
    const viewer = viewerOf(req);
    const lib = libraries.get(req.params.id);
    // Not a failure of the request: a stale link. The spec's client shows nothing for a null library.
    if (!lib || !libraries.isListed(lib, viewer)) return { library: null };
    return { library: libraries.toPublic(lib, viewer, search.countVisible('library', null, viewer).counts) };
  });
};
