// Curation benchmark: imports a generated catalogue (through the real import path), then, through the
// real HTTP app as a logged-in curator, merges authors whose entries add up to at least --touch entries
// and undoes the merge from the change log, --rounds times. Prints one JSON line (ms).
//   npm run bench:curation -- --entries 100000 [--touch 1000] [--rounds 7]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { catalogueOf } from './lib/generated.ts';
import { loadConfig } from '../server/src/config.ts';
import { buildApp, createServices } from '../server/src/app.ts';
import { importJsonl } from '../server/src/ingest/jsonl.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const entries = Number(opt('entries', '100000'));
const touch = Number(opt('touch', '1000'));
const rounds = Number(opt('rounds', '7'));
const catalogueFile = args.includes('--catalogue') ? opt('catalogue', '') : catalogueOf(entries);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-bench-'));
const config = { ...loadConfig(), dataDir, logLevel: 'silent', demo: false };
const services = await createServices(config);
await importJsonl(catalogueFile, services);
services.search.sync();
const password = 'a long benchmark password';
await services.accounts.createUser({ username: 'bench-curator', email: 'bench@example.org', password, can_merge: true });

// Authors with fewer than `touch` entries each, most first, until their entries add up to `touch` (two at least).
const top = services.db.sqlite.prepare(`SELECT agent_id AS id, count(*) AS n FROM entry_agents GROUP BY agent_id HAVING n < ? ORDER BY n DESC LIMIT 5000`)
  .all(touch) as { id: number; n: number }[];
const chosen: number[] = [];
let touched = 0;
for (const a of top) {
  if (touched >= touch && chosen.length >= 2) break;
  chosen.push(a.id);
  touched += a.n;
}

const app = await buildApp(config, services);
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/collector/api`;
const login = await fetch(`${base}/auth/login`, {
  method: 'POST', headers: { 'content-type': 'application/json', cookie: 'csrftoken=bench', 'x-csrftoken': 'bench' },
  body: JSON.stringify({ username: 'bench-curator', password }),
});
const sid = /sessionid=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
const headers = { 'content-type': 'application/json', cookie: `csrftoken=bench; sessionid=${sid}`, 'x-csrftoken': 'bench' };

async function timed(url: string, body: unknown): Promise<{ ms: number; json: { change_id?: number; error?: string } }> {
  const start = performance.now();
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = (await res.json()) as { change_id?: number; error?: string };
  const ms = performance.now() - start;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
  return { ms, json };
}

const merges: number[] = [];
const undos: number[] = [];
for (let r = 0; r < rounds + 1; r++) {
  const merge = await timed(`${base}/merge/author`, chosen.map((id) => ({ id })));
  const undo = await timed(`${base}/changes/${merge.json.change_id}/undo`, {});
  if (r > 0) { // the first round warms up statement caches
    merges.push(merge.ms);
    undos.push(undo.ms);
  }
}
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { median: +q(0.5).toFixed(1), p95: +q(0.95).toFixed(1), max: +s[s.length - 1].toFixed(1) };
};
console.log(JSON.stringify({ bench: 'curation', entries, authors_merged: chosen.length, entries_touched: touched, rounds, merge_ms: stat(merges), undo_ms: stat(undos) }));
