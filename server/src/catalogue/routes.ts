import fs from 'node:fs';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataSourceIdParamSchema, entrySchema, errorSchema, fullTextSchema, idParamSchema } from '@uc/shared';
import type { CatalogueService } from './service.ts';
import type { FullTextService } from './fulltext.ts';
import type { FileStore } from './files.ts';
import { DerivedFilesBusy, type DerivedFiles } from './derived-files.ts';
import { viewerOf } from '../http/context.ts';
import { HttpError, notFound } from '../http/errors.ts';

const ENTRY_NOT_FOUND = 'The entry does not exist, it was deleted or it is not public any more';

export const catalogueRoutes = (catalogue: CatalogueService, fullText: FullTextService, files: FileStore, derived?: DerivedFiles): FastifyPluginAsyncZod => async (app) => {
  app.get('/entry/:id', {
    schema: { params: idParamSchema, response: { 200: entrySchema, 404: errorSchema } },
  }, async (req) => {
    const entry = catalogue.getEntry(req.params.id, viewerOf(req));
    if (!entry) throw notFound(ENTRY_NOT_FOUND);
    return entry;
  });

  app.get('/full-text/:data_source_id', {
    schema: { params: dataSourceIdParamSchema, response: { 200: fullTextSchema, 404: errorSchema } },
  }, async (req) => {
    const ds = catalogue.visibleDataSource(req.params.data_source_id, viewerOf(req));
    if (!ds) throw notFound('No such data source');
    const html = fullText.html(ds.id);
    if (html === null) throw notFound('This text has no full text');
    return { html };
  });

  app.get('/file/:data_source_id/:filename', {
    schema: { params: dataSourceIdParamSchema.extend({ filename: z.string().max(200) }) },
  }, async (req, reply) => {
    const ds = catalogue.visibleDataSource(req.params.data_source_id, viewerOf(req));
    const img = ds ? fullText.image(ds.id, req.params.filename) : null;
    if (!img) throw notFound('File not found');
    return reply.type(img.contentType).header('Cache-Control', 'public, max-age=86400').send(Buffer.from(img.bytes));
  });

  const derivedFile = async (id: number, ext: string) => {
    try {
      return (await derived?.get(id, ext)) ?? null;
    } catch (e) {
      if (e instanceof DerivedFilesBusy) throw new HttpError(503, 'Many files are being made at the moment: please try again in a minute', { headers: { 'Retry-After': '60' } });
      // The text cannot be typeset (a script no installed font has, a Typst error): said, not a 500.
      throw new HttpError(422, 'This text could not be made into {{format}}: {{reason}}', { values: { format: ext.slice(1).toUpperCase(), reason: e instanceof Error ? e.message : String(e) } });
    }
  };

  // /download/123.pdf (also 123.a4.pdf style names: the last extension decides).
  app.get('/download/:target', {
    schema: {
      params: z.object({ target: z.string().regex(/^\d{1,10}(\.[a-z0-9]{1,8}){1,3}$/i, 'expected <data source id>.<ext>') }),
      querystring: z.object({ inline: z.string().max(5).optional() }),
    },
  }, async (req, reply) => {
    const [, id, exts] = /^(\d+)((?:\.[a-z0-9]+)+)$/i.exec(req.params.target)!;
    const ext = exts.slice(exts.lastIndexOf('.')).toLowerCase();
    const ds = catalogue.visibleDataSource(Number(id), viewerOf(req));
    if (!ds) throw notFound('No such data source');
    // A stored file, else one made from the text's source on the first request (a Muse text's PDF).
    const file = files.get(ds.id, ext) ?? (await derivedFile(ds.id, ext));
    if (!file) throw notFound('File not found');
    const slug = ds.title.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80).toLowerCase() || `text-${ds.id}`;
    const disposition = req.query.inline ? 'inline' : 'attachment';
    return reply
      .type(file.contentType)
      .header('Content-Length', file.size)
      .header('Content-Disposition', `${disposition}; filename="${slug}${ext}"`)
      .send(fs.createReadStream(file.absPath));
  });
};
