// The contents never leave one or two entries alone on a page (issue 32 point 15): set closer when that
// saves the page, and the last three entries go over a page together.
import { describe, expect, it } from 'vitest';
import * as mupdf from 'mupdf';
import { museToPdf } from './index.ts';

/** Contents entries ("Chapter number N … page") on each page that has any. */
function tocEntriesPerPage(pdf: Uint8Array): number[] {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  const out: number[] = [];
  try {
    for (let i = 0; i < doc.countPages(); i++) {
      const text = doc.loadPage(i).toStructuredText('preserve-whitespace').asText();
      const n = (text.match(/Chapter number \d+[ .]*\n?\s*\d+\s*$/gm) ?? []).length;
      // a chapter's own page holds its heading once, not followed by dots and a number
      if (/Contents/.test(text) || (out.length && /\.\s*\.\s*\./.test(text))) out.push(n);
    }
  } finally {
    doc.destroy();
  }
  return out.filter((n) => n > 0);
}

const book = (chapters: number) => {
  let src = '#title Contents test\n\n';
  for (let i = 1; i <= chapters; i++) src += `** Chapter number ${i}\n\nSome text.\n\n`;
  return src;
};

describe('contents without orphans', () => {
  // On A5 at 12 pt a page of contents holds 17 entries: 18 and 19 used to leave one and two on the next page.
  it.each([17, 18, 19, 21, 24, 42])('%i chapters: no contents page with only one or two entries', async (n) => {
    const pages = tocEntriesPerPage(await museToPdf(book(n), {}));
    expect(pages.reduce((a, b) => a + b, 0)).toBe(n);
    for (const count of pages) expect(count).toBeGreaterThanOrEqual(3);
  });

  // 18 to 22 entries used to spill onto a second page: set closer they fit on one.
  it.each([18, 22])('%i chapters: the contents are set closer and fit one page', async (n) => {
    expect(tocEntriesPerPage(await museToPdf(book(n), {}))).toEqual([n]);
  });
});
