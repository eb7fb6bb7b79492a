// Curation in the browser (spec §2 right column, §4 merge box, §8 messages; docs/curation.md), on the
// demo's records for curators: the curator merges two authors by drag and two by keyboard only, merges
// two entries, sets a translation, builds an aggregation, omits a library and restores it, and undoes a
// merge from the change log. axe finds nothing serious on each screen. Every change is undone at the end,
// so the other files see the demo as it was.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { ChangesResponse, Entry, SearchResponse } from '@uc/shared';
import { baseUrl, hasChromium, launchBrowser, newSession, useBrowserSessions, waitForH1, waitUntil } from './lib/browser.ts';
import { expectAxeClean, pageApi, sessionCookies } from './lib/session.ts';

const { curator } = inject('users');

const box = (page: Page, kind: string) => page.locator(`section[data-box="${kind}"]`);
const card = (page: Page, entryId: number) => page.locator('article').filter({ has: page.locator(`a[href="/entry/${entryId}"]`) }).first();
const DONE = 'Done: the catalogue shows the change now. The change log keeps it, and can undo it.';

async function openSearch(page: Page, query: string): Promise<void> {
  await page.goto(`${baseUrl}/search?${new URLSearchParams({ query })}`);
  await waitForH1(page, /Search results for/);
  await box(page, 'merge-authors').waitFor();
}

/**
 * Keyboard only: focus the item's 'Add to merge box' button (facets, author pages) or, in a result card,
 * its 'Curate' menu button; open the menu and choose the box.
 */
async function addByKeyboard(page: Page, scope: ReturnType<Page['locator']>, name: string, boxLabel: string): Promise<void> {
  const direct = scope.getByRole('button', { name: `Add to merge box: “${name}”` });
  const inCard = (await direct.count()) === 0;
  const wanted = inCard ? `Add “${name}” to ${boxLabel}` : boxLabel;
  await (inCard ? scope.getByRole('button', { name: /^Curate “/ }) : direct).first().focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await menu.waitFor();
  for (let i = 0; i < 12; i++) {
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim());
    if (focused === wanted) break;
    await page.keyboard.press('ArrowDown');
  }
  expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe(wanted);
  await page.keyboard.press('Enter');
  await menu.waitFor({ state: 'detached' });
}

async function pressButton(page: Page, scope: ReturnType<Page['locator']>, name: string): Promise<void> {
  await scope.getByRole('button', { name, exact: true }).focus();
  await page.keyboard.press('Enter');
}

const agentId = async (page: Page, name: string) => {
  const r = await pageApi<{ agents: { id: number; name: string }[] }>(page, 'GET', `/agents?${new URLSearchParams({ search: name })}`);
  const a = r.body.agents.find((x) => x.name === name);
  expect(a, `author ${name}`).toBeTruthy();
  return a!.id;
};

describe.skipIf(!hasChromium)('curation', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });
  let cookies: Awaited<ReturnType<typeof sessionCookies>>;
  beforeAll(async () => {
    cookies = await sessionCookies(curator.username, curator.password);
  });
  /** Logs the test's browser in as the curator (one login serves the whole file). */
  const login = (page: Page) => page.context().addCookies(cookies);

  afterAll(async () => {
    // Undo what this file changed, newest first, so the next files see the demo unchanged.
    const browser = await launchBrowser();
    try {
      const { page, context } = await newSession(browser);
      await login(page);
      const { body } = await pageApi<ChangesResponse>(page, 'GET', '/changes');
      for (const c of body.changes) {
        if (c.username === curator.username && c.can_undo && !c.undoes && !c.operation.includes('exclusion')) await pageApi(page, 'POST', `/changes/${c.id}/undo`);
      }
      await context.close();
    } finally {
      await browser.close();
    }
  });

  it('merges two authors by dragging them onto the box', async () => {
    const { page } = session();
    await login(page);
    await openSearch(page, 'bakunin');
    await expectAxeClean(page, 'search page with merge boxes');
    const target = box(page, 'merge-authors');
    await page.locator('article li', { hasText: 'Mikhail Bakunin' }).first().locator('[data-drag-handle]').dragTo(target);
    await page.locator('article li', { hasText: 'Michail Bakunin' }).first().locator('[data-drag-handle]').dragTo(target);
    await expect.poll(() => target.textContent()).toContain('Michail Bakunin');
    await target.getByRole('button', { name: 'Merge', exact: true }).click();
    await target.getByText(DONE).waitFor();
    // The next search already shows one author.
    const alias = await agentId(page, 'Michail Bakunin');
    const agent = await pageApi<{ agent: { canonical: { name: string } | null } }>(page, 'GET', `/agents/${alias}`);
    expect(agent.body.agent.canonical?.name).toBe('Mikhail Bakunin');
    await waitUntil(async () => (await page.locator('article li', { hasText: 'Michail Bakunin' }).count()) === 0, 'the alias to vanish from the cards');
    // On a phone the boxes stack under the results without widening the page.
    await page.setViewportSize({ width: 390, height: 800 });
    await box(page, 'merge-authors').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('merges two authors with the keyboard only', async () => {
    const { page } = session();
    await login(page);
    await openSearch(page, 'malatesta');
    const results = page.locator('main');
    // A result card has one curation menu, not a button per author and per box (issue 32).
    const cards = results.locator('article');
    await cards.first().waitFor();
    expect(await cards.getByRole('button', { name: /^Add to merge box|^Omit/ }).count()).toBe(0);
    expect(await cards.getByRole('button', { name: /^Curate “/ }).count()).toBe(await cards.count());
    await addByKeyboard(page, results, 'Errico Malatesta', 'Merge authors');
    await page.getByText('“Errico Malatesta” added to Merge authors').first().waitFor();
    await addByKeyboard(page, results, 'Malatesta, Errico', 'Merge authors');
    const target = box(page, 'merge-authors');
    await pressButton(page, target, 'Merge');
    await target.getByText(DONE).waitFor();
    const alias = await agentId(page, 'Malatesta, Errico');
    expect((await pageApi<{ agent: { canonical: { name: string } | null } }>(page, 'GET', `/agents/${alias}`)).body.agent.canonical?.name).toBe('Errico Malatesta');
  });

  it('merges two entries, sets a translation and builds an aggregation', async () => {
    const { page } = session();
    await login(page);
    // Entries: "Mutual Aid: A Factor of Evolution" (588) is the same work as "Mutual Aid" (135).
    await openSearch(page, '"mutual aid"');
    await addByKeyboard(page, card(page, 135), 'Mutual Aid', 'Merge entries');
    await addByKeyboard(page, card(page, 588), 'Mutual Aid: A Factor of Evolution', 'Merge entries');
    await pressButton(page, box(page, 'merge-entries'), 'Merge');
    await box(page, 'merge-entries').getByText(DONE).waitFor();
    await page.goto(`${baseUrl}/entry/588`);
    await page.waitForURL(/\/entry\/135$/);

    // Translation: "Così parlò Zarathustra" (593) of "Also sprach Zarathustra" (313).
    await openSearch(page, 'zarathustra');
    await addByKeyboard(page, card(page, 313), 'Also sprach Zarathustra', 'Set translations');
    await addByKeyboard(page, card(page, 593), 'Così parlò Zarathustra', 'Set translations');
    await pressButton(page, box(page, 'translations'), 'Set translations');
    await box(page, 'translations').getByText(DONE).waitFor();
    expect((await pageApi<Entry>(page, 'GET', '/entry/593')).body.original_entry?.id).toBe(313);

    // Aggregation: the Mother Earth issue (594) holds two of its articles, in the given order.
    await openSearch(page, '"mother earth" OR comstockery OR "without government"');
    await addByKeyboard(page, card(page, 594), 'Mother Earth', 'Set aggregations');
    await addByKeyboard(page, card(page, 597), 'Comstockery', 'Set aggregations');
    await addByKeyboard(page, card(page, 596), 'Without Government', 'Set aggregations');
    const agg = box(page, 'aggregations');
    await agg.getByLabel('Position (issue, article number)').first().fill('9');
    await agg.getByLabel('Position (issue, article number)').nth(1).fill('6');
    await expectAxeClean(page, 'aggregation box with items');
    await pressButton(page, agg, 'Set aggregation');
    await agg.getByText(DONE).waitFor();
    const issue = (await pageApi<Entry>(page, 'GET', '/entry/594')).body;
    expect(issue.aggregated.map((e) => e.title[0].value)).toEqual(['Without Government', 'Comstockery']);
  });

  it('shows a curated aggregation (no copy of its own) on its entry page, to any reader', async () => {
    const { page } = session();
    await login(page);
    const made = await pageApi<{ created: { id: number } }>(page, 'POST', '/create/aggregation', { value: 'Essays on Freedom (e2e)' });
    const id = made.body.created.id;
    expect((await pageApi<{ error: string | null }>(page, 'POST', '/set-aggregated', [{ id }, { id: 596 }])).body.error).toBeNull();
    // An anonymous reader: the page holds the title and its part, not "could not found".
    const anon = await page.context().browser()!.newContext({ baseURL: baseUrl });
    try {
      const p = await anon.newPage();
      await p.goto(`${baseUrl}/entry/${id}`);
      await waitForH1(p, /^Essays on Freedom \(e2e\)/);
      await p.getByRole('heading', { level: 2, name: 'Contains:' }).waitFor();
      await p.locator('main').getByRole('link', { name: /Without Government/ }).first().waitFor();
      expect(await p.getByText('Sorry! We could not found this entry!').count()).toBe(0);
    } finally {
      await anon.close();
    }
  });

  it('omits a library from the curator’s own searches and restores it', async () => {
    const { page } = session();
    await login(page);
    const count = async () => (await pageApi<SearchResponse>(page, 'GET', '/search?query=library:19')).body.total_entries;
    const before = await count();
    await openSearch(page, 'library:19');
    await page.getByRole('button', { name: /^Omit Library: / }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // 'Omit' appears only once a reason is given (spec §5).
    expect(await dialog.getByRole('button', { name: 'Omit', exact: true }).count()).toBe(0);
    await dialog.getByLabel('Reason').fill('Not my region');
    await expectAxeClean(page, 'omit dialog');
    await dialog.getByRole('button', { name: 'Omit', exact: true }).click();
    await page.getByText('Hidden from your searches. You can restore it in My Exclusions.').waitFor();
    const after = await count();
    expect(after).toBeLessThan(before);
    // Other visitors still see everything.
    const anonymous = await (await fetch(`${baseUrl}/collector/api/search?query=library:19`)).json() as SearchResponse;
    expect(anonymous.total_entries).toBe(before);

    await page.goto(`${baseUrl}/exclusions`);
    await waitForH1(page, 'My Exclusions');
    await expectAxeClean(page, 'my exclusions');
    await page.getByRole('button', { name: /^Restore “/ }).click();
    await page.getByText('Nothing to show!').waitFor();
    expect(await count()).toBe(before);
  });

  it('opens the change log and undoes a merge', async () => {
    const { page } = session();
    await login(page);
    const alias = await agentId(page, 'Michail Bakunin');
    await page.goto(`${baseUrl}/changes?${new URLSearchParams({ operation: 'add-merge-agent' })}`);
    await waitForH1(page, 'Change log');
    const entry = page.locator('li', { hasText: 'Merged into it: Michail Bakunin' }).first();
    await entry.waitFor();
    await expectAxeClean(page, 'change log');
    await entry.getByRole('button', { name: /^Undo #\d+/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Undo', exact: true }).click();
    await waitUntil(async () => (await pageApi<{ agent: { canonical: { name: string } | null } }>(page, 'GET', `/agents/${alias}`)).body.agent.canonical === null, 'the merge to be undone');
    await page.getByText(/Undone by #\d+/).first().waitFor();
  });
});
