// One place that turns failures into JSON answers: 4xx with a message for bad input, 500 without details.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { QuerySyntaxError } from '../search/parser.ts';

export class HttpError extends Error {
  constructor(public statusCode: number, message: string) {
    super(message);
  }
}

export const notFound = (what = 'Not found') => new HttpError(404, what);

export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const detail = err.validation
        .slice(0, 3)
        .map((v) => `${v.instancePath.replace(/^\//, '') || (v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') || 'input'}: ${v.message}`)
        .join('; ');
      return reply.code(400).send({ error: `Invalid request (${detail})` });
    }
    if (err instanceof QuerySyntaxError) return reply.code(400).send({ error: `Invalid query: ${err.message}` });
    if (err instanceof HttpError) return reply.code(err.statusCode).send({ error: err.message });
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ error: err.message });
    req.log.error({ err }, 'request failed');
    return reply.code(500).send({ error: 'Internal server error' });
  });
}
