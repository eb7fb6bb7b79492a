import type { FastifyRequest } from 'fastify';
import { ANONYMOUS, type Viewer } from './viewer.ts';

/** The viewer of a request; the accounts module will attach the logged-in user here. */
export function viewerOf(req: FastifyRequest): Viewer {
  return (req as FastifyRequest & { viewer?: Viewer }).viewer ?? ANONYMOUS;
}
