// A captioned table longer than a page (the manual's "The query language at a glance" on a small page):
// every row is printed once, on its own line, and nothing is drawn over the caption (issue 32 point 4).
import { describe, expect, it } from 'vitest';
import { museToPdf } from '@uc/muse';
import { pdfPageSizesMm, pdfTextLines, type TextLine } from '../covers/test/pdf-inspect.ts';

const overlaps = (a: TextLine, b: TextLine) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('a captioned table longer than a page', () => {
  it('breaks across pages with its caption clear of every row', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => ` =term${i}= | entries found by term number ${i}`).join('\n');
    const pdf = await museToPdf(`#title Manual\n\nBefore.\n\n |+ The query language at a glance +|\n What you type || What it finds\n${rows}\n\nAfter.\n`);
    const pages = (await pdfPageSizesMm(pdf)).length;
    const lines: { page: number; line: TextLine }[] = [];
    for (let p = 0; p < pages; p++) for (const line of await pdfTextLines(pdf, p)) lines.push({ page: p, line });
    const caption = lines.find((l) => l.line.text.includes('at a glance'))!;
    expect(caption).toBeDefined();
    const seen = new Map<number, { page: number; y: number }>();
    for (const { page, line } of lines) {
      const m = /term(\d+)/.exec(line.text);
      if (!m) continue;
      expect(page === caption.page && overlaps(line, caption.line), `row ${m[1]} over the caption`).toBe(false);
      seen.set(Number(m[1]), { page, y: line.y });
    }
    expect(seen.size).toBe(60);
    // rows in order, each lower than the one before on its page (none piled at the page's foot)
    for (let i = 1; i < 60; i++) {
      const [a, b] = [seen.get(i - 1)!, seen.get(i)!];
      expect(b.page > a.page || (b.page === a.page && b.y > a.y + 1), `row ${i} after row ${i - 1}`).toBe(true);
    }
    // the caption heads the table
    expect(caption.page).toBeLessThanOrEqual(seen.get(0)!.page);
    if (caption.page === seen.get(0)!.page) expect(caption.line.y).toBeLessThan(seen.get(0)!.y);
  });
});
