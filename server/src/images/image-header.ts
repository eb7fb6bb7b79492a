// What a PNG or JPEG says about itself, read from its header and chunk/marker structure without decoding
// a pixel: type, size, samples, and the bytes a full decode would hold. Uploads are judged on this
// before any decoder sees them (an image bomb is a small file whose header asks for gigabytes).
// Cheap: a walk over the chunks (PNG) or markers and entropy-coded bytes (JPEG), no allocation.

/** A file that is not a PNG or JPEG we can read, or whose structure is over a limit. */
export class ImageHeaderError extends Error {
  constructor(public template: string, public values: Record<string, string | number> = {}) {
    super(template.replace(/{{(\w+)}}/g, (all, k: string) => (k in values ? String(values[k]) : all)));
  }
}

export interface JpegComponent { h: number; v: number }

export interface ImageHeader {
  type: 'png' | 'jpg';
  width: number;
  height: number;
  /** Samples per pixel once decoded (a palette expands to RGB or RGBA). */
  channels: number;
  /** Bits per sample as stored (PNG 1, 2, 4, 8, 16; JPEG 8 or 12). */
  bitDepth: number;
  /** Bytes of the decoded pixels at the image's own depth: the least any full decode holds. */
  decodedBytes: number;
  /** PNG Adam7 interlace or a progressive JPEG. */
  interlaced: boolean;
  /** PNG: colour type 0, 2, 3, 4 or 6. */
  colorType?: number;
  /** JPEG: the frame's sampling factors, SOF marker and number of scans. */
  components?: JpegComponent[];
  sof?: number;
  scans?: number;
}

/**
 * The memory one image may take to decode (width × height × samples at its depth, or jpeg-js's own
 * accounting for a cover's preview copy). A 24-megapixel camera JPEG fits; 16 bits per channel print no
 * better than 8, so a large 16-bit image is refused rather than decoded.
 */
export const IMAGE_DECODE_BUDGET_BYTES = 256 * 1024 * 1024;

/** More chunks than any encoder writes for a 20 MB file (8 KB IDATs give 2,560); each one costs a decoder a step. */
export const PNG_MAX_CHUNKS = 50_000;
/** Progressive JPEGs have about 10 scans; each scan is a pass over the whole image. */
export const JPEG_MAX_SCANS = 100;
const JPEG_MAX_SEGMENTS = 10_000;
/** Larger sides than PNG and JPEG themselves allow are refused at once (JPEG: 65,535). */
const MAX_SIDE = 65_535;

const PNG_SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 3, 4: 2, 6: 4 };

const u32 = (b: Uint8Array, i: number) => ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;
const u16 = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const chunkType = (b: Uint8Array, i: number) => String.fromCharCode(b[i], b[i + 1], b[i + 2], b[i + 3]);

export function isPng(b: Uint8Array): boolean {
  return b.length >= 8 && PNG_SIG.every((x, i) => b[i] === x);
}

export function isJpeg(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
}

const notImage = () => new ImageHeaderError('this file is not a PNG or JPEG image');
const damaged = (kind: string) => new ImageHeaderError('this image cannot be read (damaged or an unusual kind of {{kind}})', { kind });

function pngHeader(b: Uint8Array): ImageHeader {
  if (b.length < 33 || chunkType(b, 12) !== 'IHDR' || u32(b, 8) !== 13) throw damaged('PNG');
  const width = u32(b, 16);
  const height = u32(b, 20);
  const bitDepth = b[24];
  const colorType = b[25];
  if (!width || !height || width > 0x7fffffff || height > 0x7fffffff) throw damaged('PNG');
  if (!PNG_DEPTHS[colorType]?.includes(bitDepth) || b[26] !== 0 || b[27] !== 0 || b[28] > 1) throw damaged('PNG');
  let pos = 33;
  let chunks = 1;
  let idat = 0;
  let trns = false;
  let ended = false;
  while (pos + 8 <= b.length) {
    const len = u32(b, pos);
    const type = chunkType(b, pos + 4);
    if (pos + 12 + len > b.length) throw damaged('PNG');
    if (++chunks > PNG_MAX_CHUNKS) throw new ImageHeaderError('the image has too many PNG chunks (at most {{max}})', { max: PNG_MAX_CHUNKS });
    // An animated PNG's frames are each decoded; a cover prints one picture.
    if (type === 'acTL' || type === 'fcTL' || type === 'fdAT') throw new ImageHeaderError('animated images cannot be used on a cover');
    if (type === 'IHDR') throw damaged('PNG');
    if (type === 'IDAT') idat += len;
    if (type === 'tRNS') trns = true;
    pos += 12 + len;
    if (type === 'IEND') {
      ended = true;
      break;
    }
  }
  if (!idat || !ended) throw damaged('PNG');
  const channels = colorType === 3 ? (trns ? 4 : 3) : PNG_CHANNELS[colorType];
  const sampleBytes = bitDepth === 16 ? 2 : 1;
  return { type: 'png', width, height, channels, bitDepth, colorType, interlaced: b[28] === 1, decodedBytes: width * height * channels * sampleBytes };
}

/** SOF markers: C0–C3, C5–C7, C9–CB, CD–CF (C4 is DHT, C8 reserved, CC is DAC). */
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpegHeader(b: Uint8Array): ImageHeader {
  let pos = 2;
  let frame: Omit<ImageHeader, 'scans' | 'decodedBytes'> | null = null;
  let scans = 0;
  let segments = 0;
  while (pos < b.length) {
    if (b[pos] !== 0xff) throw damaged('JPEG');
    const m = b[pos + 1];
    if (m === 0xff) {
      pos++; // fill byte
      continue;
    }
    if (m === 0xd9) break; // EOI
    if (m === 0x01 || (m >= 0xd0 && m <= 0xd7)) {
      pos += 2;
      continue;
    }
    if (pos + 4 > b.length) throw damaged('JPEG');
    const len = u16(b, pos + 2);
    if (len < 2 || pos + 2 + len > b.length) throw damaged('JPEG');
    if (++segments > JPEG_MAX_SEGMENTS) throw damaged('JPEG');
    if (isSof(m)) {
      // One frame per file: a second SOF (hierarchical JPEG, or a crafted file) is a second image to decode.
      if (frame) throw new ImageHeaderError('this image has more than one frame: save it as an ordinary JPEG');
      const n = b[pos + 9];
      if (len < 8 + 3 * n || n < 1 || n > 4) throw damaged('JPEG');
      const components: JpegComponent[] = [];
      for (let i = 0; i < n; i++) {
        const hv = b[pos + 11 + 3 * i];
        const h = hv >> 4, v = hv & 15;
        if (h < 1 || h > 4 || v < 1 || v > 4) throw damaged('JPEG');
        components.push({ h, v });
      }
      const height = u16(b, pos + 5);
      const width = u16(b, pos + 7);
      // Height 0 means "given later in a DNL marker": the size would not be known before decoding.
      if (!width || !height) throw damaged('JPEG');
      frame = { type: 'jpg', width, height, channels: n, bitDepth: b[pos + 4], interlaced: m === 0xc2 || m === 0xc6 || m === 0xca || m === 0xce, components, sof: m };
    }
    pos += 2 + len;
    if (m === 0xda) {
      if (!frame) throw damaged('JPEG');
      if (++scans > JPEG_MAX_SCANS) throw new ImageHeaderError('the image has too many JPEG scans (at most {{max}})', { max: JPEG_MAX_SCANS });
      // Skip the entropy-coded data: it ends at the first marker that is not a stuffed 0 or a restart.
      while (pos + 1 < b.length && !(b[pos] === 0xff && b[pos + 1] !== 0 && !(b[pos + 1] >= 0xd0 && b[pos + 1] <= 0xd7))) pos++;
    }
  }
  if (!frame || !scans) throw damaged('JPEG');
  return { ...frame, scans, decodedBytes: frame.width * frame.height * frame.channels * (frame.bitDepth > 8 ? 2 : 1) };
}

/** The header of a PNG or JPEG (the content decides, not the name). Throws ImageHeaderError. */
export function readImageHeader(bytes: Uint8Array): ImageHeader {
  const h = isPng(bytes) ? pngHeader(bytes) : isJpeg(bytes) ? jpegHeader(bytes) : null;
  if (!h) throw notImage();
  if (h.width > MAX_SIDE || h.height > MAX_SIDE) {
    throw new ImageHeaderError('the image is too large: {{width}} × {{height}} pixels', { width: h.width, height: h.height });
  }
  return h;
}

/**
 * The images of a harvested text that Typst may decode: one whose header cannot be read or asks for more
 * than IMAGE_DECODE_BUDGET_BYTES is left out (the book prints its placeholder, as for a missing image).
 */
export function imagesWithinBudget(files: Map<string, Uint8Array>): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const [name, bytes] of files) {
    if (isPng(bytes) || isJpeg(bytes)) {
      try {
        if (readImageHeader(bytes).decodedBytes > IMAGE_DECODE_BUDGET_BYTES) continue;
      } catch {
        continue;
      }
    }
    out.set(name, bytes);
  }
  return out;
}
