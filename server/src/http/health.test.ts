// /healthz, /readyz and the request id every answer carries (and every log line).
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/fixture.ts';
import { healthRoutes } from './health.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

describe('health and readiness', () => {
  it('answers ok and ready on a working server, never cached', async () => {
    const h = await t.app.inject('/healthz');
    expect(h.statusCode).toBe(200);
    expect(h.json()).toEqual({ status: 'ok' });
    const r = await t.app.inject('/readyz');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'ready' });
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('is not ready (503, with the reason) when the data folder cannot be written', async () => {
    const app = Fastify();
    await app.register(healthRoutes(t.services.db, path.join(t.dir, 'no', 'such', 'folder')));
    const r = await app.inject('/readyz');
    expect(r.statusCode).toBe(503);
    expect(r.json()).toEqual({ status: 'unavailable', problems: ['data folder: not writable'] });
    await app.close();
  });

  it('gives every answer a request id: the proxy\'s when sane, else a new one', async () => {
    const given = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'proxy-abc.123' } });
    expect(given.headers['x-request-id']).toBe('proxy-abc.123');
    const fresh = await t.app.inject('/collector/api/general');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const insane = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'x'.repeat(500) } });
    expect(insane.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
