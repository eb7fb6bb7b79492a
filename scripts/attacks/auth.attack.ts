// Issue 27 items 3, 4, 8 and 9, replayed against the real server (TRUST_PROXY=1: one proxy in front).
// - CSRF: a state-changing call whose path is spelled another way (%-escapes, doubled slashes, dot
//   segments, case) ran without a token; now every such spelling is refused and nothing changes.
// - Logout is a GET: a cross-site link logged readers out; now it needs the header too.
// - Logins: ten wrong passwords from anywhere locked the account; fifty from an address locked everyone
//   behind it; X-Forwarded-For's leftmost entry (the client's own writing) was the address counted.
// - Reset: two resets with one token at the same moment both succeeded.
// Requests "through the proxy" carry X-Forwarded-For as a proxy forwards it: what the client wrote, then
// the address the proxy saw (appended by it). Raw paths go over node:http unchanged (fetch normalises).
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Attack, AttackContext } from './types.ts';

const API = '/collector/api';
const TOKEN = { cookie: 'csrftoken=tok', 'x-csrftoken': 'tok' };

interface Answer { status: number; headers: http.IncomingHttpHeaders; body: string; json: any }

function raw(base: string, method: string, rawPath: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname, port: url.port, method, path: rawPath, agent: false,
      headers: { connection: 'close', ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}), ...headers },
      timeout: 30_000,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: any = null;
        try {
          json = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

let n = 0;
/** A JSON POST through the proxy: the client wrote `clientWrote` in X-Forwarded-For, the proxy saw `proxySaw`. */
const viaProxy = (ctx: AttackContext, p: string, body: unknown, proxySaw: string, clientWrote = `203.0.113.${++n % 250}`, cookie = '') =>
  raw(ctx.base, 'POST', `${API}${p}`, {
    'content-type': 'application/json', ...TOKEN, cookie: `csrftoken=tok${cookie ? `; ${cookie}` : ''}`,
    'x-forwarded-for': `${clientWrote}, ${proxySaw}`,
  }, JSON.stringify(body));
const loggedIn = (a: Answer) => (a.status === 200 ? (a.json?.logged_in as string | null) : null);

function readDb<T>(ctx: AttackContext, fn: (db: Database.Database) => T): T {
  const db = new Database(path.join(ctx.dataDir, 'catalogue.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

async function csrf(ctx: AttackContext) {
  const curator = await ctx.account({ canMerge: true });
  const c = await ctx.login(curator);
  const session = `sessionid=${c.jar.get('sessionid')}`;
  const made = await c.call('POST', `${API}/create/agent`, { value: `Attack Kept Author ${process.pid}` });
  ctx.check(made.status === 200 && typeof made.json?.change_id === 'number', `a curator creates an agent with the token (got ${made.status})`);
  const changeId = made.json?.change_id as number;
  const forgedName = `Forged Attack Author ${process.pid}`;
  const spellings = [
    '/collector/%61pi/create/agent', '/collector/api/%63reate/agent', '/%63ollector/api/create/agent', '/collector/%2561pi/create/agent',
    '/collector%2Fapi/create/agent', '//collector/api/create/agent', '/collector//api/create/agent', '/collector/api/./create/agent',
    '/collector/x/../api/create/agent', '/collector/api/create/agent/', '/COLLECTOR/API/CREATE/AGENT', '/collector/API/create/agent',
  ];
  let refused = 0;
  let tried = 0;
  for (const p of spellings) {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      tried++;
      // What a cross-site form sends: the browser's cookies, no header.
      const a = await raw(ctx.base, method, p, { 'content-type': 'application/json', cookie: `csrftoken=tok; ${session}` }, JSON.stringify({ value: forgedName }));
      if (a.status === 403) refused++;
      else ctx.check(a.status >= 400, `${method} ${p} without a token is refused (got ${a.status} ${a.body.slice(0, 200)})`);
    }
  }
  for (const p of [`${API}/changes/${changeId}/%75ndo`, `/collector/%61pi/changes/${changeId}/undo`]) {
    tried++;
    const a = await raw(ctx.base, 'POST', p, { 'content-type': 'application/json', cookie: `csrftoken=tok; ${session}` }, '{}');
    if (a.status === 403) refused++;
    else ctx.check(false, `POST ${p} (undo) without a token is refused (got ${a.status} ${a.body.slice(0, 200)})`);
  }
  const boundary = 'attackboundary';
  const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\ntitle\nForged\r\n--${boundary}--\r\n`;
  tried++;
  const upload = await raw(ctx.base, 'POST', '/collector/%61pi/spreadsheet/1', { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: `csrftoken=tok; ${session}` }, multipart);
  if (upload.status === 403) refused++;
  else ctx.check(false, `a multipart spreadsheet upload on an encoded path without a token is refused (got ${upload.status})`);
  ctx.figure('csrf_spellings_refused', `${refused}/${tried}`);
  const [forged, undone] = readDb(ctx, (db) => [
    db.prepare('SELECT count(*) FROM agents WHERE name = ?').pluck().get(forgedName) as number,
    db.prepare("SELECT count(*) FROM changes WHERE operation = 'undo'").pluck().get() as number,
  ]);
  ctx.check(forged === 0, `no agent was created without a token (found ${forged})`);
  ctx.check(undone === 0, `no change was undone without a token (found ${undone})`);

  // Logout: a link on any page.
  for (const p of [`${API}/auth/logout`, '/collector/%61pi/auth/logout']) {
    const a = await raw(ctx.base, 'GET', p, { cookie: `csrftoken=tok; ${session}` });
    ctx.check(a.status === 403, `GET ${p} without the header is refused (got ${a.status} ${a.body.slice(0, 100)})`);
  }
  const still = await c.call('GET', `${API}/auth/user`);
  ctx.check(still.json?.logged_in === curator.username, 'the reader is still logged in after the cross-site logouts');
  const out = await c.call('GET', `${API}/auth/logout`);
  ctx.check(out.status === 200, `logout with the header works (got ${out.status})`);
}

async function logins(ctx: AttackContext) {
  // 30 wrong passwords for the victim and for a superuser, each from its own address: both still get in.
  const victim = await ctx.account();
  const root = await ctx.account({ superuser: true });
  let refusedWrong = 0;
  for (let i = 0; i < 30; i++) {
    for (const who of [victim, root]) {
      const a = await viaProxy(ctx, '/auth/login', { username: who.username, password: `wrong guess ${i}` }, `198.18.${i}.${who === victim ? 1 : 2}`);
      if (a.status === 200 && a.json?.logged_in === null) refusedWrong++;
    }
  }
  ctx.check(refusedWrong === 60, `the 60 wrong passwords were answered "Invalid login" (got ${refusedWrong})`);
  for (const who of [victim, root]) {
    const a = await viaProxy(ctx, '/auth/login', { username: who.username, password: who.password }, '192.0.2.77');
    ctx.check(loggedIn(a) === who.username, `${who === root ? 'the superuser' : 'the victim'} logs in with the right password after 30 wrong ones from other addresses (got ${a.status} ${a.body.slice(0, 200)})`);
  }

  // A spray of one password over many names, each request with an invented X-Forwarded-For.
  let firstSlowed = 0;
  let slowed = 0;
  for (let i = 1; i <= 60; i++) {
    const a = await viaProxy(ctx, '/auth/login', { username: `sprayed-${i}-${process.pid}`, password: 'Summer2024!' }, '198.51.100.66', `10.${i}.${i}.${i}, 172.16.0.${i}`);
    if (a.status === 429) {
      slowed++;
      firstSlowed ||= i;
    }
  }
  ctx.figure('spray_attempts_before_slowed', firstSlowed ? firstSlowed - 1 : 'never');
  ctx.check(firstSlowed > 0 && firstSlowed <= 51 && slowed >= 9, `an X-Forwarded-For-rotating spray from one proxy-seen address is throttled (first 429 at attempt ${firstSlowed}, ${slowed} of 60)`);

  // One account guessed from many addresses (a botnet, or a misconfigured proxy): slowed, while its
  // owner's browser (a known device) still gets in at once.
  const target = await ctx.account();
  const owner = await viaProxy(ctx, '/auth/login', { username: target.username, password: target.password }, '192.0.2.88');
  const ownerCookie = (owner.headers['set-cookie'] ?? []).map((c) => /^(logindevice=[^;]+)/.exec(c)?.[1]).find(Boolean) ?? '';
  ctx.check(loggedIn(owner) === target.username && ownerCookie !== '', 'the owner logged in once from home');
  let spreadSlowed = 0;
  for (let i = 1; i <= 60; i++) {
    const a = await viaProxy(ctx, '/auth/login', { username: target.username, password: `botnet guess ${i}` }, `100.64.${i}.${i}`);
    if (a.status === 429) spreadSlowed++;
  }
  ctx.figure('botnet_guesses_slowed', `${spreadSlowed}/60`);
  ctx.check(spreadSlowed >= 9, `guesses at one account from 60 addresses are slowed after 50 (${spreadSlowed} of 60 slowed)`);
  const back = await viaProxy(ctx, '/auth/login', { username: target.username, password: target.password }, '192.0.2.99', '192.0.2.99', ownerCookie);
  ctx.check(loggedIn(back) === target.username, `the owner's browser still logs in at once from a new address (got ${back.status} ${back.body.slice(0, 200)})`);
}

async function reset(ctx: AttackContext) {
  const who = await ctx.account();
  const send = await viaProxy(ctx, '/auth/reset-password', { operation: 'send-link', username: who.username }, '192.0.2.120');
  ctx.check(send.status === 200, `a reset link is sent (got ${send.status})`);
  let token = '';
  for (let i = 0; i < 50 && !token; i++) {
    const body = readDb(ctx, (db) => db.prepare('SELECT body FROM outbox WHERE to_address = ? ORDER BY id DESC LIMIT 1').pluck().get(who.email) as string | undefined);
    token = (body && /\/reset-password\/[^/\s]+\/([\w-]+)/.exec(body)?.[1]) || '';
    if (!token) await new Promise((r) => setTimeout(r, 100));
  }
  ctx.check(token !== '', 'the reset mail is in the outbox');
  if (!token) return;
  const passwords = Array.from({ length: 4 }, (_, i) => `attack new password ${i} ${process.pid}`);
  const answers = await Promise.all(passwords.map((password, i) => viaProxy(ctx, '/auth/reset-password',
    { operation: 'reset', username: who.username, token, password }, `192.0.2.${130 + i}`)));
  const won = answers.filter((a) => loggedIn(a) === who.username).length;
  ctx.figure('concurrent_resets_accepted', `${won}/4`);
  ctx.check(won === 1, `four simultaneous resets with one token: exactly one succeeds (got ${won}: ${answers.map((a) => a.body.slice(0, 80)).join(' | ')})`);
}

export const attack: Attack = {
  name: 'auth',
  async run(ctx) {
    await csrf(ctx);
    await logins(ctx);
    await reset(ctx);
  },
};
