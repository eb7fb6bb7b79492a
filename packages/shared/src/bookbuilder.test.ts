import { describe, expect, it } from 'vitest';
import {
  COLLECTION_DEFAULTS,
  bookbuilderRequestSchema,
  buildPayloadSchema,
  collectionDataSchema,
  collectionProblems,
  defaultCollectionData,
  makeCollectionDataSchema,
  parseLength,
  signatureFor,
  toBuildPayload,
} from './bookbuilder.ts';

const problems = (d: Record<string, unknown>, texts?: number) => collectionProblems(d, texts);

describe('collection_data schema', () => {
  it('fills every default of spec §3', () => {
    const d = defaultCollectionData();
    expect(d).toMatchObject(COLLECTION_DEFAULTS);
    expect(d.papersize_width).toBeUndefined();
    expect(d.areaset_width).toBeUndefined();
  });

  it('coerces form strings and flags', () => {
    const d = collectionDataSchema.parse({ fontsize: '10', twoside: '1', linespacing: '1.5', papersize: '', papersize_width: '120', papersize_height: '180', signature_2up: 16, headings: 0 });
    expect(d).toMatchObject({ fontsize: 10, twoside: true, linespacing: 1.5, papersize: 'custom', papersize_width: 120, papersize_height: 180, signature_2up: '16', headings: '0' });
  });

  it('enforces the bounds of spec §5', () => {
    expect(problems({ papersize: 'custom', papersize_width: 79, papersize_height: 501 })).toMatchObject({
      papersize_width: expect.stringContaining('at least 80'),
      papersize_height: expect.stringContaining('at most 500'),
    });
    expect(Object.keys(problems({ binding_correction: 51 }))).toEqual(['binding_correction']);
    expect(Object.keys(problems({ binding_correction: -1 }))).toEqual(['binding_correction']);
    expect(Object.keys(problems({ linespacing: 0.9 }))).toEqual(['linespacing']);
    expect(Object.keys(problems({ linespacing: 2.1 }))).toEqual(['linespacing']);
    expect(Object.keys(problems({ linespacing: 1.25 }))).toEqual(['linespacing']);
    expect(problems({ linespacing: 1.7 })).toEqual({});
    expect(Object.keys(problems({ parindent: -101 }))).toEqual(['parindent']);
    expect(problems({ parindent: -100 })).toEqual({});
    expect(Object.keys(problems({ tex_tolerance: 10001, tex_emergencystretch: -1 })).sort()).toEqual(['tex_emergencystretch', 'tex_tolerance']);
    expect(Object.keys(problems({ division_factor: 0, areaset_width: 29, areaset_height: 30 }))).toEqual(['areaset_width']);
    expect(Object.keys(problems({ division_factor: 0, areaset_width: 90, areaset_height: 150, geometry_top_margin: -1, geometry_outer_margin: 0 }))).toEqual(['geometry_top_margin']);
    expect(Object.keys(problems({ crop_paper_thickness: 0.31 }))).toEqual(['crop_paper_thickness']);
    expect(Object.keys(problems({ crop_paper_thickness: 0.105 }))).toEqual(['crop_paper_thickness']);
    expect(problems({ crop_paper_thickness: 0.29 })).toEqual({});
    expect(Object.keys(problems({ division_factor: 8 }))).toEqual(['division_factor']);
    expect(Object.keys(problems({ division_factor: 16 }))).toEqual(['division_factor']);
    expect(Object.keys(problems({ fontsize: 15 }))).toEqual(['fontsize']);
    expect(Object.keys(problems({ papersize: 'a7' }))).toEqual(['papersize']);
    expect(Object.keys(problems({ imposition_schema: '3up' }))).toEqual(['imposition_schema']);
    expect(Object.keys(problems({ signature_2up: '6', signature_4up: '12' })).sort()).toEqual(['signature_2up', 'signature_4up']);
    expect(Object.keys(problems({ mainfont: 'Evil"Font' }))).toEqual(['mainfont']);
  });

  it('asks for custom sizes, margins in pairs and the sans font ("Please set")', () => {
    expect(problems({ papersize: 'custom' })).toEqual({ papersize_width: 'Please set', papersize_height: 'Please set' });
    expect(problems({ division_factor: 0 })).toEqual({ areaset_width: 'Please set', areaset_height: 'Please set' });
    expect(problems({ division_factor: 0, areaset_width: 100, areaset_height: 160, geometry_top_margin: 10 })).toEqual({ geometry_outer_margin: 'Please set' });
    expect(problems({ division_factor: 0, areaset_width: 100, areaset_height: 160, geometry_outer_margin: 10 })).toEqual({ geometry_top_margin: 'Please set' });
    expect(problems({ division_factor: 0, areaset_width: 100, areaset_height: 160, geometry_outer_margin: 10, geometry_top_margin: 12 })).toEqual({});
    // Outside custom mode the custom dimensions do not matter.
    expect(problems({ division_factor: 12, geometry_top_margin: 10 })).toEqual({});
    expect(Object.keys(problems({ division_factor: 0, areaset_width: 150, areaset_height: 160 }))).toEqual(['areaset_width']);
    expect(problems({ sansfontsections: true, sansfont: '' })).toHaveProperty('sansfont');
    expect(problems({ sansfontsections: false, sansfont: '' })).toEqual({});
  });

  it('checks the crop paper only with crop marks and a schema', () => {
    expect(problems({ cropmarks: true, crop_papersize: 'custom' })).toEqual({});
    expect(problems({ imposition_schema: '2up', cropmarks: true, crop_papersize: 'custom' })).toEqual({ crop_papersize_width: 'Please set', crop_papersize_height: 'Please set' });
    expect(Object.keys(problems({ imposition_schema: '2up', cropmarks: true, crop_papersize: 'a6' }))).toEqual(['crop_papersize']);
    expect(problems({ imposition_schema: '2up', cropmarks: true, crop_papersize: 'a5' })).toEqual({});
  });

  it('requires the virtual header title with more than one text', () => {
    expect(problems({}, 1)).toEqual({});
    expect(problems({}, 2)).toHaveProperty('title');
    expect(problems({ title: '  ' }, 2)).toHaveProperty('title');
    expect(makeCollectionDataSchema({ texts: 2 }).safeParse({ title: 'My collection' }).success).toBe(true);
  });

  it('takes the signature by schema', () => {
    const d = { signature_2up: '16', signature_4up: '40-80' };
    expect(signatureFor('2up', d)).toBe('16');
    expect(signatureFor('duplex2up', d)).toBe('16');
    expect(signatureFor('2down', d)).toBe('16');
    expect(signatureFor('4up', d)).toBe('40-80');
    expect(signatureFor('2x4x2', d)).toBeNull();
    expect(signatureFor('', d)).toBeNull();
  });
});

describe('bookbuilder requests', () => {
  it('parses each action', () => {
    expect(bookbuilderRequestSchema.parse({ action: 'add', add: '12' })).toEqual({ action: 'add', add: 12 });
    expect(bookbuilderRequestSchema.parse({ action: 'reorder', session_id: 'abcdefghijklmnopqrstuv', move_id: 3, to_id: null })).toMatchObject({ to_id: null });
    const b = bookbuilderRequestSchema.parse({ action: 'build', session_id: 'abcdefghijklmnopqrstuv', collection_data: { fontsize: 10 } });
    expect(b.action === 'build' && b.collection_data.fontsize).toBe(10);
  });

  it('rejects unknown actions, bad ids and bad options', () => {
    expect(bookbuilderRequestSchema.safeParse({ action: 'explode' }).success).toBe(false);
    expect(bookbuilderRequestSchema.safeParse({ action: 'list', session_id: '../../etc' }).success).toBe(false);
    expect(bookbuilderRequestSchema.safeParse({ action: 'remove', remove_id: -1 }).success).toBe(false);
    expect(bookbuilderRequestSchema.safeParse({ action: 'build', collection_data: { fontsize: 20 } }).success).toBe(false);
  });
});

describe('the build payload (spec §7)', () => {
  const parse = (p: Record<string, unknown>) => buildPayloadSchema.safeParse(p);
  const issues = (p: Record<string, unknown>) => {
    const r = parse(p);
    return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
  };

  it('reads lengths with their units', () => {
    expect(parseLength('5mm', 'mm')).toBe(5);
    expect(parseLength('0.1mm', 'mm')).toBe(0.1);
    expect(parseLength('1in', 'mm')).toBe(25.4);
    expect(parseLength('2cm', 'mm')).toBe(20);
    expect(parseLength('30pt', 'pt')).toBe(30);
    expect(parseLength(12, 'mm')).toBe(12);
    expect(parseLength('12', 'pt')).toBe(12);
    expect(parseLength('', 'mm')).toBeUndefined();
    expect(parseLength('5px', 'mm')).toBeNaN();
    expect(parseLength('mm', 'mm')).toBeNaN();
  });

  it('parses the units, flags, signature and crop options into collection_data', () => {
    const d = buildPayloadSchema.parse({
      papersize: '120mm:180mm', bcor: '5mm', division: 9, areaset_width: '90mm', areaset_height: '140mm', geometry_top_margin: '12mm', geometry_outer_margin: '10mm',
      tex_emergencystretch: '15pt', twoside: 1, notoc: 1, linespacing: 1.5, imposition_schema: '4up', signature: 16, fill_signature: 1,
      crop_papersize: 'a3', crop_paper_thickness: '0.12mm', fontsize: '11',
    });
    expect(d).toMatchObject({
      papersize: 'custom', papersize_width: 120, papersize_height: 180, binding_correction: 5, division_factor: 0, areaset_width: 90, areaset_height: 140,
      geometry_top_margin: 12, geometry_outer_margin: 10, tex_emergencystretch: 15, twoside: true, notoc: true, nobold: false, linespacing: 1.5,
      imposition_schema: '4up', signature_4up: '16', fill_signature: true, cropmarks: true, crop_papersize: 'a3', crop_paper_thickness: 0.12, fontsize: 11,
    });
  });

  it('reads creep compensation (beyond the reference) as a thickness in mm, within 0 to 0.3', () => {
    expect(buildPayloadSchema.parse({ imposition_schema: '2up', creep: '0.15mm' })).toMatchObject({ creep: 0.15, cropmarks: false });
    expect(buildPayloadSchema.parse({})).toMatchObject({ creep: 0 });
    expect(buildPayloadSchema.safeParse({ creep: '0.5mm' }).success).toBe(false);
  });

  it('absent means off, single spacing, no crop marks; the division without a text block', () => {
    const d = buildPayloadSchema.parse({ papersize: 'a5', division: '12', imposition_schema: '2up', signature: '40-80' });
    expect(d).toMatchObject({ division_factor: 12, linespacing: 1, fill_signature: false, twoside: false, cropmarks: false, signature_2up: '40-80', tex_emergencystretch: 30 });
    expect(buildPayloadSchema.parse({ papersize: 'generic' }).papersize).toBe('210mm:11in');
  });

  it('refuses bad units and values, naming the payload field', () => {
    expect(issues({ bcor: '5px' })).toEqual({ bcor: 'Binding correction: a length such as "12mm" is required' });
    expect(issues({ tex_emergencystretch: 'lots' })).toHaveProperty('tex_emergencystretch');
    expect(issues({ papersize: 'a7' })).toHaveProperty('papersize');
    expect(issues({ papersize: '' })).toEqual({ papersize: expect.stringMatching(/^Please set/) });
    expect(issues({ bcor: '51mm' })).toEqual({ bcor: 'Binding correction in mm: at most 50' });
    expect(issues({ division: 16 })).toHaveProperty('division');
    expect(issues({ imposition_schema: '2up', signature: 6 })).toHaveProperty('signature');
    expect(issues({ imposition_schema: '2up', crop_papersize: '100mm:150mm', papersize: 'a5' })).toHaveProperty('crop_papersize');
    expect(issues({ twoside: 'yes' })).toHaveProperty('twoside');
    expect(issues({ areaset_width: '90mm' })).toEqual({ areaset_height: 'Please set' });
  });

  it('toBuildPayload sends what the spec\'s client sends, and it parses back', () => {
    expect(toBuildPayload(defaultCollectionData())).toEqual({
      papersize: 'a5', mainfont: 'DejaVu Serif', sansfont: 'DejaVu Sans', monofont: 'DejaVu Sans Mono', fontsize: 12, imposition_schema: '',
      bcor: '0mm', division: 12, opening: 'any', headings: '0', parindent: 15, tex_tolerance: 200, tex_emergencystretch: '30pt',
    });
    const d = {
      ...defaultCollectionData(), papersize: 'custom' as const, papersize_width: 120, papersize_height: 180, division_factor: 0, areaset_width: 90, areaset_height: 140,
      binding_correction: 5, imposition_schema: '2up' as const, signature_2up: '16', cropmarks: true, crop_papersize: 'a4' as const, crop_paper_thickness: 0.12,
      linespacing: 1.2, twoside: true, title: 'T', tex_emergencystretch: 0,
    };
    const p = toBuildPayload(d);
    expect(p).toMatchObject({ papersize: '120mm:180mm', bcor: '5mm', division: 9, areaset_width: '90mm', areaset_height: '140mm', signature: '16', fill_signature: 1, crop_papersize: 'a4', crop_paper_thickness: '0.12mm', linespacing: 1.2, twoside: 1, title: 'T', tex_emergencystretch: '0pt' });
    expect(p).not.toHaveProperty('cropmarks');
    expect(p).not.toHaveProperty('signature_2up');
    expect(buildPayloadSchema.parse(p)).toEqual(d);
  });
});
