// The admin area in the browser (issue 6, spec §2 /admin): a superuser renames the site in Settings and
// sees it in the header, creates and publishes a footer page and finds it in the footer; a reader is told
// that the area is not for them. axe-core on every section. Logs in twice (login is rate limited per address).
// The server is shared with the other files: the site name is restored at once and the page is removed.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { hasChromium, useBrowserSessions, waitForH1, waitUntil } from './lib/browser.ts';
import { apiLogin, expectAxeClean } from './lib/session.ts';

const users = inject('users');


/** A JSON call made by the logged-in page (for cleanup). */
function pageCall(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  return page.evaluate(async ({ method, url, body }) => {
    const token = document.cookie.split(/;\s*/).find((c) => c.startsWith('csrftoken='))?.slice('csrftoken='.length) ?? '';
    const headers: Record<string, string> = { 'X-CSRFToken': decodeURIComponent(token) };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`/collector/api${url}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  }, { method, url, body });
}

const sections = (page: Page) => page.getByRole('navigation', { name: 'Admin sections' });
/**
 * The reader of the second test: a plain account the superuser creates through the admin API (the run's
 * `users.reader` changes its password in account.e2e.ts, which may run at the same time).
 */
const plainReader = { username: `e2e-admin-reader-${process.pid}`, password: 'e2e plain reader password' };

describe.skipIf(!hasChromium)('admin area', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

  it('a superuser renames the site, publishes a footer page, and every section passes axe', async () => {
    const { page } = session();
    await apiLogin(page, users.superuser.username, users.superuser.password);
    await page.goto('/', { waitUntil: 'networkidle' }); // pageCall runs in the page
    const created = await pageCall(page, 'POST', '/admin/users', { ...plainReader, email: 'plain-reader@e2e.example.org' });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    await page.goto('/admin');
    await waitForH1(page, 'Admin');
    await page.getByRole('table', { name: 'Libraries' }).waitFor();
    await expectAxeClean(page, '/admin (Libraries)');
    await page.getByRole('button', { name: 'Add a library' }).click();
    await page.getByRole('form', { name: 'New library' }).waitFor();
    await expectAxeClean(page, '/admin library form');

    for (const [name, ready] of [['Users', 'table'], ['Outbox', 'nav-or-empty'], ['Pages', 'table']] as const) {
      await sections(page).getByRole('link', { name }).click();
      await page.getByRole('heading', { level: 2, name }).waitFor();
      if (ready === 'table') await page.getByRole('table', { name }).waitFor();
      else await waitUntil(async () => (await page.getByRole('table', { name: 'Outbox' }).count()) > 0 || (await page.getByText('The outbox is empty.').count()) > 0, 'the outbox');
      await expectAxeClean(page, `/admin (${name})`);
    }

    // Settings: the new site name reaches the header at once; it is restored right after (shared server).
    const original = ((await pageCall(page, 'GET', '/admin/settings')).json as { settings: { site_name: string } }).settings.site_name;
    const renamed = `${original} (admin e2e ${Date.now() % 100000})`;
    try {
      await sections(page).getByRole('link', { name: 'General settings' }).click();
      const siteName = page.getByLabel('Site name');
      await siteName.waitFor();
      await expectAxeClean(page, '/admin (General settings)');
      await siteName.fill(renamed);
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('The settings were saved').waitFor();
      await page.getByRole('banner').getByRole('link', { name: renamed, exact: true }).waitFor();
    } finally {
      expect((await pageCall(page, 'PUT', '/admin/settings', { site_name: original })).status).toBe(200);
    }

    // Pages: a published footer page (last in the footer order) shows in the footer and opens.
    const title = `Admin e2e page ${Date.now() % 100000}`;
    let pageId: number | undefined;
    try {
      await sections(page).getByRole('link', { name: 'Pages' }).click();
      await page.getByRole('button', { name: 'Add a page' }).click();
      const form = page.getByRole('form', { name: 'New page' });
      await form.getByLabel('Title').fill(title);
      await form.getByLabel('Summary').fill('Written by the admin e2e test');
      await form.getByLabel('Content (HTML)').fill('<p>Hello from <strong>the admin</strong><script>window.pwned = 1</script></p>');
      await form.getByLabel('Language').selectOption('en');
      await form.getByLabel('Location').selectOption('footer');
      await form.getByLabel('Order').fill('9999');
      await form.getByLabel('Published').check();
      await expectAxeClean(page, '/admin page editor');
      await form.getByRole('button', { name: 'Save page' }).click();
      await page.getByRole('cell', { name: title, exact: true }).waitFor();
      const list = (await pageCall(page, 'GET', '/admin/pages')).json as { pages: { id: number; title: string }[] };
      pageId = list.pages.find((p) => p.title === title)?.id;
      expect(pageId).toBeTruthy();

      await page.goto('/library');
      await waitForH1(page, 'Libraries');
      const link = page.getByRole('contentinfo').getByRole('link', { name: new RegExp(`^${title}`) });
      await link.click();
      await waitForH1(page, title);
      await page.getByText('Hello from').waitFor();
      expect(await page.locator('article script').count(), 'the script was removed by the server').toBe(0);
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    } finally {
      if (pageId) expect((await pageCall(page, 'DELETE', `/admin/pages/${pageId}`)).status).toBe(200);
    }
  });

  it('creating says what happened and where focus is; a new library is private and gets its place from a map click; the password rule shows before saving', async () => {
    const { page } = session();
    await apiLogin(page, users.superuser.username, users.superuser.password);
    await page.goto('/admin');
    await page.getByRole('table', { name: 'Libraries' }).waitFor();
    await page.getByRole('button', { name: 'Add a library' }).click();
    const form = page.getByRole('form', { name: 'New library' });
    expect(await form.getByRole('checkbox', { name: 'Public', exact: true }).isChecked(), 'a new library starts private').toBe(false);
    const name = `E2E new library ${process.pid}`;
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByRole('button', { name: 'Save' }).click();
    const note = page.getByRole('status').filter({ hasText: `The library “${name}” was created. It stays private` });
    await note.waitFor();
    await waitUntil(async () => (await note.evaluate((n) => n === document.activeElement || n.contains(document.activeElement))), 'focus on the message');
    let libraryId: number | undefined;
    try {
      await note.getByRole('link', { name: 'Address and map of the new library' }).click();
      await waitForH1(page, new RegExp(`^Administration of ${name}`));
      libraryId = Number(/\/library\/admin\/(\d+)/.exec(page.url())![1]);
      await page.getByText('This library is not on the map yet').waitFor();
      // A click in the middle of the world map sets both fields.
      const map = page.getByRole('group', { name: 'Place on the map' }).locator('.leaflet-container');
      await map.waitFor();
      const box = (await map.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await waitUntil(async () => (await page.getByLabel('Latitude').inputValue()) !== '', 'the latitude from the click');
      const lat = Number(await page.getByLabel('Latitude').inputValue());
      const lng = Number(await page.getByLabel('Longitude').inputValue());
      expect(Math.abs(lat)).toBeLessThanOrEqual(90);
      expect(Math.abs(lng)).toBeLessThanOrEqual(180);
      await page.getByText('Click the map or drag the pin').waitFor();
      await page.getByLabel('Internal e-mail').fill('new-library@e2e.example.org');
      await page.getByRole('button', { name: 'Update library' }).click();
      await page.getByText('The library was updated').waitFor();
      const saved = (await pageCall(page, 'GET', '/admin/libraries')).json as { libraries: { id: number; latitude: number | null; public: boolean }[] };
      expect(saved.libraries.find((l) => l.id === libraryId)).toMatchObject({ latitude: lat, public: false });

      // A new user: the password rule is shown before anything is sent.
      await page.goto('/admin?section=users');
      await page.getByRole('button', { name: 'Add a user' }).click();
      const userForm = page.getByRole('form', { name: 'New user' });
      const password = userForm.getByLabel('Password');
      await password.waitFor();
      expect(await password.evaluate((i) => document.getElementById(i.getAttribute('aria-describedby') ?? '')?.textContent ?? '')).toMatch(/At least \d+ characters\./);
      const username = `e2e-created-${process.pid}`;
      await userForm.getByLabel('Username').fill(username);
      await userForm.getByRole('button', { name: 'Save' }).click();
      const created = page.getByRole('status').filter({ hasText: `The user ${username} was created.` });
      await created.waitFor();
      await waitUntil(async () => created.evaluate((n) => n === document.activeElement), 'focus on the message');
    } finally {
      if (libraryId) await pageCall(page, 'DELETE', `/admin/libraries/${libraryId}`);
    }
  });

  it('a reader is told the admin area is not for them', async () => {
    const { page } = session();
    await apiLogin(page, plainReader.username, plainReader.password);
    await page.goto('/admin');
    await waitForH1(page, 'Admin');
    await page.getByRole('alert').getByText('You are not allowed to use the admin area: it is for superusers only.').waitFor();
    expect(await sections(page).count()).toBe(0);
    await expectAxeClean(page, '/admin for a reader');
  });
});
