// The one client for /collector/api: URL and query-string building, JSON, typed errors, CSRF.
import type {
  Agent,
  Entry,
  FullText,
  General,
  LibraryPublic,
  Page,
  PageSummary,
  SearchResponse,
} from '../lib/shared';
import type { AgentSearchResponse, BugReportBody, ReportAnswer, WikidataResponse } from './types';
import type { BookbuilderRequest, BookbuilderResponse, BookcoverRequest, BookcoverResponse, BookcoverUploadResponse } from '@uc/shared';
import type { AuthUser, DataSourceReportBody, LatestResponse, LoginBody, ResetPasswordBody, SuggestResponse } from '@uc/shared';

export const API_BASE = '/collector/api';

/** An HTTP failure: `status` is the HTTP status (0 for a network failure), `message` the server's `error`. */
export class ApiError extends Error {
  readonly status: number;
  /** The server's own `error` text, when the answer carried one (else undefined). */
  readonly serverError?: string;
  constructor(status: number, message: string, serverError?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.serverError = serverError;
  }
}

export function isApiError(e: unknown, status?: number): e is ApiError {
  return e instanceof ApiError && (status === undefined || e.status === status);
}

export type ParamValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Params = Record<string, ParamValue>;

/** Builds a query string, omitting empty values; arrays become repeated parameters. */
export function buildQueryString(params: Params = {}): string {
  const sp = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      const s = String(v);
      if (s.trim() === '') continue;
      sp.append(key, s);
    }
  }
  const qs = sp.toString();
  return qs ? `?${qs}` : '';
}

export function apiUrl(path: string, params?: Params): string {
  return `${API_BASE}${path.startsWith('/') ? path : `/${path}`}${buildQueryString(params)}`;
}

/** Reads the CSRF token from the `csrftoken` cookie (sent as X-CSRFToken on state-changing calls). */
export function csrfToken(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const match = document.cookie.split(/;\s*/).find((c) => c.startsWith('csrftoken='));
  return match ? decodeURIComponent(match.slice('csrftoken='.length)) : undefined;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  params?: Params;
  body?: unknown;
  signal?: AbortSignal;
  /** Send the CSRF header on a GET too: the spec's logout is a GET that changes state, and the server checks it. */
  csrf?: boolean;
}

let csrfCookieRequest: Promise<void> | null = null;

/**
 * API requests sent while the browser held no cookie: the server hands a new `csrftoken` to each of
 * them, so until they are answered the cookie may still change under a token just read.
 */
const cookielessInFlight = new Set<Promise<unknown>>();

/** fetch for API URLs; a request sent without a cookie is counted until its answer (and cookie) arrived. */
export function apiFetch(url: string, init: RequestInit): Promise<Response> {
  const answer = fetch(url, init);
  if (!csrfToken()) {
    const settled = answer.then(
      () => undefined,
      () => undefined,
    );
    cookielessInFlight.add(settled);
    void settled.finally(() => cookielessInFlight.delete(settled));
  }
  return answer;
}

/**
 * Makes sure the browser holds a `csrftoken` cookie that no answer still on its way will replace, before
 * a state-changing call reads it: it waits for the API requests sent without a cookie (a first visit's
 * GETs), and when there is still no cookie, one GET /csrf hands it out, shared by every call waiting at
 * that moment, so parallel first calls end up with one cookie rather than one each. A failure is left to
 * the call itself (its one retry).
 */
export async function ensureCsrfCookie(): Promise<void> {
  for (let round = 0; round < 4; round++) {
    if (cookielessInFlight.size) {
      await Promise.all([...cookielessInFlight]);
      continue;
    }
    if (csrfToken()) return;
    csrfCookieRequest ??= apiFetch(apiUrl('/csrf'), { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        csrfCookieRequest = null;
      });
    await csrfCookieRequest;
  }
}

/** The interface language (set on <html lang> by the i18n setup), so the server's messages come in it. */
export function languageHeader(): Record<string, string> {
  const lang = typeof document !== 'undefined' ? document.documentElement.lang : '';
  return lang ? { 'Accept-Language': lang } : {};
}

/** A 403 from the CSRF check (not a permission refusal). */
export function isCsrfRefusal(e: unknown): e is ApiError {
  return isApiError(e, 403) && /csrf/i.test(e.serverError ?? '');
}

/**
 * One API call. State-changing calls send the `csrftoken` cookie's value as X-CSRFToken, read when the
 * call is sent; a call refused for CSRF (another answer replaced the cookie meanwhile, or it was missing)
 * is sent once more with the cookie the browser holds then, never more than once.
 */
export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  if ((opts.method ?? 'GET') === 'GET' && !opts.csrf) return send<T>(path, opts);
  await ensureCsrfCookie();
  try {
    return await send<T>(path, opts);
  } catch (e) {
    if (!isCsrfRefusal(e) || opts.signal?.aborted) throw e;
    await ensureCsrfCookie();
    return send<T>(path, opts);
  }
}

async function send<T>(path: string, opts: RequestOptions): Promise<T> {
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', ...languageHeader() };
  let body: BodyInit | undefined;
  if (method !== 'GET' || opts.csrf) {
    const token = csrfToken();
    if (token) headers['X-CSRFToken'] = token;
  }
  if (method !== 'GET') {
    if (opts.body instanceof FormData) {
      body = opts.body;
    } else if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
  }
  let res: Response;
  try {
    res = await apiFetch(apiUrl(path, opts.params), {
      method,
      headers,
      body,
      signal: opts.signal,
      credentials: 'same-origin',
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, e instanceof Error ? e.message : 'Network error');
  }
  let data: unknown = undefined;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  return answerOf<T>(res, data);
}

/**
 * The data of an answer, or the ApiError it carries: a 4xx/5xx, or a refusal the spec's way (spec §7:
 * a 200 whose `error` is set: wrong password, a form's validation message). An answer with a `status`
 * is a job's state, whose `error` is the job's failure (data, not a refusal).
 */
export function answerOf<T>(res: Response, data: unknown): T {
  const serverError =
    data && typeof data === 'object' && 'error' in data && typeof data.error === 'string' && data.error ? data.error : undefined;
  if (!res.ok) throw new ApiError(res.status, serverError ?? (res.statusText || `HTTP ${res.status}`), serverError);
  if (data === undefined) throw new ApiError(res.status, 'Invalid JSON response');
  if (serverError && !('status' in (data as object))) throw new ApiError(res.status, serverError, serverError);
  return data as T;
}

// ---------- typed endpoints ----------
export interface SearchParams {
  query?: string;
  sort_by?: string;
  page_number?: number;
  page_size?: number;
  filters?: Partial<Record<string, readonly string[]>>;
  translations?: boolean;
  exact?: boolean;
}

export function searchParamsToApi(p: SearchParams): Params {
  const out: Params = {
    query: p.query,
    sort_by: p.sort_by,
    page_number: p.page_number && p.page_number > 1 ? p.page_number : undefined,
    page_size: p.page_size,
    translations: p.translations ? '1' : undefined,
    exact: p.exact ? '1' : undefined,
  };
  for (const [name, values] of Object.entries(p.filters ?? {})) {
    if (values && values.length) out[`filter_${name}`] = values;
  }
  return out;
}

export const api = {
  general: (signal?: AbortSignal) => request<General>('/general', { signal }),
  search: (p: SearchParams, signal?: AbortSignal) =>
    request<SearchResponse>('/search', { params: searchParamsToApi(p), signal }),
  suggest: (q: string, signal?: AbortSignal) => request<SuggestResponse>('/suggest', { params: { q }, signal }),
  entry: (id: number | string, signal?: AbortSignal) => request<Entry>(`/entry/${encodeURIComponent(id)}`, { signal }),
  /** The newest entries (the home page); `query` narrows them, its last word matched as typed. */
  latest: (p: { query?: string; page_size?: number }, signal?: AbortSignal) =>
    request<LatestResponse>('/latest', { params: p, signal }),
  fullText: (dataSourceId: number, signal?: AbortSignal) => request<FullText>(`/full-text/${dataSourceId}`, { signal }),
  library: (id: number | string, signal?: AbortSignal) =>
    // An unknown or hidden library answers library null.
    request<{ library: LibraryPublic | null }>(`/libraries/${encodeURIComponent(id)}`, { signal }),
  libraries: (signal?: AbortSignal) => request<{ libraries: LibraryPublic[] }>('/libraries', { signal }),
  agents: (search: string, signal?: AbortSignal) =>
    request<AgentSearchResponse>('/agents', { params: { search }, signal }),
  wikidata: (id: number | string, language: string, signal?: AbortSignal) =>
    request<WikidataResponse>(`/agents/${encodeURIComponent(id)}/wikidata/${encodeURIComponent(language)}`, { signal }),
  reportBug: (body: BugReportBody) => request<ReportAnswer>('/report/bug', { method: 'POST', body }),
  agent: (id: number | string, signal?: AbortSignal) =>
    request<{ agent: Agent }>(`/agents/${encodeURIComponent(id)}`, { signal }),
  footerPages: (lang: string, signal?: AbortSignal) =>
    request<{ pages: PageSummary[] }>(`/pages/footer/${encodeURIComponent(lang)}`, { signal }),
  page: (id: number | string, signal?: AbortSignal) =>
    request<{ page: Page }>(`/pages/${encodeURIComponent(id)}`, { signal }),
  /** POST /bookbuilder with one of the actions of spec §7. */
  bookbuilder: (body: BookbuilderRequest, signal?: AbortSignal) =>
    request<BookbuilderResponse>('/bookbuilder', { method: 'POST', body, signal }),
  /** POST /bookcover: get_tokens, preview or build. */
  bookcover: (body: BookcoverRequest, signal?: AbortSignal) =>
    request<BookcoverResponse>('/bookcover', { method: 'POST', body, signal }),
  /** POST /bookcover/upload: one image for the file token `token` (the multipart field's name), with the session id. */
  bookcoverUpload: (sessionId: string, token: string, file: Blob, signal?: AbortSignal) => {
    const form = new FormData();
    // The session id goes first: a streaming multipart parser reads it before the file.
    form.append('session_id', sessionId);
    form.append(token, file);
    return request<BookcoverUploadResponse>('/bookcover/upload', { method: 'POST', body: form, signal });
  },
  // ---------- accounts (spec §7 Authentication) ----------
  authUser: (signal?: AbortSignal) => request<AuthUser>('/auth/user', { signal }),
  login: (body: LoginBody) => request<AuthUser>('/auth/login', { method: 'POST', body }),
  logout: () => request<{ ok: string }>('/auth/logout', { csrf: true }),
  /** send-link answers { message }; reset answers the logged-in user. */
  resetPassword: <B extends ResetPasswordBody>(body: B) =>
    request<B extends { operation: 'reset' } ? AuthUser : { message: string }>('/auth/reset-password', { method: 'POST', body }),
  userMenuPages: (lang: string, signal?: AbortSignal) =>
    request<{ pages: PageSummary[] }>(`/pages/user_menu/${encodeURIComponent(lang)}`, { signal }),
  reportDataSourceError: (dataSourceId: number, body: DataSourceReportBody) =>
    request<ReportAnswer>(`/report/data-source-error/${encodeURIComponent(dataSourceId)}`, { method: 'POST', body }),
};

/** URL of a session's built PDF; `job` makes each build's address distinct (no stale cached copy). */
export function bookPdfUrl(sessionId: string, opts: { job?: number | null; inline?: boolean } = {}): string {
  return apiUrl(`/bookbuilder/${encodeURIComponent(sessionId)}`, { inline: opts.inline ? 1 : undefined, job: opts.job ?? undefined });
}

/** URL of a download; `ext` may come with or without its leading dot. */
export function downloadUrl(dataSourceId: number, ext: string, inline = false): string {
  const e = ext.startsWith('.') ? ext : `.${ext}`;
  return `${API_BASE}/download/${dataSourceId}${e}${inline ? '?inline=1' : ''}`;
}

/** Citation formats of GET /entry/{id}/cite: files for reference managers, then readable styles (text). */
export type CiteFormat = 'bibtex' | 'ris' | 'csl-json' | 'apa' | 'chicago' | 'mla';

/** URL of the citation of one copy of an entry (the first without dataSourceId); a file format downloads. */
export function citationUrl(entryId: number | string, format: CiteFormat, dataSourceId?: number): string {
  return apiUrl(`/entry/${encodeURIComponent(entryId)}/cite`, dataSourceId === undefined ? { format } : { format, data_source: dataSourceId });
}

/** The citation as text (for copying); failures as ApiError like the JSON calls. */
export async function fetchCitation(entryId: number | string, format: CiteFormat, dataSourceId?: number, signal?: AbortSignal): Promise<string> {
  let res: Response;
  try {
    res = await apiFetch(citationUrl(entryId, format, dataSourceId), { signal, credentials: 'same-origin' });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, e instanceof Error ? e.message : 'Network error');
  }
  const text = await res.text();
  if (!res.ok) {
    let serverError: string | undefined;
    try {
      const data = JSON.parse(text) as { error?: unknown };
      if (typeof data.error === 'string' && data.error) serverError = data.error;
    } catch {
      /* not JSON */
    }
    throw new ApiError(res.status, serverError ?? (res.statusText || `HTTP ${res.status}`), serverError);
  }
  return text;
}
