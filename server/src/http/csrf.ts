// CSRF (spec §6): every API GET hands out a `csrftoken` cookie when the browser has none; every
// state-changing call must send the same value in the X-CSRFToken header (double-submit cookie).
//
// The token is not stored on the server: any token is good as long as header and cookie agree. A cookie
// the browser already holds is never replaced, so the token stays the same for that browser. A fresh
// browser's first requests, sent in parallel, each get their own new cookie and the browser keeps the
// one it stores last; so the web client, before a state-changing call, waits for the answers to the
// requests it sent without a cookie, asks GET /collector/api/csrf when it still holds none, reads the
// cookie when it sends, and retries a call refused for CSRF once. A refusal for a missing cookie comes
// with a new cookie, so that one retry can succeed.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';
export const CSRF_ERROR = 'CSRF token missing or incorrect: reload the page and try again';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

function handOut(req: FastifyRequest, reply: FastifyReply) {
  reply.setCookie(CSRF_COOKIE, randomBytes(24).toString('hex'), {
    path: '/', sameSite: 'lax', secure: req.protocol === 'https', maxAge: 365 * 86400,
  });
}

export function installCsrf(app: FastifyInstance) {
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/collector/api/')) return;
    const cookie = req.cookies[CSRF_COOKIE];
    if (SAFE.has(req.method)) {
      if (!cookie) handOut(req, reply);
      return;
    }
    const header = req.headers[CSRF_HEADER];
    if (!cookie || typeof header !== 'string' || header !== cookie) {
      if (!cookie) handOut(req, reply);
      return reply.code(403).send({ error: CSRF_ERROR });
    }
  });
  // For a client that must post before any other API answer gave it a cookie (the hook above sets it).
  app.get('/collector/api/csrf', { schema: { hide: true } }, async () => ({ ok: true }));
}
