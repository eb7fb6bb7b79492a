// The map's place search and "Near me", a marker card's entry count and holdings link, and a closed
// library's holding card (issue 32 point 9). Expectations come from the demo's API.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { LibraryPublic } from '@uc/shared';
import { foldText } from '../packages/shared/src/text.ts';
import { byDistance } from '../packages/shared/src/geo.ts';
import { hasChromium, useBrowserSessions, waitUntil } from './lib/browser.ts';
import { api, search } from './lib/demo.ts';
import { expectAxeClean } from './lib/session.ts';
import { waitForUrl } from './lib/search-page.ts';

async function libraries(): Promise<LibraryPublic[]> {
  return (await api<{ libraries: LibraryPublic[] }>('/libraries')).libraries;
}
const located = (ls: LibraryPublic[]) =>
  ls.filter((l): l is LibraryPublic & { latitude: number; longitude: number } => typeof l.latitude === 'number' && typeof l.longitude === 'number');

/** Libraries on the map: standalone markers plus the libraries inside cluster bubbles. */
function librariesOnMap(page: Page): Promise<number> {
  return page.evaluate(() => {
    const standalone = document.querySelectorAll('.leaflet-marker-pane .uc-marker').length;
    const clustered = Array.from(document.querySelectorAll('.leaflet-marker-pane .uc-cluster')).reduce(
      (s, c) => s + Number(c.querySelector('[aria-hidden="true"]')?.textContent ?? 0),
      0,
    );
    return standalone + clustered;
  });
}

/** The names listed under the map as in view. */
async function namesInView(page: Page): Promise<string[]> {
  const section = page.getByRole('region', { name: /in this view$/ });
  if ((await section.count()) === 0) return [];
  return (await section.getByRole('listitem').evaluateAll((lis) => lis.map((li) => li.querySelector('a')?.textContent ?? ''))).map((s) => s.trim());
}

describe.skipIf(!hasChromium)('the map: place search, near me, cards, closed libraries', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

  it('a place search narrows the markers and the list to the libraries of that place, from the keyboard too', async () => {
    const { page } = session();
    const all = located(await libraries());
    const fields = (l: LibraryPublic) => [l.name, l.address_line_1, l.address_line_2, l.address_zip, l.address_city, l.address_state, l.address_country, l.region];
    const inPlace = (q: string) => all.filter((l) => fields(l).some((f) => f && foldText(f).includes(foldText(q))));
    const zagreb = inPlace('Zagreb');
    expect(zagreb.length, 'the demo has a library in Zagreb').toBeGreaterThan(0);
    expect(zagreb.length).toBeLessThan(all.length);

    await page.goto('/map');
    await waitUntil(async () => (await librariesOnMap(page)) === all.length, `${all.length} libraries on the map`);
    const field = page.getByRole('searchbox', { name: 'Find libraries by place' });
    await field.fill('zagreb');
    await waitUntil(async () => (await librariesOnMap(page)) === zagreb.length, `${zagreb.length} markers for Zagreb`);
    const matches = page.getByRole('list', { name: 'Libraries matching the place' });
    expect(await matches.getByRole('listitem').count()).toBe(zagreb.length);
    expect(await page.getByRole('status').filter({ hasText: /match/ }).innerText()).toContain('“zagreb”');
    // The map zooms to the matches: the list in view names them, and only them.
    await waitUntil(async () => (await namesInView(page)).join('|') === zagreb.map((l) => l.name).sort((a, b) => a.localeCompare(b)).join('|'), 'the list in view to be the matches');

    await expectAxeClean(page, '/map with a place search');

    // Keyboard: ArrowDown moves from the field into the matches; Enter opens the library's card.
    await field.focus();
    await page.keyboard.press('ArrowDown');
    await waitUntil(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''), 'a focused match');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Show on the map: ${zagreb[0].name}`);
    await page.keyboard.press('Enter');
    const popup = page.locator('.leaflet-popup');
    await popup.getByText(zagreb[0].name, { exact: true }).waitFor();

    // A country finds its libraries; a place without one says so; Escape clears the field.
    const france = inPlace('France');
    await field.fill('France');
    await waitUntil(async () => (await librariesOnMap(page)) === france.length, `${france.length} markers for France`);
    await field.fill('Atlantis');
    await page.getByRole('status').filter({ hasText: 'No library matches “Atlantis”.' }).waitFor();
    await field.focus();
    await page.keyboard.press('Escape');
    expect(await field.inputValue()).toBe('');
    await waitUntil(async () => (await librariesOnMap(page)) === all.length, 'every library back on the map');
  });

  it('"Near me" with the position granted lists the nearest libraries by distance and zooms to them', async () => {
    const { page, context } = session();
    const here = { latitude: 45.79, longitude: 15.95 }; // just south-west of Zagreb
    await context.grantPermissions(['geolocation']);
    await context.setGeolocation(here);
    const all = located(await libraries());
    const expected = byDistance(here, all).slice(0, 5);

    await page.goto('/map');
    await waitUntil(async () => (await librariesOnMap(page)) === all.length, `${all.length} libraries on the map`);
    await page.getByRole('button', { name: 'Near me' }).click();
    const list = page.getByRole('list', { name: 'Nearest libraries' });
    await list.waitFor();
    const items = await list.getByRole('listitem').allInnerTexts();
    expect(items.map((s) => s.split(' · ')[0].trim())).toEqual(expected.map((e) => e.point.name));
    // Each with its distance, rounded to kilometres (the nearest one a few kilometres away).
    const km = items.map((s) => Number(/· ([\d,]+) km/.exec(s)?.[1].replace(/,/g, '') ?? NaN));
    expect(km).toEqual(expected.map((e) => Math.round(e.km)));
    expect(km[0]).toBeLessThan(10);
    // The view closes in on the reader: the nearest library is in view, the far ones are not.
    await waitUntil(async () => {
      const names = await namesInView(page);
      return names.includes(expected[0].point.name) && names.length < all.length;
    }, 'the view around the position');
    // The list under the map follows: nearest first.
    const names = await namesInView(page);
    const byKm = byDistance(here, all.filter((l) => names.includes(l.name))).map((e) => e.point.name);
    expect(names).toEqual(byKm);
    expect(await page.locator('.leaflet-overlay-pane path.leaflet-interactive').count(), 'the reader marked on the map').toBeGreaterThan(0);
    await expectAxeClean(page, '/map with the nearest libraries');
  });

  it('"Near me" refused says so politely', async () => {
    const { page, context } = session();
    await context.clearPermissions();
    await page.goto('/map');
    await page.locator('.leaflet-container').waitFor();
    // The browser refuses without asking (no permission granted to this context).
    await page.evaluate(() => {
      const deny = (_ok: PositionCallback, err?: PositionErrorCallback | null) =>
        err?.({ code: 1, PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3, message: 'denied' } as GeolocationPositionError);
      Object.defineProperty(navigator.geolocation, 'getCurrentPosition', { value: deny, configurable: true });
    });
    await page.getByRole('button', { name: 'Near me' }).click();
    await page.getByRole('status').filter({ hasText: 'Your browser did not share your position' }).waitFor();
    expect(await page.getByRole('list', { name: 'Nearest libraries' }).count()).toBe(0);
  });

  it("a marker's card shows the library's entry count, linked to its holdings in the search", async () => {
    const { page } = session();
    const lib = located(await libraries()).find((l) => (l.entries_count ?? 0) > 1);
    expect(lib, 'a located library with entries').toBeTruthy();
    const n = lib!.entries_count!;
    expect((await search({ query: `library:${lib!.id}` })).total_entries).toBe(n);

    await page.goto('/map');
    await page.getByRole('button', { name: `Show on the map: ${lib!.name}` }).click();
    const popup = page.locator('.leaflet-popup');
    const link = popup.getByRole('link', { name: `${n} entries in the catalogue` });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/search?query=library%3A${lib!.id}&sort_by=title_asc`);
    await link.click();
    await waitForUrl(page, (u) => u.pathname === '/search' && u.searchParams.get('query') === `library:${lib!.id}`, 'the holdings search');
    await waitUntil(async () => /found (\d+) entr/.exec(await page.getByRole('heading', { level: 1 }).first().innerText())?.[1] === String(n), `the search to find ${n} entries`);
  });

  it("a closed library's holding card says the library is closed; another library's does not", async () => {
    const { page } = session();
    const libs = await libraries();
    const closed = libs.find((l) => l.library_type === 'closed' && (l.entries_count ?? 0) > 0);
    expect(closed, 'the demo lists a closed library with entries').toBeTruthy();
    const held = await search({ query: `library:${closed!.id}` });
    // An entry with a copy elsewhere too, if there is one: both cards side by side.
    const entryId = held.matches.find((m) => m.data_sources.some((d) => d.library_id !== closed!.id))?.entry_id ?? held.matches[0].entry_id;

    await page.goto(`/entry/${entryId}`);
    const card = page.getByRole('article', { name: new RegExp(`^${closed!.name}`) });
    await card.waitFor();
    expect(await card.getByRole('heading', { level: 2 }).innerText()).toContain('Closed library');
    const others = page.getByRole('article').filter({ hasNot: page.getByText('Closed library', { exact: true }) });
    for (const other of await others.all()) {
      const name = (await other.getByRole('heading', { level: 2 }).innerText()).trim();
      const lib = libs.find((l) => l.name === name);
      if (lib) expect(lib.library_type, `${name} is not closed`).not.toBe('closed');
    }
  });
});
