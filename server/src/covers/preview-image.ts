// A small JPEG copy of an uploaded image for the live preview: the preview SVG embeds its images, and an
// 8-megapixel photo would make every redraw megabytes long. The PDF always uses the original.
// Runs in the image thread (BuildRunner, with a heap limit). Memory is bounded by construction: a PNG is
// inflated (Node's zlib, in 64 KB pieces) and unfiltered row by row straight into the small copy (a few rows of the original are held,
// never the whole image); a JPEG is decoded by jpeg-js under its memory limit, which the upload checked
// from the header first (jpegDecodeBytes). The inflated data may not exceed what the header declares.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import jpeg from 'jpeg-js';
import { readImageHeader, type ImageHeader } from '../images/image-header.ts';

/** Wide enough for the front panel of a preview shown on a large screen. */
export const PREVIEW_IMAGE_WIDTH = 700;
/** A very tall image is bounded too (its copy would otherwise keep the original's height). */
const PREVIEW_IMAGE_MAX_HEIGHT = 2 * PREVIEW_IMAGE_WIDTH;
/** jpeg-js's own accounting of a decode (coefficients, sample lines, output) may not pass this. */
export const JPEG_DECODE_BUDGET_BYTES = 400 * 1024 * 1024;

export interface PreviewImageInput { src: string; dest: string; maxWidth?: number }

/** What jpeg-js allocates for this JPEG (its own accounting: 256 bytes a block, the sample lines, RGB out). */
export function jpegDecodeBytes(h: ImageHeader): number {
  const comps = h.components ?? [];
  const maxH = Math.max(...comps.map((c) => c.h));
  const maxV = Math.max(...comps.map((c) => c.v));
  const mcusPerLine = Math.ceil(h.width / 8 / maxH);
  const mcusPerColumn = Math.ceil(h.height / 8 / maxV);
  let bytes = h.width * h.height * 3;
  for (const c of comps) {
    bytes += mcusPerLine * c.h * mcusPerColumn * c.v * 256;
    const blocksPerLine = Math.ceil((Math.ceil(h.width / 8) * c.h) / maxH);
    const blocksPerColumn = Math.ceil((Math.ceil(h.height / 8) * c.v) / maxV);
    bytes += blocksPerLine * 8 * blocksPerColumn * 8;
  }
  return bytes;
}

/** The copy's size: never wider than `maxWidth`, never taller than twice that, never upscaled. */
function targetSize(w: number, h: number, maxWidth: number): { w: number; h: number } {
  const scale = Math.min(1, maxWidth / w, PREVIEW_IMAGE_MAX_HEIGHT / h);
  return { w: Math.max(1, Math.round(w * scale)), h: Math.max(1, Math.round(h * scale)) };
}

/** Box filter: sums of the source pixels falling in each target pixel (composited over white). */
class BoxAccumulator {
  readonly sums: Float64Array;
  readonly counts: Uint32Array;
  constructor(readonly srcW: number, readonly srcH: number, readonly w: number, readonly h: number) {
    this.sums = new Float64Array(w * h * 3);
    this.counts = new Uint32Array(w * h);
  }
  /** Target column of each source column in [x0, x0 + step·n). */
  columns(x0: number, step: number, n: number): Int32Array {
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = Math.min(this.w - 1, Math.floor(((x0 + i * step) * this.w) / this.srcW));
    return out;
  }
  row(y: number): number {
    return Math.min(this.h - 1, Math.floor((y * this.h) / this.srcH)) * this.w;
  }
  add(t: number, r: number, g: number, b: number, a: number): void {
    const i = t * 3;
    const k = 255 - a;
    this.sums[i] += (r * a + 255 * k) / 255;
    this.sums[i + 1] += (g * a + 255 * k) / 255;
    this.sums[i + 2] += (b * a + 255 * k) / 255;
    this.counts[t]++;
  }
  rgba(): Uint8Array {
    const out = new Uint8Array(this.w * this.h * 4);
    for (let t = 0; t < this.counts.length; t++) {
      const n = this.counts[t] || 1;
      out[t * 4] = this.sums[t * 3] / n;
      out[t * 4 + 1] = this.sums[t * 3 + 1] / n;
      out[t * 4 + 2] = this.sums[t * 3 + 2] / n;
      out[t * 4 + 3] = 255;
    }
    return out;
  }
}

const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]];

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Streams a PNG's pixels into `acc`, one row at a time. */
async function streamPng(bytes: Uint8Array, h: ImageHeader, acc: BoxAccumulator): Promise<void> {
  const depth = h.bitDepth;
  const ct = h.colorType!;
  const samples = ct === 0 || ct === 3 ? 1 : ct === 4 ? 2 : ct === 2 ? 3 : 4;
  const bitsPerPixel = samples * depth;
  const bpp = Math.max(1, bitsPerPixel >> 3);
  let palette: Uint8Array = new Uint8Array(0);
  let trns: Uint8Array = new Uint8Array(0);
  const idat: Uint8Array[] = [];
  for (let pos = 8; pos + 8 <= bytes.length;) {
    const len = ((bytes[pos] << 24) | (bytes[pos + 1] << 16) | (bytes[pos + 2] << 8) | bytes[pos + 3]) >>> 0;
    const type = String.fromCharCode(bytes[pos + 4], bytes[pos + 5], bytes[pos + 6], bytes[pos + 7]);
    const data = bytes.subarray(pos + 8, pos + 8 + len);
    if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') trns = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + len;
  }
  if (ct === 3 && palette.length < 3) throw new Error('PNG palette missing');
  const maxV = (1 << depth) - 1;
  const trnsKey = ct === 0 && trns.length >= 2 ? [(trns[0] << 8) | trns[1]] : ct === 2 && trns.length >= 6 ? [(trns[0] << 8) | trns[1], (trns[2] << 8) | trns[3], (trns[4] << 8) | trns[5]] : null;

  const passes = h.interlaced ? ADAM7 : [[0, 0, 1, 1]];
  const plan = passes
    .map(([x0, y0, dx, dy]) => ({ x0, y0, dx, dy, w: Math.ceil((h.width - x0) / dx), h: Math.ceil((h.height - y0) / dy) }))
    .filter((p) => p.w > 0 && p.h > 0);
  const expected = plan.reduce((s, p) => s + p.h * (1 + Math.ceil((p.w * bitsPerPixel) / 8)), 0);

  let passIdx = 0;
  let rowInPass = 0;
  let rowLen = 0;
  let cur: Uint8Array = new Uint8Array(0);
  let prev: Uint8Array = new Uint8Array(0);
  let filled = 0;
  let cols: Int32Array = new Int32Array(0);
  let total = 0;
  const startPass = () => {
    const p = plan[passIdx];
    rowLen = 1 + Math.ceil((p.w * bitsPerPixel) / 8);
    cur = new Uint8Array(rowLen);
    prev = new Uint8Array(rowLen);
    filled = 0;
    rowInPass = 0;
    cols = acc.columns(p.x0, p.dx, p.w);
  };
  startPass();

  const sample = (row: Uint8Array, i: number): number => {
    // the i-th sample of the row (after the filter byte), at its own depth
    if (depth === 8) return row[1 + i];
    if (depth === 16) return (row[1 + 2 * i] << 8) | row[2 + 2 * i];
    const bit = i * depth;
    return (row[1 + (bit >> 3)] >> (8 - depth - (bit & 7))) & maxV;
  };
  const to8 = (v: number) => (depth === 16 ? v >> 8 : depth === 8 ? v : Math.round((v * 255) / maxV));

  const emitRow = () => {
    const p = plan[passIdx];
    // unfilter in place against the previous row of this pass (one loop per filter: this is the hot path)
    const f = cur[0];
    if (f === 1) for (let i = 1 + bpp; i < rowLen; i++) cur[i] += cur[i - bpp];
    else if (f === 2) for (let i = 1; i < rowLen; i++) cur[i] += prev[i];
    else if (f === 3) {
      for (let i = 1; i < rowLen; i++) cur[i] += ((i > bpp ? cur[i - bpp] : 0) + prev[i]) >> 1;
    } else if (f === 4) {
      for (let i = 1; i < rowLen; i++) cur[i] += i > bpp ? paeth(cur[i - bpp], prev[i], prev[i - bpp]) : prev[i];
    } else if (f !== 0) throw new Error('PNG filter type unknown');
    const rowBase = acc.row(p.y0 + rowInPass * p.dy);
    if (depth >= 8 && ct !== 3 && !trnsKey) {
      // whole-byte samples: the high byte of a 16-bit sample is its 8-bit value
      const step = depth >> 3;
      const B = samples * step;
      const { sums, counts } = acc;
      for (let x = 0, o = 1; x < p.w; x++, o += B) {
        let r: number, g: number, b: number, a = 255;
        if (samples >= 3) {
          r = cur[o];
          g = cur[o + step];
          b = cur[o + 2 * step];
          if (samples === 4) a = cur[o + 3 * step];
        } else {
          r = g = b = cur[o];
          if (samples === 2) a = cur[o + step];
        }
        const t = rowBase + cols[x];
        if (a === 255) {
          sums[t * 3] += r;
          sums[t * 3 + 1] += g;
          sums[t * 3 + 2] += b;
          counts[t]++;
        } else acc.add(t, r, g, b, a);
      }
    } else for (let x = 0; x < p.w; x++) {
      let r: number, g: number, b: number, a = 255;
      const s = x * samples;
      if (ct === 3) {
        const idx = sample(cur, x);
        r = palette[idx * 3] ?? 0;
        g = palette[idx * 3 + 1] ?? 0;
        b = palette[idx * 3 + 2] ?? 0;
        if (idx < trns.length) a = trns[idx];
      } else if (ct === 0 || ct === 4) {
        const v = sample(cur, s);
        r = g = b = to8(v);
        if (ct === 4) a = to8(sample(cur, s + 1));
        else if (trnsKey && v === trnsKey[0]) a = 0;
      } else {
        const rv = sample(cur, s), gv = sample(cur, s + 1), bv = sample(cur, s + 2);
        r = to8(rv);
        g = to8(gv);
        b = to8(bv);
        if (ct === 6) a = to8(sample(cur, s + 3));
        else if (trnsKey && rv === trnsKey[0] && gv === trnsKey[1] && bv === trnsKey[2]) a = 0;
      }
      acc.add(rowBase + cols[x], r, g, b, a);
    }
    [prev, cur] = [cur, prev];
    filled = 0;
    if (++rowInPass === p.h && ++passIdx < plan.length) startPass();
  };

  // Node's zlib streams the inflated data in chunks of 64 KB: each is turned into rows before the next
  const inflate = zlib.createInflate({ chunkSize: 64 * 1024 });
  const feed = Readable.from(idat).pipe(inflate);
  for await (const chunk of feed as AsyncIterable<Buffer>) {
    total += chunk.length;
    // more pixels than the header declares: the file lies about its size
    if (total > expected) {
      feed.destroy();
      throw new Error('the PNG holds more pixel data than its header declares');
    }
    let off = 0;
    while (off < chunk.length) {
      const n = Math.min(rowLen - filled, chunk.length - off);
      cur.set(chunk.subarray(off, off + n), filled);
      filled += n;
      off += n;
      if (filled === rowLen) emitRow();
    }
  }
  if (total < expected) throw new Error('the PNG ends before its last row');
}

function decodeJpeg(bytes: Uint8Array, h: ImageHeader, acc: BoxAccumulator): void {
  const img = jpeg.decode(bytes, {
    useTArray: true,
    formatAsRGBA: false,
    maxResolutionInMP: Math.ceil((h.width * h.height) / 1e6),
    maxMemoryUsageInMB: Math.ceil(JPEG_DECODE_BUDGET_BYTES / 1024 / 1024),
  });
  // jpeg-js decodes to the size of the frame it found; a header that lied is refused, not trusted
  if (img.width !== h.width || img.height !== h.height) throw new Error('the JPEG is not the size its header declares');
  const d = img.data;
  const cols = acc.columns(0, 1, img.width);
  const { sums, counts } = acc;
  for (let y = 0, i = 0; y < img.height; y++) {
    const base = acc.row(y);
    for (let x = 0; x < img.width; x++, i += 3) {
      const t = base + cols[x];
      sums[t * 3] += d[i];
      sums[t * 3 + 1] += d[i + 1];
      sums[t * 3 + 2] += d[i + 2];
      counts[t]++;
    }
  }
}

/** Box-filters the image down (never up), over white, and writes a JPEG; returns its size. */
export async function makePreviewImage(input: PreviewImageInput): Promise<{ width: number; height: number }> {
  const bytes = new Uint8Array(fs.readFileSync(input.src));
  const header = readImageHeader(bytes);
  const { w, h } = targetSize(header.width, header.height, input.maxWidth ?? PREVIEW_IMAGE_WIDTH);
  const acc = new BoxAccumulator(header.width, header.height, w, h);
  if (header.type === 'png') await streamPng(bytes, header, acc);
  else decodeJpeg(bytes, header, acc);
  fs.mkdirSync(path.dirname(input.dest), { recursive: true });
  const tmp = `${input.dest}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, jpeg.encode({ width: w, height: h, data: acc.rgba() }, 80).data);
  fs.renameSync(tmp, input.dest);
  return { width: w, height: h };
}
