import { describe, expect, it } from 'vitest';
import { cropLayout, cropModuleSignatures, creepUnits, cropPassSequence, measureMm, mmToPt, pageOrder, IMPOSITION_SCHEMAS, paperSizePt, type ImpositionSchema } from './index.ts';
import { fixturesPresent, loadFixture, optionsFor, type OrderingCase } from './testing/fixtures.ts';

const present = fixturesPresent('cropmarks.json') && fixturesPresent('orderings.json');
const fx = present ? loadFixture('cropmarks.json') : null;
const orderings: OrderingCase[] = present ? loadFixture('orderings.json').cases : [];

const pt = (v: string | undefined, dflt: number): number => (v === undefined ? dflt : mmToPt(measureMm(v)!));
const flag = (v: unknown): boolean | undefined => (v === undefined ? undefined : !!v);

/** PDF::Cropmarks options of a fixture case → our layout options (module defaults: offset 3 mm, 0.1 mm paper). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function layoutFor(c: any, paperPt: [number, number]) {
  const o = c.options;
  const signatures = cropModuleSignatures(c.input_pages, o.signature ?? 0);
  const sequence = cropPassSequence(c.input_pages, signatures, !!o.cover);
  const margins = Object.fromEntries(
    (['top', 'bottom', 'inner', 'outer'] as const).filter((k) => o[k] !== undefined).map((k) => [k, !!o[k]]),
  );
  const layout = cropLayout(sequence.length, {
    pageSize: c.input_page_size,
    paperSize: paperPt,
    margins,
    twoside: flag(o.twoside) ?? true,
    signatures,
    thicknessPt: pt(o.paper_thickness, mmToPt(0.1)),
    markOffsetPt: pt(o.cropmark_offset, mmToPt(3)),
    markLengthPt: pt(o.cropmark_length, mmToPt(12)),
  });
  return { sequence, layout };
}

const close = (a: number, b: number) => Math.abs(a - b) <= 0.002;

describe.skipIf(!present)('crop marks against PDF::Cropmarks (cropmarks.json)', () => {
  it('unit conversions round like the reference', () => {
    for (const u of fx.unit_conversions) expect(mmToPt(measureMm(u.input)!), u.input).toBe(u.pt);
    for (const bad of fx.invalid_measures.values) expect(measureMm(bad)).toBeNull();
  });

  it('paper-thickness (creep) offsets of every page', () => {
    for (const c of fx.thickness) {
      if (c.expected?.error) {
        expect(() => cropModuleSignatures(c.input_pages, c.options.signature), c.id).toThrow(/multiple of 4/);
        continue;
      }
      const { layout } = layoutFor(c, [595, 842]);
      expect(layout.length, c.id).toBe(c.total_output_pages);
      if (c.offsets_pt) {
        expect(layout.map((p) => p.creep), c.id).toEqual(c.offsets_pt);
        expect(layout.map((p) => p.signature), c.id).toEqual(c.signature_number);
        expect(layout.map((p) => p.positionInSignature), c.id).toEqual(c.page_in_signature);
      }
    }
  });

  it('cover: the last page goes to the end of the padded signature, with the creep of its sheet', () => {
    for (const c of fx.cover) {
      const { sequence, layout } = layoutFor(c, c.measured.paper_pt);
      expect(sequence, c.id).toEqual(c.sequence);
      const got = layout.map((p, i) => ({ page: p.page, source_page: sequence[i], x: p.x, y: p.y, creep_pt: p.creep }));
      expect(got, c.id).toEqual(c.measured.pages.map(({ page, source_page, x, y, creep_pt }: never) => ({ page, source_page, x, y, creep_pt })));
    }
  });

  it('placement on the paper and every mark line (margins, two-sided, creep, paper sizes)', () => {
    let marksChecked = 0;
    for (const c of fx.placement) {
      const { layout } = layoutFor(c, c.measured.paper_pt);
      expect(layout.length, c.id).toBe(c.measured.output_pages);
      for (const want of c.measured.pages) {
        const got = layout[want.page - 1];
        expect([got.x, got.y, got.creep], `${c.id} page ${want.page}`).toEqual([want.x, want.y, want.creep_pt]);
        if (!want.marks) continue;
        expect(got.marks.map((m) => m.mark).sort(), `${c.id} page ${want.page}`).toEqual(want.marks.map((m: { mark: string }) => m.mark).sort());
        for (const w of want.marks) {
          const g = got.marks.find((m) => m.mark === w.mark)!;
          const ok = [0, 1].every((i) => close(g.from[i], w.from[i]) && close(g.to[i], w.to[i]));
          expect(ok, `${c.id} page ${want.page} ${w.mark}: ${JSON.stringify(g)} vs ${JSON.stringify(w)}`).toBe(true);
          marksChecked++;
        }
      }
    }
    expect(marksChecked).toBeGreaterThan(100);
  });

  it('named paper sizes match the reference to within 2 pt (PDF::API2 rounds them)', () => {
    for (const [name, size] of Object.entries(fx.paper_sizes_pt as Record<string, [number, number]>)) {
      if (name === 'provenance') continue;
      const got = paperSizePt(name)!;
      expect(Math.abs(got[0] - size[0]) < 2 && Math.abs(got[1] - size[1]) < 2, `${name}: ${got} vs ${size}`).toBe(true);
    }
  });

  it('imposition crop pass: margins, two-sided flag and crop signature per schema', () => {
    const opts = fx.imposition_crop_options;
    for (const s of IMPOSITION_SCHEMAS) {
      const o = pageOrder(20, { schema: s, cropmarks: true, signature: s === '1x1' ? 0 : undefined });
      expect(o.cropPass!.margins, s).toEqual(opts[s].margins);
      expect(o.cropPass!.twoside, s).toBe(opts[s].twoside);
      const cs = opts[s].crop_signature;
      if (typeof cs === 'number') expect(o.cropPass!.signatures.every((x) => x === cs) && o.cropPass!.signatures.length > 0, s).toBe(true);
    }
  });

  for (const c of orderings.filter((c) => c.crop_pass && (IMPOSITION_SCHEMAS as readonly string[]).includes(c.schema))) {
    it(`crop pass of ${c.id}: where each page lands on the crop paper, with creep`, () => {
      const order = pageOrder(c.input_pages, optionsFor(c));
      const cp = order.cropPass!;
      const layout = cropLayout(cp.sequence.length, {
        pageSize: c.input_page_size,
        paperSize: c.crop!.paper_size,
        margins: cp.margins,
        twoside: cp.twoside,
        signatures: cp.signatures,
        thicknessPt: c.crop_pass!.paper_thickness_pt,
      });
      expect(layout.map((p) => [p.x, p.y])).toEqual(c.crop_pass!.page_offsets);
      // creep_pt is null where the crop pass has no creep (one-sided or no signature)
      expect(layout.map((p) => p.creep)).toEqual(c.crop_pass!.creep_pt ?? layout.map(() => 0));
      expect(order.schema).toBe(c.schema as ImpositionSchema);
    });
  }
});

describe('creep', () => {
  it('a 16-page signature moves its outermost sheet by 3 thicknesses, the innermost by none', () => {
    expect(creepUnits([16])).toEqual([3, 3, 2, 2, 1, 1, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3]);
    expect(creepUnits([4, 4])).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('a 200-page whole-book 2up signature at 0.1 mm moves the outermost sheet by 4.9 mm', () => {
    const layout = cropLayout(200, { pageSize: [420, 595], paperSize: [595, 842], margins: { inner: false }, signatures: [200], thicknessPt: mmToPt(0.1) });
    expect(layout[0].creep).toBeCloseTo(49 * mmToPt(0.1), 3);
    expect(layout[0].x).toBeCloseTo(49 * 0.283, 3); // recto pushed right, away from the spine
    expect(layout[1].x).toBeCloseTo((595 - 420) - 49 * 0.283, 3); // verso pushed left
    expect(layout[99].creep).toBe(0);
  });
});
