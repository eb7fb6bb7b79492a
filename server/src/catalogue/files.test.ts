// The file store's sweep of files no row records (left by a process killed inside an import).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/fixture.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

describe('FileStore.sweepUnrecorded', () => {
  it('removes old files no row records, keeps recorded ones and young strays', () => {
    const dataDir = path.join(t.dir, 'data');
    const ds = t.services.db.sqlite.prepare('SELECT id FROM data_sources ORDER BY id LIMIT 1').pluck().get() as number;
    const kept = t.services.files.put(ds, '.muse', new TextEncoder().encode('#title Kept\n\nText.'));
    const old = Date.now() / 1000 - 2 * 3600;
    // A stray beside a recorded file, a stray folder of an id no data source has, and a fresh stray.
    const strays = [path.join('files', String(ds), 'text.pdf'), path.join('files', '987654', 'text.zip')];
    for (const rel of [...strays, path.join('files', '987655', 'text.muse')]) {
      fs.mkdirSync(path.dirname(path.join(dataDir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dataDir, rel), 'left by a killed import');
    }
    for (const rel of [...strays, kept]) fs.utimesSync(path.join(dataDir, rel), old, old);

    expect(t.services.files.sweepUnrecorded()).toBe(2);
    for (const rel of strays) expect(fs.existsSync(path.join(dataDir, rel))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'files', '987654'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, kept))).toBe(true);
    expect(t.services.files.get(ds, '.muse')).not.toBeNull();
    expect(fs.existsSync(path.join(dataDir, 'files', '987655', 'text.muse'))).toBe(true);
  });
});
