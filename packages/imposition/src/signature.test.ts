import { describe, expect, it } from 'vitest';
import { optimizeSignature, pageOrder, planSignatures, parseSignature } from './index.ts';
import { fixturesPresent, loadFixture } from './testing/fixtures.ts';

const present = fixturesPresent('signatures.json');
const fx = present ? loadFixture('signatures.json') : null;

describe.skipIf(!present)('signatures against the reference (signatures.json)', () => {
  it('range 50-100: small books get one signature, rounded up to 4 pages', () => {
    for (const [pages, sig] of fx.range_50_100.rows as [number, number][]) {
      expect(planSignatures(pages, 4, '50-100', true).signature, `${pages} pages`).toBe(sig);
    }
  });

  it('range 39-59: all 400 rows of the original table (signature, padded pages, blanks)', () => {
    const rows = fx.range_39_59.rows as [number, number, number, number][];
    expect(rows).toHaveLength(400);
    for (const [pages, padded, sig, blanks] of rows) {
      const r = optimizeSignature(pages, 4, { min: 39, max: 59 });
      expect([pages, r.padded, r.signature, r.padded - pages]).toEqual([pages, padded, sig, blanks]);
    }
  });

  for (const key of ['pps4', 'pps8'] as const) {
    it(`'optimized' (40-80) with ${key === 'pps4' ? 4 : 8} pages per sheet for 1..400 pages`, () => {
      const t = fx.reference_run_40_80[key];
      const schema = key === 'pps4' ? '2up' : '4up';
      for (const [pages, padded, sig, blanks] of t.rows as [number, number, number, number][]) {
        const plan = planSignatures(pages, t.pages_per_sheet, 'optimized', true);
        expect([pages, plan.padded, plan.signature, plan.padded - pages]).toEqual([pages, padded, sig, blanks]);
        if (pages % 50 === 1) {
          // the same through the public API, on the real schema
          const o = pageOrder(pages, { schema, signature: 'optimized', fillSignature: true });
          expect([o.signature, o.paddedPages, o.sides.length]).toEqual([sig, padded, padded / (key === 'pps4' ? 2 : 4)]);
        }
      }
    });
  }

  it('fixed signatures: multiples of 4 accepted for 2up, others rejected', () => {
    for (const f of fx.fixed_signature) {
      const sigs: number[] = Array.isArray(f.signature) ? f.signature : [f.signature];
      for (const s of sigs) {
        if (f.computed_signature !== undefined) expect(pageOrder(3, { schema: '2up', signature: s }).signature).toBe(f.computed_signature);
        else expect(() => pageOrder(3, { schema: '2up', signature: s })).toThrow(/not a multiple of 4/);
      }
    }
  });

  it('signatures asserted in the imposition tests (1x1 with pages per sheet)', () => {
    for (const f of fx.in_imposition_tests) {
      const o = pageOrder(f.input_pages, { schema: '1x1', pagesPerSheet: f.pages_per_sheet, signature: f.signature });
      expect(o.signature, f.source).toBe(f.computed_signature);
      if (f.total_output_pages !== undefined) expect(o.sides.length).toBe(f.total_output_pages);
    }
  });
});

describe('signature options', () => {
  it('0 is the whole book in one signature, rounded up to the pages per sheet', () => {
    expect(planSignatures(37, 4, 0, true)).toEqual({ signature: 40, sizes: [40], padded: 40 });
    expect(planSignatures(37, 8, 0, true)).toEqual({ signature: 40, sizes: [40], padded: 40 });
  });

  it("'optimized' keeps signatures within 40..80 pages for long books", () => {
    for (let pages = 81; pages <= 1000; pages += 7) {
      const p = planSignatures(pages, 4, 'optimized', true);
      expect(p.signature).toBeGreaterThanOrEqual(40);
      expect(p.signature).toBeLessThanOrEqual(80);
      expect(p.padded % p.signature).toBe(0);
      expect(p.padded).toBeGreaterThanOrEqual(pages);
    }
  });

  it('parses the option forms the book builder and the CLI send', () => {
    expect(parseSignature('16')).toBe(16);
    expect(parseSignature(0)).toBe(0);
    expect(parseSignature('optimized')).toEqual({ min: 40, max: 80 });
    expect(parseSignature('40-80')).toEqual({ min: 40, max: 80 });
    expect(parseSignature('-20')).toEqual({ max: 20 });
    expect(() => parseSignature('8-x')).toThrow(/invalid signature/);
    expect(() => parseSignature(4.5)).toThrow(/whole number/);
  });

  it('a range whose maximum is not above its minimum is an error', () => {
    expect(() => planSignatures(16, 4, '16-', true)).toThrow(/must be larger/);
    expect(planSignatures(25, 4, '-20', true).signature).toBe(4);
  });
});
