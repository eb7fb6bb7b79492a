import type { PagerItem } from '@uc/shared';

/**
 * Pager items (spec §3): empty for a single page; otherwise First (when page 1 is not in the window),
 * Previous, the pages within ±2 of the current one, Next, and Last (when the last page is not shown).
 */
export function buildPager(current: number, total: number, pageSize: number): PagerItem[] {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return [];
  const page = Math.min(Math.max(1, current), pages);
  const from = Math.max(1, page - 2);
  const to = Math.min(pages, page + 2);
  const items: PagerItem[] = [];
  if (from > 1) items.push({ key: 'p-first-1', page_id: 1, label: 'First', current: false });
  if (page > 1) items.push({ key: `p-previous-${page - 1}`, page_id: page - 1, label: 'Previous', current: false });
  for (let p = from; p <= to; p++) items.push({ key: `p-link-${p}`, page_id: p, label: String(p), current: p === page });
  if (page < pages) items.push({ key: `p-next-${page + 1}`, page_id: page + 1, label: 'Next', current: false });
  if (to < pages) items.push({ key: `p-last-${pages}`, page_id: pages, label: 'Last', current: false });
  return items;
}
