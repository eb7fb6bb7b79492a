// EPUBs in the browser (issue 31): the entry page of a Muse text offers its EPUB, which downloads as a
// real EPUB; the Book Builder's format choice says what an EPUB ignores, builds one and offers it.
import type { Entry } from '@uc/shared';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baseUrl, formatViolations, hasChromium, seriousAxeViolations, useBrowserSessions, waitForH1 } from './lib/browser.ts';
import { api } from './lib/demo.ts';

/** A demo entry whose first data source is a Muse text (the demo's Muse texts are 577–583). */
async function museEntry(): Promise<Entry> {
  for (let id = 577; id <= 583; id++) {
    const e = await api<Entry>(`/entry/${id}`).catch(() => null);
    if (e?.data_sources[0]?.can_add_to_bookbuilder) return e;
  }
  throw new Error('the demo catalogue has no Muse text at 577–583');
}

/** GET of a link the page shows: status, type and the first bytes (an EPUB starts with its stored mimetype). */
async function fetchFile(href: string): Promise<{ status: number; type: string; head: string }> {
  const res = await fetch(new URL(href, baseUrl));
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type') ?? '', head: bytes.subarray(30, 58).toString('latin1') };
}

describe.skipIf(!hasChromium)('EPUB', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

  it('the entry page of a Muse text lists its EPUB, which downloads as an EPUB', async () => {
    const { page } = session();
    const entry = await museEntry();
    await page.goto(`/entry/${entry.id}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const link = page.getByRole('list', { name: 'Downloads' }).first().getByRole('link', { name: /EPUB/ });
    await link.waitFor();
    const href = (await link.getAttribute('href'))!;
    expect(href).toBe(`/collector/api/download/${entry.data_sources[0].data_source_id}.epub`);
    const file = await fetchFile(href);
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/epub+zip');
    expect(file.head).toBe('mimetypeapplication/epub+zip');
  });

  it('the Book Builder builds an EPUB when chosen, saying the print options are ignored', async () => {
    const { page } = session();
    const entry = await museEntry();
    await page.goto(`/entry/${entry.id}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.getByRole('button', { name: 'Add to the Book Builder' }).first().click();
    await page.getByRole('link', { name: 'Added to the Book Builder!' }).first().waitFor();
    await page.goto('/bookbuilder');
    await waitForH1(page, 'Book Builder');

    const formats = page.getByRole('group', { name: 'Format' });
    expect(await formats.getByRole('radio', { name: 'PDF, for printing' }).isChecked(), 'PDF is the default').toBe(true);
    const note = page.getByText('the paper size, the imposition and the crop marks are ignored', { exact: false });
    expect(await note.count()).toBe(0);
    await formats.getByRole('radio', { name: 'EPUB, for e-readers and phones' }).check();
    await note.waitFor();
    await page.waitForLoadState('networkidle');
    const violations = await seriousAxeViolations(page);
    expect(violations.length, formatViolations('/bookbuilder (EPUB chosen)', violations)).toBe(0);

    await page.getByRole('button', { name: 'Build' }).click();
    const download = page.getByRole('link', { name: 'Download the EPUB' });
    await download.waitFor({ timeout: 60_000 });
    // an EPUB is offered, not shown in a frame
    expect(await page.locator('iframe').count()).toBe(0);
    const file = await fetchFile((await download.getAttribute('href'))!);
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/epub+zip');
    expect(file.head).toBe('mimetypeapplication/epub+zip');
  }, 120_000);
});
