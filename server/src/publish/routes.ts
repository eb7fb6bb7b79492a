// Data out for feed readers, e-book readers, crawlers and reference managers. These routes live at the
// site root (not under /collector/api) and are left out of the OpenAPI document, which describes the JSON API.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/index.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { SearchService } from '../search/service.ts';
import type { LibraryService } from '../libraries/service.ts';
import type { PagesService } from '../pages/service.ts';
import { idParamSchema } from '@uc/shared';
import { notFound } from '../http/errors.ts';
import { viewerOf } from '../http/context.ts';
import { languageName } from '../search/indexer.ts';
import { atomFeed, feedItems, publicBase } from './feeds.ts';
import { OPDS_ACQ, OPDS_NAV, OPENSEARCH, OpdsCatalogue, acquisitionFeed, navigationFeed, openSearchDescription, searchPage, type OpdsScope } from './opds.ts';
import { Sitemaps } from './sitemap.ts';
import { citation, citedCopy, citeQuerySchema } from './cite.ts';

export interface PublishDeps {
  db: Db;
  catalogue: CatalogueService;
  search: SearchService;
  libraries: LibraryService;
  pages: PagesService;
}

const pageQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });
/** A feed of a search: the search language's query (words, `creator:N`, `library:N`). */
const feedQuerySchema = z.object({ query: z.string().max(1000).optional() });
const opdsSearchQuery = pageQuery.extend({ query: z.string().max(1000).default('') });
const libraryParams = z.object({ id: z.coerce.number().int().min(1).max(2 ** 31 - 1) });
const languageParams = z.object({ code: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/, 'expected a language code such as "it" or "pt-BR"') });

export const publishRoutes = (deps: PublishDeps, opts: { publicUrl: string; webDist: string }): FastifyPluginAsyncZod => async (app) => {
  const opds = new OpdsCatalogue(deps.db, deps.libraries, deps.catalogue);
  const siteName = () => deps.pages.general().site_name;
  const sitemaps = new Sitemaps(deps.db, deps.catalogue, deps.search, deps.libraries, deps.pages);

  app.get('/feed.atom', { schema: { hide: true, querystring: feedQuerySchema } }, async (req, reply) => {
    const query = req.query.query?.trim() ?? '';
    const { items, pretty } = feedItems(deps.db, deps.search, deps.catalogue, { query });
    const xml = atomFeed({ base: publicBase(opts.publicUrl, req), siteName: siteName(), items, query, pretty });
    return reply.type('application/atom+xml; charset=utf-8').header('Cache-Control', 'public, max-age=300').send(xml);
  });
  // The system this one replaces served its (RSS) feed at /feed: subscriptions move over by themselves.
  app.get('/feed', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/feed.atom', 301));

  app.get('/opds', { schema: { hide: true } }, async (req, reply) => {
    const xml = navigationFeed({
      base: publicBase(opts.publicUrl, req), path: '/opds', title: siteName(), siteName: siteName(), search: true,
      items: [
        { id: '/opds/latest', title: 'Latest', content: 'Downloadable texts, newest first', href: '/opds/latest', type: OPDS_ACQ, rel: 'http://opds-spec.org/sort/new' },
        { id: '/opds/libraries', title: 'By library', content: 'Downloadable texts of each library', href: '/opds/libraries', type: OPDS_NAV },
        { id: '/opds/languages', title: 'By language', content: 'Downloadable texts in each language', href: '/opds/languages', type: OPDS_NAV },
      ],
    });
    return reply.type(OPDS_NAV).send(xml);
  });

  app.get('/opds/libraries', { schema: { hide: true } }, async (req, reply) => {
    const xml = navigationFeed({
      base: publicBase(opts.publicUrl, req), path: '/opds/libraries', title: 'By library', siteName: siteName(),
      items: opds.librariesWithTexts().map((l) => ({
        id: `/opds/library/${l.id}`, title: l.name, content: `${l.count} downloadable ${l.count === 1 ? 'text' : 'texts'}`, href: `/opds/library/${l.id}`, type: OPDS_ACQ,
      })),
    });
    return reply.type(OPDS_NAV).send(xml);
  });

  app.get('/opds/languages', { schema: { hide: true } }, async (req, reply) => {
    const xml = navigationFeed({
      base: publicBase(opts.publicUrl, req), path: '/opds/languages', title: 'By language', siteName: siteName(),
      items: opds.languagesWithTexts().map((l) => ({
        id: `/opds/language/${l.code}`, title: l.name, content: `${l.count} downloadable ${l.count === 1 ? 'text' : 'texts'}`, href: `/opds/language/${encodeURIComponent(l.code)}`, type: OPDS_ACQ,
      })),
    });
    return reply.type(OPDS_NAV).send(xml);
  });

  const acquisition = (scope: OpdsScope, path: string, title: string, page: number, base: string) =>
    acquisitionFeed({ base, path, title, siteName: siteName(), page: opds.page(scope, page) });

  app.get('/opds/latest', { schema: { hide: true, querystring: pageQuery } }, async (req, reply) => {
    return reply.type(OPDS_ACQ).send(acquisition({ kind: 'latest' }, '/opds/latest', 'Latest', req.query.page, publicBase(opts.publicUrl, req)));
  });

  app.get('/opds/opensearch.xml', { schema: { hide: true } }, async (req, reply) => {
    return reply.type(`${OPENSEARCH}; charset=utf-8`).header('Cache-Control', 'public, max-age=3600').send(openSearchDescription(publicBase(opts.publicUrl, req), siteName()));
  });

  // The OPDS twin of /feed.atom?query=: a search's, an author's (creator:N) or a library's (library:N) texts.
  app.get('/opds/search', { schema: { hide: true, querystring: opdsSearchQuery } }, async (req, reply) => {
    const query = req.query.query.trim();
    const page = searchPage(deps.db, deps.search, deps.catalogue, query, req.query.page);
    const path = query ? `/opds/search?${new URLSearchParams({ query })}` : '/opds/search';
    const xml = acquisitionFeed({ base: publicBase(opts.publicUrl, req), path, title: query ? `${siteName()}: “${page.pretty}”` : siteName(), siteName: siteName(), page });
    return reply.type(OPDS_ACQ).header('Cache-Control', 'public, max-age=300').send(xml);
  });

  app.get('/opds/library/:id', { schema: { hide: true, params: libraryParams, querystring: pageQuery } }, async (req, reply) => {
    const name = opds.libraryName(req.params.id);
    if (!name) throw notFound('No such library');
    const xml = acquisition({ kind: 'library', id: req.params.id }, `/opds/library/${req.params.id}`, name, req.query.page, publicBase(opts.publicUrl, req));
    return reply.type(OPDS_ACQ).send(xml);
  });

  app.get('/opds/language/:code', { schema: { hide: true, params: languageParams, querystring: pageQuery } }, async (req, reply) => {
    const { code } = req.params;
    const xml = acquisition({ kind: 'language', code }, `/opds/language/${code}`, languageName(code), req.query.page, publicBase(opts.publicUrl, req));
    return reply.type(OPDS_ACQ).send(xml);
  });

  app.get('/sitemap.xml', { schema: { hide: true } }, async (req, reply) => {
    return reply.type('application/xml; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(await sitemaps.index(publicBase(opts.publicUrl, req)));
  });

  app.get('/sitemap-:n.xml', { schema: { hide: true, params: z.object({ n: z.coerce.number().int().min(1).max(100_000) }) } }, async (req, reply) => {
    const xml = await sitemaps.file(req.params.n, publicBase(opts.publicUrl, req));
    if (xml === null) throw notFound('No such sitemap file');
    return reply.type('application/xml; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(xml);
  });

  // A robots.txt of the web build (served as a static file) wins over this one.
  if (!fs.existsSync(path.join(opts.webDist, 'robots.txt'))) {
    app.get('/robots.txt', { schema: { hide: true } }, async (req, reply) => {
      const lines = ['User-agent: *', 'Allow: /collector/api/download/', 'Disallow: /collector/api/', '', `Sitemap: ${publicBase(opts.publicUrl, req)}/sitemap.xml`, ''];
      return reply.type('text/plain; charset=utf-8').send(lines.join('\n'));
    });
  }
};

// The entry route's own words, so a hidden entry is indistinguishable from a missing one here too.
const ENTRY_NOT_FOUND = 'The entry does not exist, it was deleted or it is not public any more';

/** Under /collector/api: citations of an entry as the viewer sees it (GET /entry/{id}/cite?format=...). */
export const citeRoutes = (catalogue: CatalogueService, opts: { publicUrl: string }): FastifyPluginAsyncZod => async (app) => {
  app.get('/entry/:id/cite', {
    schema: { params: idParamSchema, querystring: citeQuerySchema },
  }, async (req, reply) => {
    const entry = catalogue.getEntry(req.params.id, viewerOf(req));
    if (!entry) throw notFound(ENTRY_NOT_FOUND);
    const copy = citedCopy(entry, req.query.data_source);
    // A copy that is not this entry's, or that the viewer may not see, is as missing as a hidden entry.
    if (req.query.data_source !== undefined && !copy) throw notFound(ENTRY_NOT_FOUND);
    const c = citation(entry, req.query.format, publicBase(opts.publicUrl, req), copy);
    // Files for reference managers download; a readable style shows (and is copied) as text.
    return reply.type(c.contentType).header('Content-Disposition', `${c.attachment ? 'attachment' : 'inline'}; filename="${c.filename}"`).send(c.body);
  });
};
