import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { pageRoutes } from './routes.ts';
import type { PagesService } from './service.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const pages = { general: () => ({ site_name: 'S', site_logo: '', description: '', contact_email: '' }) } as unknown as PagesService;
  await app.register(pageRoutes(pages, { tileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png', tileAttribution: '© Tiles' }));
});
afterAll(() => app.close());

describe('GET /general', () => {
  it('tells the web app the configured tile server (TILE_URL)', async () => {
    expect((await app.inject('/general')).json()).toMatchObject({ tile_url: 'https://tiles.example.org/{z}/{x}/{y}.png', tile_attribution: '© Tiles' });
  });
});
