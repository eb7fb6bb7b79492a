import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import bwipjs from 'bwip-js/node';
import {
  PDFDocument,
  PDFHexString,
  PDFString,
  StandardFonts,
  beginText,
  degrees,
  endText,
  moveText,
  setFontAndSize,
  showText,
} from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { decodeBarcodes, pdfFonts, pdfPageSizesMm, pdfTextLines } from './pdf-inspect.ts';

const PT_PER_MM = 72 / 25.4;
const mm = (v: number) => v * PT_PER_MM;

/**
 * pdf-lib can only embed TrueType fonts through @pdf-lib/fontkit, which is not installed, so build an
 * embedded Type0/CIDFontType2 font by hand: the structure is what pdfFonts inspects.
 */
async function embeddedFontPdf(): Promise<Uint8Array> {
  const require = createRequire(import.meta.url);
  const ttf = readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'));
  const doc = await PDFDocument.create();
  const page = doc.addPage([mm(100), mm(50)]);
  const ctx = doc.context;
  const descriptor = ctx.register(
    ctx.obj({
      Type: 'FontDescriptor',
      FontName: 'DejaVuSans',
      Flags: 32,
      FontBBox: [-1021, -463, 1793, 1232],
      ItalicAngle: 0,
      Ascent: 928,
      Descent: -236,
      CapHeight: 729,
      StemV: 80,
      FontFile2: ctx.register(ctx.flateStream(ttf, { Length1: ttf.length })),
    }),
  );
  const cidFont = ctx.register(
    ctx.obj({
      Type: 'Font',
      Subtype: 'CIDFontType2',
      BaseFont: 'DejaVuSans',
      CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
      FontDescriptor: descriptor,
      CIDToGIDMap: 'Identity',
      DW: 600,
    }),
  );
  const type0 = ctx.register(
    ctx.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: 'DejaVuSans', Encoding: 'Identity-H', DescendantFonts: [cidFont] }),
  );
  const tag = page.node.newFontDictionary('DejaVu', type0);
  page.pushOperators(beginText(), setFontAndSize(tag, 12), moveText(mm(10), mm(30)), showText(PDFHexString.of('002400250026')), endText());
  page.drawText('Helvetica', { x: mm(10), y: mm(10), size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

async function isbnBarcodePng(): Promise<Uint8Array> {
  return bwipjs.toBuffer({ bcid: 'isbn', text: '978-0-306-40615-7', includetext: true, scale: 4 });
}

describe('pdfPageSizesMm', () => {
  it('reports each MediaBox in millimetres', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([595.28, 841.89]); // A4
    doc.addPage([mm(300), mm(200)]);
    const sizes = await pdfPageSizesMm(await doc.save());
    expect(sizes).toHaveLength(2);
    expect(sizes[0].width).toBeCloseTo(210, 1);
    expect(sizes[0].height).toBeCloseTo(297, 1);
    expect(sizes[1].width).toBeCloseTo(300, 1);
    expect(sizes[1].height).toBeCloseTo(200, 1);
  });
});

describe('pdfFonts', () => {
  it('tells embedded fonts (through Type0 descendants) from standard ones', async () => {
    const fonts = await pdfFonts(await embeddedFontPdf());
    expect(fonts).toHaveLength(2);
    expect(fonts).toContainEqual({ name: 'DejaVuSans', embedded: true });
    expect(fonts).toContainEqual({ name: 'Helvetica', embedded: false });
  });
});

describe('pdfTextLines', () => {
  it('gives positions in mm from the top-left and the writing direction', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const pageH = 200;
    const page = doc.addPage([mm(100), mm(pageH)]);
    const size = 14;
    const spine = 'SPINE TITLE';
    // Baseline starts 30 mm from the top at x = 50 mm and runs downwards.
    page.drawText(spine, { x: mm(50), y: mm(pageH - 30), size, font, rotate: degrees(-90) });
    page.drawText('Back cover', { x: mm(10), y: mm(20), size, font });

    const lines = await pdfTextLines(await doc.save());
    const vertical = lines.find((l) => l.text === spine);
    const horizontal = lines.find((l) => l.text === 'Back cover');
    expect(vertical, JSON.stringify(lines)).toBeDefined();
    expect(horizontal, JSON.stringify(lines)).toBeDefined();

    const lengthMm = font.widthOfTextAtSize(spine, size) / PT_PER_MM;
    const sizeMm = size / PT_PER_MM;
    expect(vertical!.dir).toEqual([0, 1]);
    expect(vertical!.height).toBeGreaterThan(vertical!.width);
    expect(Math.abs(vertical!.y - 30)).toBeLessThan(1);
    expect(Math.abs(vertical!.height - lengthMm)).toBeLessThan(1);
    // The box spans the font's descender..ascender across the baseline at x = 50 mm, glyph tops
    // pointing right (MuPDF reports about 50 - 0.3 em .. 50 + 1.07 em for Helvetica).
    expect(vertical!.x).toBeLessThan(50);
    expect(vertical!.x).toBeGreaterThan(50 - 0.5 * sizeMm);
    expect(vertical!.x + vertical!.width).toBeGreaterThan(50 + 0.7 * sizeMm);
    expect(vertical!.x + vertical!.width).toBeLessThan(50 + 1.3 * sizeMm);

    expect(horizontal!.dir).toEqual([1, 0]);
    expect(Math.abs(horizontal!.x - 10)).toBeLessThan(1);
    const baselineFromTop = pageH - 20;
    expect(horizontal!.y).toBeLessThan(baselineFromTop);
    expect(horizontal!.y + horizontal!.height).toBeGreaterThan(baselineFromTop);
  });
});

describe('decodeBarcodes', () => {
  // A 40 mm wide ISBN/EAN-13 at (20 mm, 30 mm) from the top-left of an A5 page.
  async function barcodePdf(): Promise<{ pdf: Uint8Array; box: { x: number; y: number; width: number; height: number } }> {
    const doc = await PDFDocument.create();
    const page = doc.addPage([mm(148), mm(210)]);
    const png = await doc.embedPng(await isbnBarcodePng());
    const width = 40;
    const height = (width * png.height) / png.width;
    const box = { x: 20, y: 30, width, height };
    page.drawImage(png, { x: mm(box.x), y: mm(210 - box.y - height), width: mm(width), height: mm(height) });
    doc.addPage([mm(148), mm(210)]).drawText('no barcode here', { x: mm(20), y: mm(150), size: 12 });
    return { pdf: await doc.save(), box };
  }

  it('finds an EAN-13 on the page, in a region around it, and nothing elsewhere', async () => {
    const { pdf, box } = await barcodePdf();
    expect(await decodeBarcodes(pdf)).toEqual([{ format: 'EAN_13', text: '9780306406157' }]);
    const around = { x: box.x - 5, y: box.y - 5, width: box.width + 10, height: box.height + 10 };
    expect(await decodeBarcodes(pdf, { region: around, dpi: 600 })).toEqual([{ format: 'EAN_13', text: '9780306406157' }]);
    expect(await decodeBarcodes(pdf, { region: { x: 80, y: 100, width: 60, height: 60 } })).toEqual([]);
    expect(await decodeBarcodes(pdf, { page: 1 })).toEqual([]);
  });
});
