// One place that turns failures into JSON answers: 4xx with a message for bad input, 500 without details,
// and the spec's way for the refusals a user must read (see ANSWERED_REFUSALS). Messages go out in the
// reader's language (Accept-Language).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { QuerySyntaxError } from '../search/parser.ts';
import { errorMessage, interpolate, messageLanguage, translateMessage, zodIssueMessage, type MessageLanguage, type MessageSource, type MessageValues } from './messages.ts';

export interface HttpErrorOptions {
  /** Values of the message's `{{name}}` placeholders. */
  values?: MessageValues;
  /** Further fields of the answer (for instance `logged_in: null` on a failed login). */
  fields?: Record<string, unknown>;
  /** The input field the message is about: written before it ("isbn: ..."), never translated. */
  field?: string;
  /** A validation issue found past the schema (its message goes out in the reader's language). */
  issue?: { path: string; issue: z.core.$ZodIssue };
  /** Response headers the answer carries (Retry-After on a 503). */
  headers?: Record<string, string>;
}

export class HttpError extends Error implements MessageSource {
  readonly template: string;
  readonly values?: MessageValues;
  readonly fields?: Record<string, unknown>;
  readonly field?: string;
  readonly issue?: HttpErrorOptions['issue'];
  readonly headers?: Record<string, string>;
  /** `message` is an English template: `{{name}}` placeholders are filled from `opts.values`. */
  constructor(public statusCode: number, message: string, opts: HttpErrorOptions = {}) {
    super(`${opts.field ? `${opts.field}: ` : ''}${interpolate(message, opts.values)}`);
    this.template = message;
    this.values = opts.values;
    this.fields = opts.fields;
    this.field = opts.field;
    this.issue = opts.issue;
    this.headers = opts.headers;
    if (opts.issue) this.message = `Invalid request (${opts.issue.path}: ${opts.issue.issue.message})`;
  }
}

/**
 * A refusal the user must read and can mend (a wrong password, a bad token, a form's validation
 * message). On the calls of ANSWERED_REFUSALS it is answered 200 with `error`; elsewhere with its status.
 */
export class Refusal extends HttpError {
  constructor(message: string, opts: HttpErrorOptions & { status?: number } = {}) {
    super(opts.status ?? 400, message, opts);
  }
}

export const notFound = (what = 'Not found') => new HttpError(404, what);

/**
 * The calls whose returns include `error` in spec §7: the spec's client reads a refusal from the `error`
 * of a successful answer and shows nothing for a 4xx. On these, refusals (Refusal, and 400/409
 * answers, and validation issues a form can cause: too short, too long, wrong format) are answered 200
 * with `error`. What no correct client sends (malformed or missing fields, a missing CSRF token), no
 * permission (401/403), unknown things (404), sizes (413) and rate limits (429) keep their 4xx status.
 */
export const ANSWERED_REFUSALS: ReadonlySet<string> = new Set([
  'POST /collector/api/auth/login',
  'POST /collector/api/auth/reset-password',
  'POST /collector/api/report/bug',
  'POST /collector/api/library/details/:id',
  'POST /collector/api/library/create-user/:id',
  'POST /collector/api/spreadsheet/:id',
  // §7 names no returns here, but the spec's client reads `error` from this answer too.
  'POST /collector/api/spreadsheet/process/:id',
  'POST /collector/api/bookbuilder',
  'POST /collector/api/bookcover',
  'POST /collector/api/agents/:id',
  'POST /collector/api/create/:target',
  'POST /collector/api/merge/:target',
  'POST /collector/api/split-author',
  'POST /collector/api/set-translations',
  'POST /collector/api/set-aggregated',
]);

const REFUSAL_STATUSES = new Set([400, 409]);
/** Zod issue codes a person filling a form can cause; the others (wrong types, missing fields, unknown values) mean a broken client. */
const FORM_ISSUES = new Set(['too_small', 'too_big', 'invalid_format', 'not_multiple_of', 'custom']);
/** Fields the client itself manages, never typed by a person: any issue with them means a broken client. */
const PROTOCOL_FIELDS = new Set(['action', 'operation', 'session_id', 'check_job_id', 'job_id', 'id', 'remove_id', 'move_id', 'to_id']);

function isFormIssue(v: ValidationItem): boolean {
  const path = v.instancePath.split('/').filter(Boolean);
  return FORM_ISSUES.has(v.keyword) && !PROTOCOL_FIELDS.has(path[path.length - 1] ?? '');
}

type ValidationItem = { keyword: string; instancePath: string; message: string; params: Record<string, unknown> };

function answersRefusals(req: FastifyRequest): boolean {
  return ANSWERED_REFUSALS.has(`${req.method} ${req.routeOptions.url ?? ''}`);
}

/** Answers 200 with `error`, past the route's 200 schema (a refusal is not the success shape). */
function sendRefusal(reply: FastifyReply, body: Record<string, unknown>) {
  return reply.code(200).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

function validationMessage(lang: MessageLanguage, items: ValidationItem[]): string {
  const detail = items
    .slice(0, 3)
    .map((v) => {
      const issue = { ...v.params, code: v.keyword, message: v.message } as unknown as z.core.$ZodRawIssue & { message: string };
      const where = v.instancePath.replace(/^\//, '') || (v.params.issue as { path?: unknown[] } | undefined)?.path?.join('.') || 'input';
      return `${where}: ${zodIssueMessage(lang, issue)}`;
    })
    .join('; ');
  return translateMessage(lang, 'Invalid request ({{detail}})', { detail });
}

export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const lang = messageLanguage(req.headers['accept-language']);
    const answered = answersRefusals(req);
    if (hasZodFastifySchemaValidationErrors(err)) {
      const items = err.validation as unknown as ValidationItem[];
      const error = validationMessage(lang, items);
      if (answered && items.every(isFormIssue)) return sendRefusal(reply, { error });
      return reply.code(400).send({ error });
    }
    if (err instanceof QuerySyntaxError) {
      return reply.code(400).send({ error: translateMessage(lang, 'Invalid query: {{reason}}', { reason: errorMessage(lang, err) }) });
    }
    if (err instanceof HttpError) {
      const message = err.issue
        ? validationMessage(lang, [{ keyword: err.issue.issue.code, instancePath: err.issue.path, message: err.issue.issue.message, params: { ...err.issue.issue } }])
        : `${err.field ? `${err.field}: ` : ''}${errorMessage(lang, err)}`;
      const body = { ...err.fields, error: message };
      if (err.headers) reply.headers(err.headers);
      if (answered && (err instanceof Refusal || REFUSAL_STATUSES.has(err.statusCode))) return sendRefusal(reply, body);
      return reply.code(err.statusCode).send(body);
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ error: errorMessage(lang, err) });
    req.log.error({ err }, 'request failed');
    return reply.code(500).send({ error: translateMessage(lang, 'Internal server error') });
  });
}
