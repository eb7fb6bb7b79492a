// The shipped reverse-proxy configurations (deploy/nginx/union-catalogue.conf, deploy/caddy/Caddyfile)
// run as they are, with only ports and certificate paths put in, in front of a real server started with
// TRUST_PROXY=1: TLS with a throw-away certificate, HSTS, Secure cookies, the client address the server
// counts (the one the proxy appended, not one the client wrote), a 9 MB upload, /metrics refused by the
// proxy, long cache headers of hashed assets, gzip. Each proxy is Debian's package; without it its tests
// are skipped with a notice naming the package. docs/deploy.md, "Behind a reverse proxy".
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfFrom, exited, freePort, killGroup, repoRoot, runMain, startServer, tail, type ServerHandle } from '../bench/lib/child-server.ts';

const LIFETIME_S = 300;
const HOSTNAME = 'catalogue.example.org';
const LIBRARIAN = { username: 'proxy-librarian', password: 'proxy librarian password' };
const webDist = path.join(repoRoot, 'web', 'dist');

interface Proxy {
  name: string;
  /** The Debian package that provides it. */
  pkg: string;
  binary: string;
  /** Each proxy's clients come from their own loopback addresses, so the per-address counters stay apart. */
  clientA: string;
  clientB: string;
}
const PROXIES: Proxy[] = [
  { name: 'nginx', pkg: 'nginx', binary: '/usr/sbin/nginx', clientA: '127.0.0.5', clientB: '127.0.0.6' },
  { name: 'caddy', pkg: 'caddy', binary: '/usr/bin/caddy', clientA: '127.0.0.7', clientB: '127.0.0.8' },
];
for (const p of PROXIES) {
  if (!fs.existsSync(p.binary)) console.warn(`\n[proxy] NOTICE: ${p.binary} not found: the ${p.name} tests are skipped. Install it with: apt-get install -y ${p.pkg}\n`);
}
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
if (!hasOpenssl) console.warn('\n[proxy] NOTICE: openssl not found: the reverse-proxy tests are skipped. Install it with: apt-get install -y openssl\n');

/** Replaces `from` (which must be in the text, so a changed shipped file fails here instead of testing less). */
function put(text: string, from: string | RegExp, to: string): string {
  const found = typeof from === 'string' ? text.includes(from) : from.test(text);
  if (!found) throw new Error(`the shipped proxy configuration no longer contains ${String(from)}`);
  return typeof from === 'string' ? text.split(from).join(to) : text.replace(from, to);
}

interface Answer { status: number; headers: http.IncomingHttpHeaders; raw: string[]; body: Buffer }

/** One HTTPS request from a chosen loopback address, trusting only the throw-away certificate; the body as sent (not decompressed). */
function request(o: { port: number; ca: string; from: string; method?: string; path: string; headers?: Record<string, string>; body?: Buffer }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: '127.0.0.1', port: o.port, servername: HOSTNAME, ca: o.ca, localAddress: o.from, method: o.method ?? 'GET', path: o.path,
      headers: { host: `${HOSTNAME}:${o.port}`, ...o.headers, ...(o.body ? { 'content-length': String(o.body.length) } : {}) },
      timeout: 60_000, agent: false,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: res.rawHeaders, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${o.path}: timed out`)));
    req.on('error', reject);
    req.end(o.body);
  });
}

/** Plain http to the proxy's port 80 stand-in. */
function plainGet(port: number, urlPath: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: urlPath, headers: { host: HOSTNAME }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: res.rawHeaders, body: Buffer.alloc(0) }));
    }).on('error', reject);
  });
}

function headerCount(a: Answer, name: string): number {
  return a.raw.filter((v, i) => i % 2 === 0 && v.toLowerCase() === name).length;
}

function cookieHeader(setCookie: string[] | undefined, jar: Map<string, string>): void {
  for (const c of setCookie ?? []) {
    const m = /^([^=]+)=([^;]*)/.exec(c);
    if (m) jar.set(m[1], m[2]);
  }
}

function waitForPort(port: number, child: ChildProcess, log: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`the proxy exited (code ${child.exitCode}):\n${tail(log)}`));
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve();
      });
      s.once('error', () => {
        s.destroy();
        if (Date.now() > deadline) reject(new Error(`the proxy did not listen on ${port}:\n${tail(log)}`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

/** The proxy in the foreground, in its own process group under `timeout` (it never outlives the run). */
function spawnProxy(cmd: string, args: string[], env: NodeJS.ProcessEnv, log: string): ChildProcess {
  const fd = fs.openSync(log, 'a');
  const child = spawn('timeout', ['-k', '5', String(LIFETIME_S), cmd, ...args], { env, detached: true, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  return child;
}

/** nginx: Debian's http block (as in /etc/nginx/nginx.conf) around the shipped site file, all paths in the prefix. */
function startNginx(dir: string, ports: { tls: number; plain: number; server: number }, cert: string, key: string): ChildProcess {
  let site = fs.readFileSync(path.join(repoRoot, 'deploy', 'nginx', 'union-catalogue.conf'), 'utf8');
  site = put(site, '127.0.0.1:8080', `127.0.0.1:${ports.server}`);
  site = put(site, /^\s*listen \[::\]:80;\n/m, '');
  site = put(site, /^\s*listen \[::\]:443 ssl http2;\n/m, '');
  site = put(site, 'listen 80;', `listen 127.0.0.1:${ports.plain};`);
  site = put(site, 'listen 443 ssl http2;', `listen 127.0.0.1:${ports.tls} ssl http2;`);
  site = put(site, 'return 301 https://$host$request_uri;', `return 301 https://$host:${ports.tls}$request_uri;`);
  site = put(site, `/etc/letsencrypt/live/${HOSTNAME}/fullchain.pem`, cert);
  site = put(site, `/etc/letsencrypt/live/${HOSTNAME}/privkey.pem`, key);
  fs.writeFileSync(path.join(dir, 'union-catalogue.conf'), site);
  // Workers run as nobody when the test runs as root: they write request bodies and buffered answers here.
  for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, t), { mode: 0o777 });
  for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.chmodSync(path.join(dir, t), 0o777);
  fs.writeFileSync(path.join(dir, 'nginx.conf'), `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr;
events { worker_connections 128; }
http {
  sendfile on;
  tcp_nopush on;
  types_hash_max_size 2048;
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log ${dir}/access.log;
  gzip on;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/union-catalogue.conf;
}
`);
  const log = path.join(dir, 'proxy.log');
  const check = spawnSync('/usr/sbin/nginx', ['-t', '-q', '-p', dir, '-e', 'stderr', '-c', path.join(dir, 'nginx.conf')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused the shipped configuration:\n${check.stderr}`);
  return spawnProxy('/usr/sbin/nginx', ['-p', dir, '-e', 'stderr', '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], process.env, log);
}

/** Caddy: the shipped Caddyfile with the ports, the certificate and a local-only admin-free setup put in. */
function startCaddy(dir: string, ports: { tls: number; plain: number; server: number }, cert: string, key: string): ChildProcess {
  let file = fs.readFileSync(path.join(repoRoot, 'deploy', 'caddy', 'Caddyfile'), 'utf8');
  file = put(file, '127.0.0.1:8080', `127.0.0.1:${ports.server}`);
  file = put(file, /^\{\n/m, `{\n\tadmin off\n\tdefault_bind 127.0.0.1\n\thttp_port ${ports.plain}\n\thttps_port ${ports.tls}\n\tskip_install_trust\n\tstorage file_system ${dir}/storage\n`);
  file = put(file, /^catalogue\.example\.org \{\n/m, `${HOSTNAME} {\n\ttls ${cert} ${key}\n`);
  fs.writeFileSync(path.join(dir, 'Caddyfile'), file);
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: path.join(dir, 'data'), XDG_CONFIG_HOME: path.join(dir, 'config') };
  const check = spawnSync('/usr/bin/caddy', ['validate', '--adapter', 'caddyfile', '--config', path.join(dir, 'Caddyfile')], { encoding: 'utf8', env });
  if (check.status !== 0) throw new Error(`caddy validate refused the shipped Caddyfile:\n${check.stderr}`);
  return spawnProxy('/usr/bin/caddy', ['run', '--adapter', 'caddyfile', '--config', path.join(dir, 'Caddyfile')], env, path.join(dir, 'proxy.log'));
}

describe('the shipped reverse-proxy configurations in front of a real server (TRUST_PROXY=1)', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-proxy-'));
  fs.chmodSync(tmp, 0o755);
  const cert = path.join(tmp, 'cert.pem');
  const key = path.join(tmp, 'key.pem');
  let ca = '';
  let server: ServerHandle | null = null;

  beforeAll(async () => {
    if (!hasOpenssl || !PROXIES.some((p) => fs.existsSync(p.binary))) return;
    // A throw-away self-signed certificate for the site's name, trusted by this test's requests only.
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${HOSTNAME}`,
      '-addext', `subjectAltName=DNS:${HOSTNAME}`, '-keyout', key, '-out', cert], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    fs.chmodSync(key, 0o644);
    ca = fs.readFileSync(cert, 'utf8');
    const dataDir = path.join(tmp, 'data');
    fs.mkdirSync(dataDir);
    server = await startServer({ dataDir, lifetimeS: LIFETIME_S, logFile: path.join(tmp, 'server.log'), env: { TRUST_PROXY: '1', WEB_DIST: webDist } });
    const user = runMain(['admin', 'create-user', '--username', LIBRARIAN.username, '--email', 'proxy@example.invalid', '--library-admin', '1'],
      { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, `${LIBRARIAN.password}\n`);
    expect(user.code, user.out).toBe(0);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  describe.each(PROXIES)('$name', (proxy) => {
    const ports = { tls: 0, plain: 0, server: 0 };
    let child: ChildProcess | null = null;
    const skip = () => !hasOpenssl || !fs.existsSync(proxy.binary);
    const get = (p: string, headers: Record<string, string> = {}, from = proxy.clientA) => request({ port: ports.tls, ca, from, path: p, headers });

    beforeAll(async () => {
      if (skip()) return;
      const dir = path.join(tmp, proxy.name);
      fs.mkdirSync(dir, { mode: 0o755 });
      ports.tls = await freePort();
      ports.plain = await freePort();
      ports.server = server!.port;
      child = proxy.name === 'nginx' ? startNginx(dir, ports, cert, key) : startCaddy(dir, ports, cert, key);
      await waitForPort(ports.tls, child, path.join(dir, 'proxy.log'));
    }, 60_000);

    afterAll(async () => {
      if (!child) return;
      killGroup(child, 'SIGTERM');
      if (!(await exited(child, 5000))) killGroup(child, 'SIGKILL');
    });

    it('serves the site over TLS with one HSTS header, also on its own answers, and sends plain http to https', async (ctx) => {
      if (skip()) return ctx.skip();
      const home = await get('/');
      expect(home.status).toBe(200);
      expect(home.body.toString()).toContain('<div id="root">');
      expect(home.headers['x-request-id']).toBeTruthy(); // answered by the server
      expect(headerCount(home, 'strict-transport-security')).toBe(1);
      expect(home.headers['strict-transport-security']).toBe('max-age=31536000');
      const redirect = await plainGet(ports.plain, '/search?query=x');
      expect([301, 308]).toContain(redirect.status);
      // nginx names the test's port; Caddy's automatic redirect leaves it out (the real site is on 443).
      expect(redirect.headers.location).toMatch(new RegExp(`^https://${HOSTNAME.replace(/\./g, '\\.')}(:${ports.tls})?/search\\?query=x$`));
    });

    it('refuses /metrics at the proxy, however it is spelled', async (ctx) => {
      if (skip()) return ctx.skip();
      for (const p of ['/metrics', '/metrics?format=text', '/metrics/', '//metrics', '/%6detrics']) {
        const r = await get(p);
        expect(r.status, p).toBe(404);
        // The proxy's own answer: the server adds X-Request-Id to everything it answers.
        expect(r.headers['x-request-id'], p).toBeUndefined();
        expect(headerCount(r, 'strict-transport-security'), p).toBe(1);
      }
    });

    it('a login over the proxy sets Secure cookies', async (ctx) => {
      if (skip()) return ctx.skip();
      const jar = new Map<string, string>();
      const first = await get('/collector/api/csrf');
      const setCsrf = first.headers['set-cookie'] ?? [];
      expect(setCsrf.find((c) => c.startsWith('csrftoken='))).toMatch(/;\s*Secure/i);
      cookieHeader(setCsrf, jar);
      const token = csrfFrom(setCsrf)!;
      const login = await request({
        port: ports.tls, ca, from: proxy.clientA, method: 'POST', path: '/collector/api/auth/login',
        headers: { 'content-type': 'application/json', cookie: `csrftoken=${token}`, 'x-csrftoken': token },
        body: Buffer.from(JSON.stringify(LIBRARIAN)),
      });
      expect(login.status, login.body.toString()).toBe(200);
      const session = (login.headers['set-cookie'] ?? []).find((c) => c.startsWith('sessionid='));
      expect(session).toMatch(/;\s*Secure/i);
      expect(session).toMatch(/;\s*HttpOnly/i);
    });

    it('counts the address the proxy saw, never one the client wrote in X-Forwarded-For', async (ctx) => {
      if (skip()) return ctx.skip();
      const token = csrfFrom((await get('/collector/api/csrf')).headers['set-cookie'])!;
      // Password-reset requests are limited to 5 per client address per hour.
      const reset = (from: string, forged: string) => request({
        port: ports.tls, ca, from, method: 'POST', path: '/collector/api/auth/reset-password',
        headers: { 'content-type': 'application/json', cookie: `csrftoken=${token}`, 'x-csrftoken': token, 'x-forwarded-for': forged },
        body: Buffer.from(JSON.stringify({ operation: 'send-link', username: 'nobody-here' })),
      });
      for (let i = 1; i <= 5; i++) expect((await reset(proxy.clientA, `203.0.113.${i}`)).status).toBe(200);
      // A sixth from the same machine, with yet another invented address, is refused...
      const sixth = await reset(proxy.clientA, '198.51.100.77');
      expect(sixth.status).toBe(429);
      expect(JSON.parse(sixth.body.toString()).error).toMatch(/try again/i);
      // ...while another machine behind the same proxy is not: the server does not see the proxy as the client.
      expect((await reset(proxy.clientB, '198.51.100.77')).status).toBe(200);
    });

    it('passes a 9 MB spreadsheet upload to the server whole and refuses one over 25 MB itself', async (ctx) => {
      if (skip()) return ctx.skip();
      const jar = new Map<string, string>();
      cookieHeader((await get('/collector/api/csrf')).headers['set-cookie'], jar);
      const send = async (method: string, p: string, body: Buffer, contentType: string) => {
        const token = jar.get('csrftoken')!;
        const r = await request({
          port: ports.tls, ca, from: proxy.clientA, method, path: p, body,
          headers: { 'content-type': contentType, cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrftoken': token },
        });
        cookieHeader(r.headers['set-cookie'], jar);
        return r;
      };
      const login = await send('POST', '/collector/api/auth/login', Buffer.from(JSON.stringify(LIBRARIAN)), 'application/json');
      expect(login.status).toBe(200);
      const siteAnswer = await send('POST', '/collector/api/spreadsheet/site/1', Buffer.from(JSON.stringify({ title: `Proxy sheet ${proxy.name}`, csv_type: 'generic' })), 'application/json');
      expect(siteAnswer.status, siteAnswer.body.toString()).toBe(200);
      const siteId = JSON.parse(siteAnswer.body.toString()).site.id as number;
      // 9,000 rows of about 1 KB: the notes column is not read, it only makes the file large.
      const rows = 9000;
      const filler = 'x'.repeat(1000);
      const lines = ['identifier,title,languages,notes'];
      for (let i = 1; i <= rows; i++) lines.push(`px-${proxy.name}-${i},Proxied record ${i},en,${filler}`);
      const csv = Buffer.from(`${lines.join('\n')}\n`);
      expect(csv.length).toBeGreaterThan(9_000_000);
      const boundary = `----proxy${Date.now()}`;
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="site_id"\r\n\r\n${siteId}\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="spreadsheet"; filename="large.csv"\r\nContent-Type: text/csv\r\n\r\n`),
        csv,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const up = await send('POST', '/collector/api/spreadsheet/1', body, `multipart/form-data; boundary=${boundary}`);
      expect(up.status, up.body.toString().slice(0, 500)).toBe(200);
      const json = JSON.parse(up.body.toString());
      expect(json.error).toBeUndefined();
      expect(json.number_of_records).toBe(rows);
      // Past the proxy's 25 MB the proxy itself refuses (no X-Request-Id: the server never saw it).
      const huge = Buffer.concat([body.subarray(0, body.length - `\r\n--${boundary}--\r\n`.length), Buffer.alloc(17 * 1024 * 1024, 120), Buffer.from(`\r\n--${boundary}--\r\n`)]);
      const refused = await send('POST', '/collector/api/spreadsheet/1', huge, `multipart/form-data; boundary=${boundary}`).catch((e: Error) => e);
      // nginx answers 413 at once; a proxy may also close the connection while the body is still arriving.
      if (!(refused instanceof Error)) {
        // Debian's Caddy 2.6 reports the cut-off body as 502 (the server gets no complete request).
        expect(proxy.name === 'caddy' ? [413, 502] : [413]).toContain(refused.status);
        expect(refused.headers['x-request-id']).toBeUndefined();
      } else expect(refused.message).toMatch(/EPIPE|ECONNRESET|socket hang up/);
    }, 120_000);

    it('keeps the long cache headers of hashed assets and compresses assets and API answers with gzip', async (ctx) => {
      if (skip()) return ctx.skip();
      const index = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(index)![1];
      const js = await get(asset, { 'accept-encoding': 'gzip' });
      expect(js.status).toBe(200);
      expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(js.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(js.body).equals(fs.readFileSync(path.join(webDist, asset)))).toBe(true);
      const api = await get('/collector/api/search?query=the', { 'accept-encoding': 'gzip' });
      expect(api.status).toBe(200);
      expect(api.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(zlib.gunzipSync(api.body).toString()).total_entries).toBeGreaterThan(0);
      // A client that asks for no compression gets the plain bytes.
      const plain = await get(asset);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.length).toBe(fs.statSync(path.join(webDist, asset)).size);
    });
  });
});

