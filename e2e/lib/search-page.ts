// Locators and small journeys on the search screen, by role and visible text (what a user sees).
import type { Locator, Page } from 'playwright-core';
import { waitForH1, waitUntil } from './browser.ts';

export const searchBox = (page: Page): Locator => page.getByRole('combobox', { name: 'Search the catalogue' });
export const sortSelect = (page: Page): Locator => page.getByRole('combobox', { name: 'Sort results' });
export const resultsRegion = (page: Page): Locator => page.getByRole('region', { name: 'Results' });
export const facetBox = (page: Page, title: string): Locator => page.getByRole('region', { name: title, exact: true });

/** The title links of the result cards, in order. */
export async function resultTitles(page: Page): Promise<string[]> {
  const links = resultsRegion(page).locator('article').getByRole('heading', { level: 2 }).getByRole('link');
  return (await links.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/** Waits until the result cards show exactly these titles (in order). */
export async function waitForTitles(page: Page, expected: string[], what: string): Promise<void> {
  let seen: string[] = [];
  try {
    await waitUntil(async () => {
      seen = await resultTitles(page);
      return JSON.stringify(seen) === JSON.stringify(expected);
    }, what);
  } catch {
    throw new Error(`${what}: expected the result titles ${JSON.stringify(expected)} but the page shows ${JSON.stringify(seen)}`);
  }
}

export function urlParams(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

/** Waits until the URL's query string satisfies `test`. */
export async function waitForUrl(page: Page, test: (u: URL) => boolean, what: string): Promise<URL> {
  try {
    return await waitUntil((): URL | false => {
      const u = new URL(page.url());
      return test(u) ? u : false;
    }, what);
  } catch {
    throw new Error(`Expected the URL to have ${what}, but it is ${page.url()}`);
  }
}

export async function openSearch(page: Page, qs = ''): Promise<void> {
  await page.goto(`/search${qs}`);
  await waitForH1(page, /^(All entries \(\d+\)|Search results for|Invalid query!|No result found!)/);
}

/** Types a query in the search box and presses Enter. */
export async function submitQuery(page: Page, query: string): Promise<void> {
  const box = searchBox(page);
  await box.fill(query);
  await box.press('Enter');
}

export async function sortState(page: Page): Promise<{ value: string; label: string; options: string[] }> {
  const sel = sortSelect(page);
  const value = await sel.inputValue();
  const label = (await sel.locator('option:checked').innerText()).trim();
  const options = (await sel.locator('option').allInnerTexts()).map((s) => s.trim());
  return { value, label, options };
}
