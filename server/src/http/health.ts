// Health and readiness for the proxy and the operator: /healthz says the process answers; /readyz says
// it can serve (the database answers, DATA_DIR is writable, the search index is loaded), else 503 with
// the reason.
import fs from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/index.ts';

/** `searchNotReady`: why searches cannot be answered yet (the index being loaded at start), or null. */
export const healthRoutes = (db: Db, dataDir: string, searchNotReady: () => string | null = () => null): FastifyPluginAsync => async (app) => {
  const ping = db.sqlite.prepare('SELECT 1').pluck();
  app.get('/healthz', { schema: { hide: true } }, async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const problems: string[] = [];
    try {
      ping.get();
    } catch (e) {
      problems.push(`database: ${(e as Error).message}`);
    }
    try {
      fs.accessSync(dataDir, fs.constants.W_OK);
    } catch {
      problems.push('data folder: not writable');
    }
    const search = searchNotReady();
    if (search) problems.push(search);
    if (problems.length) return reply.code(503).send({ status: 'unavailable', problems });
    return { status: 'ready' };
  });
};
