// Library administration routes (spec §7 "Library administration"): thin; the rules live in the services.
import type { FastifyPluginAsync } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createLibraryUserBodySchema,
  idParamSchema,
  LIBRARY_USER_FIELDS,
  libraryEditBodySchema,
  removeLibraryUserBodySchema,
  spreadsheetProcessBodySchema,
  spreadsheetSiteBodySchema,
} from '@uc/shared';
import { viewerOf } from '../http/context.ts';
import { HttpError } from '../http/errors.ts';
import type { LibraryService } from '../libraries/service.ts';
import { assertLibraryAdmin, type LibraryAdminService } from './service.ts';
import type { SpreadsheetService } from './spreadsheets.ts';
import { SPREADSHEET_MAX_BYTES } from './spreadsheet.ts';
import { LOGO_MAX_BYTES } from '../libraries/logos.ts';

export interface LibraryAdminRouteOptions {
  maxUploadBytes?: number;
}

export function libraryAdminRoutes(
  admin: LibraryAdminService,
  sheets: SpreadsheetService,
  libraries: LibraryService,
  opts: LibraryAdminRouteOptions = {},
): FastifyPluginAsync {
  const maxBytes = opts.maxUploadBytes ?? SPREADSHEET_MAX_BYTES;
  return async (base) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    await app.register(fastifyMultipart, { limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 100_000, parts: 12 } });
    const params = { params: idParamSchema };

    app.get('/library/details/:id', { schema: params }, async (req) => {
      const viewer = viewerOf(req);
      const lib = assertLibraryAdmin(viewer, req.params.id, libraries);
      return admin.details(lib, viewer);
    });

    app.post('/library/details/:id', { schema: { ...params, body: libraryEditBodySchema } }, async (req) => {
      const viewer = viewerOf(req);
      const lib = assertLibraryAdmin(viewer, req.params.id, libraries);
      return { success: 'OK', library: await admin.update(lib, req.body, viewer) };
    });

    // The logo as a file (multipart, field `logo`): kept and served by us, never a library's host (issue 27).
    app.post('/library/logo/:id', { schema: params }, async (req) => {
      const viewer = viewerOf(req);
      const lib = assertLibraryAdmin(viewer, req.params.id, libraries);
      if (!req.isMultipart()) throw new HttpError(400, 'Send the logo as multipart/form-data');
      let content: Buffer | null = null;
      try {
        const file = await req.file({ limits: { fileSize: LOGO_MAX_BYTES, files: 1 } });
        if (file && file.fieldname === 'logo') content = await file.toBuffer();
        else if (file) await file.toBuffer();
      } catch (e) {
        if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new HttpError(413, 'The logo is larger than {{kb}} KB', { values: { kb: LOGO_MAX_BYTES / 1024 } });
        }
        throw e;
      }
      if (!content) throw new HttpError(400, 'Please choose a file');
      return { success: 'OK', library: admin.uploadLogo(lib, content, viewer) };
    });

    app.post('/library/create-user/:id', { schema: { ...params, body: createLibraryUserBodySchema } }, async (req) => {
      const lib = assertLibraryAdmin(viewerOf(req), req.params.id, libraries);
      return admin.createUser(lib, req.body);
    });

    app.get('/library/list-users/:id', { schema: params }, async (req) => {
      const viewer = viewerOf(req);
      const lib = assertLibraryAdmin(viewer, req.params.id, libraries);
      // The dashboard table shape (spec §7 GET /listing/{type}), which the spec's users table reads.
      return { fields: [...LIBRARY_USER_FIELDS], records: admin.users(lib.id, viewer) };
    });

    app.post('/library/remove-user/:id', { schema: { ...params, body: removeLibraryUserBodySchema } }, async (req) => {
      const viewer = viewerOf(req);
      const lib = assertLibraryAdmin(viewer, req.params.id, libraries);
      admin.removeUser(lib, req.body.id, viewer);
      return { success: 'User removed' };
    });

    // ---------- spreadsheets ----------
    app.get('/spreadsheet/:id', { schema: params }, async (req) => {
      const lib = assertLibraryAdmin(viewerOf(req), req.params.id, libraries);
      return { sites: sheets.sites(lib.id), max_bytes: maxBytes };
    });

    app.post('/spreadsheet/site/:id', { schema: { ...params, body: spreadsheetSiteBodySchema } }, async (req) => {
      const lib = assertLibraryAdmin(viewerOf(req), req.params.id, libraries);
      return { site: sheets.createSite(lib.id, req.body.title, req.body.csv_type) };
    });

    app.post('/spreadsheet/:id', { schema: params }, async (req, reply) => {
      const viewer = viewerOf(req);
      const lib = assertLibraryAdmin(viewer, req.params.id, libraries);
      if (!req.isMultipart()) throw new HttpError(400, 'Send the spreadsheet as multipart/form-data');
      const fields: Record<string, string> = {};
      let content: Buffer | null = null;
      let filename = '';
      try {
        for await (const part of req.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'spreadsheet') {
              await part.toBuffer();
              continue;
            }
            filename = part.filename;
            content = await part.toBuffer();
          } else fields[part.fieldname] = String(part.value ?? '');
        }
      } catch (e) {
        if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new HttpError(413, 'The file is too large: at most {{mb}} MB', { values: { mb: Math.round(maxBytes / 1024 / 1024) } });
        }
        throw e;
      }
      if (!content) throw new HttpError(400, 'Please choose a file');
      const siteId = Number(fields.site_id);
      if (!Number.isInteger(siteId)) throw new HttpError(400, 'Please choose a site');
      // A refused file (UploadRefused) is answered by the error handler: 200 with error and bad_rows.
      return sheets.upload(lib, viewer, {
        content, filename, siteId, comment: fields.comment ?? '', replaceAll: !!fields.replace_all && !['0', 'false', 'off'].includes(fields.replace_all),
      });
    });

    /** The upload and the permission on its library (401 / 404 / 403). */
    const ownUpload = (req: Parameters<typeof viewerOf>[0], id: number) => {
      const viewer = viewerOf(req);
      if (viewer.userId === null) throw new HttpError(401, 'Please log in');
      const up = sheets.get(id);
      if (!up) throw new HttpError(404, 'No such upload');
      assertLibraryAdmin(viewer, up.library_id, libraries);
      return up;
    };

    app.post('/spreadsheet/process/:id', { schema: { ...params, body: spreadsheetProcessBodySchema } }, async (req) => {
      const up = ownUpload(req, req.params.id);
      return { success: 'Processing started', ...sheets.process(up, req.body.skip_bad_rows) };
    });

    app.post('/spreadsheet/cancel/:id', { schema: params }, async (req) => {
      sheets.cancel(ownUpload(req, req.params.id));
      return { success: 'Upload cancelled' };
    });

    app.get('/spreadsheet/status/:id', { schema: params }, async (req) => {
      const up = ownUpload(req, req.params.id);
      return sheets.status(up.id);
    });
  };
}
