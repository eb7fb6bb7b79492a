import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generalSchema, pageResponseSchema, pagesResponseSchema } from '@uc/shared';
import { fixtureLines, testApp, type TestApp } from '../test/fixture.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp([
    ...fixtureLines(),
    { type: 'page', id: 1, title: 'About', summary: 'Who we are', content: '<p onclick="steal()">Hi<script>alert(1)</script></p>', language: 'en', location: 'footer', sorting: 1, published: true },
    { type: 'page', id: 2, title: 'Chi siamo', summary: 'Il progetto', content: '<p>Ciao</p>', language: 'it', location: 'footer', sorting: 1, published: true },
    { type: 'page', id: 3, title: 'Privacy', summary: 'Everyone', content: '<p>All languages</p>', language: 'ALL', location: 'footer', sorting: 0, published: true },
    { type: 'page', id: 4, title: 'Tips', summary: 'Menu', content: '<p>Menu page</p>', language: 'ALL', location: 'user_menu', published: true },
    { type: 'page', id: 5, title: 'Draft', content: '<p>Not yet</p>', language: 'en', location: 'footer', published: false },
  ]);
});
afterAll(async () => t.close());

const get = (url: string) => t.app.inject(`/collector/api${url}`);
const stored = (id: number) => t.services.db.sqlite.prepare('SELECT content FROM pages WHERE id = ?').pluck().get(id);

describe('pages', () => {
  it('sanitizes page HTML before storing it', () => {
    expect(stored(1)).toBe('<p>Hi</p>');
    const id = t.services.pages.upsertPage({ title: 'X', content: '<a href="javascript:x()">a</a><img src=x onerror=y><iframe src="https://evil"></iframe>', published: true, location: 'footer' });
    expect(stored(id)).toBe('<a>a</a><img src="x">');
  });

  it('sanitizes again on display (rows written before the rule)', async () => {
    t.services.db.sqlite.prepare("UPDATE pages SET content = '<p>Old<script>x()</script></p>' WHERE id = 2").run();
    expect(pageResponseSchema.parse((await get('/pages/2')).json()).page).toEqual({ id: 2, title: 'Chi siamo', summary: 'Il progetto', content: '<p>Old</p>' });
  });

  it('lists the published footer pages of a language and of all languages, by sorting', async () => {
    expect(pagesResponseSchema.parse((await get('/pages/footer/en')).json()).pages.map((p) => p.title)).toEqual(['Privacy', 'X', 'About']); // X: sorting 0, by title
    expect(pagesResponseSchema.parse((await get('/pages/footer/it')).json()).pages).toEqual([
      { id: 3, title: 'Privacy', summary: 'Everyone' },
      { id: 2, title: 'Chi siamo', summary: 'Il progetto' },
    ]);
    expect(pagesResponseSchema.parse((await get('/pages/user_menu/hr')).json()).pages.map((p) => p.id)).toEqual([4]);
  });

  it('hides drafts and logged-in-only pages from visitors; rejects bad locations and languages', async () => {
    expect((await get('/pages/5')).statusCode).toBe(404);
    t.services.db.sqlite.prepare('UPDATE pages SET logged_in_only = 1 WHERE id = 4').run();
    expect((await get('/pages/4')).statusCode).toBe(404);
    expect(pagesResponseSchema.parse((await get('/pages/user_menu/en')).json()).pages).toEqual([]);
    expect((await get('/pages/sidebar/en')).statusCode).toBe(400);
    expect((await get('/pages/footer/xx')).statusCode).toBe(400);
  });

  it('returns the site settings', async () => {
    expect(generalSchema.parse((await get('/general')).json())).toEqual({
      site_name: 'Test Catalogue', site_logo: '', description: '', contact_email: 'info@example.org', tile_url: '', tile_attribution: '', password_min_length: 10,
    });
  });
});
