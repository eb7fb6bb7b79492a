// Choosing parts of a text in the Book Builder (issue 31's partial selection, from the page): a demo Muse
// text with several headings, two of its parts chosen at phone width by keyboard, then an EPUB built
// that holds those parts and not the others.
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baseUrl, formatViolations, hasChromium, seriousAxeViolations, useBrowserSessions, waitForH1, waitUntil } from './lib/browser.ts';

/** The demo's "Keeping Paper Alive" (entry 577): headings "Why paper dies", "The room", "Handling", … */
const ENTRY = 577;

describe.skipIf(!hasChromium)('Book Builder parts', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

  it('chooses two parts of a text at 390 px and builds an EPUB with only those', async () => {
    const { page } = session();
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`/entry/${ENTRY}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.getByRole('button', { name: 'Add to the Book Builder' }).first().click();
    await page.getByRole('link', { name: 'Added to the Book Builder!' }).first().waitFor();
    await page.goto('/bookbuilder');
    await waitForH1(page, 'Book Builder');

    const toggle = page.getByRole('button', { name: 'Choose parts: Keeping Paper Alive' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    const group = page.getByRole('group', { name: /^Parts of / });
    await group.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const boxes = group.getByRole('checkbox');
    const labels = (await group.locator('label').allInnerTexts()).map((s) => s.trim());
    expect(labels.slice(0, 3)).toEqual(['1. Why paper dies', '2. The room', '3. Handling']);
    expect(labels.length).toBeGreaterThan(3);
    for (const b of await boxes.all()) expect(await b.isChecked()).toBe(true);
    await waitUntil(async () => page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no horizontal overflow at 390 px');
    await page.waitForLoadState('networkidle');
    const open = await seriousAxeViolations(page);
    expect(open.length, formatViolations('/bookbuilder (parts open, 390 px)', open)).toBe(0);

    await group.getByRole('button', { name: 'No parts' }).click();
    await group.getByRole('checkbox', { name: '1. Why paper dies' }).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await group.getByRole('checkbox', { name: '3. Handling' }).isChecked()).toBe(true);
    expect(await group.getByRole('checkbox', { name: '2. The room' }).isChecked()).toBe(false);
    await group.getByRole('button', { name: 'Save the parts' }).click();
    const summary = page.getByTestId('parts-summary');
    await summary.waitFor();
    expect(await summary.innerText()).toBe(`Parts 1, 3 of ${labels.length}`);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    // the choice is the session's: a reload still shows it
    await page.reload();
    await waitForH1(page, 'Book Builder');
    await page.getByTestId('parts-summary').waitFor();
    expect(await page.getByTestId('parts-summary').innerText()).toBe(`Parts 1, 3 of ${labels.length}`);

    await page.getByRole('group', { name: 'Format' }).getByRole('radio', { name: 'EPUB, for e-readers and phones' }).check();
    await page.getByRole('button', { name: 'Build' }).click();
    const download = page.getByRole('link', { name: 'Download the EPUB' });
    await download.waitFor({ timeout: 60_000 });
    const res = await fetch(new URL((await download.getAttribute('href'))!, baseUrl));
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const xhtml = Object.entries(files).filter(([n]) => n.endsWith('.xhtml')).map(([, d]) => strFromU8(d)).join('\n');
    expect(xhtml).toContain('Why paper dies');
    expect(xhtml).toContain('Wash your hands before working with old paper');
    // "The room" and what follows "Handling" are left out
    expect(xhtml).not.toContain('Keep the room as cool');
    expect(xhtml).not.toContain('Adhesive tape is the great destroyer');
  }, 120_000);
});
