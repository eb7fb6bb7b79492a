// Shared steps of the browser tests: logging in through the API, asserting axe finds nothing serious,
// and calling the API with the page's own cookies.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { baseUrl, formatViolations, seriousAxeViolations } from './browser.ts';

/** Logs in through the API in the page's context (page.request shares the context's cookies). */
export async function apiLogin(page: Page, username: string, password: string): Promise<void> {
  await page.request.get(`${baseUrl}/collector/api/auth/user`);
  const res = await page.request.post(`${baseUrl}/collector/api/auth/login`, {
    headers: { 'X-CSRFToken': await csrfOf(page), 'Content-Type': 'application/json' },
    data: { username, password },
  });
  expect(res.status(), await res.text()).toBe(200);
  expect((await res.json()).logged_in).toBe(username);
}

/**
 * Logs in once from the test process and gives the cookies of that session, for tests that open many
 * browser contexts as one user (one login serves them all: fewer password hashes).
 */
export async function sessionCookies(username: string, password: string): Promise<{ name: string; value: string; url: string }[]> {
  const csrf = 'e2e-session-csrf';
  const res = await fetch(`${baseUrl}/collector/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrf, cookie: `csrftoken=${csrf}` },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const sid = /sessionid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  expect(sid, 'session cookie').toBeTruthy();
  return [{ name: 'sessionid', value: sid!, url: baseUrl }, { name: 'csrftoken', value: csrf, url: baseUrl }];
}

async function csrfOf(page: Page): Promise<string> {
  const csrf = (await page.context().cookies(baseUrl)).find((c) => c.name === 'csrftoken')?.value;
  expect(csrf).toBeTruthy();
  return csrf!;
}

/** A JSON API call made as the page's user. */
export async function pageApi<T>(page: Page, method: 'GET' | 'POST', path: string, data?: unknown): Promise<{ status: number; body: T }> {
  const url = `${baseUrl}/collector/api${path}`;
  const res = method === 'GET'
    ? await page.request.get(url)
    : await page.request.post(url, { headers: { 'X-CSRFToken': await csrfOf(page), 'Content-Type': 'application/json' }, data: data ?? {} });
  return { status: res.status(), body: (await res.json()) as T };
}

export async function expectAxeClean(page: Page, where: string): Promise<void> {
  const vs = await seriousAxeViolations(page);
  expect(vs, formatViolations(where, vs)).toEqual([]);
}
