// Issue 27 item 1: image bombs. A tiny, highly compressed image whose header asks for hundreds of
// megabytes, uploaded as an anonymous cover session does, three at once: refused from its header in
// well under 2 s with the limit named, while the server's memory barely moves. An honest large image is
// still accepted, and the preview copy of it is made without holding the original's pixels.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookcoverUploadResponse } from '@uc/shared';
import { CSRF_HEADERS, multipartBody, testApp, type TestApp } from '../test/fixture.ts';
import { gradientPng, jpegBomb, pngBomb, pngFile, zeroZlib } from '../images/test-images.ts';

let t: TestApp;

beforeAll(async () => {
  t = await testApp();
}, 60_000);

afterAll(async () => {
  await t.close();
});

async function newSession(): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/collector/api/bookcover', payload: { action: 'get_tokens' }, headers: CSRF_HEADERS });
  expect(res.statusCode).toBe(200);
  return res.json().session_id;
}

async function upload(sessionId: string, content: Uint8Array, name = 'cover.png') {
  const { payload, contentType } = multipartBody({ session_id: sessionId }, { field: 'image_file', name, content });
  const started = performance.now();
  const res = await t.app.inject({ method: 'POST', url: '/collector/api/bookcover/upload', headers: { ...CSRF_HEADERS, 'content-type': contentType }, payload });
  return { status: res.statusCode, json: res.json() as Partial<BookcoverUploadResponse> & { error?: string }, ms: performance.now() - started };
}

/** Runs `fn` while sampling this process's RSS (the app and its image thread live here); the growth in MB. */
async function peakGrowthMb<T>(fn: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  global.gc?.();
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  try {
    const result = await fn();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, growthMb: (peak - base) / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

const filesOf = (sid: string) => {
  const dir = path.join(t.services.bookbuilder.sessions.dir(sid), 'files');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.startsWith('.')) : [];
};

describe('image bombs', () => {
  it('three 466 KB PNGs of 7,745 × 7,745 16-bit pixels at once: each refused from its header in under 2 s, memory bounded', async () => {
    const bomb = pngBomb(7745, 16, 6);
    expect(bomb.length).toBeLessThan(600 * 1024);
    const sids = await Promise.all([newSession(), newSession(), newSession()]);
    const { result, growthMb } = await peakGrowthMb(() => Promise.all(sids.map((sid) => upload(sid, bomb))));
    for (const r of result) {
      expect(r.status).toBe(400);
      // The limit is named: 600 dpi on the largest cover is 6,732 pixels across for a square image.
      expect(r.json.error).toBe('image_file: the image has more pixels than a cover can print (7745 × 7745): at most 6732 × 6732 pixels, 600 dpi on the largest cover');
      expect(r.ms).toBeLessThan(2000);
    }
    // Decoding one of them took 1.7 GB before; refused from the header, the three cost next to nothing.
    expect(growthMb).toBeLessThan(100);
    for (const sid of sids) expect(filesOf(sid)).toEqual([]);
  }, 30_000);

  it('a 16-bit PNG within the cover\'s pixels but past the decode budget is refused, naming the budget', async () => {
    // 10,000 × 5,000 RGBA at 16 bits: 400 MB of pixels in a file of a few hundred KB
    const wide = pngFile(10000, 5000, 16, 6, zeroZlib(5000 * (1 + 10000 * 8)));
    const sid = await newSession();
    const { result: r, growthMb } = await peakGrowthMb(() => upload(sid, wide));
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('image_file: the image takes 382 MB of memory to read: at most 256 MB (save it with fewer pixels, or 8 bits per channel)');
    expect(r.ms).toBeLessThan(2000);
    expect(growthMb).toBeLessThan(100);
  }, 30_000);

  it('JPEGs whose frame header claims a huge size are refused before decoding', async () => {
    const sid = await newSession();
    const square = await upload(sid, jpegBomb(7745, 7745), 'photo.jpg');
    expect(square.status).toBe(400);
    expect(square.json.error).toMatch(/^image_file: the image has more pixels than a cover can print \(7745 × 7745\)/);
    expect(square.ms).toBeLessThan(2000);
    const huge = await upload(sid, jpegBomb(60000, 60000), 'photo.jpg');
    expect(huge).toMatchObject({ status: 400, json: { error: 'image_file: the image has too many pixels (3600 megapixels; at most 60)' } });
    // A JPEG whose decode (jpeg-js: a 256-byte block per 8 × 8 pixels and component) passes the budget.
    const wide = await upload(sid, jpegBomb(10000, 5000), 'photo.jpg');
    expect(wide.json.error).toMatch(/^image_file: the image takes \d+ MB of memory to read: at most 256 MB/);
    expect(filesOf(sid)).toEqual([]);
  }, 30_000);

  it('refuses a PNG whose data is larger than its header declares, animated PNGs and chunk floods', async () => {
    const sid = await newSession();
    // 100 × 100 grey declares 10,100 bytes of rows; the stream inflates to a megabyte
    const liar = await upload(sid, pngFile(100, 100, 8, 0, zeroZlib(1_000_000)));
    expect(liar).toMatchObject({ status: 400, json: { error: 'image_file: this image cannot be read (damaged or an unusual kind of PNG)' } });
    const actl = Buffer.alloc(8);
    actl.writeUInt32BE(1000, 0);
    const animated = pngFile(100, 100, 8, 0, zeroZlib(100 * 101), [chunkOf('acTL', actl)]);
    expect(await upload(sid, animated)).toMatchObject({ status: 400, json: { error: 'image_file: animated images cannot be used on a cover' } });
    const flood = pngFile(100, 100, 8, 0, zeroZlib(100 * 101), Array.from({ length: 50_001 }, () => chunkOf('tEXt', Buffer.alloc(0))));
    expect(await upload(sid, flood)).toMatchObject({ status: 400, json: { error: 'image_file: the image has too many PNG chunks (at most 50000)' } });
    expect(filesOf(sid)).toEqual([]);
  }, 30_000);

  it('still accepts a large honest image, and makes its preview copy without holding its pixels', async () => {
    const png = gradientPng(6000, 3000); // 18 megapixels, 8-bit RGB: 54 MB of pixels
    const sid = await newSession();
    const { result: r, growthMb } = await peakGrowthMb(() => upload(sid, png));
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.image).toMatchObject({ file: 'image_file.png', width_px: 6000, height_px: 3000 });
    expect(filesOf(sid).sort()).toEqual(['image_file.png', 'preview']);
    // its 54 MB of pixels are streamed row by row into the 700-pixel copy (the thread itself costs some)
    expect(growthMb).toBeLessThan(200);
  }, 60_000);
});

function chunkOf(type: string, data: Buffer): Buffer {
  // CRCs are not checked by the header reader; a zero CRC is enough to test the structure rules
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  return out;
}
