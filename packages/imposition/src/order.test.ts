import { describe, expect, it } from 'vitest';
import { pageOrder, validateImposeOptions, IMPOSITION_SCHEMAS, ImpositionError, type ImpositionSchema } from './index.ts';
import { fixturesPresent, loadFixture, optionsFor, type OrderingCase } from './testing/fixtures.ts';

const present = fixturesPresent('orderings.json');
const cases: OrderingCase[] = present ? loadFixture('orderings.json').cases : [];
const supported = cases.filter((c) => (IMPOSITION_SCHEMAS as readonly string[]).includes(c.schema));

describe.skipIf(!present)('page order against the reference orderings (orderings.json)', () => {
  it('covers every schema with at least three cases', () => {
    for (const s of IMPOSITION_SCHEMAS) expect(supported.filter((c) => c.schema === s).length, s).toBeGreaterThanOrEqual(3);
  });

  for (const c of supported) {
    it(`${c.id} (${c.schema}, ${c.input_pages} pages${c.signature ? `, signature ${c.signature}` : ''}${c.cover ? ', cover' : ''}${c.crop ? ', crop marks' : ''})`, () => {
      const order = pageOrder(c.input_pages, optionsFor(c));
      expect(order.sides.map((s) => s.slots)).toEqual(c.expected);
      expect(order.sides.map((s) => s.rotations)).toEqual(c.rotations);
      expect(order.sides.length).toBe(c.output_pages);
      expect(order.grid).toEqual({ rows: c.grid.rows, cols: c.grid.cols });
      if (c.computed_signature !== undefined) expect(order.signature).toBe(c.computed_signature);
      if (c.padded_pages !== undefined && !c.crop) expect(order.paddedPages).toBe(c.padded_pages);
      if (c.crop_pass) {
        expect(order.cropPass?.sequence).toEqual(c.crop_pass.sequence);
        expect(order.cropPass?.twoside).toBe(c.crop_pass.twoside);
        expect(order.cropPass?.margins).toEqual(c.crop_pass.margins);
        expect(order.sides.map((s) => s.cropPages)).toEqual(c.crop_pages);
      }
    });
  }
});

describe('page order rules', () => {
  it('2up booklet: a signature of 8 prints 8|1, 2|7, 6|3, 4|5', () => {
    const o = pageOrder(8, { schema: '2up' });
    expect(o.sides.map((s) => s.slots)).toEqual([[8, 1], [2, 7], [6, 3], [4, 5]]);
    expect(o.sheets).toBe(2);
  });

  it('fillSignature pads the last signature; without it the last signature is shortened', () => {
    const filled = pageOrder(40, { schema: '2up', signature: 16, fillSignature: true });
    expect(filled.signatures).toEqual([16, 16, 16]);
    expect(filled.blanks).toBe(8);
    const short = pageOrder(40, { schema: '2up', signature: 16 });
    expect(short.signatures).toEqual([16, 16, 8]);
    expect(short.blanks).toBe(0);
    // the short last signature is itself a booklet: 40|33, 34|39, 38|35, 36|37
    expect(short.sides.slice(-4).map((s) => s.slots)).toEqual([[40, 33], [34, 39], [38, 35], [36, 37]]);
  });

  it('coverLast puts the last page on the back of the last sheet, blanks before it', () => {
    const o = pageOrder(14, { schema: '2up', signature: 0, coverLast: true });
    expect(o.sides[0].slots).toEqual([14, 1]);
    const plain = pageOrder(14, { schema: '2up', signature: 0 });
    expect(plain.sides[0].slots).toEqual([null, 1]);
  });

  it('rejects a signature that is not a multiple of the pages per sheet', () => {
    for (const s of [6, 7, 9, 11, 17]) expect(() => pageOrder(10, { schema: '2up', signature: s })).toThrow(/multiple of 4/);
    expect(() => pageOrder(10, { schema: '4up', signature: 12 })).toThrow(/multiple of 8/);
    expect(() => pageOrder(10, { schema: '4up', signature: 16 })).not.toThrow();
  });

  it('rejects unknown schemas, empty documents and bad signatures with clear errors', () => {
    expect(() => pageOrder(10, { schema: '3up' as ImpositionSchema })).toThrow(/unknown imposition schema "3up"/);
    expect(() => pageOrder(0, { schema: '2up' })).toThrow(ImpositionError);
    expect(() => pageOrder(10, { schema: '2up', signature: -4 })).toThrow(/whole number/);
    expect(() => pageOrder(10, { schema: '2up', signature: 'lots' as never })).toThrow(/invalid signature/);
  });

  it('reports a signature or cover option that the schema ignores', () => {
    expect(pageOrder(16, { schema: '2x4x2', signature: 8, coverLast: true }).ignored).toEqual(['signature', 'coverLast']);
    expect(pageOrder(16, { schema: '2up', signature: 8, coverLast: true }).ignored).toEqual([]);
  });

  it('every source page appears exactly once on every schema, with or without crop marks', () => {
    for (const schema of IMPOSITION_SCHEMAS) {
      for (const n of [1, 2, 3, 7, 16, 33, 101]) {
        for (const cropmarks of [false, true]) {
          const o = pageOrder(n, { schema, coverLast: true, cropmarks });
          const seen = o.sides.flatMap((s) => s.slots).filter((p) => p !== null).sort((a, b) => a! - b!);
          expect(seen, `${schema} ${n} ${cropmarks}`).toEqual(Array.from({ length: n }, (_, i) => i + 1));
          const cells = o.grid.rows * o.grid.cols;
          for (const s of o.sides) expect(s.slots.length).toBe(cells);
        }
      }
    }
  });

  it('validateImposeOptions checks options before a document exists (for the build form and the job queue)', () => {
    expect(() => validateImposeOptions({ schema: '2up', signature: 'optimized', coverLast: true })).not.toThrow();
    expect(() => validateImposeOptions({ schema: '2up', signature: '16-' })).not.toThrow(); // depends on the page count
    expect(() => validateImposeOptions({ schema: '2up', signature: '40-20' })).toThrow(/must be larger/);
    expect(() => validateImposeOptions({ schema: '4up', signature: 20 })).toThrow(/multiple of 8/);
    expect(() => validateImposeOptions({ schema: '2up', cropmarks: true, cropPaper: 'a4', cropPaperThicknessMm: 0.3 })).not.toThrow();
    expect(() => validateImposeOptions({ schema: '2up', cropmarks: true, cropPaper: { widthMm: 0, heightMm: 297 } })).toThrow(/unknown crop paper/);
    expect(() => validateImposeOptions({ schema: '2up', cropmarks: true, cropPaperThicknessMm: -0.1 })).toThrow(/between 0 and 1 mm/);
    expect(() => validateImposeOptions({ schema: '2up', cropPaper: 'nonsense' })).not.toThrow(); // no crop marks, not used
  });
});
