// The public face around the catalogue (issue 5): the map of the libraries (offline basemap, markers,
// cards, the list in view), the library overview and details, the author search, a footer page and a
// bug report; axe-core on each screen. Expectations come from the API of the demo catalogue.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AgentsResponse, LibraryPublic, PageSummary } from '@uc/shared';
import { foldText } from '../packages/shared/src/text.ts';
import { baseUrl, hasChromium, useBrowserSessions, waitForH1, waitUntil } from './lib/browser.ts';
import { expectAxeClean } from './lib/session.ts';
import { api, resultsHeading, search } from './lib/demo.ts';
import { waitForUrl } from './lib/search-page.ts';

const TYPE_LABELS: Record<string, string> = { physical: 'Physical library', digital: 'Digital library', closed: 'Closed library' };

async function libraries(): Promise<LibraryPublic[]> {
  return (await api<{ libraries: LibraryPublic[] }>('/libraries')).libraries;
}

const located = (ls: LibraryPublic[]) => ls.filter((l) => typeof l.latitude === 'number' && typeof l.longitude === 'number');

/** Every request leaving the local server (the map must make none). */
function watchExternalRequests(page: Page): string[] {
  const local = new URL(baseUrl).host;
  const external: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if ((u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'ws:' || u.protocol === 'wss:') && u.host !== local) {
      external.push(r.url());
    }
  });
  return external;
}


/** Libraries on the map: standalone markers plus the libraries inside cluster bubbles. */
async function librariesOnMap(page: Page): Promise<number> {
  return page.evaluate(() => {
    const standalone = document.querySelectorAll('.leaflet-marker-pane .uc-marker').length;
    const clustered = Array.from(document.querySelectorAll('.leaflet-marker-pane .uc-cluster')).reduce(
      (s, c) => s + Number(c.querySelector('[aria-hidden="true"]')?.textContent ?? 0),
      0,
    );
    return standalone + clustered;
  });
}

/** The '<n> libraries in this view' heading's number. */
async function inViewCount(page: Page): Promise<number> {
  const text = await page.getByRole('heading', { level: 2, name: /in this view$/ }).innerText();
  return Number(/^(\d+)/.exec(text)?.[1] ?? NaN);
}

const mailDir = inject('mailDir');
/** Every message the test SMTP server has received so far. */
function receivedMail(): string[] {
  return fs.readdirSync(mailDir).map((f) => fs.readFileSync(path.join(mailDir, f), 'utf8'));
}

describe.skipIf(!hasChromium)('map, libraries, authors, pages and bug reports', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

  it('the map draws every located library with no request leaving the server; a marker opens its card', async () => {
    const { page } = session();
    const external = watchExternalRequests(page);
    const libs = located(await libraries());
    expect(libs.length, 'the demo has libraries with coordinates').toBeGreaterThan(1);

    await page.goto('/map');
    await page.getByRole('heading', { level: 2, name: 'Map of the libraries' }).waitFor();
    const map = page.getByRole('region', { name: 'Map of the libraries' });
    // The built-in basemap: Natural Earth countries as vector paths, no tile images.
    await map.locator('.leaflet-overlay-pane path').first().waitFor();
    expect(await map.locator('img.leaflet-tile').count()).toBe(0);
    await waitUntil(async () => (await librariesOnMap(page)) === libs.length, `${libs.length} libraries on the map`);
    // The first view fits them all, so the list under the map names them all.
    await waitUntil(async () => (await inViewCount(page)) === libs.length, `the list to show ${libs.length} libraries in view`);

    // Mouse: a standalone marker opens its short card.
    const marker = map.locator('.uc-marker').first();
    const label = (await marker.locator('.uc-sr-only').innerText()).trim();
    const lib = libs.find((l) => label.startsWith(`${l.name} (`));
    expect(lib, `a library named by the marker "${label}"`).toBeTruthy();
    await marker.click();
    const popup = map.locator('.leaflet-popup');
    await popup.getByText(lib!.name, { exact: true }).waitFor();
    expect(await popup.innerText()).toContain(TYPE_LABELS[lib!.library_type] ?? lib!.library_type);
    const details = popup.getByRole('link', { name: 'Library details' });
    expect(await details.getAttribute('href')).toBe(`/library/details/${lib!.id}`);
    await page.keyboard.press('Escape');
    await popup.waitFor({ state: 'detached' });

    // Keyboard: markers are focusable buttons; Enter opens the card and moves the focus into it.
    await marker.focus();
    expect(await marker.getAttribute('role')).toBe('button');
    await page.keyboard.press('Enter');
    await popup.getByRole('link', { name: 'Library details' }).waitFor();
    await waitUntil(() => page.evaluate(() => document.activeElement?.textContent === 'Library details'), 'the focus on the card link');

    await page.waitForLoadState('networkidle');
    await expectAxeClean(page, '/map with a card open');

    // Zooming into a cluster narrows the list to the libraries in view.
    await page.keyboard.press('Escape');
    const cluster = map.locator('.uc-cluster').first();
    if ((await cluster.count()) > 0) {
      // A cluster is a button too: Enter zooms into it.
      await cluster.focus();
      await page.keyboard.press('Enter');
      await waitUntil(async () => (await inViewCount(page)) < libs.length, 'the list to follow the zoom');
    }
    expect(external, `requests left the server: ${external.join(', ')}`).toEqual([]);

    // The card's link leads to the library's page.
    await page.goto('/map');
    await map.locator('.uc-marker').first().waitFor();
    await page.getByRole('button', { name: `Show on the map: ${lib!.name}` }).click();
    await popup.getByRole('link', { name: 'Library details' }).click();
    await waitForUrl(page, (u) => u.pathname === `/library/details/${lib!.id}`, `the path /library/details/${lib!.id}`);
    await waitForH1(page, lib!.name);
    // And back: the library page shows it on the map, its card open.
    await page.getByRole('link', { name: 'Show on the map' }).click();
    await waitForUrl(page, (u) => u.pathname === '/map' && u.searchParams.get('show') === String(lib!.id), `/map?show=${lib!.id}`);
    await popup.getByText(lib!.name, { exact: true }).waitFor();
    expect(external, `requests left the server: ${external.join(', ')}`).toEqual([]);
  });

  it('the home page: search box, counts, latest additions, the map with its legend; favicon; axe clean', async () => {
    const { page } = session();
    const hydrateWarnings: string[] = [];
    page.on('console', (m) => {
      if (/HydrateFallback/.test(m.text())) hydrateWarnings.push(m.text());
    });
    const libs = await libraries();
    const latest = await search({ sort_by: 'datestamp', page_size: 5 });
    expect(latest.matches.length, 'the demo has entries').toBeGreaterThan(0);
    const languages = latest.facets.language.values.filter((v) => v.count > 0).length;

    await page.goto('/');
    await waitForUrl(page, (u) => u.pathname === '/map', 'the home page /map');
    const box = page.getByRole('combobox', { name: 'Search the catalogue' });
    await box.waitFor();
    // The counts: libraries, entries and languages, as the API gives them.
    const numbers = page.getByRole('region', { name: 'The catalogue in numbers' });
    const expected = [libs.length, latest.total_entries, languages].map((n) => n.toLocaleString('en'));
    await waitUntil(async () => JSON.stringify(await numbers.locator('dd').allInnerTexts()) === JSON.stringify(expected), `the counts ${expected}`);
    // The latest additions, newest first, each linked to its entry.
    const additions = page.getByRole('region', { name: 'Latest additions' });
    await additions.getByRole('listitem').first().waitFor();
    const links = additions.getByRole('list').getByRole('link');
    expect(await links.count()).toBe(latest.matches.length);
    for (const [i, m] of latest.matches.entries()) {
      expect(await links.nth(i).getAttribute('href')).toBe(`/entry/${m.entry_id}`);
      expect(await links.nth(i).innerText()).toContain(m.title[0].value);
    }
    // The map stays, with a legend of its markers; the keyboard help is folded away.
    await page.getByRole('region', { name: 'Map of the libraries' }).locator('.leaflet-overlay-pane path').first().waitFor();
    const legend = page.getByRole('region', { name: 'Map legend' });
    for (const label of Object.values(TYPE_LABELS)) await legend.getByText(label, { exact: true }).waitFor();
    expect(await page.locator('details', { hasText: 'Using the map with the keyboard' }).getAttribute('open')).toBeNull();
    await page.waitForLoadState('networkidle');
    await expectAxeClean(page, 'the home page');

    // Searching from the home page opens the search.
    await box.fill('anarchy');
    await box.press('Enter');
    await waitForUrl(page, (u) => u.pathname === '/search' && u.searchParams.get('query') === 'anarchy', '/search?query=anarchy');

    // The favicon: SVG linked from the page, /favicon.ico answered too.
    expect(await page.locator('link[rel="icon"][type="image/svg+xml"]').getAttribute('href')).toBe('/favicon.svg');
    for (const [file, type] of [['/favicon.svg', 'image/svg+xml'], ['/favicon.ico', 'image/']] as const) {
      const res = await page.request.get(file);
      expect(res.status(), file).toBe(200);
      expect(res.headers()['content-type'], file).toContain(type);
    }

    // A direct load of a lazily loaded page: no react-router warning about a missing HydrateFallback.
    await page.goto('/library');
    await waitForH1(page, /./);
    expect(hydrateWarnings).toEqual([]);
  });

  it('a library page with a place shows it on a small map', async () => {
    const { page } = session();
    const lib = located(await libraries())[0];
    await page.goto(`/library/details/${lib.id}`);
    await waitForH1(page, lib.name);
    const map = page.getByRole('region', { name: `Location of ${lib.name}` });
    await map.locator('.uc-marker').first().waitFor();
    expect(await map.locator('.uc-marker').count()).toBe(1);
    expect(await map.locator('img.leaflet-tile').count()).toBe(0);
    await page.waitForLoadState('networkidle');
    await expectAxeClean(page, 'a library page with its map');

    // Leaving the page while the map is still zooming must not throw in the page (the hooks check).
    await map.getByRole('button', { name: 'Zoom in' }).click();
    await map.locator('.leaflet-zoom-anim').waitFor({ state: 'attached' });
    await page.getByRole('link', { name: 'Libraries', exact: true }).first().click();
    await waitForH1(page, 'Libraries');
    await page.waitForTimeout(400);
  });

  it('the search links to a map of the libraries holding the results, with their counts', async () => {
    const { page } = session();
    const external = watchExternalRequests(page);
    const all = await search();
    const holders = all.facets.library.values.filter((v) => v.count > 0);
    const lib = located(await libraries()).find((l) => holders.some((h) => h.id === String(l.id)));
    expect(lib, 'a located library holding entries').toBeTruthy();
    const query = `library:${lib!.id}`;
    const r = await search({ query });
    await page.goto(`/search?query=${encodeURIComponent(query)}`);
    await waitForH1(page, resultsHeading(r.pretty_query || query, r.total_entries));
    await page.getByRole('link', { name: 'Show these libraries on the map' }).click();
    await waitForUrl(page, (u) => u.pathname === '/map' && u.searchParams.get('query') === query, `/map?query=${query}`);
    await waitForH1(page, 'Libraries holding these results');
    const count = r.facets.library.values.find((v) => v.id === String(lib!.id))!.count;
    await page.getByRole('link', { name: count === 1 ? '1 entry found here' : `${count} entries found here` }).first().waitFor();
    await waitUntil(async () => (await librariesOnMap(page)) >= 1, 'a marker');
    expect(external).toEqual([]);
  });

  it('the library overview filters accent- and case-insensitively; details lead to the entries', async () => {
    const { page } = session();
    const libs = await libraries();
    await page.goto('/library');
    await waitForH1(page, 'Libraries');
    const cards = page.locator('main article');
    await waitUntil(async () => (await cards.count()) === libs.length, `${libs.length} library cards`);
    expect(await page.getByRole('link', { name: 'Add your library or archive' }).getAttribute('href')).toBe('/contact');
    await expectAxeClean(page, '/library');

    // A name word with diacritics, typed without them and in capitals.
    const word = libs
      .flatMap((l) => l.name.split(/[^\p{L}]+/u))
      .find((w) => w.length >= 5 && foldText(w) !== w.toLowerCase());
    expect(word, 'a library name with an accented word').toBeTruthy();
    const typed = foldText(word!).toUpperCase();
    const expected = libs
      .filter((l) =>
        [...Object.values(l).filter((v): v is string => typeof v === 'string'), TYPE_LABELS[l.library_type] ?? '']
          .some((s) => foldText(s).includes(foldText(typed))),
      )
      .map((l) => l.name)
      .sort();
    await page.getByRole('searchbox', { name: 'Filter the libraries' }).fill(typed);
    await waitUntil(async () => (await cards.count()) === expected.length, `${expected.length} cards for "${typed}"`);
    const names = (await cards.getByRole('heading', { level: 2 }).allInnerTexts()).map((s) => s.trim()).sort();
    expect(names).toEqual(expected);

    // Details of a library whose catalogue is accessible, then its entries.
    const lib = libs.find((l) => l.catalog_is_accessible && (l.entries_count ?? 1) > 0)!;
    await page.goto(`/library/details/${lib.id}`);
    await waitForH1(page, lib.name);
    if (lib.pgp_public_key) await page.getByRole('button', { name: 'Copy the key' }).waitFor();
    await expectAxeClean(page, `/library/details/${lib.id}`);
    const query = `library:${lib.id}`;
    const r = await search({ query, sort_by: 'title_asc' });
    await page.getByRole('link', { name: 'See the library entries' }).click();
    await waitForUrl(
      page,
      (u) => u.pathname === '/search' && u.searchParams.get('query') === query && u.searchParams.get('sort_by') === 'title_asc',
      `/search?query=${query}&sort_by=title_asc`,
    );
    await waitForH1(page, resultsHeading(r.pretty_query || query, r.total_entries));
  });

  it('the author search: Please search, the heading with the entries, See all entries', async () => {
    const { page } = session();
    const all = await search();
    const name = all.facets.creator.values[0].term;
    const word = name.split(/\s+/).sort((a, b) => b.length - a.length)[0];
    const found = await api<AgentsResponse>(`/agents?search=${encodeURIComponent(word)}`);
    expect(found.agents.length, `authors matching ${word}`).toBeGreaterThan(0);

    await page.goto('/agent');
    await waitForH1(page, 'Authors');
    await page.getByText('Please search').waitFor();
    await page.getByRole('searchbox', { name: 'Search authors' }).fill(word);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForUrl(page, (u) => u.pathname === '/agent' && u.searchParams.get('search') === word, `/agent?search=${word}`);
    await waitForH1(page, `Authors matching “${word}” (${found.matches} ${found.matches === 1 ? 'entry' : 'entries'})`);
    const first = found.agents[0];
    const card = page.getByRole('article', { name: first.name, exact: true }).first();
    await card.waitFor();
    await expectAxeClean(page, `/agent?search=${word}`);

    await card.getByRole('link', { name: /See all entries/ }).click();
    const query = `creator:${first.search_link_id}`;
    await waitForUrl(page, (u) => u.pathname === '/search' && u.searchParams.get('query') === query, `/search?query=${query}`);
    const r = await search({ query, sort_by: 'title_asc' });
    await waitForH1(page, resultsHeading(r.pretty_query || query, r.total_entries));
  });

  it('a footer page opens from the footer; the header links the libraries and the authors', async () => {
    const { page } = session();
    const { pages } = await api<{ pages: PageSummary[] }>('/pages/footer/en');
    expect(pages.length, 'the demo seeds footer pages').toBeGreaterThan(0);
    await page.goto('/library');
    await waitForH1(page, 'Libraries');
    await page.getByRole('contentinfo').getByRole('link', { name: new RegExp(`^${pages[0].title}`) }).click();
    await waitForUrl(page, (u) => u.pathname === `/page/${pages[0].id}`, `/page/${pages[0].id}`);
    await waitForH1(page, pages[0].title);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Authors' }).click();
    await waitForH1(page, 'Authors');
    await nav.getByRole('link', { name: 'Libraries' }).click();
    await waitForH1(page, 'Libraries');
  });

  it("a bug report: Send appears with sender and message, then 'Report Sent', and the mail reaches the SMTP server", async () => {
    const { page } = session();
    await page.goto('/library');
    await waitForH1(page, 'Libraries');
    const footer = page.getByRole('contentinfo');
    await footer.getByRole('button', { name: 'Bug Report' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report a bug to the site administrators' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Page:').inputValue()).toBe(`${baseUrl}/library`);
    expect(await dialog.getByRole('button', { name: 'Send' }).count()).toBe(0);
    await expectAxeClean(page, 'the bug report dialog');

    await dialog.getByLabel('From:').fill('reader@example.org');
    expect(await dialog.getByRole('button', { name: 'Send' }).count()).toBe(0);
    await dialog.getByLabel('Message').fill('The e2e test reports a harmless bug.');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.getByText('Report Sent!').waitFor();
    await dialog.getByRole('button', { name: 'Report Sent' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await footer.getByRole('button', { name: 'Report Sent' }).waitFor();

    // The site mailed it to its contact address through the real SMTP server of the test run.
    const general = await api<{ contact_email: string }>('/general');
    const mail = await waitUntil(() => receivedMail().find((m) => m.includes('The e2e test reports a harmless bug.')), 'the bug report in the SMTP server');
    expect(mail).toContain(`X-Envelope-To: ${general.contact_email}`);
    expect(mail).toContain(`${baseUrl}/library`);
    expect(mail).toMatch(/Reply-To: reader@example\.org/i);
  });
});
