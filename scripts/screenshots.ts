// `npm run screenshots`: pictures of the product for the README. Starts the demo server (fresh temporary
// DATA_DIR, 127.0.0.1, the built web app), opens the home page, a search, an entry and the Book Builder
// with two texts in Chromium at 1366 and 390 px, and writes viewport PNGs to docs/screenshots/. Stops the
// server and removes its data afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import type { Entry } from '@uc/shared';
import { atExit, repoRoot, startServer } from '../bench/lib/child-server.ts';
import { CHROMIUM_ARGS, findChromium } from '../e2e/lib/chromium.ts';

const OUT = path.join(repoRoot, 'docs', 'screenshots');
const WIDTHS = [
  { name: '1366', width: 1366, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;
/** A README picture should stay light. */
const MAX_BYTES = 250_000;

async function main(): Promise<void> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('Chromium was not found at /usr/bin/chromium (or $CHROMIUM_PATH): apt-get install -y chromium');
  const dist = path.join(repoRoot, 'web', 'dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error('web/dist is missing: npm run build -w web first');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-screenshots-'));
  atExit(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const logFile = path.join(dataDir, 'server.log');
  const server = await startServer({ dataDir, lifetimeS: 600, logFile, env: { WEB_DIST: dist } });
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  try {
    const api = async <T>(p: string): Promise<T> => (await (await fetch(`${server.base}/collector/api${p}`)).json()) as T;
    // Texts that go into the Book Builder (the demo's Muse texts), the first one shown as the entry.
    const texts: Entry[] = [];
    for (let id = 577; id <= 590 && texts.length < 2; id++) {
      const e = await api<Entry>(`/entry/${id}`).catch(() => undefined);
      if (e?.data_sources?.some((d) => d.can_add_to_bookbuilder)) texts.push(e);
    }
    if (texts.length < 2) throw new Error('the demo catalogue has fewer than two texts for the Book Builder');
    const word = texts[0].title.split(/\s+/).find((w) => /^\p{L}{5,}$/u.test(w)) ?? 'library';

    fs.mkdirSync(OUT, { recursive: true });
    for (const size of WIDTHS) {
      const context = await browser.newContext({ baseURL: server.base, viewport: { width: size.width, height: size.height }, locale: 'en-GB' });
      const page = await context.newPage();
      const shoot = async (name: string) => {
        await settle(page);
        const file = path.join(OUT, `${name}-${size.name}.png`);
        await page.screenshot({ path: file });
        const bytes = fs.statSync(file).size;
        console.log(`${path.relative(repoRoot, file)} ${Math.round(bytes / 1024)} KB`);
        if (bytes > MAX_BYTES) console.warn(`  larger than ${MAX_BYTES / 1000} KB`);
      };

      await page.goto('/map');
      await page.locator('.leaflet-container').first().waitFor();
      await shoot('home');

      await page.goto(`/search?${new URLSearchParams({ query: word })}`);
      await page.getByRole('heading', { level: 1, name: /Search results/ }).waitFor();
      await shoot('search');

      for (const [i, e] of texts.entries()) {
        await page.goto(`/entry/${e.id}`);
        await page.getByRole('button', { name: 'Add to the Book Builder' }).first().waitFor();
        if (i === 0) await shoot('entry');
        await page.getByRole('button', { name: 'Add to the Book Builder' }).first().click();
        await page.getByRole('link', { name: 'Added to the Book Builder!' }).first().waitFor();
      }
      await page.goto('/bookbuilder');
      await page.getByTestId('book-text').first().waitFor();
      await shoot('bookbuilder');
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** Quiet network, fonts loaded, a painted frame. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
