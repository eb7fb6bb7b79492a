// POST /bookbuilder (actions of spec §7), GET /bookbuilder/:session_id (the built PDF or EPUB of a book, a cover's PDF) and the font
// specimens. Thin: validation by the shared schemas, work in BookBuilderService / FontCatalog.
import fs from 'node:fs';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HEADINGS, UI_LANGUAGES, bookSessionIdSchema, bookbuilderRequestSchema, bookbuilderResponseSchema, errorSchema } from '@uc/shared';
import { viewerOf } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { messageLanguage } from '../http/messages.ts';
import type { BookBuilderService } from './service.ts';
import type { FontCatalog, PreviewKind } from './fonts.ts';

export const bookbuilderRoutes = (books: BookBuilderService, fonts: FontCatalog): FastifyPluginAsyncZod => async (app) => {
  const errors = { 400: errorSchema, 404: errorSchema, 409: errorSchema, 413: errorSchema, 422: errorSchema };

  app.post('/bookbuilder', {
    schema: { body: bookbuilderRequestSchema, response: { 200: bookbuilderResponseSchema, ...errors } },
  }, async (req) => {
    const b = req.body;
    switch (b.action) {
      case 'add':
        return books.add(b.session_id, b.add, viewerOf(req), b.partial);
      case 'list':
        return books.list(b.session_id);
      case 'get_sections':
        return books.sections(b.session_id, b.text_id);
      case 'set_partial':
        return books.setPartial(b.session_id, b.text_id, b.partial);
      case 'remove':
        return books.remove(b.session_id, b.remove_id);
      case 'reorder':
        return books.reorder(b.session_id, b.move_id, b.to_id);
      case 'get_fonts':
        // Previews in the reader's language (the web app sends its interface language as Accept-Language).
        return { fonts: await fonts.list(books.textLetters(b.session_id), messageLanguage(req.headers['accept-language'])) };
      case 'get_headings':
        return { headings: HEADINGS.map((h) => ({ name: h.name, desc: h.desc })) };
      case 'build':
        return books.build(b.session_id, b.collection_data, b.format);
      case 'check_job':
        return books.checkJob(b.session_id, b.check_job_id);
    }
  });

  const previewType: Record<PreviewKind, string> = { pdf: 'application/pdf', png: 'image/png', svg: 'image/svg+xml' };
  app.get('/bookbuilder/fonts/:file', {
    schema: {
      params: z.object({ file: z.string().regex(/^[A-Za-z0-9-]{1,80}\.(pdf|png|svg)$/, 'expected <font>.pdf, <font>.png or <font>.svg') }),
      querystring: z.object({ lang: z.enum(UI_LANGUAGES).optional() }),
    },
  }, async (req, reply) => {
    const [, slug, ext] = /^(.+)\.(pdf|png|svg)$/.exec(req.params.file)! as unknown as [string, string, PreviewKind];
    const file = await fonts.preview(slug, ext, req.query.lang);
    if (!file) throw notFound('No such font');
    return reply
      .type(previewType[ext])
      .header('Cache-Control', 'public, max-age=86400')
      .header('Content-Disposition', `inline; filename="${slug}.${ext}"`)
      .send(fs.createReadStream(file));
  });

  app.get('/bookbuilder/:session_id', {
    schema: {
      params: z.object({ session_id: bookSessionIdSchema }),
      querystring: z.object({ inline: z.string().max(5).optional(), job: z.string().max(12).optional() }),
    },
  }, async (req, reply) => {
    const out = books.sessions.output(req.params.session_id);
    if (!out) throw notFound('No PDF has been built in this session yet');
    const stamp = new Date().toISOString().slice(0, 19).replace('T', '--').replace(/:/g, '-');
    // the last build's format: a PDF, or an EPUB (our addition), which no browser shows inline
    const epub = out.absPath.endsWith('.epub');
    return reply
      .type(epub ? 'application/epub+zip' : 'application/pdf')
      .header('Content-Length', out.size)
      .header('Cache-Control', 'private, no-cache')
      .header('Content-Disposition', `${req.query.inline && !epub ? 'inline' : 'attachment'}; filename="${out.kind === 'cover' ? 'bookcover' : 'bookbuilder'}-${stamp}.${epub ? 'epub' : 'pdf'}"`)
      .send(fs.createReadStream(out.absPath));
  });
};
