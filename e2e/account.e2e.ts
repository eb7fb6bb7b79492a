// Accounts in the browser (spec §2 Header, Password reset, Entry page 'Report Error'; §4 Login; §8):
// login and logout through the header, the user menu, a failed login, the password reset by e-mail
// through the real SMTP server, and a data-source error report that reaches the library by mail.
// Login is rate limited per address (10 per 10 minutes): this file logs in three times at most.
import fs from 'node:fs';
import path from 'node:path';
import type { Entry } from '@uc/shared';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { hasChromium, useBrowserSessions, waitForH1, waitUntil } from './lib/browser.ts';
import { expectAxeClean } from './lib/session.ts';
import { allTitles, api } from './lib/demo.ts';

const users = inject('users');
const mailDir = inject('mailDir');

function mailFiles(): string[] {
  return fs.readdirSync(mailDir).sort();
}
/** A received message with quoted-printable soft breaks and '=3D' undone (enough to read a link). */
function readMail(file: string): string {
  return fs.readFileSync(path.join(mailDir, file), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
}
/** Waits for a message that arrived after `before` (a list of earlier files) and passes `test`. */
async function waitForMail(before: string[], test: (text: string) => boolean, what: string): Promise<string> {
  return waitUntil(() => {
    for (const f of mailFiles()) {
      if (before.includes(f)) continue;
      const text = readMail(f);
      if (test(text)) return text;
    }
    return false;
  }, what, 20_000);
}


const header = (page: Page) => page.getByRole('banner');

async function openLoginArea(page: Page): Promise<void> {
  const toggle = header(page).getByRole('button', { name: 'Log in' });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await waitUntil(async () => (await toggle.getAttribute('aria-expanded')) === 'true', 'the login area to open');
  await header(page).getByLabel('Username').waitFor();
}

async function logIn(page: Page, username: string, password: string): Promise<void> {
  await openLoginArea(page);
  await header(page).getByLabel('Username').fill(username);
  await header(page).getByLabel('Password', { exact: true }).fill(password);
  await header(page).getByRole('button', { name: 'Login', exact: true }).click();
}

/** An entry with a data source whose library takes error reports. */
async function reportableEntry(): Promise<{ entry: Entry; index: number }> {
  for (const row of (await allTitles()).slice(0, 80)) {
    const entry = await api<Entry>(`/entry/${row.id}`);
    const index = entry.data_sources.findIndex((d) => d.report_error);
    if (index >= 0) return { entry, index };
  }
  throw new Error('no demo entry has a data source whose library takes error reports');
}

describe.skipIf(!hasChromium)('accounts', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

  it('a reader logs in from the header, sees the greeting and the menu, and logs out', async () => {
    const { page } = session();
    const reader = users.reader;
    await page.goto('/search');
    await waitForH1(page, /./);
    await openLoginArea(page);
    await expectAxeClean(page, 'the open login area');

    // The search results are fetched again after the login (spec §4).
    const refetch = page.waitForResponse((r) => r.url().includes('/collector/api/search') && r.request().method() === 'GET');
    await logIn(page, reader.username, reader.password);
    await header(page).getByText(`Hello, ${reader.username}!`).waitFor();
    await refetch;

    const menuButton = header(page).getByRole('button', { name: 'User menu' });
    await menuButton.click();
    const menu = header(page).getByRole('menu');
    await menu.waitFor();
    const items = (await menu.getByRole('menuitem').allInnerTexts()).map((s) => s.trim());
    expect(items[0]).toBe('Exclusions');
    expect(items.at(-1)).toBe('Logout');
    expect(items, 'a reader has no Admin entry').not.toContain('Admin');
    await expectAxeClean(page, 'the open user menu');

    // Keyboard: Escape closes the menu and returns to its button; ArrowDown opens it on the first item.
    await page.keyboard.press('Escape');
    await waitUntil(async () => (await menu.count()) === 0, 'the menu to close');
    expect(await menuButton.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await menu.getByRole('menuitem', { name: 'Exclusions' }).waitFor();
    expect(await menu.getByRole('menuitem', { name: 'Exclusions' }).evaluate((el) => el === document.activeElement)).toBe(true);

    await menu.getByRole('menuitem', { name: 'Logout' }).click();
    await header(page).getByRole('button', { name: 'Log in' }).waitFor();
    expect(await header(page).getByText(`Hello, ${reader.username}!`).count()).toBe(0);
    const me = await page.evaluate(async () => (await (await fetch('/collector/api/auth/user')).json()) as { logged_in: string | null });
    expect(me.logged_in).toBeNull();
  });

  it("a wrong password reads 'Invalid login'", async () => {
    const { page } = session();
    await page.goto('/search');
    await waitForH1(page, /./);
    await logIn(page, users.curator.username, 'not the password');
    await header(page).getByRole('alert').getByText('Invalid login').waitFor();
    expect(await header(page).getByRole('button', { name: 'User menu' }).count()).toBe(0);
  });

  it('password reset by e-mail lands logged in on /search; then a Report Error reaches the library', async () => {
    const { page } = session();
    const reader = users.reader;
    await page.goto('/search');
    await waitForH1(page, /./);
    await openLoginArea(page);
    await header(page).getByRole('button', { name: 'Reset password?' }).click();
    const before = mailFiles();
    await header(page).getByLabel('Username').fill(reader.username);
    await header(page).getByRole('button', { name: 'Require Password Reset' }).click();
    await header(page).getByRole('status').getByText(/we sent it a link/i).waitFor();

    const mail = await waitForMail(before, (m) => m.includes(reader.email) && /\/reset-password\//.test(m), 'the reset mail');
    const link = /https?:\/\/[^\s"<>]+\/reset-password\/[^\s"<>/]+\/[A-Za-z0-9_-]+/.exec(mail)?.[0];
    expect(link, 'the mail holds the reset link').toBeTruthy();
    const url = new URL(link!);
    await page.goto(url.pathname);
    await waitForH1(page, `Reset password for ${reader.username}`);
    const main = page.getByRole('main');
    await main.getByText('Please type your new password in both fields').waitFor();
    const newPassword = 'a brand new e2e password';
    await main.getByLabel('New password', { exact: true }).fill(newPassword);
    await main.getByLabel('Repeat the new password').fill(`${newPassword}!`);
    await main.getByText('The passwords do not match').waitFor();
    expect(await main.getByRole('button', { name: 'Set the new password' }).count()).toBe(0);
    await expectAxeClean(page, 'the password reset page');
    await main.getByLabel('Repeat the new password').fill(newPassword);
    await main.getByRole('button', { name: 'Set the new password' }).click();
    await waitUntil(() => new URL(page.url()).pathname === '/search', 'the search page after the reset');
    await header(page).getByText(`Hello, ${reader.username}!`).waitFor();
    users.reader.password = newPassword;

    // Logged in with an e-mail address: the Report Error button of a library that takes reports.
    const { entry, index } = await reportableEntry();
    const ds = entry.data_sources[index];
    await page.goto(`/entry/${entry.id}`);
    const box = page.getByRole('article', { name: ds.library_name, exact: true }).first();
    await box.getByRole('button', { name: 'Report Error' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const send = dialog.getByRole('button', { name: 'Send' });
    expect(await send.isDisabled()).toBe(true);
    await expectAxeClean(page, 'the Report Error dialog');
    const note = `e2e report ${Date.now()}`;
    const beforeReport = mailFiles();
    await dialog.getByLabel('Message').fill(note);
    await send.click();
    await dialog.getByText('Report Sent!').waitFor();
    await waitForMail(beforeReport, (m) => m.includes(note), 'the report mail');
  });
});
