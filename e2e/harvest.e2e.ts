// Harvesting in the browser (issue 10): the admin of library 1 adds an OAI-PMH site pointing at a local
// provider started here (127.0.0.1), presses "Harvest now", watches the progress bar while the slow
// provider answers page by page, and finds the harvested records in the search. Then the source is
// emptied and a full harvest (after its confirmation) removes them again, leaving the catalogue as found.
import { afterAll, afterEach, beforeAll, beforeEach, describe, inject, it } from 'vitest';
import { expect } from 'vitest';
import { baseUrl, hasChromium, useBrowserSessions, waitForH1 } from './lib/browser.ts';
import { apiLogin, expectAxeClean } from './lib/session.ts';
import { dcXml, startOaiServer, type OaiTestServer } from '../server/src/harvest/test/oai-server.ts';

const users = inject('users');
const uniqueWord = () => 'Harvix' + Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

describe.skipIf(!hasChromium)('harvesting', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });
  let oai: OaiTestServer;
  beforeAll(async () => {
    oai = await startOaiServer({ pageSize: 2 });
  });
  afterAll(async () => oai?.close());

  it('a library admin adds a site, harvests it now with a progress bar, finds the records, and a full harvest of the emptied source removes them', async () => {
    const { page } = session();
    const word = uniqueWord();
    for (let i = 0; i < 6; i++) {
      oai.records.push({ identifier: `oai:e2e:${word}:${i}`, datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: [`${word} harvested pamphlet ${i}`], creator: ['Hana Harvest'], language: ['en'] }) });
    }
    oai.faults.delayMs = 600;
    const { librarian } = users;
    await apiLogin(page, librarian.username, librarian.password);
    await page.goto(`${baseUrl}/library/admin/${librarian.libraryId}`);
    await waitForH1(page, /^Administration of /);

    const panel = page.getByRole('region', { name: 'Sites and harvesting' });
    await panel.getByRole('button', { name: 'Add a site' }).click();
    const form = panel.getByRole('form', { name: 'New site' });
    const title = `E2E repository ${word}`;
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Site type').selectOption('generic');
    await form.getByLabel('OAI-PMH endpoint URL').fill('ftp://not-a-web-address.example.org');
    await form.getByLabel('Metadata format').selectOption('oai_dc');
    await form.getByLabel('Harvest this site automatically').uncheck();
    await form.getByRole('button', { name: 'Save site' }).click();
    await form.getByText('The URL must start with http:// or https://').waitFor();
    await form.getByLabel('OAI-PMH endpoint URL').fill(oai.url);
    // "Test connection" before saving: the repository's name and formats (nothing is harvested yet).
    await form.getByRole('button', { name: 'Test connection' }).click();
    await form.getByRole('status').getByText('Connected to “Test library”.').waitFor();
    await form.getByRole('status').getByText('Metadata formats: oai_dc, marc21').waitFor();
    await expectAxeClean(page, 'site form after a connection test');
    await form.getByRole('button', { name: 'Save site' }).click();

    const card = panel.getByRole('article', { name: title });
    await card.waitFor();
    await card.getByRole('button', { name: 'Harvest now' }).click();
    // The slow provider answers three pages: the progress bar shows while the run is open.
    await card.getByRole('progressbar').waitFor({ timeout: 15_000 });
    await expectAxeClean(page, 'sites panel with a running harvest');
    await card.getByText('Finished').first().waitFor({ timeout: 30_000 });
    await card.getByRole('progressbar').waitFor({ state: 'detached' });

    await page.goto(`${baseUrl}/search?query=${word}`);
    await page.getByText(`${word} harvested pamphlet 0`).first().waitFor({ timeout: 20_000 });
    await page.getByText(`${word} harvested pamphlet 5`).first().waitFor();

    // On a phone (320 px) the sites panel, with its runs open, fits the screen.
    await page.setViewportSize({ width: 320, height: 800 });
    await page.goto(`${baseUrl}/library/admin/${librarian.libraryId}`);
    await waitForH1(page, /^Administration of /);
    const narrow = page.getByRole('region', { name: 'Sites and harvesting' }).getByRole('article', { name: title });
    await narrow.getByRole('button', { name: 'Show the runs' }).click();
    await narrow.getByRole('group', { name: `Harvest runs of “${title}”` }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The source drops everything; a full harvest replaces the site's records with the (empty) new set.
    oai.records.length = 0;
    oai.faults.delayMs = 0;
    await page.goto(`${baseUrl}/library/admin/${librarian.libraryId}`);
    await waitForH1(page, /^Administration of /);
    const again = page.getByRole('region', { name: 'Sites and harvesting' }).getByRole('article', { name: title });
    await again.getByRole('button', { name: 'Full harvest…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start the full harvest' }).click();
    await again.getByRole('button', { name: 'Show the runs' }).click();
    await again.getByRole('group', { name: `Harvest runs of “${title}”` }).getByText('(full)').waitFor({ timeout: 15_000 });
    await again.getByRole('group', { name: `Harvest runs of “${title}”` }).getByRole('row').nth(1).getByText('Finished').waitFor({ timeout: 30_000 });
    await page.goto(`${baseUrl}/search?query=${word}`);
    await page.getByText('No result found!').waitFor({ timeout: 20_000 });
  });
});
