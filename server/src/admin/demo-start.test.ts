// Two `serve` processes started at the same moment on one empty DATA_DIR (two nodes, or a restart
// script that starts twice): both come up, the demo is loaded once, its accounts are made and printed
// once, and the demo library's spreadsheet source lets its admin open the spec's upload form.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, startServer, type ServerHandle } from '../../../bench/lib/child-server.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-demo-start-'));
const servers: ServerHandle[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the first start of two nodes at once on an empty DATA_DIR', () => {
  it('loads the demo once, prints each demo account once, and both nodes serve it', { timeout: 240_000 }, async () => {
    const dataDir = path.join(dir, 'data');
    const logs = [path.join(dir, 'a.log'), path.join(dir, 'b.log')];
    const started = await Promise.all(logs.map((logFile) => startServer({ dataDir, lifetimeS: 200, logFile, readyTimeoutMs: 180_000 })));
    servers.push(...started);

    const output = logs.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    const accountLines = output.split('\n').filter((l) => /^\s*DEMO-ONLY \S.*username/.test(l));
    expect(accountLines.map((l) => /username (\S+)/.exec(l)![1]).sort()).toEqual(['demo-admin', 'demo-curator', 'demo-librarian', 'demo-reader']);
    expect(output.match(/Demo catalogue loaded/g)).toHaveLength(1);
    expect(output).not.toMatch(/migration .* failed|already exists/);

    // Both nodes search the one catalogue (the anonymous count leaves out private libraries' entries).
    const counts = await Promise.all(started.map(async (s) => (await new Client(s.base).ok('GET', '/collector/api/search?query=')).total_entries));
    expect(counts[0]).toBeGreaterThan(500);
    expect(counts[1]).toBe(counts[0]);

    // The demo library's admin reaches the spec's upload form on either node: it needs a spreadsheet source.
    const password = /username demo-librarian password (\S+)/.exec(output)![1];
    const librarian = new Client(started[1].base);
    await librarian.ok('POST', '/collector/api/auth/login', { username: 'demo-librarian', password });
    const { sites } = await librarian.ok('GET', '/collector/api/spreadsheet/1');
    expect(sites).toHaveLength(1);
    expect(sites[0]).toMatchObject({ title: "La Lanterna's shelf list (spreadsheet uploads)", csv_type: 'generic' });
  });
});
