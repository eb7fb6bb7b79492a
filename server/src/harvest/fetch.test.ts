// What a harvest's failed request says to the librarian who reads the run's report: what went wrong in
// their words and what to do, never the system's codes (those go to the server log as the detail).
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchWithRetry, HarvestFetchError } from './fetch.ts';

let server: http.Server;
let base = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const status = Number(/^\/status\/(\d+)/.exec(req.url ?? '')?.[1] ?? 200);
    res.writeHead(status, { 'content-type': 'text/plain' }).end('x');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const options = { allowPrivate: true, retries: 1, backoffMs: 1, timeoutMs: 5000 };
async function failure(url: string): Promise<HarvestFetchError> {
  const e = await fetchWithRetry(url, options).then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(HarvestFetchError);
  return e as HarvestFetchError;
}

describe('a failed harvest request, as its report says it', () => {
  it('a missing page: the address is to check', async () => {
    const e = await failure(`${base}/status/404/oai`);
    expect(e.message).toBe(`${new URL(base).host} has no page at /status/404/oai (HTTP 404): check the address`);
  });

  it('a refusal: the repository must allow harvesting', async () => {
    const e = await failure(`${base}/status/403`);
    expect(e.message).toMatch(/does not let us read \/status\/403 \(HTTP 403\): its administrators must allow harvesting$/);
  });

  it('a server fault is tried again, and the report says how often', async () => {
    const e = await failure(`${base}/status/503`);
    expect(e.message).toBe(`${new URL(base).host} is busy or has a fault of its own (HTTP 503); the next harvest tries again (tried 2 times)`);
  });

  it('a closed port: the site is down or the port is wrong; the system code is for the log only', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const e = await failure(`http://127.0.0.1:${port}/oai`);
    expect(e.message).toBe(`127.0.0.1:${port} refused the connection: the site is down, or the address has a wrong port (tried 2 times)`);
    expect(e.message).not.toMatch(/ECONNREFUSED/);
    expect(e.detail).toMatch(/ECONNREFUSED/);
  });
});
