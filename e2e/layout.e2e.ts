// Every screen of the product at phone widths (320 and 390 px) in English, and in German (the longest
// words) at 390 and 1366 px (axe-checked at 390): nothing is wider than the window. The page never scrolls sideways, and no
// element reaches past the window's edge unless it sits in a container that scrolls or clips on purpose
// (a table in overflow-x-auto, the map). Each screen is loaded once per language and resized in place.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AgentsResponse, Entry, LibraryPublic, PageSummary } from '@uc/shared';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, formatViolations, hasChromium, launchBrowser, seriousAxeViolations, waitUntil } from './lib/browser.ts';
import { api, pickFullTextWord, repoRoot, search } from './lib/demo.ts';
import { sessionCookies } from './lib/session.ts';

const users = inject('users');
type Lang = 'en' | 'de' | 'el';
type Role = 'visitor' | 'curator' | 'superuser';

/** The merged interface strings of a language (common file plus feature folders), as the app loads them. */
function bundle(lang: Lang): Record<string, string> {
  const dir = path.join(repoRoot, 'web', 'src', 'i18n');
  const files = [path.join(dir, `${lang}.json`), ...fs.readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory()).map((d) => path.join(dir, d.name, `${lang}.json`))];
  return Object.assign({}, ...files.filter((f) => fs.existsSync(f)).map((f) => JSON.parse(fs.readFileSync(f, 'utf8'))));
}
const strings: Record<Lang, Record<string, string>> = { en: bundle('en'), de: bundle('de'), el: bundle('el') };
const tr = (lang: Lang, key: string) => strings[lang][key] ?? key;

interface Screen {
  name: string;
  /** Loaded afresh; without it the step continues on the page the previous step left. */
  path?: string;
  /** What to do once loaded (open a tab, a form) before measuring. */
  act?: (page: Page, lang: Lang) => Promise<void>;
  /** Undoes what act left behind on the shared server, after measuring. */
  after?: (page: Page, lang: Lang) => Promise<void>;
}

/** A librarian's spreadsheet with columns the site does not read and long unbroken values. */
const SPREADSHEET = 'identifier;title;author;year;language;uri\n' +
  'layout-1;"A title long enough to wrap on every phone, about shelves, catalogues and the people who keep them";' +
  'Ada Uploader;1921;it;https://example.org/a/long/path/without/any/place/to/break/the/line/on/a/phone\n';

interface Demo { entry: Entry; word: string; textWord: string; libraryId: number; agentId: number; footerPageId: number }

async function demoFacts(): Promise<Demo> {
  let entry: Entry | undefined;
  // The demo's Muse texts (they have downloads, a full text and go into the Book Builder).
  for (let id = 577; id <= 583 && !entry; id++) {
    const e = await api<Entry>(`/entry/${id}`).catch(() => undefined);
    if (e?.data_sources.some((d) => d.can_add_to_bookbuilder && d.has_full_text)) entry = e;
  }
  expect(entry, 'a demo text with a full text that goes into the Book Builder').toBeTruthy();
  const word = entry!.title.split(/\s+/).find((w) => /^\p{L}{4,}$/u.test(w)) ?? entry!.title;
  expect((await search({ query: word })).matches.length, `the search for ${word} finds entries`).toBeGreaterThan(0);
  const { libraries } = await api<{ libraries: LibraryPublic[] }>('/libraries');
  const library = libraries.find((l) => typeof l.latitude === 'number') ?? libraries[0];
  const { agents } = await api<AgentsResponse>('/agents?search=a');
  const { pages } = await api<{ pages: PageSummary[] }>('/pages/footer/en');
  const found = await pickFullTextWord();
  expect(found, 'a word the search finds only inside a demo full text (a snippet)').toBeTruthy();
  return { entry: entry!, word, textWord: found!.word, libraryId: library.id, agentId: agents[0].id, footerPageId: pages[0].id };
}

function screens(d: Demo): Record<Role, Screen[]> {
  const tab = (id: string): Screen => ({
    name: `Book Builder, tab ${id}`,
    act: async (page) => {
      await page.locator(`#bb-tab-${id}`).click();
      await page.locator(`#bb-panel-${id}`).waitFor();
    },
  });
  return {
    visitor: [
      { name: 'home', path: '/map', act: async (page) => void (await page.locator('.leaflet-container').first().waitFor()) },
      { name: 'search with results', path: `/search?query=${encodeURIComponent(d.word)}` },
      // The forgiving search's parts (issue 16): the correction notice, "Did you mean …?", widened
      // results saying why, a full-text snippet, the suggestion list and the longer help.
      { name: 'search corrected', path: '/search?query=dostoevski', act: async (page) => void (await page.getByRole('link', { name: 'dostoevski', exact: true }).waitFor()) },
      { name: 'search with "Did you mean"', path: `/search?query=${encodeURIComponent('walden OR oblomvo')}`, act: async (page) => void (await page.getByRole('link', { name: 'walden OR oblomov', exact: true }).waitFor()) },
      {
        name: 'search with translations',
        path: `/search?query=${encodeURIComponent('"mutual aid"')}&translations=1`,
        act: async (page, lang) => void (await page.getByText(tr(lang, 'Listed as a translation of {{title}}').split('{{')[0].trim()).first().waitFor()),
      },
      { name: 'search with a snippet', path: `/search?query=${encodeURIComponent(d.textWord)}`, act: async (page) => void (await page.locator('article mark').first().waitFor()) },
      {
        name: 'search suggestions',
        path: '/search',
        act: async (page, lang) => {
          await page.getByRole('combobox', { name: tr(lang, 'Search the catalogue') }).pressSequentially('krop');
          await page.getByRole('listbox', { name: tr(lang, 'Suggestions') }).getByRole('option').first().waitFor();
        },
        after: async (page) => page.keyboard.press('Escape'),
      },
      {
        name: 'search help',
        path: '/search',
        act: async (page, lang) => {
          await page.getByRole('button', { name: tr(lang, 'Help on the query syntax') }).click();
          await page.getByRole('dialog').waitFor();
        },
        after: async (page) => page.keyboard.press('Escape'),
      },
      { name: 'entry', path: `/entry/${d.entry.id}` },
      {
        name: 'full text',
        act: async (page, lang) => {
          await page.getByRole('button', { name: tr(lang, 'Full text'), exact: true }).first().click();
          await page.locator('.fulltext').first().waitFor();
        },
      },
      {
        name: 'entry, added to the Book Builder',
        act: async (page, lang) => {
          await page.getByRole('button', { name: tr(lang, 'Add to the Book Builder') }).first().click();
          await page.getByRole('link', { name: tr(lang, 'Added to the Book Builder!') }).first().waitFor();
        },
      },
      { name: 'libraries', path: '/library' },
      { name: 'library details', path: `/library/details/${d.libraryId}` },
      { name: 'authors', path: '/agent?search=a' },
      { name: 'author page', path: `/library/author/${d.agentId}` },
      { name: 'footer page', path: `/page/${d.footerPageId}` },
      { name: 'contact', path: '/contact' },
      {
        name: 'login',
        path: '/search',
        act: async (page, lang) => {
          await page.getByRole('banner').getByRole('button', { name: tr(lang, 'Log in') }).click();
          await page.locator('input[type=password]').first().waitFor();
        },
      },
      { name: 'password reset', path: '/reset-password/nobody/not-a-real-token' },
      { name: 'page not found', path: '/no-such-page' },
      { name: 'Book Builder with a text', path: '/bookbuilder', act: async (page) => void (await page.getByTestId('book-text').first().waitFor()) },
      tab('layout'),
      tab('fonts'),
      tab('imposition'),
      tab('advanced'),
      { name: 'covers', path: '/coverbuilder' },
    ],
    curator: [
      { name: 'search with merge boxes', path: `/search?query=${encodeURIComponent(d.word)}` },
      { name: 'exclusions', path: '/exclusions' },
      ...['merged-agents', 'merged-entries', 'translations', 'aggregations', 'split-agents', 'exclusions', 'duplicates'].map(
        (type): Screen => ({ name: `dashboard ${type}`, path: `/dashboard/${type}` }),
      ),
      { name: 'change log', path: '/changes' },
    ],
    superuser: [
      ...['libraries', 'users', 'pages', 'settings', 'outbox'].map((s): Screen => ({ name: `admin ${s}`, path: `/admin?section=${s}` })),
      { name: 'library admin', path: '/library/admin/1' },
      {
        name: 'spreadsheet preview',
        act: async (page, lang) => {
          const upload = page.getByRole('region', { name: tr(lang, 'Upload records') });
          const create = upload.getByLabel(tr(lang, 'Title of the new spreadsheet source'));
          const site = upload.getByLabel(tr(lang, 'Site'), { exact: true });
          const expected = upload.getByText(tr(lang, 'Expected column headers:'));
          await waitUntil(async () => (await create.count()) + (await site.count()) + (await expected.count()) > 0, 'the upload form');
          if (await create.count()) {
            await create.fill('Layout test shelf list');
            await upload.getByRole('button', { name: tr(lang, 'Create'), exact: true }).click();
          }
          if (await site.count()) await site.selectOption({ index: 1 });
          await expected.waitFor();
          await upload.getByLabel(tr(lang, 'Spreadsheet file (CSV UTF-8 or XLSX)')).setInputFiles({ name: 'records.csv', mimeType: 'text/csv', buffer: Buffer.from(SPREADSHEET) });
          await upload.getByRole('button', { name: tr(lang, 'Upload'), exact: true }).click();
          await upload.getByText(tr(lang, 'First record')).waitFor();
        },
        // Nothing of the file is stored.
        after: async (page, lang) => {
          await page.getByRole('region', { name: tr(lang, 'Upload records') }).getByRole('button', { name: tr(lang, 'Cancel'), exact: true }).click();
        },
      },
    ],
  };
}

interface Overflow { scrollWidth: number; clientWidth: number; offenders: string[] }

/** The page's sideways overflow: the document's, and each element past an edge outside a scrolling or clipping box. */
function measure(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    // Inside a box that scrolls or clips it: an absolutely placed element only by a positioned
    // ancestor (its containing block), since it escapes the overflow of the static boxes between.
    const contained = (el: Element) => {
      let placed = ['absolute', 'fixed'].includes(getComputedStyle(el).position);
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const cs = getComputedStyle(p);
        if (placed && cs.position === 'static') continue;
        if (cs.overflowX !== 'visible') return true;
        placed = ['absolute', 'fixed'].includes(cs.position);
      }
      return false;
    };
    const over = new Set<Element>();
    const offenders: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.right <= vw + 1 && r.left >= -1) continue;
      // Wholly off screen on purpose (the skip link until focused).
      if (r.right <= 0) continue;
      if (getComputedStyle(el).visibility === 'hidden' || contained(el)) continue;
      over.add(el);
      // The outermost element that does not fit says where to fix it.
      if (el.parentElement && over.has(el.parentElement)) continue;
      const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).slice(0, 8).join('.')}` : '';
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 50);
      offenders.push(`<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${cls}> ${Math.round(r.left)}–${Math.round(r.right)} px “${text}”`);
    }
    // Text that runs out of its box (a long word or URL in a box that fits) is no element of its own.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const box = n.parentElement;
      if (!box || !n.textContent?.trim() || over.has(box)) continue;
      range.selectNodeContents(n);
      const r = range.getBoundingClientRect();
      if (r.width === 0 || r.right <= vw + 1 || r.right <= 0) continue;
      const cs = getComputedStyle(box);
      if (cs.visibility === 'hidden' || cs.overflowX !== 'visible' || contained(box)) continue;
      offenders.push(`text in <${box.tagName.toLowerCase()}> ${Math.round(r.left)}–${Math.round(r.right)} px “${n.textContent.trim().slice(0, 50)}”`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, clientWidth: vw, offenders: offenders.slice(0, 6) };
  });
}

/** Requests of the page still under way (a shorter quiet period than Playwright's networkidle of 500 ms). */
function trackRequests(page: Page): () => number {
  let inFlight = 0;
  page.on('request', () => inFlight++);
  const done = () => inFlight--;
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return () => inFlight;
}

/** No request under way for 150 ms, fonts loaded, a painted frame. */
async function settle(page: Page, inFlight: () => number): Promise<void> {
  let quietSince = Date.now();
  await waitUntil(() => {
    if (inFlight() > 0) quietSince = Date.now();
    return Date.now() - quietSince >= 150;
  }, 'a quiet network');
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}

describe.skipIf(!hasChromium)('layout at phone and desktop widths', () => {
  let browser: Browser;
  let demo: Demo;
  const cookies: Partial<Record<Role, Awaited<ReturnType<typeof sessionCookies>>>> = {};

  beforeAll(async () => {
    browser = await launchBrowser();
    demo = await demoFacts();
    cookies.curator = await sessionCookies(users.curator.username, users.curator.password);
    cookies.superuser = await sessionCookies(users.superuser.username, users.superuser.password);
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Visits the role's screens in the language; each one is measured at every width. Returns the problems found. */
  async function visit(role: Role, lang: Lang, widths: number[], only?: (s: Screen) => boolean): Promise<string[]> {
    const context: BrowserContext = await browser.newContext({ baseURL: baseUrl, viewport: { width: widths[0], height: 800 }, locale: { en: 'en-GB', de: 'de-DE', el: 'el-GR' }[lang] });
    context.setDefaultTimeout(15_000);
    if (lang !== 'en') await context.addInitScript((l) => window.localStorage.setItem('language', l), lang);
    if (cookies[role]) await context.addCookies(cookies[role]!);
    const page = await context.newPage();
    const inFlight = trackRequests(page);
    const crashes: string[] = [];
    page.on('pageerror', (e) => crashes.push(e.message));
    const problems: string[] = [];
    const measureScreen = async (s: Screen) => {
      await page.setViewportSize({ width: widths[0], height: 800 });
      if (s.path) {
        await page.goto(s.path);
        const h1 = page.getByRole('heading', { level: 1 }).first();
        await h1.waitFor();
        // A screen that failed to render would measure nothing of its own.
        const heading = (await h1.innerText()).trim();
        expect(heading, `${s.name}: ${s.path}`).not.toBe(tr(lang, 'Something went wrong.'));
        if (s.name !== 'page not found') expect(heading, `${s.name}: ${s.path}`).not.toBe(tr(lang, 'Page not found'));
      }
      await s.act?.(page, lang);
      for (const width of widths) {
        await page.setViewportSize({ width, height: 800 });
        await settle(page, inFlight);
        const m = await measure(page);
        const where = `${s.name} (${role}, ${lang}, ${width} px, ${new URL(page.url()).pathname})`;
        if (m.scrollWidth > m.clientWidth) problems.push(`${where}: the page scrolls sideways (${m.scrollWidth} > ${m.clientWidth} px)`);
        for (const o of m.offenders) problems.push(`${where}: ${o}`);
        // German's long words at a phone's width: axe too (the English screens have it in their own files).
        if (lang === 'de' && width === widths[0]) {
          const vs = await seriousAxeViolations(page);
          if (vs.length > 0) problems.push(formatViolations(where, vs));
        }
      }
      await s.after?.(page, lang);
    };
    try {
      for (const s of screens(demo)[role].filter(only ?? (() => true))) {
        try {
          await measureScreen(s);
        } catch (e) {
          // Named, so a screen that does not load says which one it is.
          throw new Error(`${s.name} (${role}, ${lang}, ${page.url()}): ${(e as Error).message}`, { cause: e });
        }
      }
    } finally {
      await context.close();
    }
    expect(crashes, `uncaught errors in the page:\n${crashes.join('\n')}`).toEqual([]);
    return problems;
  }

  for (const role of ['visitor', 'curator', 'superuser'] as const) {
    it(`${role}: every screen fits 320 and 390 px in English`, async () => {
      expect(await visit(role, 'en', [320, 390])).toEqual([]);
    }, 120_000);
    it(`${role}: every screen fits 390 and 1366 px in German`, async () => {
      expect(await visit(role, 'de', [390, 1366])).toEqual([]);
    }, 120_000);
  }

  // Greek's 'Create' beside the merge boxes' create field once made the search page 328 px wide at 320.
  it('curator: the search page with its merge boxes fits 320 px in Greek', async () => {
    expect(await visit('curator', 'el', [320], (s) => s.name === 'search with merge boxes')).toEqual([]);
  }, 60_000);
});
