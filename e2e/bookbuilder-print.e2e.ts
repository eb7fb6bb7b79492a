// What a book maker sees before printing (issue 32 points 12 and 14): the Book Builder tells the sheet a
// home-printer booklet comes out on (A4, with crop marks too) and the built PDF has that size; the Covers
// tab then starts with the book's title, author and spine, and says why its preview stops (a bad ISBN).
import type { Entry } from '@uc/shared';
import { PDFDocument } from 'pdf-lib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baseUrl, hasChromium, useBrowserSessions, waitForH1, waitUntil } from './lib/browser.ts';
import { api } from './lib/demo.ts';

/** A demo entry whose text can go into the Book Builder (the demo's Muse texts are 577–583). */
async function bookEntry(): Promise<{ entry: Entry; title: string; authors: string[] }> {
  for (let id = 577; id <= 600; id++) {
    try {
      const e = await api<Entry>(`/entry/${id}`);
      const ds = e.data_sources.find((d) => d.can_add_to_bookbuilder);
      if (ds) return { entry: e, title: ds.title, authors: (ds as { authors?: string[] }).authors ?? [] };
    } catch {
      /* not public or missing */
    }
  }
  throw new Error('no demo entry with a Muse text');
}

const MM = 72 / 25.4;

describe.skipIf(!hasChromium)('Book Builder: the printed sheet and the cover from the book', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

  it('a home-printer booklet on A4 says A4 before the build, stays A4 with crop marks, and the PDF is A4; the cover starts from the book', async () => {
    const { page } = session();
    const { entry, title } = await bookEntry();
    await page.goto(`/entry/${entry.id}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.getByRole('button', { name: 'Add to the Book Builder' }).first().click();
    await page.getByRole('link', { name: 'Added to the Book Builder!' }).first().waitFor();

    await page.goto('/bookbuilder');
    await waitForH1(page, 'Book Builder');
    const summary = page.getByTestId('sheet-summary');
    // No imposition yet: one A5 page per side, and an estimate before the first build.
    await summary.getByText('Page size: A5 (148 × 210 mm), one page per side').waitFor();
    expect(await summary.innerText()).toMatch(/about \d+ sheets \(estimated/);

    await page.getByRole('tab', { name: 'Imposition' }).click();
    await page.getByRole('combobox', { name: 'Imposition Schema' }).selectOption('2up');
    await summary.getByText('Printed sheet: A4 (296 × 210 mm)').waitFor();
    // Crop marks used to put each page on A4 first, so 2up made A3: now the crop paper fits the printer's A4.
    await page.getByRole('checkbox', { name: 'Add crop marks to PDF' }).check();
    const crop = page.getByRole('combobox', { name: /size of each page including the crop marks/ });
    await waitUntil(async () => (await crop.inputValue()) === 'a5', 'the crop-mark paper fitted to A4');
    await summary.getByText('Printed sheet: A4 (296 × 210 mm)').waitFor();
    expect(await summary.innerText()).toMatch(/The crop marks need 13 mm beside each page/);
    // Choosing A4 crop paper by hand shows the A3 sheet it makes, and the way back.
    await crop.selectOption('a4');
    await summary.getByText('Printed sheet: A3 (420 × 297 mm)').waitFor();
    await summary.getByRole('button', { name: 'Fit the crop-mark paper to A4' }).click();
    await waitUntil(async () => (await crop.inputValue()) === 'a5', 'the crop-mark paper fitted again');
    // One paper thickness field on the page.
    expect(await page.getByRole('spinbutton', { name: /thickness/i }).count()).toBe(1);

    await page.getByRole('button', { name: 'Build' }).click();
    const frame = page.getByTitle('Preview of the book (PDF)');
    await frame.waitFor({ timeout: 60_000 });
    const res = await fetch(`${baseUrl}${await frame.getAttribute('src')}`);
    expect(res.status).toBe(200);
    const pdf = await PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
    for (const p of pdf.getPages()) {
      const { width, height } = p.getSize();
      expect(Math.abs(width / MM - 296), 'sheet width in mm').toBeLessThan(0.5);
      expect(Math.abs(height / MM - 210), 'sheet height in mm').toBeLessThan(0.5);
    }
    // After the build the count is the real one: sheets for the pages just built.
    const after = await summary.innerText();
    const m = /(\d+) sheets for the (\d+) pages of the last build/.exec(after);
    expect(m, after).not.toBeNull();
    expect(Number(m![1])).toBe(Math.ceil(pdf.getPageCount() / 2));

    // ---- Covers: the book's title and author, the spine from its pages and the paper thickness. ----
    await page.getByRole('navigation', { name: 'Book Builder and covers' }).getByRole('link', { name: 'Covers' }).click();
    await waitForH1(page, 'Covers');
    const coverTitle = page.getByRole('textbox', { name: 'Title', exact: true });
    await waitUntil(async () => (await coverTitle.inputValue()) === title, `the cover title prefilled with “${title}”`);
    const author = await page.getByRole('textbox', { name: 'Author', exact: true }).inputValue();
    expect(author.length, 'the cover author prefilled').toBeGreaterThan(0);
    const pages = Number(/(\d+)/.exec(await page.getByText(/^Your book has \d+ pages$/).innerText())![1]);
    expect(await page.getByRole('spinbutton', { name: 'Spine width (mm)' }).inputValue()).toBe(String(Math.ceil(Math.ceil(pages / 2) * 0.1)));

    // An ISBN with a wrong check digit: said next to the field, and the preview says why it stops.
    const isbn = page.getByRole('textbox', { name: /^ISBN/ });
    await isbn.fill('978-0-306-40615-8');
    await waitUntil(async () => (await isbn.getAttribute('aria-invalid')) === 'true', 'the ISBN field marked invalid');
    const described = await isbn.getAttribute('aria-describedby');
    const message = await page.locator(`[id="${described!.split(' ').at(-1)}"]`).innerText();
    expect(message).toMatch(/ISBN/);
    expect(await page.getByTestId('cover-preview-blocked').innerText()).toMatch(/^The preview is not updated while “ISBN \(printed as a barcode on the back\)” is not valid/);
    await isbn.fill('978-0-306-40615-7');
    await waitUntil(async () => (await page.getByTestId('cover-preview-blocked').count()) === 0, 'the preview message gone once the ISBN is right');
  });
});
