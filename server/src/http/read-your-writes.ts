// Read your own writes with read replicas (db/replicas.ts): after a state-changing request the primary's
// WAL position goes back in the uc_lsn cookie, and this node reads from the primary until a standby has
// replayed it; a later request of the same browser on any node brings the cookie, so that node waits for
// the same position. Nothing happens without DATABASE_REPLICA_URL.
import type { FastifyInstance } from 'fastify';
import { formatLsn, parseLsn, type ReadRouter } from '../db/replicas.ts';

export const LSN_COOKIE = 'uc_lsn';
/** Long enough for any standby the router would use (REPLICA_MAX_LAG_SECONDS) to replay the write. */
const LSN_COOKIE_SECONDS = 120;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function installReadYourWrites(app: FastifyInstance, router: ReadRouter | null): void {
  if (!router) return;
  app.addHook('onRequest', async (req) => {
    const lsn = parseLsn(req.cookies[LSN_COOKIE]);
    if (lsn !== null) router.require(lsn);
  });
  // onSend, not onResponse: the cookie must go with the answer, and the floor must rise before the
  // client can send its next request.
  app.addHook('onSend', async (req, reply, payload) => {
    if (READS.has(req.method)) return payload;
    try {
      const lsn = router.wrote();
      reply.setCookie(LSN_COOKIE, formatLsn(lsn), { path: '/', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https', maxAge: LSN_COOKIE_SECONDS });
    } catch {
      // The primary is gone: the request failed anyway, or it wrote nothing that could be read back.
    }
    return payload;
  });
}
