// GET and POST /oai: the OAI-PMH endpoint (outside /collector/api; answers are XML, errors included).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OaiBusy, type OaiProvider } from './oai-provider.ts';
import { publicBase } from './feeds.ts';

const FORM = 'application/x-www-form-urlencoded';

export function oaiRoutes(provider: OaiProvider, publicUrl: string) {
  return async (app: FastifyInstance) => {
    // Bodies are read raw here (this plugin only): arguments are parsed below so repeats can be refused.
    app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));

    const answer = async (req: FastifyRequest, reply: FastifyReply, raw: string) => {
      const siteUrl = publicBase(publicUrl, req);
      try {
        const xml = await provider.handle([...new URLSearchParams(raw)], `${siteUrl}/oai`, siteUrl);
        return reply.type('text/xml; charset=utf-8').send(xml);
      } catch (e) {
        if (!(e instanceof OaiBusy)) throw e;
        return reply.code(503).header('Retry-After', String(e.retryAfterSeconds)).type('text/plain; charset=utf-8')
          .send('The catalogue is being updated: try again shortly');
      }
    };
    const query = (req: FastifyRequest) => {
      const i = req.url.indexOf('?');
      return i < 0 ? '' : req.url.slice(i + 1);
    };

    app.get('/oai', { schema: { hide: true } }, async (req, reply) => answer(req, reply, query(req)));
    // Read-only, and harvesters send no cookies: the one POST without the CSRF check (http/csrf.ts).
    app.post('/oai', { schema: { hide: true }, config: { csrf: false } }, async (req, reply) => {
      const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      // A POST in any other encoding is answered as a request without a verb (badVerb), never a JSON error.
      const body = type === FORM && typeof req.body === 'string' ? req.body : '';
      return answer(req, reply, body);
    });
  };
}
