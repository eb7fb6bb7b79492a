// POST /bookcover (get_tokens, build, preview) and POST /bookcover/upload (spec §7). Thin: the shapes
// come from the shared schemas, the rules from CoverService; the job and the PDF are the Book
// Builder's check_job and GET /bookbuilder/:session_id.
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { COVER_IMAGE_MAX_BYTES, bookcoverRequestSchema, bookcoverResponseSchema, bookcoverUploadResponseSchema, errorSchema } from '@uc/shared';
import { HttpError } from '../http/errors.ts';
import type { CoverService } from './service.ts';

const MiB = 1024 * 1024;

export const coverRoutes = (covers: CoverService): FastifyPluginAsyncZod => async (app) => {
  const errors = { 400: errorSchema, 404: errorSchema, 413: errorSchema, 422: errorSchema, 503: errorSchema };
  await app.register(fastifyMultipart, { limits: { fileSize: COVER_IMAGE_MAX_BYTES, files: 1, fields: 4, fieldSize: 200, parts: 5 } });

  app.post('/bookcover', {
    schema: { body: bookcoverRequestSchema, response: { 200: bookcoverResponseSchema, ...errors } },
  }, async (req) => {
    const b = req.body;
    switch (b.action) {
      case 'get_tokens':
        return covers.getTokens(b.session_id);
      case 'preview':
        return covers.preview(b.args);
      case 'build':
        return covers.build(b.args);
    }
  });

  app.post('/bookcover/upload', { schema: { response: { 200: bookcoverUploadResponseSchema, ...errors } } }, async (req) => {
    if (!req.isMultipart()) throw new HttpError(400, 'Send the image as multipart/form-data');
    let sessionId = '';
    let file: { token: string; content: Buffer } | null = null;
    let field = 'image';
    try {
      for await (const part of req.parts()) {
        if (part.type === 'file') {
          field = part.fieldname;
          const content = await part.toBuffer();
          file = { token: part.fieldname, content };
        } else if (part.fieldname === 'session_id') sessionId = String(part.value ?? '');
      }
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, 'the image is too large: at most {{mb}} MB', { field, values: { mb: COVER_IMAGE_MAX_BYTES / MiB } });
      if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw new HttpError(400, 'Send one image and the session_id only');
      throw e;
    }
    if (!file) throw new HttpError(400, 'Please choose an image');
    return covers.upload(sessionId, file.token, file.content);
  });
};
