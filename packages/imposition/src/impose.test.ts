import { describe, expect, it } from 'vitest';
import { impose, IMPOSITION_SCHEMAS, ImpositionError, measureMm, pageOrder, paperSizePt } from './index.ts';
import { fixturesPresent, loadFixture, optionsFor, type OrderingCase } from './testing/fixtures.ts';
import { inspectPdf, numberedPdf } from './testing/pdf.ts';
import { PDFArray, PDFDocument, PDFName } from 'pdf-lib';

const present = fixturesPresent('orderings.json');
const cases: OrderingCase[] = present
  ? (loadFixture('orderings.json').cases as OrderingCase[]).filter((c) => (IMPOSITION_SCHEMAS as readonly string[]).includes(c.schema))
  : [];

/** Where the origin of a page placed at (ox, oy) inside a cell lands when the cell is drawn at (x, y) rotated. */
function inCell(x: number, y: number, rotate: number, ox: number, oy: number): [number, number] {
  const r = (v: number) => Math.round(v * 1000) / 1000;
  if (rotate === 180) return [r(x - ox), r(y - oy)];
  if (rotate === 90) return [r(x - oy), r(y + ox)];
  return [r(x + ox), r(y + oy)];
}

describe.skipIf(!present)('real PDFs imposed like the reference (orderings.json placements)', () => {
  for (const c of cases) {
    it(`${c.id}: ${c.output_pages} sheet sides of ${c.output_page_size.join('×')} pt, every page where the reference puts it`, async () => {
      const input = await numberedPdf(c.input_pages, c.input_page_size);
      const res = await impose(input, {
        ...optionsFor(c),
        ...(c.crop ? { cropPaper: c.crop.paper, cropPaperThicknessMm: measureMm(c.crop.paper_thickness)! } : {}),
      });
      const pages = await inspectPdf(res.pdf);
      expect(pages.length).toBe(c.output_pages);
      expect(res.outputPages).toBe(c.output_pages);
      expect(res.pagesPerSheetSide).toBe(c.grid.rows * c.grid.cols);
      pages.forEach((p, i) => {
        expect(p.size.map((v) => Math.round(v * 1000) / 1000), `side ${i + 1} size`).toEqual(c.output_page_size);
        const want = c.placements[i]
          .filter((pl) => pl.page !== null)
          .map((pl) => {
            if (!c.crop_pass) return { page: pl.page, x: pl.x, y: pl.y, rotate: pl.rotate };
            const [ox, oy] = c.crop_pass.page_offsets[pl.crop_page! - 1];
            const [x, y] = inCell(pl.x, pl.y, pl.rotate, ox, oy);
            return { page: pl.page, x, y, rotate: pl.rotate };
          });
        expect(p.draws.map(({ page, x, y, rotate }) => ({ page, x, y, rotate })), `side ${i + 1}`).toEqual(want);
      });
    });
  }
});

describe('impose', () => {
  it('2up, signatures of 16: 40 A5 pages make 20 A4-landscape sides in booklet order, the last signature shortened', async () => {
    const res = await impose(await numberedPdf(40, [420, 595]), { schema: '2up', signature: 16 });
    expect(res.sheets).toBe(10);
    expect(res.pagesPerSheetSide).toBe(2);
    const pages = await inspectPdf(res.pdf);
    expect(pages).toHaveLength(20);
    for (const p of pages) expect(p.size).toEqual([840, 595]);
    const numbers = pages.map((p) => p.draws.map((d) => d.page));
    expect(numbers.slice(0, 8)).toEqual([[16, 1], [2, 15], [14, 3], [4, 13], [12, 5], [6, 11], [10, 7], [8, 9]]);
    expect(numbers.slice(16)).toEqual([[40, 33], [34, 39], [38, 35], [36, 37]]);
    expect(pages[0].draws.map((d) => [d.x, d.y, d.rotate])).toEqual([[0, 0, 0], [420, 0, 0]]);
  });

  it('fillSignature keeps the last signature full: blank slots instead of a shorter signature', async () => {
    const res = await impose(await numberedPdf(40, [420, 595]), { schema: '2up', signature: 16, fillSignature: true, coverLast: true });
    const pages = await inspectPdf(res.pdf);
    expect(pages).toHaveLength(24);
    // the cover back (page 40) stays the very last page: outside of the last sheet, left half
    expect(pages[16].draws.map((d) => d.page)).toEqual([40, 33]);
    expect(pages[17].draws.map((d) => d.page)).toEqual([34]);
  });

  it('crop marks: the page sits on the crop paper, the sheet grows to two crop papers, marks are drawn around each page', async () => {
    const a4 = paperSizePt('a4')!;
    const res = await impose(await numberedPdf(8, [420, 595]), { schema: '2up', cropmarks: true, cropPaper: 'a4', cropPaperThicknessMm: 0.1 });
    const pages = await inspectPdf(res.pdf);
    expect(pages).toHaveLength(4);
    expect(res.sheetSizePt).toEqual([a4[0] * 2, a4[1]]);
    for (const p of pages) expect(p.size[0]).toBeCloseTo(a4[0] * 2, 2);
    const first = pages[0];
    // page 8 (left, verso) flush against the spine on the right of its cell, page 1 flush left in the right cell,
    // the outer sheet pushed away from the spine by one paper thickness (8 pages = 2 sheets)
    const t = 0.283;
    const y = Math.round(((a4[1] - 595) / 2) * 1000) / 1000;
    expect(first.draws.map((d) => d.page)).toEqual([8, 1]);
    expect(first.draws[0].x).toBeCloseTo(a4[0] - 420 - t, 3);
    expect(first.draws[1].x).toBeCloseTo(a4[0] + t, 3);
    expect(first.draws[0].y).toBeCloseTo(y, 3);
    // the inner sheet has no shift
    expect(pages[2].draws[0].x).toBeCloseTo(a4[0] - 420, 3);
    // 11 marks per page (no middle mark at the spine) + 2 cross lines at each target
    expect(first.lines.length).toBe(2 * 11 * 3);
    const marks = first.lines.filter(([x1, y1, x2, y2]) => Math.hypot(x2 - x1, y2 - y1) > 10);
    for (const [x1, y1, x2, y2] of marks) {
      // no mark line enters the trimmed page area
      const inside = (x: number, yy: number) =>
        yy > y + 0.01 && yy < y + 595 - 0.01 && ((x > first.draws[0].x + 0.01 && x < first.draws[0].x + 420 - 0.01) || (x > first.draws[1].x + 0.01 && x < first.draws[1].x + 420 - 0.01));
      expect(inside(x1, y1) || inside(x2, y2)).toBe(false);
    }
    expect(first.texts.some((s) => s.startsWith('Pg 0008'))).toBe(true);
    expect(first.texts.some((s) => s.includes('page 1 #1/1'))).toBe(true);
  });

  it('crop paper thickness 0 switches creep off', async () => {
    const res = await impose(await numberedPdf(8, [420, 595]), { schema: '2up', cropmarks: true, cropPaper: 'a4', cropPaperThicknessMm: 0 });
    const pages = await inspectPdf(res.pdf);
    expect(pages[0].draws[1].x).toBeCloseTo(paperSizePt('a4')![0], 3);
  });

  it('creep without crop marks: outer sheets of a saddle-stitched signature move their pages by depth × thickness', async () => {
    const input = await numberedPdf(16, [420, 595]);
    const plain = await inspectPdf((await impose(input, { schema: '2up', signature: 16 })).pdf);
    const crept = await inspectPdf((await impose(input, { schema: '2up', signature: 16, creepMm: 0.2 })).pdf);
    const t = (0.2 * 72) / 25.4;
    const dx = (side: number) => crept[side].draws.map((d, i) => Math.round(((d.x - plain[side].draws[i].x) / t) * 100) / 100);
    // sheet 1 of 4 (pages 16 and 1, then 2 and 15) is 3 sheets from the middle; the middle sheet (8, 9) stays
    expect(crept[0].draws.map((d) => d.page)).toEqual([16, 1]);
    expect(dx(0)).toEqual([-3, 3]);
    expect(crept[1].draws.map((d) => d.page)).toEqual([2, 15]);
    // every page of an outer sheet moves away from the fold by the same amount
    expect(dx(1)).toEqual([-3, 3]);
    expect(dx(6)).toEqual([0, 0]);
    await expect(impose(input, { schema: '2up', creepMm: 2 })).rejects.toThrow(/creep paper thickness must be between 0 and 1 mm/);
  });

  it('2down lays the pages on their side; 4up and 1x8x2 put 4 and 8 pages on a side', async () => {
    const input = await numberedPdf(16, [100, 200]);
    const down = await inspectPdf((await impose(input, { schema: '2down' })).pdf);
    expect(down[0].size).toEqual([400, 100]);
    expect(down[0].draws.map((d) => [d.page, d.x, d.y, d.rotate])).toEqual([[16, 200, 0, 90], [1, 400, 0, 90]]);
    const four = await impose(input, { schema: '4up' });
    expect(four.pagesPerSheetSide).toBe(4);
    expect((await inspectPdf(four.pdf))[0].size).toEqual([200, 400]);
    const eight = await inspectPdf((await impose(input, { schema: '1x8x2' })).pdf);
    expect(eight).toHaveLength(2);
    expect(eight[0].size).toEqual([400, 400]);
    expect(eight[0].draws.map((d) => d.page)).toEqual([5, 12, 9, 8, 4, 13, 16, 1]);
  });

  it('keeps the title and author of the input', async () => {
    const res = await impose(await numberedPdf(4), { schema: '2up' });
    const doc = await PDFDocument.load(res.pdf);
    expect(doc.getTitle()).toBe('Numbered test book');
    expect(doc.getAuthor()).toBe('Imposition tests');
  });

  it('shows every page whether its content is one stream, several, or one stream shared with another page', async () => {
    const doc = await PDFDocument.load(await numberedPdf(4));
    const [p1, p2, p3] = doc.getPages().map((p) => p.node);
    // page 2 draws page 1's stream; page 3 gets a second stream after its own
    p2.set(PDFName.of('Contents'), p1.get(PDFName.of('Contents'))!);
    const extra = doc.context.register(doc.context.flateStream('0 0 1 1 re f'));
    const own = p3.lookup(PDFName.of('Contents'));
    p3.set(PDFName.of('Contents'), doc.context.obj([...(own instanceof PDFArray ? own.asArray() : [p3.get(PDFName.of('Contents'))!]), extra]));
    const res = await impose(await doc.save(), { schema: '2up' });
    const shown = (await inspectPdf(res.pdf)).flatMap((p) => p.draws.map((d) => d.page)).sort();
    expect(shown).toEqual([1, 1, 3, 4]);
  });

  it('fits pages of another size into the size of page 1 and says so', async () => {
    const input = await numberedPdf(4, [400, 600], { sizes: { 3: [800, 600] } });
    const res = await impose(input, { schema: '2up' });
    expect(res.warnings.join(' ')).toMatch(/differ in size/);
    const pages = await inspectPdf(res.pdf);
    const three = pages.flatMap((p) => p.draws).find((d) => d.page === 3)!;
    expect(three.scale).toBeCloseTo(0.5, 5);
  });

  it('warns when the crop paper leaves no room for the marks, or options do not apply', async () => {
    const input = await numberedPdf(4, [595.276, 841.89]);
    const res = await impose(input, { schema: '2up', cropmarks: true, cropPaper: 'a4' });
    expect(res.warnings.join(' ')).toMatch(/fall off the paper/);
    const blocks = await impose(input, { schema: '2x4x2', signature: 16 });
    expect(blocks.warnings.join(' ')).toMatch(/signature does not apply to the 2x4x2 schema/);
  });

  it('rejects unreadable input and bad options with an ImpositionError', async () => {
    const ok = await numberedPdf(2);
    await expect(impose(new Uint8Array([1, 2, 3]), { schema: '2up' })).rejects.toThrow(/cannot read the PDF/);
    await expect(impose(new Uint8Array(), { schema: '2up' })).rejects.toThrow(ImpositionError);
    await expect(impose(ok, { schema: '2up', cropmarks: true, cropPaper: 'a9x' })).rejects.toThrow(/unknown crop paper size "a9x"/);
    await expect(impose(ok, { schema: '2up', cropmarks: true, cropPaperThicknessMm: 2 })).rejects.toThrow(/between 0 and 1 mm/);
    await expect(impose(ok, { schema: '2up', signature: 6 })).rejects.toThrow(/not a multiple of 4/);
  });

  it('agrees with pageOrder on the number of sheets for every schema', async () => {
    const input = await numberedPdf(37, [100, 150]);
    for (const schema of IMPOSITION_SCHEMAS) {
      const res = await impose(input, { schema });
      const order = pageOrder(37, { schema });
      expect(res.outputPages, schema).toBe(order.sides.length);
      expect((await inspectPdf(res.pdf)).flatMap((p) => p.draws.map((d) => d.page)).sort((a, b) => a! - b!), schema).toEqual(
        Array.from({ length: 37 }, (_, i) => i + 1),
      );
    }
  });
});
