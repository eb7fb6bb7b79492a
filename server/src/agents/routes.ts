import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentResponseSchema, agentsQuerySchema, agentsResponseSchema, errorSchema, idParamSchema,
  wikidataLanguageParamSchema, wikidataResponseSchema,
} from '@uc/shared';
import type { AgentService, CreatorCounter } from './service.ts';
import type { Viewer } from '../http/viewer.ts';
import type { WikidataService } from './wikidata.ts';
import { viewerOf } from '../http/context.ts';
import { notFound } from '../http/errors.ts';

/** The search index also tells which authors the visibility rule hides (SearchService.hidesCreator). */
type Creators = CreatorCounter & { hidesCreator(agentId: number, viewer: Viewer): boolean };

export const agentRoutes = (agents: AgentService, counter: Creators, wikidata: WikidataService): FastifyPluginAsyncZod => async (app) => {
  app.get('/agents', {
    schema: { querystring: agentsQuerySchema, response: { 200: agentsResponseSchema } },
  }, async (req) => agents.search(req.query.search ?? '', viewerOf(req), counter));

  app.get('/agents/:id', {
    schema: { params: idParamSchema, response: { 200: agentResponseSchema, 404: errorSchema } },
  }, async (req) => {
    // An author whose every entry only libraries hidden from the viewer hold answers as a nonexistent one.
    const agent = agents.get(req.params.id);
    if (!agent || counter.hidesCreator(agent.id, viewerOf(req))) throw notFound('No such author');
    return { agent };
  });

  // Always 200 for a known author: when Wikidata cannot be reached the card carries `error`.
  app.get('/agents/:id/wikidata/:language', {
    schema: { params: wikidataLanguageParamSchema, response: { 200: wikidataResponseSchema, 404: errorSchema } },
  }, async (req) => {
    const { found, wikidataId } = agents.wikidataIdOf(req.params.id);
    if (!found || counter.hidesCreator(req.params.id, viewerOf(req))) throw notFound('No such author');
    // The spec's client heads its author box with `name`: the Wikidata label, else (no id, Wikidata
    // unreachable or not knowing the id) the author's own name. Without an id the card is empty but keeps its shape.
    const name = agents.get(req.params.id)?.name ?? null;
    if (!wikidataId) return { wikidata_id: null, name, desc: null, link: null, statements: [] };
    const card = await wikidata.card(wikidataId, req.params.language);
    return card.name ? card : { ...card, name };
  });
};
