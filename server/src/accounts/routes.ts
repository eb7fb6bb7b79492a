import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccountError, type AccountService } from './service.ts';
import { ANONYMOUS, type Viewer } from '../http/viewer.ts';
import { viewerOf } from '../http/context.ts';
import { HttpError } from '../http/errors.ts';
import { RateLimiter } from '../http/rate-limit.ts';

export const SESSION_COOKIE = 'sessionid';

/** Reads the session cookie of every API request and attaches its viewer (anonymous otherwise). */
export function installSessions(app: FastifyInstance, accounts: AccountService) {
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/collector/')) return;
    const token = req.cookies[SESSION_COOKIE];
    (req as FastifyRequest & { viewer?: Viewer }).viewer = (token && accounts.viewerForToken(token)) || ANONYMOUS;
  });
}

function setSession(req: FastifyRequest, reply: FastifyReply, token: string, days: number) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https', maxAge: days * 86400,
  });
}

const credentials = z.object({ username: z.string().min(1).max(150), password: z.string().min(1).max(1000) });
const resetBody = z.discriminatedUnion('operation', [
  z.object({ operation: z.literal('send-link'), username: z.string().min(1).max(150) }),
  z.object({ operation: z.literal('reset'), username: z.string().min(1).max(150), token: z.string().min(1).max(200), password: z.string().min(1).max(1000) }),
]);

export const accountRoutes = (accounts: AccountService, sessionDays: number): FastifyPluginAsyncZod => async (app) => {
  // Per client address and per username, so neither a crowd of names nor one name can be hammered.
  const loginLimit = new RateLimiter(10, 10 * 60_000);
  const resetLimit = new RateLimiter(5, 60 * 60_000);
  const limited = (limiter: RateLimiter, keys: string[]) => {
    const wait = Math.max(...keys.map((k) => limiter.hit(k)));
    if (wait > 0) throw new HttpError(429, `Too many attempts. Please try again in ${Math.ceil(wait / 60)} minute(s).`);
  };

  app.get('/auth/user', async (req) => accounts.userInfo(viewerOf(req)));

  app.post('/auth/login', { schema: { body: credentials } }, async (req, reply) => {
    limited(loginLimit, [`ip:${req.ip}`, `user:${req.body.username.trim().toLowerCase()}`]);
    const result = await accounts.login(req.body.username, req.body.password);
    if ('error' in result) return reply.code(401).send({ logged_in: null, error: result.error });
    setSession(req, reply, result.token, sessionDays);
    const user = accounts.getUser(result.userId)!;
    return accounts.userInfo(accounts.viewerOf(user));
  });

  app.get('/auth/logout', async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    if (token) accounts.logout(token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: 'Logged out' };
  });

  app.post('/auth/reset-password', { schema: { body: resetBody } }, async (req, reply) => {
    limited(resetLimit, [`ip:${req.ip}`]);
    const body = req.body;
    if (body.operation === 'send-link') {
      await accounts.requestReset(body.username);
      return { message: 'If this account exists and has an e-mail address, we sent it a link to reset the password. Please check your inbox.' };
    }
    try {
      const { token, userId } = await accounts.resetPassword(body.username, body.token, body.password);
      setSession(req, reply, token, sessionDays);
      return accounts.userInfo(accounts.viewerOf(accounts.getUser(userId)!));
    } catch (err) {
      if (err instanceof AccountError) return reply.code(400).send({ logged_in: null, error: err.message });
      throw err;
    }
  });

  // Library admins check a username before adding it to their library (spec §5).
  app.get('/auth/user-check/:username', { schema: { params: z.object({ username: z.string().min(1).max(150) }) } }, async (req) => {
    const viewer = viewerOf(req);
    if (viewer.userId === null) throw new HttpError(401, 'Please log in');
    if (!viewer.isLibraryAdmin && !viewer.isSuperuser) throw new HttpError(403, 'Only library administrators may check usernames');
    const username = req.params.username.trim().toLowerCase();
    return { username, username_exists: accounts.userExists(username) ? 1 : 0 };
  });
};
