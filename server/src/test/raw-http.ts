// Requests over a real socket with the path sent exactly as written (fetch and inject normalise it:
// `%61pi`, `//`, `/../` must reach the server unchanged to replay a path-spelling attack).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface RawAnswer { status: number; headers: http.IncomingHttpHeaders; body: string; json(): any }

/** Starts the app on 127.0.0.1 (a free port) and returns its port. */
export async function listenLocal(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}

export function rawRequest(port: number, method: string, rawPath: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: rawPath, headers: { connection: 'close', ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}), ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** The value of a Set-Cookie of the answer, if it sets `name`. */
export function setCookie(res: RawAnswer, name: string): string | undefined {
  for (const line of res.headers['set-cookie'] ?? []) {
    const m = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (m) return m[1];
  }
  return undefined;
}
