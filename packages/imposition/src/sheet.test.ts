import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { impose, mmToPt, pageOrder } from './index.ts';
import { CROP_MARK_ROOM_MM, fittingCropPaper, homePrinterPaper, sheetLayout, sheetName } from './sheet.ts';
import { numberedPdf } from './testing/pdf.ts';

const A4 = { width: 210, height: 297 };
const A5 = { width: 148, height: 210 };
const A6 = { width: 105, height: 148 };
const LETTER = { width: 215.9, height: 279.4 };

describe('the printed sheet from the page, the schema and the crop paper', () => {
  it('no schema: the page itself; with crop marks, the crop paper', () => {
    expect(sheetLayout(A5, '').sheet).toEqual(A5);
    expect(sheetLayout(A5, '', A4).sheet).toEqual(A4);
  });

  it('a 2up booklet of A5 pages comes out on landscape A4', () => {
    const { sheet, slots } = sheetLayout(A5, '2up');
    expect(sheet).toEqual({ width: 296, height: 210 });
    expect(slots).toBe(2);
    expect(sheetName(sheet)).toEqual({ name: 'a4', landscape: true });
  });

  it('crop marks on A4 paper (the old default) make the same booklet A3: 2up doubles the crop paper', () => {
    const { sheet } = sheetLayout(A5, '2up', A4);
    expect(sheet).toEqual({ width: 420, height: 297 });
    expect(sheetName(sheet)).toEqual({ name: 'a3', landscape: true });
  });

  it('4up puts four cells on a sheet, 1x8x2 eight, 2down turns its cells on their side', () => {
    expect(sheetName(sheetLayout(A6, '4up').sheet)).toEqual({ name: 'a4', landscape: false });
    expect(sheetLayout(A6, '1x8x2').sheet).toEqual({ width: 420, height: 296 });
    expect(sheetLayout(A5, '2down').sheet).toEqual({ width: 420, height: 148 });
    expect(sheetLayout(A6, '1x1', A5).sheet).toEqual(A5);
  });

  it('a Letter booklet is a Tabloid sheet; an unnamed size has no name', () => {
    expect(sheetName(sheetLayout(LETTER, '2up').sheet)).toEqual({ name: 'tabloid', landscape: true });
    expect(sheetName({ width: 200, height: 200 })).toBeNull();
  });
});

describe('the crop paper that keeps the sheet on a home printer’s paper', () => {
  it('the printer takes Letter for the North American page sizes, A4 for the others', () => {
    expect(homePrinterPaper(LETTER).name).toBe('letter');
    expect(homePrinterPaper({ width: 139.7, height: 215.9 }).name).toBe('letter');
    expect(homePrinterPaper({ width: 210, height: 279.4 }).name).toBe('letter');
    expect(homePrinterPaper(A5).name).toBe('a4');
    expect(homePrinterPaper({ width: 88, height: 115 }).name).toBe('a4');
  });

  it('A5 pages in a 2up booklet on A4: A5 crop paper, so the sheet stays A4 (no room left for the marks)', () => {
    const fit = fittingCropPaper(A5, '2up', A4);
    expect(fit).toMatchObject({ name: 'a5', paper: A5, fitsPrinter: true, room: 0 });
    expect(sheetName(sheetLayout(A5, '2up', fit.paper).sheet)?.name).toBe('a4');
  });

  it('A6 pages in a 2up booklet on A4: A5 crop paper with room for the marks, an A4 sheet', () => {
    const fit = fittingCropPaper(A6, '2up', A4);
    expect(fit).toMatchObject({ name: 'a5', fitsPrinter: true });
    expect(fit.room).toBeGreaterThanOrEqual(CROP_MARK_ROOM_MM);
    expect(sheetName(sheetLayout(A6, '2up', fit.paper).sheet)?.name).toBe('a4');
  });

  it('one page per sheet: the crop paper is the printer’s paper', () => {
    expect(fittingCropPaper(A5, '1x1', A4)).toMatchObject({ name: 'a4', fitsPrinter: true });
  });

  it('a cell that is no named paper is used as it is, in whole millimetres', () => {
    const page = { width: 120, height: 190 };
    const fit = fittingCropPaper(page, '2up', LETTER);
    // Letter landscape halves: 139.7 × 215.9 mm; Half Letter is exactly that size, so it is named
    expect(fit.name).toBe('half-letter');
    const odd = fittingCropPaper({ width: 100, height: 100 }, '4up', { width: 250, height: 250 });
    expect(odd).toMatchObject({ name: null, paper: { width: 125, height: 125 }, fitsPrinter: true });
  });

  it('A4 pages cannot be a booklet on A4: the smallest paper with room for the marks, and the sheet outgrows the printer', () => {
    const fit = fittingCropPaper(A4, '2up', A4);
    expect(fit).toMatchObject({ name: 'b4', fitsPrinter: false });
    expect(fit.room).toBeGreaterThanOrEqual(CROP_MARK_ROOM_MM);
  });
});

describe('impose() makes the sheet sheetLayout() tells', () => {
  const pt = (s: { width: number; height: number }) => [mmToPt(s.width), mmToPt(s.height)];
  it.each([
    ['2up without crop marks', '2up' as const, null],
    ['2up with A5 crop paper', '2up' as const, A5],
    ['2up with A4 crop paper', '2up' as const, A4],
    ['4up', '4up' as const, null],
    ['2down', '2down' as const, null],
  ])('%s', async (_label, schema, crop) => {
    const input = await numberedPdf(8, pt(A5) as [number, number]);
    const res = await impose(input, { schema, ...(crop ? { cropmarks: true, cropPaper: { widthMm: crop.width, heightMm: crop.height } } : {}) });
    const want = sheetLayout(A5, schema, crop).sheet;
    const doc = await PDFDocument.load(res.pdf);
    const { width, height } = doc.getPage(0).getSize();
    expect(width / (72 / 25.4)).toBeCloseTo(want.width, 1);
    expect(height / (72 / 25.4)).toBeCloseTo(want.height, 1);
    expect(res.sheets).toBe(pageOrder(8, { schema, ...(crop ? { cropmarks: true } : {}) }).sheets);
  });
});
