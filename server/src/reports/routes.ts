import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataSourceReportBodySchema, errorSchema, idParamSchema, reportBugBodySchema, reportResponseSchema } from '@uc/shared';
import type { ReportResult, ReportService } from './service.ts';
import { REPORT_NOT_SENT } from './service.ts';
import { RateLimiter, addressKey } from '../http/rate-limit.ts';
import type { Db } from '../db/index.ts';
import { viewerOf } from '../http/context.ts';
import type { Viewer } from '../http/viewer.ts';
import { HttpError } from '../http/errors.ts';

export interface ReportRouteOptions {
  /** Where the counters live (shared by every process). */
  db: Db;
  /** Reports accepted per client address per window (0 = unlimited). */
  rateLimit: number;
  rateWindowSeconds: number;
  /** The logged-in user's e-mail address (wired by the accounts module; none until then). */
  emailOf?: (viewer: Viewer) => string | null;
}

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema, 502: errorSchema, 503: errorSchema };

/** A stored report whose e-mail failed is still an error for the sender (the administrators have it in the outbox). */
function answer(r: ReportResult) {
  if (r.mail.status === 'failed') throw new HttpError(502, REPORT_NOT_SENT);
  return { success: 'OK' as const, report_id: r.id };
}

export const reportRoutes = (reports: ReportService, opts: ReportRouteOptions): FastifyPluginAsyncZod => async (app) => {
  const limiter = new RateLimiter(opts.db, 'report', opts.rateLimit, opts.rateWindowSeconds * 1000);
  // Every attempt counts (valid or not), before the body is validated.
  app.addHook('onRequest', async (req, reply) => {
    const wait = limiter.hit(addressKey(req.ip));
    if (wait > 0) {
      reply.header('Retry-After', String(wait));
      throw new HttpError(429, 'Too many reports from your address. Please try again in {{minutes}} minute(s).', { values: { minutes: Math.ceil(wait / 60) } });
    }
  });

  app.post('/report/bug', {
    schema: { body: reportBugBodySchema, response: { 200: reportResponseSchema, ...errors } },
  }, async (req) => answer(await reports.bugReport({ message: req.body.message, emailFrom: req.body.email_from }, viewerOf(req))));

  app.post('/report/data-source-error/:id', {
    // Logged-in users only: anonymous callers get 401 before their body is even read.
    onRequest: async (req) => {
      if (viewerOf(req).userId === null) throw new HttpError(401, 'Please log in');
    },
    schema: { params: idParamSchema, body: dataSourceReportBodySchema, response: { 200: reportResponseSchema, ...errors } },
  }, async (req) => {
    const viewer = viewerOf(req);
    return answer(await reports.dataSourceReport(
      req.params.id,
      { message: req.body.message, reportType: req.body.report_type ?? 'error' },
      { viewer, email: opts.emailOf?.(viewer) ?? null },
    ));
  });
};
