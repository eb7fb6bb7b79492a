// Test images made on the fly: image bombs (tiny files whose headers ask for gigabytes) and honest images.
import zlib from 'node:zlib';

function crc32(buf: Uint8Array): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A PNG around already-compressed IDAT data. */
export function pngFile(width: number, height: number, bitDepth: number, colorType: number, zdata: Uint8Array, extra: Buffer[] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colorType;
  const idats: Buffer[] = [];
  for (let o = 0; o < zdata.length; o += 65536) idats.push(chunk('IDAT', zdata.subarray(o, o + 65536)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), ...extra, ...idats, chunk('IEND', new Uint8Array(0))]);
}

/**
 * A zlib stream of `n` zero bytes without ever holding them: one MiB of zeros deflated with a sync flush
 * (byte-aligned, not final) repeated, then the final empty block and the Adler-32 of n zeros.
 */
export function zeroZlib(n: number): Buffer {
  const MiB = 1 << 20;
  const parts: Buffer[] = [Buffer.from([0x78, 0x9c])];
  const full = zlib.deflateRawSync(Buffer.alloc(MiB), { finishFlush: zlib.constants.Z_SYNC_FLUSH, level: 9 });
  for (let i = 0; i < Math.floor(n / MiB); i++) parts.push(full);
  if (n % MiB) parts.push(zlib.deflateRawSync(Buffer.alloc(n % MiB), { finishFlush: zlib.constants.Z_SYNC_FLUSH, level: 9 }));
  parts.push(zlib.deflateRawSync(Buffer.alloc(0)));
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((n % 65521) << 16) | 1) >>> 0);
  parts.push(adler);
  return Buffer.concat(parts);
}

/** The bomb of issue 27: 7,745 × 7,745 16-bit RGBA (480 MB of pixels) in about 470 KB. */
export function pngBomb(side = 7745, bitDepth = 16, colorType = 6): Buffer {
  const bpp = (bitDepth / 8) * ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[colorType];
  return pngFile(side, side, bitDepth, colorType, zeroZlib(side * (1 + side * bpp)));
}

/** An honest RGB PNG with a gradient (8-bit), rows compressed for real. */
export function gradientPng(width: number, height: number): Buffer {
  const row = 1 + width * 3;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    raw[y * row] = 1; // Sub filter: a gradient compresses well
    for (let x = 0; x < width; x++) {
      const i = y * row + 1 + x * 3;
      raw[i] = x === 0 ? (y * 255) / height : 1;
      raw[i + 1] = x === 0 ? 40 : 0;
      raw[i + 2] = x === 0 ? 200 : 0;
    }
  }
  return pngFile(width, height, 8, 2, zlib.deflateSync(raw, { level: 1 }));
}

/** A JPEG whose frame header claims `width` × `height` × 3 components, with one short scan. */
export function jpegBomb(width: number, height: number): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0, 17, 8, height >> 8, height & 255, width >> 8, width & 255, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]);
  const dqt = Buffer.concat([Buffer.from([0xff, 0xdb, 0, 67, 0]), Buffer.alloc(64, 1)]);
  // DC and AC tables with one code each (symbol 0): every block decodes to "no change, end of block"
  const dht = (cls: number) => Buffer.concat([Buffer.from([0xff, 0xc4, 0, 20, cls]), Buffer.from([1, ...new Array(15).fill(0)]), Buffer.from([0])]);
  const sos = Buffer.from([0xff, 0xda, 0, 12, 3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), dqt, dht(0x00), dht(0x10), sof, sos, Buffer.alloc(4096, 0), Buffer.from([0xff, 0xd9])]);
}
