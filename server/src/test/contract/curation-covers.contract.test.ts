// Contract: curation and the cover builder as the spec's client (the anchor's front end) sends them,
// and the fields it reads. Written down from reading that client:
// - the merge boxes (merge authors, merge entries, translations, aggregations, split author) keep a
//   canonical item and a list of {id, label}; an item dragged in carries its id as a string (drag data),
//   one just created through the box's Create field carries the number the server answered. The Merge
//   button posts [canonical, ...list] to /merge/author, /merge/entry or the box's own call
//   (set-translations, set-aggregated, split-author) and reads `success` (truthy: done), else `error`
//   ("Failed!" when absent); a 4xx is only logged.
// - the Create field posts {value} to /create/agent or /create/aggregation and reads created.id and
//   created.value (the new canonical), else `error`.
// - the author box's pencil: GET /agents/{id} reads `error` and `agent` (the form's data); Submit posts
//   that agent object back with wikidata_id edited and reads `error` and `agent`.
// - the Omit button posts {op: 'add', comment, id, type}; the exclusions table reads GET /exclusions'
//   `exclusions` (target, type, comment, created, id) and its Restore posts {id, op: 'delete'}.
// - the dashboard (/dashboard/:type) reads GET /listing/{type}'s fields[] (name, label, link 'entry'
//   for entry links) and records[] (record[field.name], record.id); its trash button posts {id: record.id}
//   to /revert/{type} and reloads the listing.
// - the cover builder posts {action: 'get_tokens'} (tokens[] with name, desc, type, value, options of a
//   select; session_id), asks the Book Builder's get_fonts for the previews of the chosen font_name
//   (preview_png, preview_pdf), uploads a file as multipart (the file under the token's name first, then
//   session_id), and builds with {action: 'build', args: {every token value..., session_id}}, reading
//   job_id; the job is polled with the Book Builder's check_job and the PDF is GET /bookbuilder/{session}.
// Axios sends the csrftoken cookie's value as X-CSRFToken on every POST.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as mupdf from 'mupdf';
import { createJobWorker } from '../../app.ts';
import { fixtureLines, multipartBody, testApp, type TestApp } from '../fixture.ts';
import { loginCookie } from '../../libraryadmin/test-helpers.ts';

let t: TestApp;
let jobs: ReturnType<typeof createJobWorker>;
let curator: string;
let reader: string;
const CSRF = 'test-csrf-token';

const entry = (id: number, title: string, authors: string[], languages: string[], identifier: string, extra: object = {}) => ({
  type: 'entry', id, title, subtitle: null, authors, languages, year: 1900, aggregation_id: null, translation_of: null, fulltext: null,
  data_sources: [{ library_id: 1, identifier, year_edition: 1900, publisher: null, isbn: null, description: null, shelf_location_code: null, downloads: [] }],
  ...extra,
});

beforeAll(async () => {
  t = await testApp([
    ...fixtureLines(),
    entry(50, 'Memoirs of a Revolutionist', ['Peter Kropotkin'], ['en'], 'a-50'),
    entry(51, 'Memoirs of a Revolutionary', ['Peter Kropotkin'], ['en'], 'a-51'),
    entry(52, 'Gegenseitige Hilfe', ['Peter Kropotkin'], ['de'], 'a-52'),
    entry(53, 'Living My Life, with letters', ['Emma Goldman & Alexander Berkman'], ['en'], 'a-53'),
    entry(54, 'Anarchism and Other Essays', ['Emma Goldman'], ['en'], 'a-54'),
  ]);
  jobs = createJobWorker({ jobConcurrency: 1, bookBuildConcurrency: 1 }, t.services);
  jobs.start();
  await t.services.accounts.createUser({ username: 'curator', email: 'curator@example.org', password: 'a long test password', can_merge: true, libraryIds: [1] });
  await t.services.accounts.createUser({ username: 'reader', email: 'reader@example.org', password: 'a long test password' });
  curator = await loginCookie(t, 'curator');
  reader = await loginCookie(t, 'reader');
}, 60_000);
afterAll(async () => {
  await jobs.stop();
  await t.close();
});

const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url: `/collector/api${url}`, headers: { cookie } });
const post = (url: string, body: unknown, cookie = `csrftoken=${CSRF}`) => t.app.inject({
  method: 'POST', url: `/collector/api${url}`, headers: { cookie, 'x-csrftoken': CSRF, 'content-type': 'application/json' }, payload: JSON.stringify(body),
});

const agentId = (name: string) => t.services.db.sqlite.prepare('SELECT id FROM agents WHERE name = ?').pluck().get(name) as number;
const entryId = (title: string) => t.services.db.sqlite.prepare('SELECT id FROM entries WHERE title = ?').pluck().get(title) as number;
/** An item dragged into a merge box: the drag data carries the id as a string. */
const dragged = (id: number, label: string) => ({ id: String(id), label });

type Field = { name: string; label: string; link?: string };
type Listing = { fields: Field[]; records: Record<string, unknown>[] };

/** The dashboard table: fields with a name and label, each record holding every field and the id its trash button posts. */
async function dashboard(type: string): Promise<Listing> {
  const res = await get(`/listing/${type}`, curator);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as Listing;
  expect(body.fields.length).toBeGreaterThan(0);
  for (const f of body.fields) {
    expect(typeof f.name).toBe('string');
    expect(typeof f.label).toBe('string');
    if (f.link !== undefined) expect(['entry', 'agent']).toContain(f.link);
  }
  for (const r of body.records) {
    for (const f of body.fields) expect(r).toHaveProperty(f.name);
    expect(r.id).toEqual(expect.any(Number));
  }
  return body;
}

/** What a merge box reads from its answer: success truthy, no error. */
function done(res: { statusCode: number; json: () => Record<string, unknown>; body: string }) {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().success, res.body).toBeTruthy();
  expect(res.json().error).toBeFalsy();
}

/** A refusal the box shows: 200, success falsy and error a text. */
function refused(res: { statusCode: number; json: () => Record<string, unknown>; body: string }) {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().success).toBeFalsy();
  expect(res.json().error).toEqual(expect.stringMatching(/\S/));
}

describe('POST /create/agent and /create/aggregation {value} (the Create field under a merge box)', () => {
  it('answers created.id and created.value, which become the box\'s canonical', async () => {
    const res = await post('/create/agent', { value: 'Alexander Berkman' }, curator);
    expect(res.statusCode).toBe(200);
    expect(res.json().created).toMatchObject({ id: expect.any(Number), value: 'Alexander Berkman' });
    expect(res.json().error).toBeFalsy();
    const agg = await post('/create/aggregation', { value: 'Collected Essays' }, curator);
    expect(agg.json().created).toMatchObject({ id: expect.any(Number), value: 'Collected Essays' });
  });

  it('an empty value (the field only guards against null): 200 with error, no created', async () => {
    const res = await post('/create/agent', { value: '   ' }, curator);
    expect(res.statusCode).toBe(200);
    expect(res.json().created).toBeFalsy();
    expect(res.json().error).toEqual(expect.stringMatching(/\S/));
  });
});

describe('POST /merge/author and /merge/entry [canonical, ...items] and their dashboards', () => {
  it('merges a dragged author into a canonical dragged first; the merged-agents dashboard lists it and its trash button reverts it', async () => {
    const created = (await post('/create/agent', { value: 'P. Kropotkin' }, curator)).json().created as { id: number; value: string };
    const canonical = agentId('Peter Kropotkin');
    // The variant was created in the box (a number), then the canonical dropped on the canonical area.
    done(await post('/merge/author', [dragged(canonical, 'Peter Kropotkin'), { id: created.id, label: created.value }], curator));

    const { fields, records } = await dashboard('merged-agents');
    expect(fields.map((f) => f.name)).toEqual(expect.arrayContaining(['canonical_name', 'name', 'id']));
    const row = records.find((r) => r.id === created.id)!;
    expect(row).toMatchObject({ name: 'P. Kropotkin', canonical_name: 'Peter Kropotkin' });
    // The author box of a merged author says "See “<canonical.name>”".
    expect((await get(`/agents/${created.id}`, curator)).json().agent.canonical).toEqual({ id: canonical, name: 'Peter Kropotkin' });

    const removal = await post('/revert/merged-agents', { id: row.id }, curator);
    expect(removal.statusCode).toBe(200);
    expect((await dashboard('merged-agents')).records.find((r) => r.id === created.id)).toBeUndefined();
  });

  it('an unknown author: 200 with error the box shows', async () => {
    refused(await post('/merge/author', [dragged(agentId('Peter Kropotkin'), 'Peter Kropotkin'), dragged(999999, 'Nobody')], curator));
  });

  it('merges entries dragged from result cards; the merged-entries dashboard links both ids to entries', async () => {
    const keep = entryId('Memoirs of a Revolutionist');
    const other = entryId('Memoirs of a Revolutionary');
    done(await post('/merge/entry', [dragged(keep, 'Memoirs of a Revolutionist'), dragged(other, 'Memoirs of a Revolutionary')], curator));
    const { fields, records } = await dashboard('merged-entries');
    expect(fields.find((f) => f.name === 'id')?.link).toBe('entry');
    expect(fields.find((f) => f.name === 'canonical_id')?.link).toBe('entry');
    const row = records.find((r) => r.id === other)!;
    expect(row.canonical_id).toBe(keep);
    expect(String(row.title)).toContain('Memoirs of a Revolutionary');

    expect((await post('/revert/merged-entries', { id: row.id }, curator)).statusCode).toBe(200);
    expect((await dashboard('merged-entries')).records.find((r) => r.id === other)).toBeUndefined();
  });

  it('merging an entry into itself through its own copy is refused the box\'s way', async () => {
    const id = entryId('Gegenseitige Hilfe');
    refused(await post('/merge/entry', [dragged(id, 'Gegenseitige Hilfe'), { id, label: 'Gegenseitige Hilfe' }], curator));
  });

  it('someone without the merge right is refused with a 4xx (the boxes are not shown to them)', async () => {
    const res = await post('/merge/author', [dragged(agentId('Peter Kropotkin'), 'a'), dragged(agentId('Emma Goldman'), 'b')], reader);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual(expect.any(String));
  });
});

describe('POST /set-translations, /set-aggregated, /split-author (merge boxes with their own call)', () => {
  it('set-translations [original, translation]: success; the translations dashboard lists it; its trash button removes it', async () => {
    const original = entryId('Mutual Aid');
    const translation = entryId('Gegenseitige Hilfe');
    done(await post('/set-translations', [dragged(original, 'Mutual Aid'), dragged(translation, 'Gegenseitige Hilfe')], curator));
    const { records } = await dashboard('translations');
    const row = records.find((r) => r.id === translation)!;
    expect(row.original_id).toBe(original);
    expect((await post('/revert/translations', { id: row.id }, curator)).statusCode).toBe(200);
    expect((await dashboard('translations')).records.find((r) => r.id === translation)).toBeUndefined();
  });

  it('set-aggregated [aggregation created in the box, ...dragged entries]: success; the aggregations dashboard lists the items', async () => {
    const created = (await post('/create/aggregation', { value: 'Essays of Two Anarchists' }, curator)).json().created as { id: number; value: string };
    const items = [entryId('First Essay'), entryId('Anarchism and Other Essays')];
    done(await post('/set-aggregated', [{ id: created.id, label: created.value }, dragged(items[0], 'First Essay'), dragged(items[1], 'Anarchism and Other Essays')], curator));
    const { fields, records } = await dashboard('aggregations');
    expect(fields.find((f) => f.name === 'aggregation_id')?.link).toBe('entry');
    const rows = records.filter((r) => r.aggregation_id === created.id);
    expect(rows.map((r) => r.id).sort()).toEqual([...items].sort());
  });

  it('an aggregation containing itself is refused the box\'s way', async () => {
    const created = (await post('/create/aggregation', { value: 'Loop' }, curator)).json().created as { id: number; value: string };
    const inner = (await post('/create/aggregation', { value: 'Inner Loop' }, curator)).json().created as { id: number; value: string };
    done(await post('/set-aggregated', [{ id: created.id, label: 'Loop' }, { id: inner.id, label: 'Inner Loop' }], curator));
    refused(await post('/set-aggregated', [{ id: inner.id, label: 'Inner Loop' }, { id: created.id, label: 'Loop' }], curator));
  });

  it('split-author [joint author, ...parts]: success; the split dashboard (splat-agents, the client\'s name) lists it and reverts it', async () => {
    const joint = agentId('Emma Goldman & Alexander Berkman');
    const parts = [agentId('Emma Goldman'), agentId('Alexander Berkman')];
    done(await post('/split-author', [dragged(joint, 'Emma Goldman & Alexander Berkman'), dragged(parts[0], 'Emma Goldman'), dragged(parts[1], 'Alexander Berkman')], curator));
    const { records } = await dashboard('splat-agents');
    const row = records.find((r) => r.id === joint)!;
    expect(String(row.splat)).toContain('Alexander Berkman');
    expect((await post('/revert/splat-agents', { id: row.id }, curator)).statusCode).toBe(200);
    expect((await dashboard('split-agents')).records.find((r) => r.id === joint)).toBeUndefined();
  });
});

describe('GET and POST /agents/{id} (the author box\'s edit form)', () => {
  it('GET answers agent (the form\'s data) without error; POST of that object with wikidata_id edited answers the saved agent', async () => {
    const id = agentId('Errico Malatesta');
    const res = await get(`/agents/${id}`, curator);
    expect(res.statusCode).toBe(200);
    const form = res.json().agent as Record<string, unknown>;
    expect(res.json().error).toBeFalsy();
    expect(form).toMatchObject({ id, name: 'Errico Malatesta', wikidata_id: null });

    const saved = await post(`/agents/${id}`, { ...form, wikidata_id: 'Q216061' }, curator);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().error).toBeFalsy();
    expect(saved.json().agent).toMatchObject({ id, name: 'Errico Malatesta', wikidata_id: 'Q216061' });
    expect((await get(`/agents/${id}`, curator)).json().agent.wikidata_id).toBe('Q216061');
  });

  it('a malformed Wikidata id: 200 with error the form shows, nothing saved', async () => {
    const id = agentId('Errico Malatesta');
    const form = (await get(`/agents/${id}`, curator)).json().agent as Record<string, unknown>;
    const res = await post(`/agents/${id}`, { ...form, wikidata_id: 'Malatesta' }, curator);
    expect(res.statusCode).toBe(200);
    expect(res.json().error).toEqual(expect.stringMatching(/\S/));
    expect((await get(`/agents/${id}`, curator)).json().agent.wikidata_id).toBe('Q216061');
  });
});

describe('exclusions: the Omit button, the exclusions table and the exclusions dashboard', () => {
  it('POST {op: add, comment, id, type} for a library, an author and an entry; GET /exclusions lists them with target, type, comment, created, id', async () => {
    const targets = [
      { type: 'library', id: 2, name: 'Archive Two' },
      { type: 'author', id: agentId('Voltairine de Cleyre'), name: 'Voltairine de Cleyre' },
      { type: 'entry', id: entryId('Zapata and the Land'), name: 'Zapata and the Land' },
    ];
    for (const x of targets) {
      const res = await post('/exclusions', { op: 'add', comment: `Not for me: ${x.type}`, id: x.id, type: x.type }, reader);
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await get('/exclusions', reader);
    expect(res.statusCode).toBe(200);
    const list = res.json().exclusions as { id: number; target: string; type: string; comment: string; created: string }[];
    expect(list).toHaveLength(3);
    for (const x of targets) {
      const row = list.find((e) => e.type === x.type)!;
      expect(row.target).toContain(x.name);
      expect(row.comment).toBe(`Not for me: ${x.type}`);
      expect(row.id).toEqual(expect.any(Number));
      expect(row.created).toEqual(expect.any(String));
    }
    // Restore (the table's row button): {id, op: 'delete'}.
    const library = list.find((e) => e.type === 'library')!;
    expect((await post('/exclusions', { id: library.id, op: 'delete' }, reader)).statusCode).toBe(200);
    expect(((await get('/exclusions', reader)).json().exclusions as { id: number }[]).map((e) => e.id)).not.toContain(library.id);
  });

  it('the exclusions dashboard: fields and records of the user\'s own; the trash button posts {id} to /revert/exclusions', async () => {
    const res = await get('/listing/exclusions', reader);
    expect(res.statusCode).toBe(200);
    const { fields, records } = res.json() as Listing;
    expect(fields.map((f) => f.name)).toEqual(expect.arrayContaining(['target', 'type', 'comment']));
    expect(records).toHaveLength(2);
    for (const r of records) for (const f of fields) expect(r).toHaveProperty(f.name);
    expect((await post('/revert/exclusions', { id: records[0].id }, reader)).statusCode).toBe(200);
    expect((await get('/listing/exclusions', reader)).json().records).toHaveLength(1);
    // Someone else's list is their own.
    expect((await get('/listing/exclusions', curator)).json().records).toEqual([]);
  });
});

describe('the cover builder: POST /bookcover get_tokens and build, POST /bookcover/upload', () => {
  type Token = { name: string; desc: string; type: string; value: unknown; options?: { value: string; label: string }[] };

  async function getTokens(): Promise<{ tokens: Token[]; session_id: string }> {
    const res = await post('/bookcover', { action: 'get_tokens' });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  it('get_tokens: session_id and tokens with name, desc, a type the form draws, a value, and options for selects', async () => {
    const { tokens, session_id } = await getTokens();
    expect(session_id).toEqual(expect.any(String));
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) {
      expect(token.name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(token.desc).toEqual(expect.any(String));
      expect(['int', 'bool', 'muse_str', 'muse_body', 'file', 'isbn', 'select']).toContain(token.type);
      expect(token).toHaveProperty('value');
      if (token.type === 'select') {
        expect(token.options!.length).toBeGreaterThan(0);
        for (const o of token.options!) expect(o).toEqual({ value: expect.any(String), label: expect.any(String) });
        expect(token.options!.map((o) => o.value)).toContain(token.value);
      }
      if (token.type === 'int') expect(Number.isInteger(token.value)).toBe(true);
    }
    // The font preview beside the form: the Book Builder's fonts, filtered by the chosen font_name.
    const fonts = (await post('/bookbuilder', { action: 'get_fonts' })).json().fonts as { name: string; preview_png: string; preview_pdf: string }[];
    const chosen = fonts.filter((f) => f.name === tokens.find((x) => x.name === 'font_name')!.value);
    expect(chosen).toHaveLength(1);
    expect(chosen[0].preview_png).toEqual(expect.any(String));
    expect(chosen[0].preview_pdf).toEqual(expect.any(String));
  });

  it('upload: the file under the token\'s name, then session_id (FormData order), is stored for the session', async () => {
    const { tokens, session_id } = await getTokens();
    const file = tokens.find((x) => x.type === 'file')!;
    const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 300, 200], false);
    pix.clear(120);
    const png = pix.asPNG();
    pix.destroy();
    const boundary = '----contract' + Date.now();
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="my-picture.png"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.from(png),
      Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="session_id"\r\n\r\n${session_id}\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST', url: '/collector/api/bookcover/upload',
      headers: { cookie: `csrftoken=${CSRF}`, 'x-csrftoken': CSRF, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    // The client copies each entry of `tokens` (token name -> stored file) into its form values.
    expect(res.json().tokens).toEqual({ [file.name]: expect.stringMatching(new RegExp(`^${file.name}\\.png$`)) });
    // The same multipart in the order of our fixture helper works too.
    const again = multipartBody({ session_id }, { field: file.name, name: 'my-picture.png', content: png, type: 'image/png' });
    expect((await t.app.inject({ method: 'POST', url: '/collector/api/bookcover/upload', headers: { cookie: `csrftoken=${CSRF}`, 'x-csrftoken': CSRF, 'content-type': again.contentType }, payload: again.payload })).statusCode).toBe(200);
  });

  it('build: args are every token value as the form holds it plus session_id; job_id, polled with check_job, then the PDF', async () => {
    const { tokens, session_id } = await getTokens();
    const bookcover: Record<string, unknown> = {};
    for (const token of tokens) bookcover[token.name] = token.value;
    // What a person fills in: a title, a checked box (v-model gives true), a number typed in.
    const title = tokens.find((x) => x.type === 'muse_str');
    if (title) bookcover[title.name] = 'A Small *Guide*';
    bookcover.foldingmargin = true;
    bookcover.spinewidth = 12;
    const args = { ...bookcover, session_id };
    const res = await post('/bookcover', { action: 'build', args });
    expect(res.statusCode, res.body).toBe(200);
    const jobId = res.json().job_id;
    expect(jobId).toEqual(expect.any(Number));

    const seen: string[] = [];
    const deadline = Date.now() + 60_000;
    for (;;) {
      const check = await post('/bookbuilder', { session_id, action: 'check_job', check_job_id: jobId });
      expect(check.statusCode).toBe(200);
      const status = check.json().status as string;
      seen.push(status);
      if (status === 'finished') break;
      expect(['inactive', 'active']).toContain(status);
      if (Date.now() > deadline) throw new Error('cover job too slow');
      await new Promise((r) => setTimeout(r, 200));
    }
    const pdf = await t.app.inject(`/collector/api/bookbuilder/${session_id}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  }, 90_000);

  it('build with a value out of range: 200 with error naming the token, no job', async () => {
    const { tokens, session_id } = await getTokens();
    const args: Record<string, unknown> = { session_id };
    for (const token of tokens) args[token.name] = token.value;
    args.coverwidth = 5;
    const res = await post('/bookcover', { action: 'build', args });
    expect(res.statusCode).toBe(200);
    expect(res.json().job_id).toBeUndefined();
    expect(res.json().error).toMatch(/^coverwidth: /);
  });
});
