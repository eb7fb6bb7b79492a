// Issue 32 points 5 and 6 in the browser: "Subscribe" on the results, author and library pages leads to
// feeds of exactly what those pages list (Atom, newest first, and OPDS), announced in the head too; a
// text has its own page (/entry/{id}/text) and a PDF among its downloads.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import type { Page } from 'playwright-core';
import type { Entry } from '@uc/shared';
import { baseUrl, formatViolations, hasChromium, seriousAxeViolations, useBrowserSessions, waitForH1, waitUntil } from './lib/browser.ts';
import { pickQueryWord, search, textEntries } from './lib/demo.ts';

const OPDS_ACQ = 'application/atom+xml;profile=opds-catalog;kind=acquisition';

/** Entry ids of a feed, in its order (each entry's <id> is its page's address). */
async function feedEntryIds(href: string): Promise<number[]> {
  const res = await fetch(new URL(href, baseUrl));
  expect(res.status, href).toBe(200);
  const xml = await res.text();
  return [...xml.matchAll(/<id>[^<]*\/entry\/(\d+)<\/id>/g)].map((m) => Number(m[1]));
}

/** The newest matches of a query as the search answers an anonymous visitor (what a feed should list). */
async function newestMatches(query: string): Promise<number[]> {
  const r = await search({ query, sort_by: 'datestamp', page_size: 50, exact: '1' });
  return r.matches.map((m) => m.entry_id);
}

/**
 * The page's visible Subscribe links and the feeds its head announces: the same addresses. Returns the
 * Atom and the OPDS feed's addresses.
 */
async function subscribeLinks(page: Page): Promise<{ atom: string; opds: string }> {
  const atomLink = page.getByRole('link', { name: 'Subscribe (Atom feed)' });
  await atomLink.waitFor();
  const atom = (await atomLink.getAttribute('href'))!;
  const opds = (await page.getByRole('link', { name: 'Subscribe in an e-book reader (OPDS)' }).getAttribute('href'))!;
  const head = await waitUntil(
    () => page.evaluate(() => {
      const links = Array.from(document.head.querySelectorAll('link[rel="alternate"]')).map((l) => ({ type: l.getAttribute('type'), href: l.getAttribute('href') }));
      return links.some((l) => l.href?.includes('query=')) ? links : null;
    }),
    'the page\'s feeds in <head>',
  );
  expect(head).toContainEqual({ type: 'application/atom+xml', href: atom });
  expect(head).toContainEqual({ type: OPDS_ACQ, href: opds });
  return { atom, opds };
}

/** The entries an OPDS feed lists are matches of the query (those with files to fetch). */
async function expectOpdsWithin(opds: string, query: string) {
  const within = new Set((await search({ query, sort_by: 'datestamp', page_size: 100, exact: '1' })).matches.map((m) => m.entry_id));
  const res = await fetch(new URL(opds, baseUrl));
  expect(res.headers.get('content-type')).toBe(OPDS_ACQ);
  const ids = await feedEntryIds(opds);
  for (const id of ids) expect(within.has(id), `OPDS entry ${id} is a match of ${query}`).toBe(true);
}

describe.skipIf(!hasChromium)('subscribing and the text page', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

  it('the results page subscribes to its own matches', async () => {
    const { page } = session();
    const q = await pickQueryWord();
    await page.goto(`/search?${new URLSearchParams({ query: q.query })}`);
    await page.getByRole('heading', { level: 1, name: /Search results for/ }).waitFor();
    const { atom, opds } = await subscribeLinks(page);
    expect(atom).toBe(`/feed.atom?${new URLSearchParams({ query: q.query })}`);
    const ids = await feedEntryIds(atom);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(await newestMatches(q.query));
    await expectOpdsWithin(opds, q.query);
  });

  it('an author\'s page and a library\'s page subscribe to their entries', async () => {
    const { page } = session();
    const [{ entry }] = await textEntries();
    const author = entry.authors[0];
    expect(author, 'a demo text with an author').toBeTruthy();
    await page.goto(`/library/author/${author.id}`);
    await page.getByRole('heading', { level: 1, name: /Search results for/ }).waitFor();
    const byAuthor = await subscribeLinks(page);
    const authorQuery = `creator:${author.id}`;
    expect(new URL(byAuthor.atom, baseUrl).searchParams.get('query')).toBe(authorQuery);
    const authorIds = await feedEntryIds(byAuthor.atom);
    expect(authorIds).toContain(entry.id);
    expect(authorIds).toEqual(await newestMatches(authorQuery));
    await expectOpdsWithin(byAuthor.opds, authorQuery);

    const library = entry.data_sources[0];
    await page.goto(`/library/details/${library.library_id}`);
    await waitForH1(page, library.library_name);
    const byLibrary = await subscribeLinks(page);
    const libraryQuery = `library:${library.library_id}`;
    expect(new URL(byLibrary.atom, baseUrl).searchParams.get('query')).toBe(libraryQuery);
    const libraryIds = await feedEntryIds(byLibrary.atom);
    expect(libraryIds.length).toBeGreaterThan(0);
    expect(libraryIds).toEqual(await newestMatches(libraryQuery));
    await expectOpdsWithin(byLibrary.opds, libraryQuery);
    const vs = await seriousAxeViolations(page);
    expect(vs.length, formatViolations('/library/details/ID', vs)).toBe(0);
  });

  it('a text has a page of its own, linked from the entry and reachable directly, and a PDF download', async () => {
    const { page } = session();
    const texts = await textEntries();
    // A Muse text without a stored PDF: the PDF offered is made from its source.
    const text = texts.find((t) => t.entry.data_sources.some((d) => d.data_source_id === t.dataSourceId && d.can_add_to_bookbuilder && !d.has_pdf));
    expect(text, 'a demo Muse text without a stored PDF').toBeTruthy();
    if (!text) return;
    const entry: Entry = text.entry;
    const ds = entry.data_sources.find((d) => d.data_source_id === text.dataSourceId)!;

    await page.goto(`/entry/${entry.id}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const box = page.getByRole('article', { name: ds.library_name, exact: true }).first();
    const pdfLink = box.getByRole('list', { name: 'Downloads' }).getByRole('link', { name: /PDF/ });
    const pdfHref = (await pdfLink.getAttribute('href'))!;
    expect(pdfHref).toBe(`/collector/api/download/${ds.data_source_id}.pdf`);
    const res = await fetch(new URL(pdfHref, baseUrl));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = await PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
    expect(pdf.getPageCount()).toBeGreaterThan(0);

    await box.getByRole('link', { name: 'Open the text on its own page' }).click();
    await waitUntil(() => new URL(page.url()).pathname === `/entry/${entry.id}/text`, 'the text page\'s address');
    expect(new URL(page.url()).searchParams.get('data_source')).toBe(String(ds.data_source_id));
    await waitForH1(page, entry.title);
    await page.getByRole('heading', { name: text.heading }).first().waitFor();
    expect(await page.title()).toContain(entry.title);
    const vs = await seriousAxeViolations(page);
    expect(vs.length, formatViolations('/entry/ID/text', vs)).toBe(0);

    // Shared as a link: the address opens the same page in a new visit, and leads back to the entry.
    const fresh = await page.context().newPage();
    await fresh.goto(`/entry/${entry.id}/text`);
    await waitForH1(fresh, entry.title);
    await fresh.getByRole('heading', { name: text.heading }).first().waitFor();
    await fresh.getByRole('link', { name: 'Back to the entry' }).click();
    await waitUntil(() => new URL(fresh.url()).pathname === `/entry/${entry.id}`, 'back on the entry page');
    await fresh.close();
  });
});
