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
//
// Which requests are checked is decided by the method and the route Fastify matched, never by the raw
// URL: the router decodes `%61pi`, so a prefix test on req.url let `/collector/%61pi/...` through. Every
// state-changing method is checked on every path (matched or not); a route opts out with
// `config: { csrf: false }` (OAI-PMH's POST, read-only and sent by harvesters without cookies), and a
// GET that changes state opts in with `config: { csrf: true }` (logout).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** true: checked even on GET; false: never checked; unset: checked on every state-changing method. */
    csrf?: boolean;
  }
}

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';
export const CSRF_ERROR = 'CSRF token missing or incorrect: reload the page and try again';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const API_PREFIX = '/collector/api/';

function handOut(req: FastifyRequest, reply: FastifyReply) {
  reply.setCookie(CSRF_COOKIE, randomBytes(24).toString('hex'), {
    path: '/', sameSite: 'lax', secure: req.protocol === 'https', maxAge: 365 * 86400,
  });
}

/** The path pattern of the route Fastify matched (decoded, as routed), or null for none (a 404). */
export function routedPath(req: FastifyRequest): string | null {
  return req.routeOptions.url ?? null;
}

/** Whether a request must carry the token: state-changing methods everywhere, unless its route says otherwise. */
export function needsCsrf(req: FastifyRequest): boolean {
  const own = req.routeOptions.config?.csrf;
  if (own !== undefined) return own;
  return !SAFE.has(req.method);
}

export function installCsrf(app: FastifyInstance) {
  app.addHook('onRequest', async (req, reply) => {
    const cookie = req.cookies[CSRF_COOKIE];
    if (!needsCsrf(req)) {
      if (!cookie && SAFE.has(req.method) && routedPath(req)?.startsWith(API_PREFIX)) handOut(req, reply);
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
