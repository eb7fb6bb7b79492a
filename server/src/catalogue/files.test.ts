// The file store's clean-ups of files no row records (left by a process killed inside an import).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/fixture.ts';
import { BACKENDS } from '../test/backends.ts';

describe.each(BACKENDS)('the file store on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(undefined, {}, dialect);
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

  describe('FileStore.recoverJournals', () => {
    it('at start, removes the files a dead process of this host listed that no row records, and its journal', async () => {
      const dataDir = path.join(t.dir, 'data');
      const ds = t.services.db.sqlite.prepare('SELECT id FROM data_sources ORDER BY id LIMIT 1').pluck().get() as number;
      const kept = t.services.files.put(ds, '.muse', new TextEncoder().encode('#title Kept\n\nText.'));
      // This process's own journal lists what it wrote; it stays while the process lives.
      const journals = path.join(dataDir, 'files', '.journal');
      const own = fs.readdirSync(journals).find((n) => n.startsWith(`${os.hostname()}-${process.pid}-`))!;
      expect(fs.readFileSync(path.join(journals, own), 'utf8')).toContain(kept);

      // A process that wrote two files inside a transaction and was killed: its rows rolled back.
      const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
      const strays = [path.join('files', '987660', 'text.muse'), path.join('files', '987660', 'text.zip')];
      for (const rel of strays) {
        fs.mkdirSync(path.dirname(path.join(dataDir, rel)), { recursive: true });
        fs.writeFileSync(path.join(dataDir, rel), 'written inside a rolled-back import');
      }
      const deadJournal = path.join(journals, `${os.hostname()}-${dead.stdout}-0`);
      fs.writeFileSync(deadJournal, [...strays, kept, ''].join('\n'));
      // Another machine's journal is left to that machine.
      const elsewhere = path.join(journals, `another-host-${dead.stdout}-0`);
      fs.writeFileSync(elsewhere, `${strays[0]}\n`);

      expect(t.services.files.recoverJournals()).toBe(2);
      for (const rel of strays) expect(fs.existsSync(path.join(dataDir, rel))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'files', '987660'))).toBe(false);
      expect(t.services.files.get(ds, '.muse')).not.toBeNull();
      expect(fs.existsSync(deadJournal)).toBe(false);
      expect(fs.existsSync(elsewhere)).toBe(true);
      expect(fs.existsSync(path.join(journals, own))).toBe(true);
      // The hourly sweep leaves the journals alone.
      const old = Date.now() / 1000 - 2 * 3600;
      fs.utimesSync(path.join(journals, own), old, old);
      t.services.files.sweepUnrecorded();
      expect(fs.existsSync(path.join(journals, own))).toBe(true);
    });
  });
});
