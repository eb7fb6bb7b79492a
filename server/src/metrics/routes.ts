// GET /metrics: answered to a scraper on the loopback address, or anywhere with METRICS_TOKEN as a
// bearer token. A proxy in front also connects from 127.0.0.1, so a request carrying forwarding headers
// is never taken as local: through the proxy /metrics is refused unless the right token comes with it.
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { HttpError, installErrorHandler } from '../http/errors.ts';
import type { Metrics } from './metrics.ts';
import type { Db } from '../db/index.ts';
import type { SearchService } from '../search/service.ts';

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip'];

/** Connected from this machine, and not on behalf of someone else (no proxy's forwarding headers). */
export function isLocalScrape(req: Pick<FastifyRequest, 'headers'> & { socket: { remoteAddress?: string } }): boolean {
  if (FORWARDING_HEADERS.some((h) => req.headers[h] !== undefined)) return false;
  const addr = req.socket.remoteAddress;
  if (!addr || !ipaddr.isValid(addr)) return false;
  return ipaddr.process(addr).range() === 'loopback';
}

// Hashes first: timingSafeEqual needs equal lengths, and the time must not tell the token's length.
const digest = (s: string) => createHash('sha256').update(s).digest();
export function tokenMatches(given: string, token: string): boolean {
  return token !== '' && timingSafeEqual(digest(given), digest(token));
}

export const metricsRoutes = (metrics: Metrics, opts: { token: string }): FastifyPluginAsync => async (app) => {
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    const auth = req.headers.authorization;
    const bearer = typeof auth === 'string' && /^Bearer\s+/i.test(auth) ? auth.replace(/^Bearer\s+/i, '').trim() : null;
    // A token that is sent must be the right one, even from this machine.
    const allowed = bearer !== null ? tokenMatches(bearer, opts.token) : isLocalScrape(req);
    if (!allowed) {
      // Without a token configured, /metrics does not exist for anyone but this machine.
      if (!opts.token) throw new HttpError(404, 'Not found');
      throw new HttpError(403, 'Cannot do that');
    }
    reply.header('Cache-Control', 'no-store').type(metrics.contentType);
    return metrics.text();
  });
};

/**
 * `serve`'s metrics: every answer's duration by route pattern (never the URL: few label values), the
 * search index's lag behind the primary's search_docs, and the route. On the root instance (a hook in a
 * plugin would see only that plugin's routes).
 */
export async function installMetrics(app: FastifyInstance, services: { metrics: Metrics; db: Db; search: SearchService }, token: string) {
  const { metrics } = services;
  app.addHook('onResponse', async (req, reply) => {
    metrics.httpRequest(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
  const latestSeq = services.db.sqlite.prepare('SELECT coalesce(max(seq), 0) FROM search_docs').pluck();
  metrics.watch({ searchSeq: () => ({ indexed: services.search.indexedSeq, latest: Number(latestSeq.get()) }) });
  await app.register(metricsRoutes(metrics, { token }));
}

/**
 * The `worker` command's /metrics (its jobs, harvests and builds are counted in its own process): a
 * server with that one route on HOST:WORKER_METRICS_PORT, with the same rule of who may read it.
 */
export async function serveWorkerMetrics(metrics: Metrics, opts: { host: string; port: number; token: string }): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  installErrorHandler(app);
  app.addHook('onResponse', async (req, reply) => {
    metrics.httpRequest(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ error: 'Not found' }));
  await app.register(metricsRoutes(metrics, { token: opts.token }));
  await app.listen({ host: opts.host, port: opts.port });
  return app;
}
