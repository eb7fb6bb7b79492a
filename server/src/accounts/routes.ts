import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccountError, normaliseUsername, type AccountService } from './service.ts';
import { LoginThrottle } from './login-throttle.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { ANONYMOUS, type Viewer } from '../http/viewer.ts';
import { viewerOf } from '../http/context.ts';
import { routedPath } from '../http/csrf.ts';
import { HttpError, Refusal } from '../http/errors.ts';
import { RateLimiter, addressKey } from '../http/rate-limit.ts';
import type { Db } from '../db/index.ts';

export const SESSION_COOKIE = 'sessionid';

/** Reads the session cookie of every API request and attaches its viewer (anonymous otherwise). */
export function installSessions(app: FastifyInstance, accounts: AccountService) {
  app.addHook('onRequest', async (req) => {
    // The route Fastify matched, not the raw URL (which may spell the path with %-escapes).
    if (!routedPath(req)?.startsWith('/collector/')) return;
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

/** Remembers a browser that logged into an account, so a spray elsewhere never slows its owner (login-throttle.ts). */
export const DEVICE_COOKIE = 'logindevice';

const tooMany = (wait: number) => new HttpError(429, 'Too many attempts. Please try again in {{minutes}} minute(s).', { values: { minutes: Math.ceil(wait / 60) } });

export const accountRoutes = (accounts: AccountService, sessionDays: number, db: Db, metrics?: Metrics): FastifyPluginAsyncZod => async (app) => {
  const throttle = new LoginThrottle(db);
  const resetLimit = new RateLimiter(db, 'password-reset', 5, 60 * 60_000);

  app.get('/auth/user', async (req) => accounts.userInfo(viewerOf(req)));

  app.post('/auth/login', { schema: { body: credentials } }, async (req, reply) => {
    const attempt = { username: normaliseUsername(req.body.username), address: addressKey(req.ip), device: req.cookies[DEVICE_COOKIE] };
    const wait = throttle.begin(attempt);
    if (wait > 0) {
      metrics?.loginThrottled();
      reply.header('Retry-After', String(wait));
      throw new HttpError(429, 'Too many attempts. Please try again in {{seconds}} second(s).', { values: { seconds: wait } });
    }
    const result = await accounts.login(req.body.username, req.body.password);
    if ('error' in result) {
      metrics?.loginFailed();
      throw new Refusal(result.error, { fields: { logged_in: null } });
    }
    const { device } = throttle.succeeded(attempt);
    reply.setCookie(DEVICE_COOKIE, device, {
      path: '/collector/api/auth/', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https', maxAge: 365 * 86400,
    });
    setSession(req, reply, result.token, sessionDays);
    const user = accounts.getUser(result.userId)!;
    return accounts.userInfo(accounts.viewerOf(user));
  });

  // A GET (the spec's), but it changes state: the CSRF header is required here too (http/csrf.ts).
  app.get('/auth/logout', { config: { csrf: true } }, async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    if (token) accounts.logout(token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: 'Logged out' };
  });

  app.post('/auth/reset-password', { schema: { body: resetBody } }, async (req, reply) => {
    const wait = resetLimit.hit(addressKey(req.ip));
    if (wait > 0) throw tooMany(wait);
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
      if (err instanceof AccountError) throw new Refusal(err.template, { values: err.values, fields: { logged_in: null } });
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
