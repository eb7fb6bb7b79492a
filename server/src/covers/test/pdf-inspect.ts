// Test-only helpers to check a generated PDF the way a print shop's preflight would:
// page sizes, fonts (embedded or not), positioned text lines and machine-readable barcodes.
// MuPDF (WASM) does the parsing and rendering, @zxing/library the barcode decoding.
//
// Coordinates: everything positional is in millimetres from the page's top-left corner, y down,
// in MuPDF's page space (the visible box, i.e. CropBox or else MediaBox, after /Rotate).
import * as mupdf from 'mupdf';
import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  GlobalHistogramBinarizer,
  HybridBinarizer,
  MultiFormatReader,
  NotFoundException,
  RGBLuminanceSource,
  type Binarizer,
} from '@zxing/library';

const MM_PER_PT = 25.4 / 72;
const toMm = (pt: number) => pt * MM_PER_PT;

export interface MmRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TextLine extends MmRect {
  text: string;
  /** Writing direction: [1, 0] left to right, [0, 1] top to bottom, [0, -1] bottom to top. */
  dir: [number, number];
}

/** Opens the PDF, hands it to `fn` and frees it afterwards. */
export function withDoc<T>(pdf: Uint8Array, fn: (doc: mupdf.PDFDocument) => T): T {
  const doc = new mupdf.PDFDocument(pdf);
  try {
    return fn(doc);
  } finally {
    doc.destroy();
  }
}

function withPage<T>(pdf: Uint8Array, index: number, fn: (page: mupdf.PDFPage) => T): T {
  return withDoc(pdf, (doc) => {
    if (index < 0 || index >= doc.countPages()) throw new RangeError(`no page ${index} (of ${doc.countPages()})`);
    const page = doc.loadPage(index);
    try {
      return fn(page);
    } finally {
      page.destroy();
    }
  });
}

/** Each page's MediaBox in millimetres (unrotated, as written in the file). */
export async function pdfPageSizesMm(pdf: Uint8Array): Promise<{ width: number; height: number }[]> {
  return withDoc(pdf, (doc) => {
    const sizes: { width: number; height: number }[] = [];
    for (let i = 0; i < doc.countPages(); i++) {
      const box = doc.findPage(i).getInheritable('MediaBox');
      const n = (k: number) => box.get(k).asNumber();
      sizes.push({ width: toMm(Math.abs(n(2) - n(0))), height: toMm(Math.abs(n(3) - n(1))) });
    }
    return sizes;
  });
}

/**
 * Every font referenced from the pages' resources (including nested form XObjects), once each.
 * `name` is the BaseFont as written (subset fonts keep their "ABCDEF+" prefix); Type0 fonts are
 * judged by their descendant font's descriptor; Type3 fonts count as embedded.
 */
export async function pdfFonts(pdf: Uint8Array): Promise<{ name: string; embedded: boolean }[]> {
  return withDoc(pdf, (doc) => {
    const fonts = new Map<string, { name: string; embedded: boolean }>();
    const seenResources = new Set<number>();

    const isEmbedded = (font: mupdf.PDFObject): boolean => {
      const subtype = font.get('Subtype').asName();
      if (subtype === 'Type3') return true;
      // Path lookups stop at a missing key and give PDFObject.Null (whose own get() throws).
      const desc: (string | number)[] = subtype === 'Type0' ? ['DescendantFonts', 0, 'FontDescriptor'] : ['FontDescriptor'];
      return ['FontFile', 'FontFile2', 'FontFile3'].some((k) => font.get(...desc, k).isStream());
    };

    const visit = (resources: mupdf.PDFObject) => {
      if (!resources.isDictionary()) return;
      if (resources.isIndirect()) {
        if (seenResources.has(resources.asIndirect())) return;
        seenResources.add(resources.asIndirect());
      }
      resources.get('Font').forEach((font, key) => {
        const name = font.get('BaseFont').isName() ? font.get('BaseFont').asName() : String(key);
        const id = font.isIndirect() ? `#${font.asIndirect()}` : `${name}`;
        if (!fonts.has(id)) fonts.set(id, { name, embedded: isEmbedded(font) });
      });
      resources.get('XObject').forEach((xobj) => {
        if (xobj.get('Subtype').asName() === 'Form') visit(xobj.get('Resources'));
      });
    };

    for (let i = 0; i < doc.countPages(); i++) visit(doc.findPage(i).getInheritable('Resources'));
    return [...fonts.values()];
  });
}

/** The text lines MuPDF extracts from a page, with their bounding boxes in mm and direction. */
export async function pdfTextLines(pdf: Uint8Array, page = 0): Promise<TextLine[]> {
  return withPage(pdf, page, (p) => {
    const [ox, oy] = p.getBounds();
    const stext = p.toStructuredText('preserve-whitespace');
    try {
      const lines: TextLine[] = [];
      let current: TextLine | null = null;
      stext.walk({
        beginLine(bbox, _wmode, dir) {
          current = {
            text: '',
            x: toMm(bbox[0] - ox),
            y: toMm(bbox[1] - oy),
            width: toMm(bbox[2] - bbox[0]),
            height: toMm(bbox[3] - bbox[1]),
            // Round away float noise such as 6e-17, and avoid -0.
            dir: [Math.round(dir[0] * 1000) / 1000 + 0, Math.round(dir[1] * 1000) / 1000 + 0],
          };
        },
        onChar(c) {
          if (current) current.text += c;
        },
        endLine() {
          if (current) lines.push(current);
          current = null;
        },
      });
      return lines;
    } finally {
      stext.destroy();
    }
  });
}

const BARCODE_FORMATS = [
  BarcodeFormat.EAN_13,
  BarcodeFormat.EAN_8,
  BarcodeFormat.UPC_A,
  BarcodeFormat.UPC_E,
  BarcodeFormat.CODE_128,
  BarcodeFormat.CODE_39,
  BarcodeFormat.QR_CODE,
  BarcodeFormat.DATA_MATRIX,
];

/** A greyscale rendering: one byte per pixel (0 black, 255 white), rows top to bottom. */
export interface GreyImage {
  luminance: Uint8ClampedArray;
  width: number;
  height: number;
}

/** Renders a page, or a region of it in mm from the top-left, in greyscale on white; null for an empty region. */
export function renderGrey(pdf: Uint8Array, opts: { page?: number; dpi?: number; region?: MmRect } = {}): GreyImage | null {
  const { page = 0, dpi = 300, region } = opts;
  const scale = dpi / 72;
  return withPage(pdf, page, (p) => {
    const [x0, y0, x1, y1] = p.getBounds();
    const r = region;
    const pt = r
      ? [r.x, r.y, r.x + r.width, r.y + r.height].map((v, i) => (i % 2 ? y0 : x0) + v / MM_PER_PT)
      : [x0, y0, x1, y1];
    // Only draw the wanted area: a pixmap covering it in device pixels, white background.
    const bbox: mupdf.Rect = [
      Math.floor(pt[0] * scale),
      Math.floor(pt[1] * scale),
      Math.ceil(pt[2] * scale),
      Math.ceil(pt[3] * scale),
    ];
    if (bbox[2] <= bbox[0] || bbox[3] <= bbox[1]) return null;
    const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, bbox, false);
    try {
      pixmap.clear(255);
      const device = new mupdf.DrawDevice(mupdf.Matrix.scale(scale, scale), pixmap);
      try {
        p.run(device, mupdf.Matrix.identity);
        device.close();
      } finally {
        device.destroy();
      }
      // getPixels() is a view into WASM memory: copy it out, dropping any row padding.
      const width = pixmap.getWidth();
      const height = pixmap.getHeight();
      const stride = pixmap.getStride();
      const src = pixmap.getPixels();
      const luminance = new Uint8ClampedArray(width * height);
      for (let y = 0; y < height; y++) luminance.set(src.subarray(y * stride, y * stride + width), y * width);
      return { luminance, width, height };
    } finally {
      pixmap.destroy();
    }
  });
}

/**
 * Renders a page (or a region of it, in mm from the top-left) in greyscale and decodes the
 * barcode on it. ZXing finds at most one barcode per call, so the result has 0 or 1 entries;
 * pass `region` to look at a particular one. 1D barcodes are only read horizontally.
 */
export async function decodeBarcodes(
  pdf: Uint8Array,
  opts: { page?: number; dpi?: number; region?: MmRect } = {},
): Promise<{ format: string; text: string }[]> {
  const image = renderGrey(pdf, opts);
  if (!image) return [];

  const source = new RGBLuminanceSource(image.luminance, image.width, image.height);
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.TRY_HARDER, true],
    [DecodeHintType.POSSIBLE_FORMATS, BARCODE_FORMATS],
  ]);
  const reader = new MultiFormatReader();
  reader.setHints(hints);
  const binarizers: ((s: RGBLuminanceSource) => Binarizer)[] = [
    (s) => new HybridBinarizer(s),
    (s) => new GlobalHistogramBinarizer(s),
  ];
  for (const binarizer of binarizers) {
    try {
      const result = reader.decodeWithState(new BinaryBitmap(binarizer(source)));
      return [{ format: BarcodeFormat[result.getBarcodeFormat()], text: result.getText() }];
    } catch (err) {
      if (!(err instanceof NotFoundException)) throw err;
    }
  }
  return [];
}
