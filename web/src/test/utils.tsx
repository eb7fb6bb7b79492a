import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { vi, type Mock } from 'vitest';
import { createQueryClient } from '../api/hooks';
import { routes } from '../routes';
import { general } from './fixtures';

type Handler = (url: URL, init?: RequestInit) => { status?: number; body: unknown } | undefined;

export interface MockedApi {
  fetch: Mock<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>;
  /** URLs requested so far (pathname + search), optionally only those starting with a prefix. */
  calls: (prefix?: string) => URL[];
}

/** Stubs global fetch; `routes` map an API path prefix (after /collector/api) to a handler. */
export function mockApi(handlers: Record<string, Handler>): MockedApi {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/collector\/api/, '');
    const defaults: Record<string, Handler> = {
      '/general': () => ({ body: general }),
      '/pages/footer/': () => ({ body: { pages: [{ id: 1, title: 'About us', summary: 'Who we are' }] } }),
    };
    const all = { ...defaults, ...handlers };
    const key = Object.keys(all)
      .filter((k) => path === k || path.startsWith(k))
      .sort((a, b) => b.length - a.length)[0];
    const res = key ? all[key](url, init) : undefined;
    if (!res) return new Response(JSON.stringify({ error: 'Not found' }), { status: 404 });
    return new Response(JSON.stringify(res.body), {
      status: res.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetch: fetchMock,
    calls: (prefix = '') =>
      fetchMock.mock.calls
        .map((c) => new URL(String(c[0]), 'http://localhost'))
        .filter((u) => u.pathname.startsWith(`/collector/api${prefix}`)),
  };
}

export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const utils = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...utils, router, queryClient };
}

export function currentParams(router: ReturnType<typeof createMemoryRouter>): URLSearchParams {
  return new URLSearchParams(router.state.location.search);
}
