// The entry page (spec §2 "Entry page", §8 "Entry missing"): opening an entry from the results, its
// data source boxes, the full text and the PDF reader (mutually exclusive), the not-found page.
import type { Entry } from '@uc/shared';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatViolations, hasChromium, useBrowserSessions, seriousAxeViolations, waitForH1, waitUntil } from './lib/browser.ts';
import { api, apiStatus, pdfEntry, pickQueryWord, resultsHeading, search, textEntries } from './lib/demo.ts';
import { openSearch, resultsRegion, submitQuery, waitForTitles, waitForUrl } from './lib/search-page.ts';
import type { Page } from 'playwright-core';

/** The entry page's h1 starts with the title (language tags follow it). */
async function waitForEntryTitle(page: Page, title: string): Promise<void> {
  await waitForH1(page, new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`));
}

/** A data source box: a labelled article (or region) named by its library. */
function dataSourceBox(page: Page, libraryName: string) {
  return page
    .getByRole('article', { name: libraryName, exact: true })
    .or(page.getByRole('region', { name: libraryName, exact: true }))
    .first();
}

/** One box per data source, named by its library. */
async function expectDataSourceBoxes(page: Page, entry: Entry): Promise<void> {
  for (const ds of entry.data_sources) {
    const box = dataSourceBox(page, ds.library_name);
    await box.waitFor();
    expect(await box.innerText(), `the ${ds.library_name} box shows the title`).toContain(ds.title);
  }
  const libraryLinks = page.locator('main').getByRole('heading', { level: 2 }).getByRole('link');
  const names = (await libraryLinks.allInnerTexts()).map((t) => t.trim());
  expect(names, 'one box per data source, headed by its library').toEqual(entry.data_sources.map((d) => d.library_name));
}

describe.skipIf(!hasChromium)('entry page', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

  it('opens from a result card with its title and data source boxes; Back returns to the results', async () => {
    const { page } = session();
    const q = await pickQueryWord();
    const r = await search({ query: q.query });
    const first = r.matches[0];
    const entry = await api<Entry>(`/entry/${first.entry_id}`);

    await openSearch(page);
    await submitQuery(page, q.query);
    await waitForH1(page, resultsHeading(q.query, q.total));
    await waitForTitles(page, r.matches.map((m) => m.title[0].value), 'the results of the query');

    await resultsRegion(page).locator('article').first().getByRole('heading', { level: 2 }).getByRole('link').click();
    await waitForUrl(page, (u) => u.pathname === `/entry/${entry.id}`, `the path /entry/${entry.id}`);
    await waitForEntryTitle(page, entry.title);
    await expectDataSourceBoxes(page, entry);
    for (const a of entry.authors) {
      await page.getByRole('list', { name: 'Authors' }).first().getByText(a.value).first().waitFor();
    }

    await page.getByRole('button', { name: 'Back' }).click();
    await waitForUrl(page, (u) => u.pathname === '/search' && u.searchParams.get('query') === q.query, `back on /search?query=${q.query}`);
    await waitForH1(page, resultsHeading(q.query, q.total));
  });

  it('Full text shows the Muse text and hides it again', async () => {
    const { page } = session();
    const texts = await textEntries();
    expect(texts.length, 'the demo catalogue should hold at least one entry with a Muse full text').toBeGreaterThan(0);
    const t = texts[0];
    await page.goto(`/entry/${t.entry.id}`);
    await waitForEntryTitle(page, t.entry.title);

    const button = page.getByRole('button', { name: 'Full text', exact: true }).first();
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    const textHeading = page.getByRole('heading', { name: t.heading, exact: true });
    expect(await textHeading.count()).toBe(0);

    await button.click();
    await textHeading.first().waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('true');

    await button.click();
    await textHeading.first().waitFor({ state: 'hidden' });
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    // Shown again at once (kept after the first load).
    await button.click();
    await textHeading.first().waitFor();

    // Opened directly (no history): Back goes home, which redirects to the map.
    await page.getByRole('button', { name: 'Back' }).click();
    await waitForUrl(page, (u) => u.pathname === '/map', 'the home page (/map) after Back without history');
  });

  it('View PDF shows the PDF reader and closes the full text (mutually exclusive)', async (ctx) => {
    const { page } = session();
    const p = await pdfEntry();
    if (!p) {
      console.warn('[e2e] NOTICE: the demo catalogue has no entry with a PDF; the PDF reader is not tested.');
      ctx.skip();
      return;
    }
    const ds = p.entry.data_sources.find((d) => d.data_source_id === p.dataSourceId)!;
    await page.goto(`/entry/${p.entry.id}`);
    await waitForEntryTitle(page, p.entry.title);
    const box = dataSourceBox(page, ds.library_name);
    const pdfButton = box.getByRole('button', { name: 'View PDF', exact: true });
    const frame = box.locator('iframe');

    if (p.withText) {
      const t = (await textEntries()).find((x) => x.dataSourceId === p.dataSourceId)!;
      const textButton = box.getByRole('button', { name: 'Full text', exact: true });
      const textHeading = box.getByRole('heading', { name: t.heading, exact: true });
      await textButton.click();
      await textHeading.first().waitFor();

      await pdfButton.click();
      await frame.waitFor();
      await textHeading.first().waitFor({ state: 'hidden' });
      expect(await textButton.getAttribute('aria-expanded'), 'the full text closes when the PDF opens').toBe('false');
      expect(await pdfButton.getAttribute('aria-expanded')).toBe('true');

      await textButton.click();
      await textHeading.first().waitFor();
      await frame.waitFor({ state: 'detached' });
      expect(await pdfButton.getAttribute('aria-expanded'), 'the PDF closes when the full text opens').toBe('false');
      await pdfButton.click();
    } else {
      console.warn(
        `[e2e] NOTICE: no demo data source has both a full text and a PDF; the mutual exclusion of 'Full text' and ` +
          `'View PDF' is not exercised (PDF only: /entry/${p.entry.id}).`,
      );
      expect(await box.getByRole('button', { name: 'Full text', exact: true }).count()).toBe(0);
      await pdfButton.click();
    }
    await frame.waitFor();
    expect(await frame.getAttribute('title')).toMatch(/^PDF: /);
    const src = await frame.getAttribute('src');
    expect(src).toBeTruthy();
    const res = await page.request.get(src!);
    expect(res.status(), `the PDF at ${src}`).toBe(200);
    expect((await res.body()).subarray(0, 5).toString()).toBe('%PDF-');

    await pdfButton.click();
    await frame.waitFor({ state: 'detached' });
  });

  it("a missing entry says 'Sorry! We could not found this entry!'", async () => {
    const { page } = session();
    expect(await apiStatus('/entry/99999999')).toBe(404);
    await page.goto('/entry/99999999');
    await waitForH1(page, 'Sorry! We could not found this entry!');
    await page.getByText('The entry does not exist, it was deleted or it is not public any more', { exact: true }).waitFor();
  });

  it('has no serious axe violations with the full text open', async () => {
    const { page } = session();
    const texts = await textEntries();
    expect(texts.length, 'the demo catalogue should hold at least one entry with a Muse full text').toBeGreaterThan(0);
    const t = texts[0];
    await page.goto(`/entry/${t.entry.id}`);
    await waitForEntryTitle(page, t.entry.title);
    await page.getByRole('button', { name: 'Full text', exact: true }).first().click();
    await page.getByRole('heading', { name: t.heading, exact: true }).first().waitFor();
    await page.waitForLoadState('networkidle');
    const vs = await seriousAxeViolations(page);
    expect(vs.length, formatViolations(`/entry/${t.entry.id} (full text open)`, vs)).toBe(0);
  });

  it('has no serious axe violations on the not-found page', async () => {
    const { page } = session();
    await page.goto('/entry/99999999');
    await waitForH1(page, 'Sorry! We could not found this entry!');
    await waitUntil(async () => (await page.title()) !== '', 'a document title');
    const vs = await seriousAxeViolations(page);
    expect(vs.length, formatViolations('/entry/99999999', vs)).toBe(0);
  });
});
