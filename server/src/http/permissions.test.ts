// Every route of the API, called as each role (spec §6): who gets 401, 403, or through.
// The routes come from the OpenAPI document, so a new route cannot escape this table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADERS, fixtureLines, testApp, type TestApp } from '../test/fixture.ts';

const ROLES = ['anonymous', 'reader', 'curator', 'librarian', 'other_librarian', 'superuser'] as const;
type Role = (typeof ROLES)[number];
type Expect = 'public' | 'login' | 'merge' | 'library_admin_of_1' | 'superuser' | 'library_admin_any';

/** Who may call a route. Everything not listed is public (no 401/403 for anyone). */
function ruleOf(method: string, path: string): Expect {
  // Harvest runs of a site: superusers and the admins of the site's library (site 1 is library 1's).
  if (/^\/collector\/api\/admin\/sites\/\{id\}\/harvests?$/.test(path)) return 'library_admin_of_1';
  if (path.startsWith('/collector/api/admin/')) return 'superuser';
  if (/^\/collector\/api\/(library|spreadsheet)\//.test(path)) return 'library_admin_of_1';
  if (path === '/collector/api/auth/user-check/{username}') return 'library_admin_any';
  if (path === '/collector/api/report/data-source-error/{id}') return 'login';
  // Curation (spec §6): merging rights for every change of the shared catalogue; exclusions and the
  // change log (own exclusions, or everything for mergers) for any logged-in user.
  if (/^\/collector\/api\/(merge|create|revert)\/|^\/collector\/api\/(split-author|set-translations|set-aggregated|curation\/duplicates)$/.test(path)) return 'merge';
  if (method === 'POST' && path === '/collector/api/agents/{id}') return 'merge';
  // Listings are called here with a mergers' type (merged-agents); /listing/exclusions is for everyone logged in (curation tests).
  if (path === '/collector/api/listing/{type}') return 'merge';
  if (/^\/collector\/api\/(exclusions|changes|changes\/\{id\}\/undo)$/.test(path)) return 'login';
  // Citations of an entry are public like the entry itself (hidden entries answer 404 to everyone).
  if (path === '/collector/api/entry/{id}/cite') return 'public';
  return 'public';
}

const ALLOWED: Record<Expect, Role[]> = {
  public: [...ROLES],
  login: ['reader', 'curator', 'librarian', 'other_librarian', 'superuser'],
  merge: ['curator', 'librarian', 'other_librarian', 'superuser'],
  library_admin_of_1: ['librarian', 'superuser'],
  library_admin_any: ['librarian', 'other_librarian', 'superuser'],
  superuser: ['superuser'],
};

const PARAMS: Record<string, string> = {
  id: '1', data_source_id: '1', filename: 'picture.png', target: '1.pdf', language: 'en', location: 'footer',
  username: 'reader', session_id: 'AAAAAAAAAAAAAAAAAAAAAA', file: 'x.pdf', site_id: '1',
};

let t: TestApp;
const cookies: Partial<Record<Role, string>> = {};
const probeCookies: Partial<Record<Role | 'member_of_3', string>> = {};
let routes: { method: string; path: string }[] = [];

beforeAll(async () => {
  t = await testApp([
    ...fixtureLines(),
    // Held by a public library and by the inactive one (4): what `library:4` must not list.
    { type: 'entry', id: 20, title: 'Shared With The Closed Library', authors: ['Errico Malatesta'], languages: ['it'], year: 1900,
      data_sources: [{ library_id: 2, identifier: 'b-20' }, { library_id: 4, identifier: 'd-20' }] },
  ]);
  const a = t.services.accounts;
  const password = 'a long enough password';
  await a.createUser({ username: 'reader', email: 'reader@example.org', password });
  await a.createUser({ username: 'curator', email: 'curator@example.org', password, can_merge: true, can_set_exclusions: true });
  await a.createUser({ username: 'librarian', email: 'lib@example.org', password, library_admin: true, libraryIds: [1] });
  await a.createUser({ username: 'other_librarian', email: 'other@example.org', password, library_admin: true, libraryIds: [2] });
  await a.createUser({ username: 'superuser', email: 'root@example.org', password, is_superuser: true });
  // Only for the visibility probes: a reader affiliated with the private library 3.
  await a.createUser({ username: 'member_of_3', email: 'm3@example.org', password, libraryIds: [3] });
  for (const role of ROLES.slice(1)) {
    const login = (await a.login(role, password)) as { token: string };
    cookies[role] = `sessionid=${login.token}`;
  }
  // Sessions of their own for the visibility probes (the table above logs its sessions out).
  for (const role of [...ROLES.slice(1), 'member_of_3'] as const) {
    const login = (await a.login(role, password)) as { token: string };
    probeCookies[role] = `sessionid=${login.token}`;
  }
  const doc = (await t.app.inject('/collector/api/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
  routes = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })));
  // Logging out ends the role's session: call it last.
  routes.sort((a, b) => Number(a.path.endsWith('/auth/logout')) - Number(b.path.endsWith('/auth/logout')));
}, 60_000);
afterAll(async () => t.close());

async function call(role: Role, method: string, path: string) {
  const special: Record<string, string> = path.includes('/merge/') ? { target: 'author' } : path.includes('/create/') ? { target: 'agent' }
    : path.includes('/listing/') || path.includes('/revert/') ? { type: 'merged-agents' } : {};
  const url = path.replace(/\{(\w+)\}/g, (_, p: string) => special[p] ?? PARAMS[p] ?? '1');
  const headers: Record<string, string> = { ...CSRF_HEADERS };
  if (cookies[role]) headers.cookie = `${CSRF_HEADERS.cookie}; ${cookies[role]}`;
  const payload = method === 'GET' || method === 'DELETE' ? undefined : {};
  return t.app.inject({ method: method as 'GET', url, headers, payload, remoteAddress: `10.20.${ROLES.indexOf(role)}.1` });
}

describe('the permission table (every route × every role)', () => {
  it('knows the API routes', () => {
    expect(routes.length).toBeGreaterThan(30);
  });

  it('lets the GET routes of protected areas through for the right roles (200)', async () => {
    for (const [role, path] of [
      ['superuser', '/collector/api/admin/libraries'], ['superuser', '/collector/api/admin/users'], ['superuser', '/collector/api/admin/outbox'],
      ['librarian', '/collector/api/library/details/{id}'], ['librarian', '/collector/api/library/list-users/{id}'],
      ['librarian', '/collector/api/spreadsheet/{id}'], ['other_librarian', '/collector/api/auth/user-check/{username}'],
    ] as [Role, string][]) {
      expect((await call(role, 'GET', path)).statusCode, `${role} ${path}`).toBe(200);
    }
  });

  for (const role of ROLES) {
    it(`as ${role}`, async () => {
      const problems: string[] = [];
      for (const { method, path } of routes) {
        const rule = ruleOf(method, path);
        const res = await call(role, method, path);
        const allowed = ALLOWED[rule].includes(role);
        const where = `${method} ${path} (${rule}) as ${role}: ${res.statusCode} ${res.body.slice(0, 100)}`;
        if (res.statusCode >= 500) problems.push(`server error: ${where}`);
        else if (allowed && (res.statusCode === 401 || res.statusCode === 403)) problems.push(`refused: ${where}`);
        else if (!allowed) {
          // Refused callers get 401 (not logged in) or 403 (logged in without the right); some routes
          // validate the body first and answer 400, which reveals and changes nothing.
          const expected = role === 'anonymous' ? 401 : 403;
          // Routes addressing an upload by its own id answer 404 when it does not exist, whoever asks.
          const missingUpload = /\/spreadsheet\/(process|cancel|status)\//.test(path) && res.statusCode === 404 && role !== 'anonymous';
          if (res.statusCode !== expected && !missingUpload && !(method !== 'GET' && res.statusCode === 400)) problems.push(`expected ${expected}: ${where}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }

  // Visibility probes: a filter naming a private (3) or inactive (4) library, or an author only they
  // hold, answers exactly like a nonexistent id for whoever may not see it (LibraryService.isVisible:
  // inactive hidden from everyone; private seen by superusers and the users affiliated with it).
  const MISSING = '99999';
  const PROBE_ROLES = [...ROLES, 'member_of_3'] as const;
  type ProbeRole = (typeof PROBE_ROLES)[number];
  const seesPrivate3 = (role: ProbeRole) => role === 'superuser' || role === 'member_of_3';
  const get = (role: ProbeRole, url: string) => {
    const headers: Record<string, string> = probeCookies[role] ? { cookie: probeCookies[role]! } : {};
    return t.app.inject({ method: 'GET', url, headers, remoteAddress: `10.30.${PROBE_ROLES.indexOf(role)}.1` });
  };
  /** Status and body with the asked id replaced by ID (in `kind:id`, as a facet key and as a whole string value), for comparing two ids. */
  const answer = async (role: ProbeRole, url: (id: string) => string, id: string, kind: string) => {
    const res = await get(role, url(id));
    // A facet value's `key` is the facet's name and the id ("library3"): swapped like the id itself.
    const swap = (v: unknown): unknown => typeof v === 'string' ? (v === id ? 'ID' : v === `${kind}${id}` ? `${kind}ID` : v.split(`${kind}:${id}`).join(`${kind}:ID`))
      : Array.isArray(v) ? v.map(swap) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)])) : v;
    let body: unknown;
    try {
      body = swap(res.json());
    } catch {
      // XML (feeds, OAI-PMH): the response time legitimately differs.
      body = res.body.split(`${kind}:${id}`).join(`${kind}:ID`).split(`/${id}`).join('/ID').replace(/<responseDate>[^<]*</g, '<responseDate>T<');
    }
    return { status: res.statusCode, body };
  };
  const hiddenAuthor = () => String(t.services.db.sqlite.prepare("SELECT id FROM agents WHERE name = 'Hidden Author'").pluck().get());

  const PROBES: { kind: string; url: (id: string) => string; ids: () => { id: string; hiddenFrom: (r: ProbeRole) => boolean }[] }[] = [
    ...[(id: string) => `/collector/api/search?query=library:${id}`, (id: string) => `/collector/api/search?query=shared+-library:${id}`,
      (id: string) => `/collector/api/search?filter_library=${id}`, (id: string) => `/collector/api/search?query=library:${id}+OR+zapata&filter_library=${id}&filter_library=2`,
      // The home page's latest additions take a query too.
      (id: string) => `/collector/api/latest?query=library:${id}`]
      .map((url) => ({ kind: 'library', url, ids: () => [{ id: '3', hiddenFrom: (r: ProbeRole) => !seesPrivate3(r) }, { id: '4', hiddenFrom: () => true }] })),
    ...[(id: string) => `/collector/api/search?query=creator:${id}`, (id: string) => `/collector/api/search?filter_creator=${id}`,
      (id: string) => `/collector/api/latest?query=creator:${id}`]
      .map((url) => ({ kind: 'creator', url, ids: () => [{ id: hiddenAuthor(), hiddenFrom: (r: ProbeRole) => !seesPrivate3(r) }] })),
    { kind: 'agents', url: (id) => `/collector/api/agents/${id}`, ids: () => [{ id: hiddenAuthor(), hiddenFrom: (r) => !seesPrivate3(r) }] },
    { kind: 'agents', url: (id) => `/collector/api/agents/${id}/wikidata/en`, ids: () => [{ id: hiddenAuthor(), hiddenFrom: (r) => !seesPrivate3(r) }] },
    // Library pages list active physical libraries to everyone (a place to visit); these are digital.
    { kind: 'libraries', url: (id) => `/collector/api/libraries/${id}`, ids: () => [{ id: '3', hiddenFrom: (r) => !seesPrivate3(r) }, { id: '4', hiddenFrom: () => true }] },
    // The feeds and OAI-PMH answer as an anonymous visitor, whoever asks.
    { kind: 'library', url: (id) => `/opds/library/${id}`, ids: () => [{ id: '3', hiddenFrom: () => true }, { id: '4', hiddenFrom: () => true }] },
    { kind: 'library', url: (id) => `/oai?verb=ListRecords&metadataPrefix=oai_dc&set=library:${id}`, ids: () => [{ id: '3', hiddenFrom: () => true }, { id: '4', hiddenFrom: () => true }] },
  ];

  for (const role of PROBE_ROLES) {
    it(`answers filters naming what ${role} may not see like a nonexistent id`, async () => {
      expect((await get(role, '/collector/api/auth/user')).json().logged_in).toBe(role === 'anonymous' ? null : role);
      const problems: string[] = [];
      for (const probe of PROBES) {
        for (const { id, hiddenFrom } of probe.ids()) {
          const hidden = await answer(role, probe.url, id, probe.kind);
          const missing = await answer(role, probe.url, MISSING, probe.kind);
          const same = JSON.stringify(hidden) === JSON.stringify(missing);
          if (hiddenFrom(role) && !same) problems.push(`${probe.url(id)} as ${role} differs from ${MISSING}: ${JSON.stringify(hidden).slice(0, 300)}`);
          if (!hiddenFrom(role) && same) problems.push(`${probe.url(id)} as ${role} answers like a missing id, but ${role} may see it`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
