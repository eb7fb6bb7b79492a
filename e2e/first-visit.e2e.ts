// A new browser's first page can be one that posts at once (issue 13): /bookbuilder asks for its fonts
// and running headings with two POSTs in parallel before any GET handed out a csrftoken. The client
// asks GET /collector/api/csrf first (one request for both), so nothing is refused for CSRF and the
// Fonts tab lists the fonts instead of "Loading…" forever.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasChromium, useBrowserSessions, waitForH1 } from './lib/browser.ts';

describe.skipIf(!hasChromium)('first visit', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

  it('a fresh browser opening /bookbuilder directly: one CSRF token, no refusal, the Fonts tab lists the fonts', async () => {
    const { page, context } = session();
    expect(await context.cookies(), 'a browser without cookies').toEqual([]);
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 403) refused.push(`${r.request().method()} ${r.url()}`);
    });

    await page.goto('/bookbuilder');
    await waitForH1(page, 'Book Builder');
    await page.getByRole('tab', { name: 'Fonts' }).click();
    await page.getByLabel('Main Font').waitFor();
    expect(await page.getByLabel('Main Font').locator('option').count(), 'fonts listed').toBeGreaterThan(1);
    await page.waitForLoadState('networkidle');

    expect(refused, 'requests refused (CSRF)').toEqual([]);
    expect((await context.cookies()).filter((c) => c.name === 'csrftoken'), 'one token for the browser').toHaveLength(1);
    expect(await page.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(0);
  });
});
