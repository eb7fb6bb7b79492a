import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamSchema, librariesResponseSchema, libraryResponseSchema } from '@uc/shared';
import type { LibraryService } from './service.ts';
import type { SearchService } from '../search/service.ts';
import { viewerOf } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import type { LibraryLogoService } from './logos.ts';

export const libraryRoutes = (libraries: LibraryService, search: SearchService, logos: LibraryLogoService): FastifyPluginAsyncZod => async (app) => {
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

  // The library's logo from our own store (logo_url points here with ?v=<version>); to whoever may see the library.
  app.get('/libraries/:id/logo', { schema: { params: idParamSchema } }, async (req, reply) => {
    const viewer = viewerOf(req);
    const lib = libraries.get(req.params.id);
    const logo = lib && (libraries.isListed(lib, viewer) || viewer.isSuperuser || viewer.libraryIds.includes(lib.id)) ? logos.get(lib.id) : null;
    if (!logo) throw notFound();
    // Only the four image types ever get here (checked by their bytes on the way in); nosniff comes from
    // the security headers, and a sandboxing CSP in case the address is opened on its own.
    reply.header('content-type', logo.contentType);
    reply.header('content-security-policy', "default-src 'none'; sandbox");
    reply.header('cache-control', libraries.isVisible(lib!, { ...viewer, userId: null, isSuperuser: false, libraryIds: [] }) || lib!.library_type === 'physical'
      ? 'public, max-age=86400' : 'private, max-age=86400');
    return reply.send(logo.content);
  });
};
