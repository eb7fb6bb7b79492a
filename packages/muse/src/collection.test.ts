// Collections: several texts under a virtual header compile into one document without clashes.
import { describe, expect, it } from 'vitest';
import { checkTypst, collectionToTypst, justificationLimits, museToTypst } from './index.ts';

const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89, 0, 0, 0, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0, 0x1f, 0, 0x05, 0x00, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

const one = '#title First Text\n#author Ann Writer\n#lang en\n#source From the first library\n\n** Chapter A\n\n#same\nText with a note.[1] See [[#same][here]].\n\n[[pic.png]]\n\n[1] The note.\n';
const two = '#title Secondo testo\n#lang it\n#notes Note del secondo\n\nPrimo paragrafo.\n\n#same\nTesto con nota.[1] Vedi [[#same][qui]].\n\n[[pic.png]]\n\n[1] La nota.\n';

describe('collectionToTypst', () => {
  it('compiles two texts with the same anchors and image names, each with its own files', () => {
    const { source, files } = collectionToTypst(
      [{ muse: one, files: new Map([['pic.png', png]]) }, { muse: two, files: new Map([['pic.png', png]]) }],
      { title: 'Our *Collection*', subtitle: 'Sub', author: 'Editors', date: '2026', notes: 'Virtual notes', source: 'Virtual source' },
    );
    expect([...files.keys()].sort()).toEqual(['t1/pic.png', 't2/pic.png']);
    expect(source).toContain('<amuse-t1-same>');
    expect(source).toContain('<amuse-t2-same>');
    expect(source).toContain('/muse-files/t1/pic.png');
    expect(source).toContain('/muse-files/t2/pic.png');
    expect(source).toContain('#set document(title: "Our Collection", author: ("Editors",), description: "Sub")');
    expect(source).toContain('#emph[Collection]');
    // both texts in the TOC at part level, the second in its own language
    expect(source.match(/#metadata\(\(level: 1, title: /g)).toHaveLength(2);
    expect(source).toContain('#[#set text(lang: "it")');
    expect(source).toContain('#museToc()');
    expect(source).toContain('From the first library');
    expect(source).toContain('Note del secondo');
    expect(source).toContain('Virtual source');
    expect(checkTypst(source, files)).toEqual([]);
  });

  it('defaults the title and honours the flags', () => {
    const plain = collectionToTypst([{ muse: one }, { muse: two }]).source;
    expect(plain).toContain('"My collection"');
    expect(plain.match(/#counter\(footnote\)\.update\(0\)/g)).toHaveLength(2);
    const flags = collectionToTypst([{ muse: one }, { muse: two }], { notoc: true, nofinalpage: true, continuefootnotes: true, twoside: true, start_with_empty_page: true }).source;
    expect(flags).not.toContain('#museToc()');
    expect(flags).not.toContain('#counter(footnote).update(0)');
    expect(flags).toContain('#museBreak("odd")');
    expect(flags).toContain('#page(header: none, footer: none)[]');
    const bodyOnly = collectionToTypst([{ muse: one }, { muse: two }], { body_only: true, title: 'Nope' }).source;
    expect(bodyOnly).not.toContain('text(size: 2em, weight: "bold")[Nope]');
    for (const s of [plain, flags, bodyOnly]) expect(checkTypst(s)).toEqual([]);
  });
});

describe('tolerance and emergency stretch', () => {
  it('map to Typst justification limits', () => {
    expect(justificationLimits(100, 0)).toEqual({ spacingMaxPct: 150, trackingMaxEm: 0 });
    expect(justificationLimits(200, 30)).toEqual({ spacingMaxPct: 163, trackingMaxEm: 0.02 });
    expect(justificationLimits(0, 60)).toEqual({ spacingMaxPct: 100, trackingMaxEm: 0.04 });
    // above 60 pt every doubling still loosens: 0.01em more
    expect(justificationLimits(0, 960).trackingMaxEm).toBe(0.08);
    expect(justificationLimits(0, 10000)).toEqual({ spacingMaxPct: 100, trackingMaxEm: 0.1138 });
    expect(justificationLimits(10000, 0).spacingMaxPct).toBeCloseTo(332.1, 1);
    const typ = museToTypst('#title t\n\nText\n', { tex_tolerance: 1000, tex_emergencystretch: '15pt' });
    expect(typ).toContain('justification-limits: (spacing: (min: 66.67%, max: 207.7%), tracking: (min: 0em, max: 0.01em))');
    expect(museToTypst('#title t\n\nText\n')).not.toContain('justification-limits');
    expect(checkTypst(typ)).toEqual([]);
  });
});
