// Curation routes (spec §7 "Curation", POST /agents/{id}): thin; the rules live in CurationService.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agentEditBodySchema, aggregationBodySchema, changesQuerySchema, changesResponseSchema, createBodySchema, createReplySchema,
  createTargetParamSchema, curationListBodySchema, curationReplySchema, duplicatesQuerySchema, duplicatesResponseSchema,
  errorSchema, exclusionBodySchema, exclusionsResponseSchema, idParamSchema, listingResponseSchema, listingTypeParamSchema,
  mergeTargetParamSchema, revertBodySchema, revertTypeParamSchema, agentSchema,
} from '@uc/shared';
import { viewerOf } from '../http/context.ts';
import { assertCanMerge, assertCanSetExclusions, type CurationService } from './service.ts';
import type { FastifyRequest } from 'fastify';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };
const reply = { 200: curationReplySchema, ...errors };
const ids = (items: { id: number }[]) => items.map((i) => i.id);
// Who may call is checked before the body is validated: a refused caller learns nothing from a 400.
const merger = { onRequest: async (req: FastifyRequest) => assertCanMerge(viewerOf(req)) };
const loggedIn = { onRequest: async (req: FastifyRequest) => assertCanSetExclusions(viewerOf(req)) };

export const curationRoutes = (curation: CurationService): FastifyPluginAsyncZod => async (app) => {
  app.post('/merge/:target', { ...merger, schema: { params: mergeTargetParamSchema, body: curationListBodySchema, response: reply } }, async (req) => {
    const viewer = viewerOf(req);
    return req.params.target === 'author' ? curation.mergeAgents(viewer, ids(req.body)) : curation.mergeEntries(viewer, ids(req.body));
  });
  app.post('/split-author', { ...merger, schema: { body: curationListBodySchema, response: reply } }, async (req) => curation.splitAgent(viewerOf(req), ids(req.body)));
  app.post('/set-translations', { ...merger, schema: { body: curationListBodySchema, response: reply } }, async (req) => curation.setTranslations(viewerOf(req), ids(req.body)));
  app.post('/set-aggregated', { ...merger, schema: { body: aggregationBodySchema, response: reply } }, async (req) => curation.setAggregated(viewerOf(req), req.body));

  app.post('/create/:target', { ...merger, schema: { params: createTargetParamSchema, body: createBodySchema, response: { 200: createReplySchema, ...errors } } },
    async (req) => curation.create(viewerOf(req), req.params.target, req.body.value));

  app.post('/agents/:id', { ...merger,
    schema: { params: idParamSchema, body: agentEditBodySchema, response: { 200: z.object({ agent: agentSchema, error: z.null(), change_id: z.number().int().nullable() }), ...errors } },
  }, async (req) => curation.editAgent(viewerOf(req), req.params.id, req.body.wikidata_id));

  app.get('/exclusions', { ...loggedIn, schema: { response: { 200: exclusionsResponseSchema, ...errors } } }, async (req) => ({ exclusions: curation.exclusions(viewerOf(req)) }));
  app.post('/exclusions', { ...loggedIn, schema: { body: exclusionBodySchema, response: reply } }, async (req) => {
    const b = req.body;
    return b.op === 'add' ? curation.addExclusion(viewerOf(req), b.type, b.id, b.comment) : curation.removeExclusion(viewerOf(req), b.id);
  });

  app.get('/listing/:type', { ...loggedIn, schema: { params: listingTypeParamSchema, response: { 200: listingResponseSchema, ...errors } } },
    async (req) => curation.listing(viewerOf(req), req.params.type));
  app.post('/revert/:type', {
    // A user's own exclusions are theirs to restore; every other relation needs the merge right.
    onRequest: async (req) => ((req.params as { type?: string }).type === 'exclusions' ? assertCanSetExclusions : assertCanMerge)(viewerOf(req)), schema: { params: revertTypeParamSchema, body: revertBodySchema, response: reply } },
    async (req) => curation.revert(viewerOf(req), req.params.type, req.body.id, req.body.item));

  app.get('/changes', { ...loggedIn, schema: { querystring: changesQuerySchema, response: { 200: changesResponseSchema, ...errors } } },
    async (req) => curation.changes(viewerOf(req), req.query));
  app.post('/changes/:id/undo', { ...loggedIn, schema: { params: idParamSchema, response: reply } }, async (req) => curation.undo(viewerOf(req), req.params.id));

  app.get('/curation/duplicates', { ...merger, schema: { querystring: duplicatesQuerySchema, response: { 200: duplicatesResponseSchema, ...errors } } },
    async (req) => ({ groups: curation.duplicates(viewerOf(req), req.query.kind) }));
};
