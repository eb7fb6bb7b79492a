// Library administration in the browser (spec §2 Library admin screen, §4 Spreadsheet, §8): the library
// admin of library 1 logs in (through the API), edits the library, adds a user, uploads a small CSV,
// processes it and finds the new entries in the search. axe finds no serious or critical violation.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { baseUrl, hasChromium, useBrowserSessions, waitForH1, waitUntil } from './lib/browser.ts';
import { expectAxeClean, apiLogin } from './lib/session.ts';

const users = inject('users');



/** Letters only, so the search tokenizer keeps it as one word. */
const uniqueWord = () => 'Zorblax' + Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

describe.skipIf(!hasChromium)('library administration', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

  it('a library admin edits the library, adds a user, uploads and processes a CSV, and finds the entries', async () => {
    const { page } = session();
    const { librarian } = users;
    await apiLogin(page, librarian.username, librarian.password);
    await page.goto(`${baseUrl}/library/admin/${librarian.libraryId}`);
    await waitForH1(page, /^Administration of /);

    // Edit a field ('The library was updated').
    const internal = page.getByLabel('Internal e-mail');
    if (!(await internal.inputValue())) await internal.fill('staff@library.e2e.example.org');
    await page.getByLabel('Opening hours').fill('Tuesday 17-20 (e2e)');
    await page.getByRole('button', { name: 'Update library' }).click();
    await page.getByText('The library was updated').waitFor();
    await expectAxeClean(page, 'library admin page');

    // Add a new user: created and mailed.
    const newUser = `e2e-added-${Date.now().toString(36)}`;
    const addForm = page.getByRole('form', { name: 'Add user' });
    await addForm.getByLabel('Username').fill(newUser);
    await addForm.getByLabel('Email').fill(`${newUser}@e2e.example.org`);
    await addForm.getByLabel('First name').fill('Ada');
    await addForm.getByRole('button', { name: 'Add user' }).click();
    await addForm.getByText('The user was created and will receive an e-mail to set the password.').waitFor();
    await page.getByRole('region', { name: 'Library Users' }).getByRole('cell', { name: newUser, exact: true }).waitFor();
    // The existing-username warning.
    await addForm.getByLabel('Username').fill(newUser);
    await addForm.getByText('This username already exist. You are going to add it to this library.').waitFor();
    await addForm.getByLabel('Username').fill('');

    // Upload a small CSV (creating the library's spreadsheet source when it has none).
    const upload = page.getByRole('region', { name: 'Upload records' });
    await waitUntil(async () => (await upload.getByLabel('Title of the new spreadsheet source').count()) > 0
      || (await upload.getByText('Expected column headers:').count()) > 0 || (await upload.getByLabel('Site').count()) > 0, 'the upload form');
    if (await upload.getByLabel('Title of the new spreadsheet source').count()) {
      await upload.getByLabel('Title of the new spreadsheet source').fill('E2E shelf list');
      await upload.getByRole('button', { name: 'Create' }).click();
    }
    const site = upload.getByLabel('Site');
    if (await site.count()) await site.selectOption({ index: 1 });
    await upload.getByText('Expected column headers:').waitFor();
    const word = uniqueWord();
    const csv = `identifier;title;authors;languages;year_edition\n${word}-1;${word} first pamphlet;Ada Uploader;en;1921\n${word}-2;"${word} second pamphlet";"Ada Uploader; Bo Helper";it;1922\n`;
    await upload.getByLabel('Spreadsheet file (CSV UTF-8 or XLSX)').setInputFiles({ name: 'records.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await upload.getByLabel('Comment').fill('e2e upload');
    await upload.getByRole('button', { name: 'Upload' }).click();
    await upload.getByText('Records in the file: 2').waitFor();
    await upload.getByRole('cell', { name: `${word} first pamphlet` }).waitFor();
    await expectAxeClean(page, 'spreadsheet preview');
    await upload.getByRole('button', { name: 'Process File' }).click();
    await upload.getByText('The file was processed: 2 records stored, 0 removed.').waitFor({ timeout: 30_000 });

    // The new entries are in the search.
    await page.goto(`${baseUrl}/search?query=${word}`);
    await page.getByText(`${word} first pamphlet`).first().waitFor({ timeout: 20_000 });
    await page.getByText(`${word} second pamphlet`).first().waitFor();
  });

  it('a file with bad rows: the count says how many rows can be stored, and Process File looks disabled and says why', async () => {
    const { page } = session();
    const { librarian } = users;
    await apiLogin(page, librarian.username, librarian.password);
    await page.goto(`${baseUrl}/library/admin/${librarian.libraryId}`);
    const upload = page.getByRole('region', { name: 'Upload records' });
    await waitUntil(async () => (await upload.getByText('Expected column headers:').count()) > 0 || (await upload.getByLabel('Site').count()) > 0, 'the upload form');
    const site = upload.getByLabel('Site');
    if (await site.count()) await site.selectOption({ index: 1 });
    // Seven rows: three good, four without a title.
    const csv = 'identifier;title\n' + ['g1;Good one', 'b1;', 'g2;Good two', 'b2;', 'b3;', 'g3;Good three', 'b4;'].join('\n') + '\n';
    await upload.getByLabel('Spreadsheet file (CSV UTF-8 or XLSX)').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await upload.getByRole('button', { name: 'Upload' }).click();
    await upload.getByText('Rows in the file: 7 (3 can be stored, 4 with errors)').waitFor();

    const process = upload.getByRole('button', { name: 'Process File' });
    expect(await process.isDisabled()).toBe(true);
    expect(await process.getAttribute('aria-describedby')).toBeTruthy();
    await upload.getByText('To process this file, tick “Store the good rows only”').waitFor();
    const cancel = upload.getByRole('button', { name: 'Cancel', exact: true });
    const look = (el: typeof process) => el.evaluate((b) => { const s = getComputedStyle(b); return { bg: s.backgroundColor, cursor: s.cursor }; });
    const disabled = await look(process);
    expect(disabled.cursor).toBe('not-allowed');
    // Not the primary colour it has when it can be used.
    await upload.getByLabel('Store the good rows only').check();
    expect(await process.isDisabled()).toBe(false);
    const enabled = await look(process);
    expect(enabled.bg).not.toBe(disabled.bg);
    expect(enabled.cursor).toBe('pointer');
    expect((await look(cancel)).cursor).toBe('pointer');
    await cancel.click();
  });

  it('an anonymous visitor is asked to log in (accounts shared with other files are left alone)', async () => {
    const { page } = session();
    await page.goto(`${baseUrl}/library/admin/1`);
    await page.getByText('Please log in to administer this library.').waitFor();
  });
});
