// The Book Builder journey (spec §2 "Book Builder and covers", §4): two demo texts added from their
// entry pages, a virtual header, 2up imposition, a build, and the PDF preview; then the Covers tab: the
// spine from that book, an image, the live preview, the cover PDF, a phone width and Italian.
import type { Entry } from '@uc/shared';
import { PDFDocument } from 'pdf-lib';
import * as mupdf from 'mupdf';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baseUrl, formatViolations, hasChromium, seriousAxeViolations, useBrowserSessions, waitForH1, waitUntil } from './lib/browser.ts';
import { api, search } from './lib/demo.ts';

/** Entries whose first Muse data source can go into the Book Builder (the demo's Muse texts first: 577–583). */
async function bookEntries(count: number): Promise<Entry[]> {
  const found: Entry[] = [];
  const tryId = async (id: number) => {
    try {
      const e = await api<Entry>(`/entry/${id}`);
      if (e.id === id && e.data_sources.some((d) => d.can_add_to_bookbuilder) && !found.some((f) => f.id === e.id)) found.push(e);
    } catch {
      /* not public or missing */
    }
  };
  for (let id = 577; id <= 583 && found.length < count; id++) await tryId(id);
  for (let page = 1; page <= 20 && found.length < count; page++) {
    const r = await search({ page_size: 100, page_number: page });
    for (const m of r.matches) if (found.length < count) await tryId(m.entry_id);
    if (r.matches.length === 0) break;
  }
  return found;
}

describe.skipIf(!hasChromium)('Book Builder', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

  it('adds two texts from their entry pages, sets a virtual header and 2up, builds and shows the PDF; then a cover with the spine from that book', async () => {
    const { page } = session();
    const entries = await bookEntries(2);
    expect(entries.length, 'the demo catalogue has two texts with a Muse source').toBe(2);

    await page.goto('/bookbuilder');
    await waitForH1(page, 'Book Builder');
    await page.getByText('No text added, so far!').waitFor();
    expect(await page.getByRole('button', { name: 'Build' }).count(), 'no Build without texts').toBe(0);
    await page.waitForLoadState('networkidle');
    const empty = await seriousAxeViolations(page);
    expect(empty.length, formatViolations('/bookbuilder (empty)', empty)).toBe(0);

    for (const e of entries) {
      await page.goto(`/entry/${e.id}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.getByRole('button', { name: 'Add to the Book Builder' }).first().click();
      await page.getByRole('link', { name: 'Added to the Book Builder!' }).first().waitFor();
    }
    // The header now links to the tool.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: /^Book Builder/ }).click();
    await waitForH1(page, 'Book Builder');
    const titles = await page.getByTestId('book-text').getByRole('link').allInnerTexts();
    expect(titles.map((t) => t.trim())).toEqual(entries.map((e) => e.data_sources.find((d) => d.can_add_to_bookbuilder)!.title));

    // Phones: the text list fits 320 and 390 px (titles wrap, every button stays on the screen).
    for (const width of [320, 390]) {
      await page.setViewportSize({ width, height: 740 });
      await waitUntil(async () => page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `no horizontal overflow at ${width} px`);
      for (const button of await page.getByTestId('book-text').getByRole('button').all()) {
        const box = (await button.boundingBox())!;
        expect(box.x + box.width, `${await button.getAttribute('aria-label')} on screen at ${width} px`).toBeLessThanOrEqual(width);
      }
    }
    // Remove has Undo, which puts the text back at its place through the real API (add + reorder).
    const firstTitle = titles[0].trim();
    await page.getByRole('button', { name: `Remove: ${firstTitle}` }).click();
    await page.getByText(`Removed “${firstTitle}”.`).waitFor();
    await page.waitForLoadState('networkidle');
    const removedState = await seriousAxeViolations(page);
    expect(removedState.length, formatViolations('/bookbuilder (removed, Undo offered, 390 px)', removedState)).toBe(0);
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByText(`${firstTitle} is back in the book`).waitFor();
    expect((await page.getByTestId('book-text').getByRole('link').allInnerTexts()).map((t) => t.trim())).toEqual(titles.map((t) => t.trim()));
    await page.setViewportSize({ width: 1280, height: 900 });

    // Two texts: the virtual header is asked for; Build refuses without a title.
    const title = page.getByRole('textbox', { name: 'Title', exact: true });
    await title.waitFor();
    await page.getByRole('button', { name: 'Build' }).click();
    await page.getByRole('alert').getByText('Please check these settings before building:').waitFor();
    await title.fill('An End-to-End Collection');
    await page.getByRole('textbox', { name: 'Author', exact: true }).fill('The Test Suite');

    await page.getByRole('tab', { name: 'Imposition' }).click();
    await page.getByRole('combobox', { name: 'Imposition Schema' }).selectOption('2up');
    await page.getByRole('img', { name: /^Sheet 1, front/ }).waitFor();
    await page.waitForLoadState('networkidle');
    const options = await seriousAxeViolations(page);
    expect(options.length, formatViolations('/bookbuilder (imposition tab)', options)).toBe(0);

    await page.getByRole('button', { name: 'Build' }).click();
    const frame = page.getByTitle('Preview of the book (PDF)');
    await frame.waitFor({ timeout: 60_000 });
    const src = await frame.getAttribute('src');
    expect(src).toMatch(/^\/collector\/api\/bookbuilder\/[A-Za-z0-9_-]+\?inline=1&job=\d+$/);

    // The embedded PDF is the imposed book: 2up of A5 = sheets of 296 × 210 mm.
    const res = await fetch(`${baseUrl}${src}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = await PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
    const { width, height } = pdf.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([Math.round((296 * 72) / 25.4), Math.round((210 * 72) / 25.4)]);
    expect(pdf.getTitle()).toBe('An End-to-End Collection');

    // The Imposition tab now draws the first sheets of this book with its own page numbers: 2up, the whole
    // book in one signature, blanks before the last page, so sheet 1's front holds the last page and page 1.
    const built = await page.getByText(/^\d+ book pages on \d+ sheets of paper$/).innerText();
    const builtPages = Number(/^(\d+)/.exec(built)![1]);
    await page.getByRole('tab', { name: 'Imposition' }).click();
    const intro = page.getByText(`The first sheets of this book (${builtPages} pages, as last built):`);
    await intro.waitFor();
    const sheets = intro.locator('..'); // not the generic 8-page example beside it
    await sheets.getByRole('img', { name: `Sheet 1, front: ${builtPages}, 1` }).waitFor();
    const padded = Math.ceil(builtPages / 4) * 4;
    await sheets.getByRole('img', { name: `Sheet 1, back: 2, ${padded > builtPages ? 'blank' : builtPages - 1}` }).waitFor();

    // The session survives a reload (localStorage) with its PDF.
    await page.reload();
    await waitForH1(page, 'Book Builder');
    await waitUntil(async () => (await page.getByTitle('Preview of the book (PDF)').count()) > 0, 'the preview after a reload');

    // ---- The Covers tab: the spine from the book just built, an image, the live preview, the PDF. ----
    await page.getByRole('navigation', { name: 'Book Builder and covers' }).getByRole('link', { name: 'Covers' }).click();
    await waitForH1(page, 'Covers');
    const bookPages = await page.getByText(/^Your book has \d+ pages$/).innerText();
    const pages = Number(/(\d+)/.exec(bookPages)![1]);
    await page.getByRole('button', { name: 'Use for the spine' }).click();
    const spine = Math.ceil(Math.ceil(pages / 2) * 0.1);
    expect(await page.getByRole('spinbutton', { name: 'Spine width (mm)' }).inputValue()).toBe(String(spine));
    // Default 148 × 210 mm panels, 10 mm bleed, 5 mm marks.
    await page.getByText(`Sheet: ${2 * 148 + spine + 30} × 240 mm`).waitFor();

    const preview = page.getByRole('img', { name: 'Preview of the cover' });
    await preview.waitFor({ timeout: 20_000 });
    const before = await preview.getAttribute('src');
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('A Cover from the Test Suite');
    await page.getByRole('textbox', { name: 'Author', exact: true }).fill('The Test Suite');
    await page.getByRole('textbox', { name: /^ISBN/ }).fill('978-0-306-40615-7');
    await waitUntil(async () => (await preview.getAttribute('src')) !== before, 'the preview redrawn after typing');

    // A 900 × 600 picture: at the default 118 mm it would print at 194 dpi, so the form warns.
    const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 900, 600], false);
    pix.clear(120);
    const png = Buffer.from(pix.asPNG());
    pix.destroy();
    // The preview is redrawn with the picture in it (the page's CSP keeps it from reading its blob: URL, so
    // the preview's answer is read from the network).
    const beforeImage = await preview.getAttribute('src');
    const pictureDrawn = page.waitForResponse(
      async (res) => {
        if (!res.url().endsWith('/collector/api/bookcover') || res.request().postDataJSON()?.action !== 'preview') return false;
        // The photo is embedded as a JPEG (the barcode is an SVG image); a preview aborted by a newer one has no body.
        return res.json().then((b: { svg?: string }) => /data:image\/(jpeg|png);base64,/.test(b.svg ?? ''), () => false);
      },
      { timeout: 20_000 },
    );
    await page.getByLabel('Front image (PNG or JPEG)').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: png });
    await page.getByText(/^Low resolution: at 118 mm wide this image prints at 194 dpi/).first().waitFor({ timeout: 20_000 });
    await pictureDrawn;
    await waitUntil(async () => (await preview.getAttribute('src')) !== beforeImage, 'the preview redrawn with the uploaded picture');
    await page.waitForLoadState('networkidle');
    const coverForm = await seriousAxeViolations(page);
    expect(coverForm.length, formatViolations('/coverbuilder', coverForm)).toBe(0);

    await page.getByRole('button', { name: 'Build', exact: true }).click();
    const coverFrame = page.getByTitle('Preview of the cover (PDF)');
    await coverFrame.waitFor({ timeout: 60_000 });
    const coverSrc = (await coverFrame.getAttribute('src'))!;
    const coverPdf = await fetch(`${baseUrl}${coverSrc}`);
    expect(coverPdf.status).toBe(200);
    const sheet = (await PDFDocument.load(new Uint8Array(await coverPdf.arrayBuffer()))).getPage(0).getSize();
    expect([sheet.width, sheet.height].map((pt) => Math.round((pt * 25.4) / 72))).toEqual([2 * 148 + spine + 30, 240]);

    // On a 320-pixel phone the form and the preview stack without sideways scrolling.
    await page.setViewportSize({ width: 320, height: 640 });
    await waitUntil(async () => (await page.evaluate(() => document.documentElement.scrollWidth)) <= 320, 'no horizontal overflow at 320 px');

    // The tab speaks the reader's language.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('combobox', { name: 'UI language' }).selectOption('it');
    await waitForH1(page, 'Copertine');
    await page.getByRole('group', { name: 'Dimensioni del foglio' }).waitFor();
  }, 180_000);
});
