// Choosing parts of a session text (our addition): get_sections lists its sections with their headings,
// numbered as `partial` counts them, and set_partial changes the selection of a text already in the book.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookbuilderResponseSchema, type BookbuilderResponse } from '@uc/shared';
import { sectionTitles, selectSections } from '@uc/muse';
import { repoRoot } from '../config.ts';
import { fixtureLines, testApp, type TestApp } from '../test/fixture.ts';

const file = path.join(repoRoot, 'demo', 'texts', 'keeping-paper-alive.muse');

describe('the parts of a Book Builder text', () => {
  let t: TestApp;
  let ds = 0;
  beforeAll(async () => {
    t = await testApp([
      ...fixtureLines(),
      {
        type: 'entry', id: 101, title: 'Keeping Paper Alive', subtitle: null, authors: ['Demo Author'], languages: ['en'], year: 2026, aggregation_id: null, translation_of: null, fulltext: null,
        data_sources: [{ library_id: 1, identifier: 'muse-101', year_edition: 2026, downloads: [], muse_file: file }],
      },
    ]);
    ds = t.services.db.sqlite.prepare('SELECT id FROM data_sources WHERE identifier = ?').pluck().get('muse-101') as number;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  async function call(body: object): Promise<{ status: number; json: BookbuilderResponse & { error?: string } }> {
    const res = await t.app.inject({ method: 'POST', url: '/collector/api/bookbuilder', payload: body, headers: { cookie: 'csrftoken=x', 'x-csrftoken': 'x' } });
    const json = res.json();
    if (res.statusCode === 200) bookbuilderResponseSchema.parse(json);
    return { status: res.statusCode, json };
  }

  it('lists the sections with their headings and changes the selection of a text in the book', async () => {
    const added = (await call({ action: 'add', add: ds })).json;
    const sid = added.session_id!;
    const textId = added.texts![0].id;
    const listed = await call({ action: 'get_sections', session_id: sid, text_id: textId });
    expect(listed.status).toBe(200);
    const titles = sectionTitles(fs.readFileSync(file, 'utf8'));
    // section 0 (nothing precedes this text's first heading) is left out; the numbers stay partial's
    expect(selectSections(fs.readFileSync(file, 'utf8'), [0]).body).toEqual([]);
    expect(listed.json.sections).toEqual(titles.map((title, number) => ({ number, title })).slice(1));
    expect(listed.json.sections!.slice(0, 3).map((s) => s.title)).toEqual(['Why paper dies', 'The room', 'Handling']);

    const chosen = await call({ action: 'set_partial', session_id: sid, text_id: textId, partial: '3,1' });
    expect(chosen.status).toBe(200);
    expect(chosen.json.texts![0].attributes.partial).toEqual([1, 3]);
    expect((await call({ action: 'list', session_id: sid })).json.texts![0].attributes.partial).toEqual([1, 3]);

    // every section, or null, is the whole text again
    const all = titles.map((_, i) => i).join(',');
    expect((await call({ action: 'set_partial', session_id: sid, text_id: textId, partial: all })).json.texts![0].attributes.partial).toBeUndefined();
    await call({ action: 'set_partial', session_id: sid, text_id: textId, partial: '2' });
    expect((await call({ action: 'set_partial', session_id: sid, text_id: textId, partial: null })).json.texts![0].attributes.partial).toBeUndefined();
  });

  it('refuses a section past the last, an empty selection and a text not in the session', async () => {
    const added = (await call({ action: 'add', add: ds })).json;
    const sid = added.session_id!;
    const textId = added.texts![0].id;
    const past = await call({ action: 'set_partial', session_id: sid, text_id: textId, partial: '0,99' });
    // a refusal the spec's client reads from `error` (answered 200 on this call, docs/api.md)
    expect(past.json.error).toMatch(/^partial: this text has sections 0 to \d+, not 99/);
    expect((await call({ action: 'set_partial', session_id: sid, text_id: textId, partial: '' })).json.error).toMatch(/partial: section numbers separated by commas/);
    expect((await call({ action: 'get_sections', session_id: sid, text_id: textId + 999 })).status).toBe(404);
    expect((await call({ action: 'set_partial', session_id: sid, text_id: textId + 999, partial: '1' })).status).toBe(404);
    expect((await call({ action: 'list', session_id: sid })).json.texts![0].attributes.partial).toBeUndefined();
  });
});
