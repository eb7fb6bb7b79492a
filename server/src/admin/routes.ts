// /collector/api/admin/...: the admin area, superusers only (401 anonymous, 403 everyone else).
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, idParamSchema, siteBodySchema, siteSchema } from '@uc/shared';
import { viewerOf } from '../http/context.ts';
import { messageLanguage } from '../http/messages.ts';
import type { AdminService } from './service.ts';
import type { SiteStore } from '../harvest/sites.ts';
import {
  adminLibraryBody, adminLibrarySchema, adminPageBody, adminPageSchema, adminSettingsBody, adminSettingsSchema,
  adminUserCreateBody, adminUserSchema, adminUserUpdateBody, outboxQuery, outboxResponseSchema,
} from './schemas.ts';

const okSchema = z.object({ success: z.literal('OK') });
const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema };
const siteParams = z.object({ id: idParamSchema.shape.id, site_id: idParamSchema.shape.id });

export const adminRoutes = (admin: AdminService, sites: SiteStore): FastifyPluginAsyncZod => async (app) => {
  // Before validation: an anonymous caller learns nothing about the bodies these routes take.
  app.addHook('onRequest', async (req, reply) => {
    const viewer = viewerOf(req);
    if (viewer.userId === null) return reply.code(401).send({ error: 'Please log in' });
    if (!viewer.isSuperuser) return reply.code(403).send({ error: 'Only superusers may use the admin area' });
  });

  // ---------- libraries and sites ----------
  app.get('/libraries', { schema: { response: { 200: z.object({ libraries: z.array(adminLibrarySchema) }), ...errors } } },
    async () => ({ libraries: admin.listLibraries() }));
  app.post('/libraries', { schema: { body: adminLibraryBody, response: { 200: z.object({ library: adminLibrarySchema }), ...errors } } },
    async (req) => ({ library: admin.createLibrary(req.body) }));
  app.put('/libraries/:id', { schema: { params: idParamSchema, body: adminLibraryBody, response: { 200: z.object({ library: adminLibrarySchema }), ...errors } } },
    async (req) => ({ library: admin.updateLibrary(req.params.id, req.body) }));
  app.delete('/libraries/:id', { schema: { params: idParamSchema, response: { 200: okSchema, ...errors } } }, async (req) => {
    admin.deleteLibrary(req.params.id);
    return { success: 'OK' as const };
  });
  app.get('/libraries/:id/sites', { schema: { params: idParamSchema, response: { 200: z.object({ sites: z.array(siteSchema) }), ...errors } } },
    async (req) => ({ sites: sites.list(req.params.id, messageLanguage(req.headers['accept-language'])) }));
  app.post('/libraries/:id/sites', { schema: { params: idParamSchema, body: siteBodySchema, response: { 200: z.object({ site: siteSchema }), ...errors } } },
    async (req) => ({ site: sites.create(req.params.id, req.body, true, messageLanguage(req.headers['accept-language'])) }));
  app.put('/libraries/:id/sites/:site_id', { schema: { params: siteParams, body: siteBodySchema, response: { 200: z.object({ site: siteSchema }), ...errors } } },
    async (req) => ({ site: sites.update(req.params.id, req.params.site_id, req.body, true, messageLanguage(req.headers['accept-language'])) }));

  // ---------- users ----------
  app.get('/users', { schema: { response: { 200: z.object({ users: z.array(adminUserSchema) }), ...errors } } },
    async () => ({ users: admin.listUsers() }));
  app.post('/users', { schema: { body: adminUserCreateBody, response: { 200: z.object({ user: adminUserSchema }), ...errors } } },
    async (req) => ({ user: await admin.createUser(req.body) }));
  app.put('/users/:id', { schema: { params: idParamSchema, body: adminUserUpdateBody, response: { 200: z.object({ user: adminUserSchema }), ...errors } } },
    async (req) => ({ user: admin.updateUser(viewerOf(req), req.params.id, req.body) }));

  // ---------- pages ----------
  app.get('/pages', { schema: { response: { 200: z.object({ pages: z.array(adminPageSchema) }), ...errors } } },
    async () => ({ pages: admin.listPages() }));
  app.get('/pages/:id', { schema: { params: idParamSchema, response: { 200: z.object({ page: adminPageSchema }), ...errors } } },
    async (req) => ({ page: admin.getPage(req.params.id) }));
  app.post('/pages', { schema: { body: adminPageBody, response: { 200: z.object({ page: adminPageSchema }), ...errors } } },
    async (req) => ({ page: admin.createPage(req.body) }));
  app.put('/pages/:id', { schema: { params: idParamSchema, body: adminPageBody, response: { 200: z.object({ page: adminPageSchema }), ...errors } } },
    async (req) => ({ page: admin.updatePage(req.params.id, req.body) }));
  app.delete('/pages/:id', { schema: { params: idParamSchema, response: { 200: okSchema, ...errors } } }, async (req) => {
    admin.deletePage(req.params.id);
    return { success: 'OK' as const };
  });

  // ---------- settings and outbox ----------
  app.get('/settings', { schema: { response: { 200: z.object({ settings: adminSettingsSchema }), ...errors } } },
    async () => ({ settings: admin.settings() }));
  app.put('/settings', { schema: { body: adminSettingsBody, response: { 200: z.object({ settings: adminSettingsSchema }), ...errors } } },
    async (req) => ({ settings: admin.setSettings(req.body) }));
  app.get('/outbox', { schema: { querystring: outboxQuery, response: { 200: outboxResponseSchema, ...errors } } },
    async (req) => admin.outbox(req.query.page, req.query.page_size));
};
