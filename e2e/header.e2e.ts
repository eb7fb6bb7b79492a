// The header (issue 32 point 13): a first-time visitor finds the Book Builder in it before adding any
// text, in all six interface languages, and no header item breaks over two lines at 390 or 1366 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { baseUrl, formatViolations, hasChromium, launchBrowser, seriousAxeViolations } from './lib/browser.ts';
import { tr } from './lib/strings.ts';

const LANGS = ['en', 'de', 'el', 'fr', 'hr', 'it'] as const;


describe.skipIf(!hasChromium)('header', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(LANGS)('a fresh visitor sees the Book Builder link, and no header item wraps (%s, 390 and 1366 px)', async (lang) => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1366, height: 800 }, locale: 'en-GB' });
    try {
      await context.addInitScript((l) => window.localStorage.setItem('language', l), lang);
      const page = await context.newPage();
      await page.goto('/search');
      const nav = page.getByRole('banner').getByRole('navigation');
      const link = nav.getByRole('link', { name: tr(lang, 'Book Builder') });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe('/bookbuilder');

      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: 800 });
        // Each link, the language selector and the login button: one line of text each.
        const wrapped = await page.evaluate(() => {
          const items = Array.from(document.querySelectorAll('header nav a, header button, header label'));
          return items.filter((el) => {
            const lines = new Set(Array.from(el.getClientRects()).map((r) => Math.round(r.top)));
            const range = document.createRange();
            range.selectNodeContents(el);
            const tops = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            return lines.size > 1 || tops.size > 1;
          }).map((el) => (el.textContent ?? '').trim());
        });
        expect(wrapped, `header items over two lines at ${width} px in ${lang}`).toEqual([]);
        if (width === 1366) {
          // At desktop width the whole header is one row: the nav links share a line.
          const tops = await nav.getByRole('link').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
          expect(new Set(tops).size, `nav links on one row at 1366 px in ${lang}`).toBe(1);
          // ...and the site name, the nav, the language selector and the user area share that row.
          const rows = await page.evaluate(() => {
            const parts = Array.from(document.querySelector('header')!.firstElementChild!.children).map((e) => ({ text: (e.textContent ?? '').trim(), r: e.getBoundingClientRect() }));
            const mid = parts[1].r.top + parts[1].r.height / 2;
            return parts.filter(({ r }) => r.width > 0 && r.height > 0).filter(({ r }) => r.top > mid || r.bottom < mid).map(({ text, r }) => `${text} (${Math.round(r.width)} px wide)`);
          });
          expect(rows, `header parts below or above the nav's row at 1366 px in ${lang}`).toEqual([]);
        }
      }
      const violations = (await seriousAxeViolations(page)).filter((v) => v.nodes.some((n) => n.target.join(' ').includes('header')));
      expect(violations, formatViolations(`header in ${lang}`, violations)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
