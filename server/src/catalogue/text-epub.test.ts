// A Muse text's EPUB among its downloads (issue 31): offered on the entry, made on the first request in a
// build thread, a valid EPUB (EPUBCheck when installed), served from the cache after that, made again when
// the text changes; and offered to e-book readers in the OPDS acquisition feeds.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import { entrySchema } from '@uc/shared';
import { MUSE_TEXT, dataSourceId, entryId, fixtureLines, museOnlyLines, testApp, type TestApp } from '../test/fixture.ts';
import { children, parseXml } from '../harvest/xml.ts';
import { EPUBCHECK_MISSING, HAVE_EPUBCHECK, epubCheck } from '../../../packages/muse/src/testing/epubcheck.ts';

const BASE = 'https://catalogue.example.org';

describe('a Muse text\'s EPUB download', () => {
  let t: TestApp;
  let builds: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    t = await testApp([...fixtureLines(), ...museOnlyLines()], { publicUrl: BASE });
    builds = vi.spyOn(t.services.buildRunner, 'runTextEpub');
  }, 60_000);
  afterAll(async () => t?.close());

  const dsOf = (identifier: string) => dataSourceId(t.services, identifier);
  const download = (id: number) => t.app.inject(`/collector/api/download/${id}.epub`);
  const unpack = (body: Buffer) => Object.fromEntries(Object.entries(unzipSync(new Uint8Array(body))).map(([n, d]) => [n, /\.(png|jpe?g)$/.test(n) ? '' : strFromU8(d)]));

  it('is offered with every Muse text, and only there', async () => {
    const e = entrySchema.parse((await t.app.inject(`/collector/api/entry/${entryId(t.services, 'Muse Only')}`)).json());
    expect(e.data_sources[0].downloads).toContainEqual({ code: 'epub', ext: '.epub', desc: 'EPUB' });
    const guide = entrySchema.parse((await t.app.inject(`/collector/api/entry/${entryId(t.services, 'A Small Guide')}`)).json());
    expect(guide.data_sources[0].downloads.filter((d) => d.ext === '.epub')).toHaveLength(1);
    const plain = entrySchema.parse((await t.app.inject(`/collector/api/entry/${entryId(t.services, 'Mutual Aid')}`)).json());
    expect(plain.data_sources[0].downloads).toEqual([]);
  });

  it('is an EPUB of the text (mimetype first, stored), built once for concurrent first requests, then served from the cache', async () => {
    const id = dsOf('m-40');
    builds.mockClear();
    const [a, b] = await Promise.all([download(id), download(id)]);
    for (const res of [a, b]) {
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.headers['content-type']).toBe('application/epub+zip');
      expect(res.headers['content-disposition']).toBe('attachment; filename="muse-only.epub"');
    }
    expect(builds).toHaveBeenCalledTimes(1);
    const bytes = a.rawPayload;
    // the OCF rule: the first entry is "mimetype", stored without compression, saying application/epub+zip
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    expect(bytes.readUInt16LE(8)).toBe(0);
    expect(bytes.subarray(30, 38).toString('latin1')).toBe('mimetype');
    expect(bytes.subarray(38, 58).toString('latin1')).toBe('application/epub+zip');
    const files = unpack(bytes);
    expect(files['OEBPS/text/title.xhtml']).toContain('A Small Guide');
    expect(files['OEBPS/text/title.xhtml']).toContain('Biblioteca Uno'); // the library's credits
    expect(files['OEBPS/content.opf']).toContain(`<dc:identifier id="uid">${BASE}/entry/${entryId(t.services, 'Muse Only')}</dc:identifier>`);
    expect(files['OEBPS/images/picture.png']).toBeDefined(); // the image from the text's zip

    const again = await download(id);
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(bytes)).toBe(true);
    expect(builds).toHaveBeenCalledTimes(1);
    const cached = fs.readdirSync(path.join(t.dir, 'data', 'derived', String(id)));
    expect(cached.filter((n) => n.endsWith('.epub'))).toHaveLength(1);
  }, 60_000);

  it.skipIf(!HAVE_EPUBCHECK)('passes EPUBCheck with no error and no warning', async () => {
    const file = path.join(t.dir, 'download.epub');
    fs.writeFileSync(file, (await download(dsOf('m-40'))).rawPayload);
    const { reports, problems } = epubCheck([file]);
    expect(reports).toBe(1);
    expect(problems).toEqual([]);
  }, 60_000);
  if (!HAVE_EPUBCHECK) console.log(EPUBCHECK_MISSING);

  it('is made again after the text changed, and kept when the same text comes again', async () => {
    const id = dsOf('m-40');
    const before = (await download(id)).rawPayload;
    builds.mockClear();
    t.services.files.put(id, '.muse', Buffer.from(MUSE_TEXT));
    expect((await download(id)).rawPayload.equals(before)).toBe(true);
    expect(builds).not.toHaveBeenCalled();
    // a harvest bringing a changed text drops it at once
    t.services.files.put(id, '.muse', Buffer.from(`${MUSE_TEXT}\n* A chapter added later\n\nNew words.\n`));
    expect(fs.existsSync(path.join(t.dir, 'data', 'derived', String(id)))).toBe(false);
    const after = await download(id);
    expect(after.statusCode).toBe(200);
    expect(builds).toHaveBeenCalledTimes(1);
    expect(after.rawPayload.equals(before)).toBe(false);
    expect(unpack(after.rawPayload)['OEBPS/nav.xhtml']).toContain('A chapter added later');
    expect(unpack(before)['OEBPS/nav.xhtml']).not.toContain('A chapter added later');
  }, 60_000);

  it('is not made for a hidden text nor for a text without a Muse source', async () => {
    builds.mockClear();
    expect((await download(dsOf('p-41'))).statusCode).toBe(404);
    const res = await download(dsOf('a-2'));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'File not found' });
    expect(builds).not.toHaveBeenCalled();
  });

  it('is an acquisition link in the OPDS feeds for every visible Muse text', async () => {
    const res = await t.app.inject('/opds/latest');
    expect(res.statusCode).toBe(200);
    const feed = parseXml(res.body);
    const acquisitions = (title: string) => {
      const e = children(feed, 'entry').find((x) => children(x, 'title')[0]?.text === title);
      return e ? children(e, 'link').map((l) => l.attrs).filter((l) => l.rel === 'http://opds-spec.org/acquisition') : null;
    };
    // a text with only a Muse source is listed, for its EPUB
    expect(acquisitions('Muse Only')).toContainEqual(expect.objectContaining({
      type: 'application/epub+zip', href: `${BASE}/collector/api/download/${dsOf('m-40')}.epub`,
    }));
    expect(acquisitions('A Small Guide')).toContainEqual(expect.objectContaining({ type: 'application/epub+zip', href: `${BASE}/collector/api/download/${dsOf('a-11')}.epub` }));
    expect(acquisitions('Muse Hidden')).toBeNull();
    expect(acquisitions('Mutual Aid')).toBeNull();
  });
});
