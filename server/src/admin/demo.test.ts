import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../app.ts';
import { loadConfig } from '../config.ts';
import { loadDemoIfEmpty } from '../main.ts';
import { writeFixture } from '../test/fixture.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-demo-'));
let services: Services | undefined;
afterAll(async () => {
  await services?.db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('demo accounts', () => {
  it('are created with the demo catalogue, one per role, with printed passwords that work', async () => {
    const demoDir = path.join(dir, 'demo');
    fs.mkdirSync(demoDir);
    writeFixture(demoDir);
    services = await createServices({ ...loadConfig({}), dataDir: path.join(dir, 'data') });
    const lines: string[] = [];
    expect(await loadDemoIfEmpty(services, demoDir, (m) => lines.push(m))).toBe(true);

    const printed = new Map<string, string>();
    for (const l of lines) {
      const m = /DEMO-ONLY .*: username (\S+) password (\S+)$/.exec(l);
      if (m) printed.set(m[1], m[2]);
    }
    expect([...printed.keys()].sort()).toEqual(['demo-admin', 'demo-curator', 'demo-librarian', 'demo-reader']);
    expect(lines.some((l) => /DEMO-ONLY accounts .*never for production/.test(l))).toBe(true);

    const viewers = new Map<string, ReturnType<Services['accounts']['viewerOf']>>();
    for (const [username, password] of printed) {
      const res = await services.accounts.login(username, password);
      expect('token' in res, username).toBe(true);
      if ('token' in res) viewers.set(username, services.accounts.viewerForToken(res.token)!);
      expect('error' in (await services.accounts.login(username, `${password}x`))).toBe(true);
    }
    expect(viewers.get('demo-admin')).toMatchObject({ isSuperuser: true });
    expect(viewers.get('demo-librarian')).toMatchObject({ isSuperuser: false, isLibraryAdmin: true, libraryIds: [1] });
    expect(viewers.get('demo-curator')).toMatchObject({ isSuperuser: false, isLibraryAdmin: false, canMerge: true, canSetExclusions: true });
    // Any logged-in user may hide things from their own searches (exclusions); only mergers curate.
    expect(viewers.get('demo-reader')).toMatchObject({ isSuperuser: false, isLibraryAdmin: false, canMerge: false, canSetExclusions: true, libraryIds: [] });

    // The next start finds data: nothing is loaded or created again.
    const again: string[] = [];
    expect(await loadDemoIfEmpty(services, demoDir, (m) => again.push(m))).toBe(false);
    expect(again).toEqual([]);
    expect(services.db.sqlite.prepare("SELECT count(*) FROM users WHERE username LIKE 'demo-%'").pluck().get()).toBe(4);
  });
});
