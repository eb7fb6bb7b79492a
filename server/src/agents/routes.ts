import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { agentResponseSchema, errorSchema, idParamSchema } from '@uc/shared';
import type { AgentService } from './service.ts';
import { notFound } from '../http/errors.ts';

export const agentRoutes = (agents: AgentService): FastifyPluginAsyncZod => async (app) => {
  app.get('/agents/:id', {
    schema: { params: idParamSchema, response: { 200: agentResponseSchema, 404: errorSchema } },
  }, async (req) => {
    const agent = agents.get(req.params.id);
    if (!agent) throw notFound('No such author');
    return { agent };
  });
};
