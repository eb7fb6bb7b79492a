// Reaching the results on a phone and by keyboard (issue 32 points 7 and 8): the filter drawer with
// "Show N results", the entry title's width at 390 px, the focus after a search and after "Add to the
// Book Builder", and the results before the facets in the Tab order.
import type { Entry, SearchResponse } from '@uc/shared';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatViolations, hasChromium, seriousAxeViolations, useBrowserSessions, waitForH1, waitUntil } from './lib/browser.ts';
import { api, pickQueryWord, resultsHeading, search } from './lib/demo.ts';
import { openSearch, resultsRegion, searchBox, waitForTitles, waitForUrl } from './lib/search-page.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

/** What has the focus: tag, id, text, and whether it is a facet checkbox or a link in a result card. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const card = el?.closest('#search-results article');
    const cards = Array.from(document.querySelectorAll('#search-results article'));
    return {
      tag: el?.tagName ?? '',
      id: el?.id ?? '',
      text: (el?.textContent ?? '').replace(/\s+/g, ' ').trim(),
      facetCheckbox: el instanceof HTMLInputElement && el.type === 'checkbox' && !!el.closest('[data-facet]'),
      resultLink: el?.tagName === 'A' && !!card,
      cardIndex: card ? cards.indexOf(card) : -1,
    };
  });
}

/** Presses Tab until `done` holds for the focused element; returns what was passed on the way. */
async function tabUntil(page: Page, done: (f: Awaited<ReturnType<typeof focused>>) => boolean, max: number, what: string) {
  const passed: Awaited<ReturnType<typeof focused>>[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (done(f)) return { reached: f, passed };
    passed.push(f);
  }
  throw new Error(`${what}: not reached within ${max} Tabs (passed ${passed.map((p) => `${p.tag} "${p.text.slice(0, 30)}"`).join(', ')})`);
}

/** The search page without a query, at this window size, once it lists all entries. */
async function openAllEntries(page: Page, size: { width: number; height: number }): Promise<SearchResponse> {
  await page.setViewportSize(size);
  const all = await search();
  await openSearch(page);
  await waitForH1(page, `All entries (${all.total_entries})`);
  return all;
}

describe.skipIf(!hasChromium)('reaching the results on a phone and by keyboard', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

  it('phone: the facets open in a drawer; "Show N results" closes it with the first result in view', async () => {
    const { page } = session();
    const all = await openAllEntries(page, PHONE);
    expect(await page.locator('[data-facet] input[type=checkbox]:visible').count(), 'no facet above the results before the drawer opens').toBe(0);

    // A dialog: the focus moves in, Escape closes it and gives the focus back to the button.
    const button = page.getByRole('button', { name: 'Filters', exact: true });
    await button.click();
    const drawer = page.getByRole('dialog', { name: 'Filters' });
    await drawer.waitFor();
    expect(await drawer.evaluate((d) => d.contains(document.activeElement)), 'the focus is in the drawer').toBe(true);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    expect(await button.evaluate((b) => b === document.activeElement), 'Escape returns the focus to the Filters button').toBe(true);

    await button.click();
    const language = drawer.getByRole('region', { name: 'Language', exact: true });
    const checkboxes = language.getByRole('checkbox');
    await checkboxes.first().waitFor();
    // A value that narrows the results (fewer entries than all).
    const labels = await language.locator('label').allInnerTexts();
    const index = labels.findIndex((l) => Number(/\((\d+)\)\s*$/.exec(l)?.[1] ?? all.total_entries) < all.total_entries);
    expect(index, 'a language value that narrows the demo results').toBeGreaterThanOrEqual(0);
    await checkboxes.nth(index).click(); // controlled by the URL: ticked once the navigation is done
    const url = await waitForUrl(page, (u) => u.searchParams.has('filter_language'), 'filter_language');
    const filtered = await search({ filter_language: url.searchParams.getAll('filter_language') });
    expect(filtered.total_entries).toBeLessThan(all.total_entries);
    // The drawer stays open for more values, and its button counts the results after the ticked one.
    const show = drawer.getByRole('button', { name: filtered.total_entries === 1 ? 'Show 1 result' : `Show ${filtered.total_entries} results` });
    await show.waitFor();
    const vs = await seriousAxeViolations(page);
    expect(vs.length, formatViolations('the filter drawer', vs)).toBe(0);
    await show.click();
    await drawer.waitFor({ state: 'detached' });
    await waitForH1(page, `All entries (${filtered.total_entries})`);
    await waitForTitles(page, filtered.matches.map((m) => m.title[0].value), 'the filtered results');

    const first = resultsRegion(page).locator('article').first().getByRole('heading', { level: 2 }).getByRole('link');
    const box = await first.boundingBox();
    expect(box, 'the first result has a box').toBeTruthy();
    expect(box!.y, 'the first result title is below the top of the window').toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height, 'the first result title is inside the window, no scrolling needed').toBeLessThanOrEqual(PHONE.height);
    expect(await page.evaluate(() => document.activeElement?.tagName), 'the focus is on the results heading').toBe('H1');
  });

  it('desktop (1366 px): the facets stay a side column left of the results, with no Filters button', async () => {
    const { page } = session();
    const all = await openAllEntries(page, DESKTOP);
    const aside = page.getByRole('complementary', { name: 'Filters' });
    await aside.getByRole('checkbox').first().waitFor();
    const a = (await aside.boundingBox())!;
    const r = (await resultsRegion(page).boundingBox())!;
    expect(a.x + a.width, 'the facets end left of the results').toBeLessThanOrEqual(r.x);
    expect(Math.abs(a.y - r.y), 'the facets and the results start at the same height').toBeLessThan(40);
    expect(await page.getByRole('button', { name: 'Filters', exact: true }).isVisible()).toBe(false);
  });

  it('phone (390 px): the entry title has the full width, the Cite and Back buttons a row of their own', async () => {
    const { page } = session();
    await page.setViewportSize(PHONE);
    // The longest title on the first result page: the one the buttons squeezed most.
    const { matches } = await search({ page_size: 50 });
    const longest = [...matches].sort((a, b) => b.title[0].value.length - a.title[0].value.length)[0];
    const entry = await api<Entry>(`/entry/${longest.entry_id}`);
    await page.goto(`/entry/${entry.id}`);
    const h1 = page.getByRole('heading', { level: 1 }).first();
    await h1.waitFor();
    await page.getByRole('button', { name: /^Cite/ }).first().waitFor();
    const { title, content } = await h1.evaluate((el) => {
      const article = el.closest('article')!;
      const cs = getComputedStyle(article);
      return {
        title: el.getBoundingClientRect().width,
        content: article.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
      };
    });
    expect(title / content, `the title "${entry.title}" is ${Math.round(title)} of ${Math.round(content)} px wide`).toBeGreaterThanOrEqual(0.9);
    const h = (await h1.boundingBox())!;
    const back = (await page.getByRole('button', { name: /Back$/ }).boundingBox())!;
    expect(back.y, 'the Back button is not beside the title').toBeGreaterThanOrEqual(h.y + h.height);
  });

  it('keyboard: Enter on a search focuses the results heading; Tab reaches the first result before any facet', async () => {
    const { page } = session();
    await page.setViewportSize(DESKTOP);
    const q = await pickQueryWord();
    await openSearch(page);
    // Keyboard only: Tab from the top of the page to the search box.
    const isBox = () => searchBox(page).evaluate((el) => el === document.activeElement);
    for (let i = 0; !(await isBox()); i++) {
      expect(i, 'Tab reaches the search box within 30 presses').toBeLessThan(30);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.type(q.query);
    await page.keyboard.press('Enter');
    await waitForH1(page, resultsHeading(q.query, q.total));
    const f = await focused(page);
    expect(f.tag, 'after a search the focus is on the results heading, not <body>').toBe('H1');
    expect(f.text).toBe(resultsHeading(q.query, q.total));

    const { reached, passed } = await tabUntil(page, (x) => x.resultLink || x.facetCheckbox, 20, 'a result link or a facet checkbox');
    expect(reached.facetCheckbox, 'a facet checkbox came before the results').toBe(false);
    expect(reached.cardIndex, 'the first link in the results is in the first card').toBe(0);
    expect(passed.length, `Tabs from the heading to the first result: ${passed.map((p) => p.text).join(' | ')}`).toBeLessThanOrEqual(15);

    // On the way, a skip link past the results leads to the facets.
    expect(passed.map((p) => p.text)).toContain('Skip to filters');
    for (let i = 0; (await focused(page)).text !== 'Skip to filters'; i++) {
      expect(i, 'Shift+Tab back to "Skip to filters"').toBeLessThan(10);
      await page.keyboard.press('Shift+Tab');
    }
    await page.keyboard.press('Enter');
    await tabUntil(page, (x) => x.facetCheckbox, 6, 'a facet checkbox after "Skip to filters"');
  });

  it('keyboard on a phone: the heading, then the Filters button, then the first result', async () => {
    const { page } = session();
    await page.setViewportSize(PHONE);
    const q = await pickQueryWord();
    await openSearch(page);
    await searchBox(page).focus();
    await page.keyboard.type(q.query);
    await page.keyboard.press('Enter');
    await waitForH1(page, resultsHeading(q.query, q.total));
    expect((await focused(page)).tag).toBe('H1');
    const { reached, passed } = await tabUntil(page, (x) => x.resultLink || x.facetCheckbox, 20, 'a result link or a facet checkbox');
    expect(reached.facetCheckbox).toBe(false);
    expect(passed.map((p) => p.text), 'the Filters button is on the way').toContain('Filters');
  });

  it('keyboard: after "Add to the Book Builder" the focus is on its replacement link, not <body>', async () => {
    const { page } = session();
    await page.setViewportSize(DESKTOP);
    let entry: Entry | undefined;
    for (let id = 577; id <= 583 && !entry; id++) {
      const e = await api<Entry>(`/entry/${id}`).catch(() => undefined);
      if (e?.data_sources.some((d) => d.can_add_to_bookbuilder)) entry = e;
    }
    expect(entry, 'a demo text that goes into the Book Builder').toBeTruthy();
    await page.goto(`/entry/${entry!.id}`);
    const add = page.getByRole('button', { name: 'Add to the Book Builder' }).first();
    await add.waitFor();
    await add.focus();
    await page.keyboard.press('Enter');
    const link = page.getByRole('link', { name: 'Added to the Book Builder!' }).first();
    await link.waitFor();
    await waitUntil(() => page.evaluate(() => document.activeElement !== document.body && document.activeElement !== null), 'the focus off <body>');
    expect(await link.evaluate((el) => el === document.activeElement), 'the focus is on "Added to the Book Builder!"').toBe(true);
  });
});
