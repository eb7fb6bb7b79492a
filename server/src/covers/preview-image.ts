// A small JPEG copy of an uploaded image for the live preview: the preview SVG embeds its images, and an
// 8-megapixel photo would make every redraw megabytes long. Decoded and encoded by jpeg-js and pngjs
// (pure JavaScript), run in the build thread. The PDF always uses the original.
import fs from 'node:fs';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { COVER_IMAGE_MAX_PIXELS } from '@uc/shared';

/** Wide enough for the front panel of a preview shown on a large screen. */
export const PREVIEW_IMAGE_WIDTH = 700;

export interface PreviewImageInput { src: string; dest: string; maxWidth?: number }

function decode(bytes: Buffer): { width: number; height: number; data: Uint8Array } {
  if (bytes[0] === 0x89 && bytes[1] === 0x50) {
    const png = PNG.sync.read(bytes);
    return { width: png.width, height: png.height, data: png.data };
  }
  return jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: COVER_IMAGE_MAX_PIXELS / 1e6, maxMemoryUsageInMB: 1024 });
}

/** Box-filters RGBA down to `width` (never up), over white, and writes a JPEG; returns its size. */
export function makePreviewImage(input: PreviewImageInput): { width: number; height: number } {
  const img = decode(fs.readFileSync(input.src));
  const scale = Math.min(1, (input.maxWidth ?? PREVIEW_IMAGE_WIDTH) / img.width);
  const w = Math.max(1, Math.round(img.width * scale));
  const h = Math.max(1, Math.round(img.height * scale));
  const out = new Uint8Array(w * h * 4);
  const fx = img.width / w;
  const fy = img.height / h;
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor(y * fy);
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * fy));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor(x * fx);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * fx));
      let r = 0, g = 0, b = 0, n = 0;
      for (let yy = y0; yy < y1; yy++) {
        for (let xx = x0; xx < x1; xx++) {
          const i = (yy * img.width + xx) * 4;
          const a = img.data[i + 3] / 255;
          r += img.data[i] * a + 255 * (1 - a);
          g += img.data[i + 1] * a + 255 * (1 - a);
          b += img.data[i + 2] * a + 255 * (1 - a);
          n++;
        }
      }
      const o = (y * w + x) * 4;
      out[o] = r / n;
      out[o + 1] = g / n;
      out[o + 2] = b / n;
      out[o + 3] = 255;
    }
  }
  fs.mkdirSync(path.dirname(input.dest), { recursive: true });
  const tmp = `${input.dest}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, jpeg.encode({ width: w, height: h, data: out }, 80).data);
  fs.renameSync(tmp, input.dest);
  return { width: w, height: h };
}
