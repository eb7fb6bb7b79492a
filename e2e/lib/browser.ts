// One Chromium per test file, one fresh context (cookies, localStorage) per test.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_ARGS } from './chromium.ts';

export const baseUrl: string = inject('baseUrl');
export const chromiumPath: string = inject('chromiumPath');
export const hasChromium = chromiumPath !== '';

if (!hasChromium) {
  console.warn('[e2e] NOTICE: Chromium is missing (see the notice above); skipping the browser tests of this file.');
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
}

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors (Content-Security-Policy refusals among them) seen so far. */
  errors: string[];
}

export async function newSession(browser: Browser): Promise<Session> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(20_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return { context, page, errors };
}

/** Waits until `fn` returns a truthy value (polling, no fixed sleeps). */
export async function waitUntil<T>(fn: () => Promise<T | false | undefined | null | ''> | T | false | undefined | null | '', what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as T;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The text of the page's visible h1 (the search view stays mounted but hidden on other routes). */
export async function h1Text(page: Page): Promise<string> {
  return ((await page.getByRole('heading', { level: 1 }).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

/** Waits until the visible h1 reads exactly `text` (or matches the regexp). */
export async function waitForH1(page: Page, text: string | RegExp, timeoutMs = 15_000): Promise<string> {
  let seen = '';
  try {
    await waitUntil(
      async () => {
        const h = page.getByRole('heading', { level: 1 });
        if ((await h.count()) === 0) return false;
        seen = (await h.first().innerText()).replace(/\s+/g, ' ').trim();
        return typeof text === 'string' ? seen === text : text.test(seen);
      },
      `the h1 to read ${String(text)}`,
      timeoutMs,
    );
  } catch {
    throw new Error(`Expected the page heading (h1) to read ${JSON.stringify(String(text))} but it reads ${JSON.stringify(seen)} (${page.url()})`);
  }
  return seen;
}

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; html: string; failureSummary?: string }[];
}

/** Runs axe-core in the page; returns the serious and critical violations. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= fs.readFileSync(path.join(path.dirname(require.resolve('axe-core')), 'axe.min.js'), 'utf8');
  // Evaluated, not added as an inline <script>: the site's Content-Security-Policy (script-src 'self')
  // refuses inline scripts, and test tooling must not need the policy loosened.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export function formatViolations(where: string, vs: AxeViolation[]): string {
  const lines = [`axe-core: ${vs.length} serious/critical violation(s) on ${where}:`];
  for (const v of vs) {
    lines.push(`- [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`);
    for (const n of v.nodes.slice(0, 5)) {
      lines.push(`    at ${JSON.stringify(n.target)}: ${n.html.slice(0, 200)}`);
      if (n.failureSummary) lines.push(`      ${n.failureSummary.replace(/\n/g, '\n      ')}`);
    }
    if (v.nodes.length > 5) lines.push(`    ... and ${v.nodes.length - 5} more node(s)`);
  }
  return lines.join('\n');
}

/**
 * Registers the hooks of a browser test file: one Chromium for the file, a fresh session per test, and
 * a check that the page threw no uncaught error. Returns a getter for the current test's session.
 */
export function useBrowserSessions(hooks: {
  beforeAll: (fn: () => Promise<void>) => void;
  afterAll: (fn: () => Promise<void>) => void;
  beforeEach: (fn: () => Promise<void>) => void;
  afterEach: (fn: () => Promise<void>) => void;
  expect: (v: unknown, msg?: string) => { toEqual: (x: unknown) => void };
}): () => Session {
  let browser: Browser;
  let current: Session;
  hooks.beforeAll(async () => {
    browser = await launchBrowser();
  });
  hooks.afterAll(async () => {
    await browser?.close();
  });
  hooks.beforeEach(async () => {
    current = await newSession(browser);
  });
  hooks.afterEach(async () => {
    await current.context.close();
    const crashes = current.errors.filter((e) => e.startsWith('pageerror'));
    hooks.expect(crashes, `uncaught errors in the page:\n${crashes.join('\n')}`).toEqual([]);
    // Anything the Content-Security-Policy refused means the policy breaks part of the app.
    const refused = current.errors.filter((e) => /Content Security Policy/i.test(e));
    hooks.expect(refused, `Content-Security-Policy violations:\n${refused.join('\n')}`).toEqual([]);
  });
  return () => current;
}
