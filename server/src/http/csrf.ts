// CSRF (spec §6): every API GET hands out a `csrftoken` cookie when the browser has none; every
// state-changing call must send the same value in the X-CSRFToken header (double-submit cookie).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function installCsrf(app: FastifyInstance) {
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/collector/api/')) return;
    const cookie = req.cookies[CSRF_COOKIE];
    if (SAFE.has(req.method)) {
      if (!cookie) {
        reply.setCookie(CSRF_COOKIE, randomBytes(24).toString('hex'), {
          path: '/', sameSite: 'lax', secure: req.protocol === 'https', maxAge: 365 * 86400,
        });
      }
      return;
    }
    const header = req.headers[CSRF_HEADER];
    if (!cookie || typeof header !== 'string' || header !== cookie) {
      return reply.code(403).send({ error: 'CSRF token missing or incorrect: reload the page and try again' });
    }
  });
}
