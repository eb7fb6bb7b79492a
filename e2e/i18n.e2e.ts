// The interface in German and Greek (issue 32 point 11): the home introduction, a copy's link label,
// the other-language links, country names, the font specimens and quotation marks are in the reader's
// language; and the header stays one line high at 1366 × 768 in all six languages.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Entry, LibraryPublic } from '@uc/shared';
import { baseUrl, hasChromium, useBrowserSessions, waitForH1, waitUntil } from './lib/browser.ts';
import { api, repoRoot, search } from './lib/demo.ts';
import { tr } from './lib/strings.ts';

const LANGS = ['en', 'de', 'el', 'fr', 'hr', 'it'] as const;

/** The demo's settings line (its introduction in each language). */
const settings = JSON.parse(fs.readFileSync(path.join(repoRoot, 'demo', 'catalogue.jsonl'), 'utf8').split('\n')[0]) as {
  description: string;
  descriptions: Record<string, string>;
};

const languageName = (code: string, lang: string) => {
  const name = new Intl.DisplayNames([lang], { type: 'language' }).of(code)!;
  return name.charAt(0).toLocaleUpperCase(lang) + name.slice(1);
};
const countryName = (code: string, lang: string) => new Intl.DisplayNames([lang], { type: 'region' }).of(code)!;

/** Each language's quotation marks around a word (the ones the interface must use). */
const QUOTED: Record<string, (s: string) => string> = {
  de: (s) => `„${s}“`,
  el: (s) => `«${s}»`,
};

async function useLanguage(page: Page, lang: string) {
  await page.context().addInitScript((l) => window.localStorage.setItem('language', l), lang);
}

describe.skipIf(!hasChromium)('the interface in German and Greek', () => {
  const session = useBrowserSessions({ beforeAll, afterAll, beforeEach, afterEach, expect });

  it.each(['de', 'el'] as const)('%s: introduction, countries, link labels, other languages, quotation marks, font specimens', async (lang) => {
    const { page } = session();
    await useLanguage(page, lang);
    expect(settings.descriptions[lang], `the demo has a ${lang} introduction`).toBeTruthy();

    // The home page's introduction, and a country named in the language (the demo's are English names).
    await page.goto('/map');
    await page.getByText(settings.descriptions[lang], { exact: true }).waitFor();
    expect(await page.getByText(settings.description, { exact: true }).count()).toBe(0);
    const libs = (await api<{ libraries: LibraryPublic[] }>('/libraries')).libraries;
    const lanterna = libs.find((l) => l.address_country === 'Italy')!;
    const italy = countryName('IT', lang);
    expect(italy).not.toBe('Italy');
    await page.getByText(`${lanterna.address_city}, ${italy}`).first().waitFor();
    await page.goto(`/library/details/${lanterna.id}`);
    await waitForH1(page, lanterna.name);
    await page.getByText(italy, { exact: true }).waitFor();
    expect(await page.getByText('Italy', { exact: true }).count()).toBe(0);
    // Its languages ("it, en" in the records) named too.
    const spoken = lanterna.languages!.split(',').map((c) => languageName(c.trim(), lang)).join(', ');
    await page.getByText(spoken, { exact: true }).waitFor();

    // A copy's link labelled "Catalogue record" by its library reads in the interface language.
    let withLabel: Entry | undefined;
    for (const lib of libs) {
      if (withLabel) break;
      for (const m of (await search({ query: `library:${lib.id}`, page_size: 5 })).matches) {
        const e = await api<Entry>(`/entry/${m.entry_id}`);
        if (e.data_sources.some((d) => d.uri_label === 'Catalogue record')) {
          withLabel = e;
          break;
        }
      }
    }
    expect(withLabel, 'a demo entry with a "Catalogue record" link').toBeTruthy();
    await page.goto(`/entry/${withLabel!.id}`);
    await waitForH1(page, new RegExp(withLabel!.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    const label = tr(lang, 'Catalogue record');
    expect(label).not.toBe('Catalogue record');
    await page.getByRole('rowheader', { name: label }).first().waitFor();
    expect(await page.getByRole('rowheader', { name: 'Catalogue record' }).count()).toBe(0);

    // The other-language links name the languages in the interface language: "Deutsch (Übersetzung)".
    let entry: Entry | undefined;
    for (const m of (await search({ filter_translate: 'translation', page_size: 10 })).matches) {
      entry = await api<Entry>(`/entry/${m.entry_id}`);
      if (entry.original_entry) break;
    }
    expect(entry?.original_entry, 'a demo entry that is a translation').toBeTruthy();
    const original = entry!.original_entry!;
    await page.goto(`/entry/${entry!.id}`);
    const others = page.getByRole('region', { name: tr(lang, 'Other languages:') });
    const expected = `${original.languages.map((l) => languageName(l.id, lang)).join(', ')} (${tr(lang, 'Original')})`;
    await others.getByRole('link', { name: expected }).waitFor();
    for (const l of original.languages) expect(await others.innerText()).not.toContain(l.value);

    // Quotation marks of the language around the query in the results heading.
    await page.goto('/search?query=kropotkin');
    await waitForH1(page, new RegExp(QUOTED[lang]('kropotkin').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    expect(await page.getByRole('heading', { level: 1 }).first().innerText()).not.toContain('“kropotkin”');

    // The font specimens the Book Builder shows are a pangram of the language, not the English fox.
    let bookEntry: Entry | undefined;
    for (let id = 577; id <= 583 && !bookEntry; id++) {
      const e = await api<Entry>(`/entry/${id}`).catch(() => undefined);
      if (e?.data_sources.some((d) => d.can_add_to_bookbuilder)) bookEntry = e;
    }
    expect(bookEntry, 'a demo text for the Book Builder').toBeTruthy();
    await page.goto(`/entry/${bookEntry!.id}`);
    await page.getByRole('button', { name: tr(lang, 'Add to the Book Builder') }).first().click();
    await page.getByRole('link', { name: tr(lang, 'Added to the Book Builder!') }).first().waitFor();
    await page.goto('/bookbuilder');
    await page.getByRole('tab', { name: tr(lang, 'Fonts') }).click();
    const sample = page.getByRole('img', { name: tr(lang, 'Sample of the font {{name}}').replace('{{name}}', 'DejaVu Serif') });
    await sample.waitFor();
    const src = (await sample.getAttribute('src'))!;
    expect(src).toMatch(new RegExp(`\\?lang=${lang}$`));
    const [own, english] = await Promise.all([fetch(`${baseUrl}${src}`), fetch(`${baseUrl}${src.replace(/\?.*$/, '')}`)]);
    expect(own.status).toBe(200);
    expect(await own.text()).not.toBe(await english.text());
  });

  it.each(LANGS)('%s: the header is one line high at 1366 × 768', async (lang) => {
    const { page } = session();
    await useLanguage(page, lang);
    // One line's height: the header's at a width where nothing can wrap.
    await page.setViewportSize({ width: 3000, height: 768 });
    await page.goto('/search');
    await page.getByRole('banner').getByRole('navigation').getByRole('link').first().waitFor();
    await page.evaluate(() => document.fonts.ready);
    const oneLine = await page.getByRole('banner').evaluate((h) => h.getBoundingClientRect().height);
    await page.setViewportSize({ width: 1366, height: 768 });
    const at1366 = await waitUntil(async () => {
      const hgt = await page.getByRole('banner').evaluate((h) => h.getBoundingClientRect().height);
      return hgt > 0 ? hgt : false;
    }, 'the header measured');
    expect(at1366, `header height at 1366 px in ${lang} (one line: ${oneLine} px)`).toBe(oneLine);
  });
});
