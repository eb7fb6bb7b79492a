import { describe, expect, it } from 'vitest';
import { buildPager } from './pager.ts';

const labels = (items: ReturnType<typeof buildPager>) => items.map((i) => (i.current ? `[${i.label}]` : i.label));

describe('pager', () => {
  it('is empty for a single page', () => {
    expect(buildPager(1, 10, 10)).toEqual([]);
    expect(buildPager(1, 0, 10)).toEqual([]);
  });

  it('shows pages within two of the current one, with Previous/Next and First/Last when needed', () => {
    expect(labels(buildPager(1, 100, 10))).toEqual(['[1]', '2', '3', 'Next', 'Last']);
    expect(labels(buildPager(5, 100, 10))).toEqual(['First', 'Previous', '3', '4', '[5]', '6', '7', 'Next', 'Last']);
    expect(labels(buildPager(10, 100, 10))).toEqual(['First', 'Previous', '8', '9', '[10]']);
    expect(labels(buildPager(2, 30, 10))).toEqual(['Previous', '1', '[2]', '3', 'Next']);
  });

  it('gives each item its target page and a unique key', () => {
    const items = buildPager(5, 100, 10);
    expect(items.find((i) => i.label === 'Last')).toMatchObject({ page_id: 10, key: 'p-last-10' });
    expect(items.find((i) => i.label === 'Previous')).toMatchObject({ page_id: 4 });
    expect(new Set(items.map((i) => i.key)).size).toBe(items.length);
  });
});
