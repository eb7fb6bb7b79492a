// A Muse text's PDF among its downloads: made on the first request (once, however many ask at once),
// served from the cache after that, made again after the source changed, never for a hidden text.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { entrySchema } from '@uc/shared';
import { MUSE_TEXT, dataSourceId, entryId, fixtureLines, museOnlyLines, testApp, type TestApp } from '../test/fixture.ts';
import { DerivedFiles, DerivedFilesBusy } from './derived-files.ts';
import type { FileStore } from './files.ts';

describe('a Muse text\'s PDF download', () => {
  let t: TestApp;
  let builds: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    t = await testApp([...fixtureLines(), ...museOnlyLines()]);
    builds = vi.spyOn(t.services.buildRunner, 'run');
  }, 60_000);
  afterAll(async () => t?.close());

  const dsOf = (identifier: string) => dataSourceId(t.services, identifier);
  const download = (id: number) => t.app.inject(`/collector/api/download/${id}.pdf`);
  const pages = async (body: Buffer) => (await PDFDocument.load(new Uint8Array(body))).getPageCount();

  it('is offered beside the source and the zip; a stored PDF is offered once, as it was', async () => {
    const e = entrySchema.parse((await t.app.inject(`/collector/api/entry/${entryId(t.services, 'Muse Only')}`)).json());
    // (other files made from the source, the EPUB, may stand beside them)
    expect(e.data_sources[0].downloads).toEqual(expect.arrayContaining([
      { code: 'muse', ext: '.muse', desc: 'Muse source' },
      { code: 'pdf', ext: '.pdf', desc: 'PDF' },
      { code: 'zip', ext: '.zip', desc: 'Source and images (zip)' },
    ]));
    expect(e.data_sources[0].downloads.filter((d) => d.ext === '.pdf')).toHaveLength(1);
    const guide = entrySchema.parse((await t.app.inject(`/collector/api/entry/${entryId(t.services, 'A Small Guide')}`)).json());
    expect(guide.data_sources[0].downloads.filter((d) => d.ext === '.pdf')).toHaveLength(1);
    const plain = entrySchema.parse((await t.app.inject(`/collector/api/entry/${entryId(t.services, 'Mutual Aid')}`)).json());
    expect(plain.data_sources[0].downloads).toEqual([]);
  });

  it('is a PDF of the text, built once for concurrent first requests, then served from the cache', async () => {
    const id = dsOf('m-40');
    builds.mockClear();
    const [a, b, c] = await Promise.all([download(id), download(id), download(id)]);
    for (const res of [a, b, c]) {
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe('attachment; filename="muse-only.pdf"');
    }
    expect(builds).toHaveBeenCalledTimes(1);
    expect(b.rawPayload.equals(a.rawPayload)).toBe(true);
    expect(await pages(a.rawPayload)).toBeGreaterThan(0);
    const cached = fs.readdirSync(path.join(t.dir, 'data', 'derived', String(id)));
    expect(cached.filter((n) => n.endsWith('.pdf'))).toHaveLength(1);

    const again = await download(id);
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(a.rawPayload)).toBe(true);
    expect(builds).toHaveBeenCalledTimes(1);
  }, 120_000);

  it('is built again after the source changed, and kept when the same source comes again', async () => {
    const id = dsOf('m-40');
    const before = (await download(id)).rawPayload;
    builds.mockClear();
    // a re-harvest bringing the same bytes leaves the PDF
    t.services.files.put(id, '.muse', Buffer.from(MUSE_TEXT));
    expect((await download(id)).rawPayload.equals(before)).toBe(true);
    expect(builds).not.toHaveBeenCalled();
    // a changed source drops it at once
    const longer = MUSE_TEXT + `\n* Second chapter\n\n${'A new paragraph of the second chapter. '.repeat(400)}\n`;
    t.services.files.put(id, '.muse', Buffer.from(longer));
    expect(fs.existsSync(path.join(t.dir, 'data', 'derived', String(id)))).toBe(false);
    const after = await download(id);
    expect(after.statusCode).toBe(200);
    expect(builds).toHaveBeenCalledTimes(1);
    expect(after.rawPayload.equals(before)).toBe(false);
    expect(await pages(after.rawPayload)).toBeGreaterThan(await pages(before));
  }, 120_000);

  it('is not made for a text of a private library, nor for a text without a Muse source', async () => {
    builds.mockClear();
    expect((await download(dsOf('p-41'))).statusCode).toBe(404);
    const res = await t.app.inject(`/collector/api/download/${dsOf('a-2')}.pdf`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'File not found' });
    expect(builds).not.toHaveBeenCalled();
  });
});

describe('DerivedFiles builds', () => {
  it('run at most two at once, and tell a request to come back when too many wait', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-derived-'));
    const source = path.join(dir, 'source.muse');
    fs.writeFileSync(source, '#title T\n\nText.\n');
    const files = { get: () => ({ absPath: source, contentType: 'text/plain', size: 1 }) } as unknown as FileStore;
    const derived = new DerivedFiles(files, dir);
    let running = 0;
    let most = 0;
    const release: (() => void)[] = [];
    derived.register({
      ext: '.out', contentType: 'text/plain', from: '.muse',
      async build({ outPath }) {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => release.push(resolve));
        fs.writeFileSync(outPath, 'made');
        running--;
      },
    });
    // 34 texts at once: two build, 32 wait, the 35th is told to come back.
    const asked = Array.from({ length: 34 }, (_, i) => derived.get(i + 1, '.out'));
    await expect(derived.get(99, '.out')).rejects.toBeInstanceOf(DerivedFilesBusy);
    const all = Promise.all(asked);
    let settled = false;
    void all.finally(() => (settled = true));
    while (!settled) {
      await new Promise((r) => setTimeout(r, 1));
      for (const go of release.splice(0)) go();
    }
    const done = await all;
    expect(done.every((f) => f && fs.readFileSync(f.absPath, 'utf8') === 'made')).toBe(true);
    expect(most).toBe(2);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('DerivedFiles across processes on one DATA_DIR', () => {
  function setup(dir: string, builds: { n: number }, ms = 300) {
    const source = path.join(dir, 'source.muse');
    if (!fs.existsSync(source)) fs.writeFileSync(source, '#title T\n\nText.\n');
    const files = { get: () => ({ absPath: source, contentType: 'text/plain', size: 1 }) } as unknown as FileStore;
    const derived = new DerivedFiles(files, dir);
    derived.register({
      ext: '.out', contentType: 'text/plain', from: '.muse',
      async build({ outPath }) {
        builds.n++;
        await new Promise((r) => setTimeout(r, ms));
        fs.writeFileSync(outPath, `made ${builds.n}`);
      },
    });
    return derived;
  }

  it('makes a file once when two processes ask at the same time, and takes over a dead process\'s lock', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-derived-'));
    const builds = { n: 0 };
    // two DerivedFiles on the same folder stand for two nodes: neither knows the other's builds in memory
    const [a, b] = [setup(dir, builds), setup(dir, builds)];
    const [fa, fb] = await Promise.all([a.get(7, '.out'), b.get(7, '.out')]);
    expect(builds.n).toBe(1);
    expect(fb!.absPath).toBe(fa!.absPath);
    expect(fs.readFileSync(fb!.absPath, 'utf8')).toBe('made 1');

    // a lock left by a process that died long ago does not stop the next build
    const c = setup(dir, builds, 10);
    fs.rmSync(fa!.absPath);
    const lock = `${fa!.absPath}.lock`;
    fs.writeFileSync(lock, '999999');
    const old = new Date(Date.now() - 3600_000);
    fs.utimesSync(lock, old, old);
    const fc = await c.get(7, '.out');
    expect(fs.readFileSync(fc!.absPath, 'utf8')).toBe('made 2');
    expect(fs.existsSync(lock)).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
