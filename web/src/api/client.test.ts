import { describe, expect, it, vi } from 'vitest';
import { ApiError, api, buildQueryString, downloadUrl, request } from './client';

describe('api client', () => {
  it('omits empty parameters and repeats arrays', () => {
    expect(buildQueryString({ query: '', sort_by: 'relevance', page_number: undefined, filter_language: ['en', 'it'] })).toBe(
      '?sort_by=relevance&filter_language=en&filter_language=it',
    );
    expect(buildQueryString({ query: '  ' })).toBe('');
  });

  it('builds the search request from the search params', async () => {
    const fetchMock = vi.fn(async () => new Response('{"matches":[]}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await api.search({ query: 'a b', sort_by: 'title_asc', page_number: 1, filters: { language: ['en'], date: [] } });
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toBe(
      '/collector/api/search?query=a+b&sort_by=title_asc&filter_language=en',
    );
  });

  it('throws an ApiError with the status and the server error text', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"error":"Bad query"}', { status: 400 })));
    const err = await api.search({ query: '(' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, message: 'Bad query' });
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(api.general()).rejects.toMatchObject({ status: 0 });
  });

  it('sends the CSRF token from the cookie on state-changing calls only', async () => {
    document.cookie = 'csrftoken=abc123';
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await request('/report/bug', { method: 'POST', body: { message: 'x' } });
    await request('/general');
    const headers = (i: number) => (fetchMock.mock.calls[i] as unknown as [string, RequestInit])[1].headers as Record<string, string>;
    expect(headers(0)['X-CSRFToken']).toBe('abc123');
    expect(headers(0)['Content-Type']).toBe('application/json');
    expect(headers(1)['X-CSRFToken']).toBeUndefined();
  });

  it('builds download URLs with or without the leading dot', () => {
    expect(downloadUrl(5, '.pdf', true)).toBe('/collector/api/download/5.pdf?inline=1');
    expect(downloadUrl(5, 'epub')).toBe('/collector/api/download/5.epub');
  });
});
