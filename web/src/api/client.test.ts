import { afterEach, describe, expect, it, vi } from 'vitest';
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

  it('reads a refusal the spec\'s way (200 with error) as an ApiError; a job\'s failed state stays data', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"logged_in":null,"error":"Invalid login"}', { status: 200 })));
    await expect(api.login({ username: 'a', password: 'b' })).rejects.toMatchObject({ message: 'Invalid login', serverError: 'Invalid login' });
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"job_id":3,"status":"failed","error":"Typst failed"}', { status: 200 })));
    await expect(request('/bookbuilder', { method: 'POST', body: { check_job_id: 3 } })).resolves.toMatchObject({ status: 'failed', error: 'Typst failed' });
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"agent":{"id":1},"error":null}', { status: 200 })));
    await expect(request('/agents/1')).resolves.toMatchObject({ error: null });
  });

  it('asks for the server\'s messages in the interface language', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    document.documentElement.lang = 'de';
    await request('/general');
    expect(((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].headers as Record<string, string>)['Accept-Language']).toBe('de');
    document.documentElement.lang = 'en';
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

  it('sends the CSRF token on logout, a GET that the server checks (a cross-site link must not log anyone out)', async () => {
    document.cookie = 'csrftoken=abc123';
    const fetchMock = vi.fn(async () => new Response('{"ok":"Logged out"}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await api.logout();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/collector/api/auth/logout');
    expect(init.method).toBe('GET');
    expect((init.headers as Record<string, string>)['X-CSRFToken']).toBe('abc123');
    expect(init.body).toBeUndefined();
  });

  it('builds download URLs with or without the leading dot', () => {
    expect(downloadUrl(5, '.pdf', true)).toBe('/collector/api/download/5.pdf?inline=1');
    expect(downloadUrl(5, 'epub')).toBe('/collector/api/download/5.epub');
  });
});

describe('CSRF on a first visit', () => {
  const CSRF_403 = () => new Response('{"error":"CSRF token missing or incorrect: reload the page and try again"}', { status: 403 });
  const setCookie = (v: string) => {
    document.cookie = `csrftoken=${v}; path=/`;
  };
  const sent = (fetchMock: ReturnType<typeof vi.fn>) =>
    fetchMock.mock.calls.map((c) => {
      const [url, init] = c as unknown as [string, RequestInit | undefined];
      return { url, method: init?.method ?? 'GET', token: (init?.headers as Record<string, string> | undefined)?.['X-CSRFToken'] };
    });
  afterEach(() => {
    document.cookie = 'csrftoken=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  });

  it('retries a call refused for CSRF once, with the cookie the browser holds by then', async () => {
    setCookie('first');
    const fetchMock = vi
      .fn()
      .mockImplementationOnce(async () => {
        // Another answer replaced the cookie while this call was on its way.
        setCookie('second');
        return CSRF_403();
      })
      .mockImplementationOnce(async () => new Response('{"ok":1}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(request('/report/bug', { method: 'POST', body: { message: 'x' } })).resolves.toEqual({ ok: 1 });
    expect(sent(fetchMock)).toEqual([
      { url: '/collector/api/report/bug', method: 'POST', token: 'first' },
      { url: '/collector/api/report/bug', method: 'POST', token: 'second' },
    ]);
    // The body is sent again, whole.
    expect((fetchMock.mock.calls[1] as unknown as [string, RequestInit])[1].body).toBe('{"message":"x"}');
  });

  it('does not retry a second CSRF refusal, nor other 403s', async () => {
    setCookie('tok');
    const refused = vi.fn(async () => CSRF_403());
    vi.stubGlobal('fetch', refused);
    const err = await request('/report/bug', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 403, message: expect.stringMatching(/CSRF/) });
    expect(refused).toHaveBeenCalledTimes(2);

    const forbidden = vi.fn(async () => new Response('{"error":"Permission denied"}', { status: 403 }));
    vi.stubGlobal('fetch', forbidden);
    await expect(request('/admin/users', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 403, message: 'Permission denied' });
    expect(forbidden).toHaveBeenCalledTimes(1);
  });

  it('without a cookie, parallel calls first share one GET /csrf, then send the cookie it set', async () => {
    let csrfGets = 0;
    const fetchMock = vi.fn(async (url: string) => {
      if (url === '/collector/api/csrf') {
        csrfGets++;
        await new Promise((r) => setTimeout(r, 5));
        setCookie(`token-${csrfGets}`);
        return new Response('{"ok":true}', { status: 200 });
      }
      return new Response('{"fonts":[]}', { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
    await Promise.all([
      request('/bookbuilder', { method: 'POST', body: { action: 'get_fonts' } }),
      request('/bookbuilder', { method: 'POST', body: { action: 'get_headings' } }),
    ]);
    expect(csrfGets).toBe(1);
    expect(sent(fetchMock)).toEqual([
      { url: '/collector/api/csrf', method: 'GET', token: undefined },
      { url: '/collector/api/bookbuilder', method: 'POST', token: 'token-1' },
      { url: '/collector/api/bookbuilder', method: 'POST', token: 'token-1' },
    ]);
  });

  it('a first visit\'s POST waits for the GETs sent without a cookie, whose answers may still replace it, and sends the last one', async () => {
    let answerGet: () => void = () => undefined;
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'GET' && url === '/collector/api/general') {
        await new Promise<void>((r) => (answerGet = r));
        setCookie('from-the-get'); // the server's answer to a cookieless GET
        return new Response('{}', { status: 200 });
      }
      if (url === '/collector/api/csrf') {
        setCookie('from-csrf');
        return new Response('{"ok":true}', { status: 200 });
      }
      return new Response('{"ok":1}', { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
    const get = request('/general');
    const post = request('/report/bug', { method: 'POST', body: {} });
    await new Promise((r) => setTimeout(r, 10));
    expect(sent(fetchMock).map((c) => c.method), 'the POST is not sent before the GET is answered').toEqual(['GET']);
    answerGet();
    await Promise.all([get, post]);
    expect(sent(fetchMock)).toEqual([
      { url: '/collector/api/general', method: 'GET', token: undefined },
      { url: '/collector/api/report/bug', method: 'POST', token: 'from-the-get' },
    ]);
  });

  it('a POST refused for a missing cookie retries once with the cookie the refusal set', async () => {
    const fetchMock = vi.fn(async (url: string) => {
      if (url === '/collector/api/csrf') return new Response('{"error":"down"}', { status: 502 }); // no cookie from there
      if (!document.cookie.includes('csrftoken=')) {
        setCookie('from-the-403');
        return CSRF_403();
      }
      return new Response('{"ok":1}', { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
    await expect(request('/report/bug', { method: 'POST', body: {} })).resolves.toEqual({ ok: 1 });
    expect(sent(fetchMock).filter((c) => c.method === 'POST').map((c) => c.token)).toEqual([undefined, 'from-the-403']);
  });

  it('GETs never ask for a cookie first', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await request('/general');
    expect(sent(fetchMock).map((c) => c.url)).toEqual(['/collector/api/general']);
  });
});
