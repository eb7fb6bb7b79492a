import { describe, expect, it } from 'vitest';
import { defaultCollectionData, type CollectionData } from '@uc/shared';
import { autoCropPaper, estimatePages, sheetInfo, sheetLabel, sheetsFor } from './sheet';
import { BOOKBUILDER_STORAGE_KEY, useBookBuilder } from './store';

const data = (o: Partial<CollectionData>): CollectionData => ({ ...defaultCollectionData(), ...o });

describe('the sheet the Book Builder tells before a build', () => {
  it('a 2up booklet of A5 pages: A4, which the home printer takes', () => {
    const info = sheetInfo(data({ imposition_schema: '2up' }))!;
    expect(info).toMatchObject({ name: 'a4', imposed: true, printer: { name: 'a4', fits: true }, crop: null });
    expect(info.sheet).toEqual({ width: 296, height: 210 });
    expect(sheetLabel(info.name!)).toBe('A4');
  });

  it('with crop marks on A4 paper it grows to A3, larger than the printer takes', () => {
    const info = sheetInfo(data({ imposition_schema: '2up', cropmarks: true, crop_papersize: 'a4' }))!;
    expect(info).toMatchObject({ name: 'a3', printer: { fits: false }, crop: { marksFit: true } });
  });

  it('the fitted crop paper keeps it A4 (A5 crop paper: no room for the marks, said)', () => {
    const d = data({ imposition_schema: '2up', cropmarks: true });
    const crop = autoCropPaper(d)!;
    expect(crop.crop_papersize).toBe('a5');
    const info = sheetInfo({ ...d, ...crop })!;
    expect(info).toMatchObject({ name: 'a4', printer: { fits: true }, crop: { roomMm: 0, marksFit: false } });
  });

  it('Letter-sized pages are fitted to Letter paper; Half Letter is the spec value 5.5in:8.5in', () => {
    expect(autoCropPaper(data({ papersize: '4.25in:5.5in', imposition_schema: '2up' }))?.crop_papersize).toBe('5.5in:8.5in');
    expect(sheetInfo(data({ papersize: 'letter', imposition_schema: '2up' }))).toMatchObject({ name: 'tabloid', printer: { name: 'letter', fits: false } });
  });

  it('a custom page that is incomplete has no sheet yet', () => {
    expect(sheetInfo(data({ papersize: 'custom' }))).toBeNull();
  });

  it('sheets: the last build’s pages through the schema, or half the pages without one', () => {
    expect(sheetsFor(10, data({ imposition_schema: '2up' }))).toBe(3);
    expect(sheetsFor(10, data({ imposition_schema: '' }))).toBe(5);
  });

  it('the estimate grows with the texts and shrinks with larger pages', () => {
    const a5 = estimatePages(100_000, 1, data({}))!;
    expect(a5).toBeGreaterThan(40);
    expect(a5).toBeLessThan(120);
    expect(estimatePages(100_000, 1, data({ papersize: 'a4' }))!).toBeLessThan(a5);
    expect(estimatePages(0, 0, data({}))).toBeNull();
  });
});

describe('a Book Builder state stored before the crop paper followed the printer', () => {
  const rehydrate = async (collection_data: Partial<CollectionData>) => {
    localStorage.setItem(BOOKBUILDER_STORAGE_KEY, JSON.stringify({ state: { session_id: null, collection_data }, version: 1 }));
    await useBookBuilder.persist.rehydrate();
    return useBookBuilder.getState();
  };

  it('keeps a crop paper the user chose, and fits the old default a4 to the printer', async () => {
    expect((await rehydrate({ cropmarks: true, crop_papersize: 'b5' })).crop_paper_auto).toBe(false);
    expect((await rehydrate({ cropmarks: true, crop_papersize: 'a4' })).crop_paper_auto).toBe(true);
    expect((await rehydrate({ cropmarks: false })).crop_paper_auto).toBe(true);
  });

  it('creep on when a creep was stored; the web app’s chapter option starts at auto', async () => {
    const s = await rehydrate({ creep: 0.12 });
    expect(s.creep_on).toBe(true);
    expect(s.collection_data.chapter_newpage).toBe('auto');
  });
});
