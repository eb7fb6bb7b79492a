// Library administration calls (spec §7), through the one client.
import { ApiError, apiFetch, apiUrl, csrfToken, ensureCsrfCookie, request } from '../../api/client';
import type {
  AdminLibrary,
  CreateLibraryUserBody,
  LibraryEditBody,
  LibraryUser,
  LibraryUsersResponse,
  RowError,
  Site,
  SiteBody,
  SpreadsheetSite,
  SpreadsheetStatus,
  SpreadsheetUploadResponse,
} from '@uc/shared';

export type { AdminLibrary, LibraryUser, SpreadsheetSite, SpreadsheetStatus, SpreadsheetUploadResponse, RowError };

const lib = (id: number | string) => encodeURIComponent(id);

export const libraryAdminApi = {
  details: (id: number | string, signal?: AbortSignal) =>
    request<{ library: AdminLibrary; users: LibraryUser[] }>(`/library/details/${lib(id)}`, { signal }),
  update: (id: number | string, body: LibraryEditBody) =>
    request<{ success: string; library: AdminLibrary }>(`/library/details/${lib(id)}`, { method: 'POST', body }),
  users: (id: number | string) => request<LibraryUsersResponse>(`/library/list-users/${lib(id)}`),
  createUser: (id: number | string, body: CreateLibraryUserBody) =>
    request<{ success: string; status: 'created' | 'added' | 'present'; user_id: number }>(`/library/create-user/${lib(id)}`, { method: 'POST', body }),
  removeUser: (id: number | string, userId: number) =>
    request<{ success: string }>(`/library/remove-user/${lib(id)}`, { method: 'POST', body: { id: userId } }),
  userCheck: (username: string, signal?: AbortSignal) =>
    request<{ username: string; username_exists: number | boolean }>(`/auth/user-check/${encodeURIComponent(username)}`, { signal }),
  sites: (id: number | string, signal?: AbortSignal) =>
    request<{ sites: SpreadsheetSite[]; max_bytes: number }>(`/spreadsheet/${lib(id)}`, { signal }),
  createSite: (id: number | string, title: string, csvType: string) =>
    request<{ site: SpreadsheetSite }>(`/spreadsheet/site/${lib(id)}`, { method: 'POST', body: { title, csv_type: csvType } }),
  upload: (id: number | string, form: FormData) => uploadSpreadsheet(id, form),
  /** The library's logo as a file (PNG, JPEG, WebP or GIF): the server keeps and serves it (issue 27). */
  uploadLogo: (id: number | string, file: File) => uploadLogo(id, file),
  process: (uploadId: number, skipBadRows: boolean) =>
    request<SpreadsheetStatus & { success: string }>(`/spreadsheet/process/${uploadId}`, { method: 'POST', body: { skip_bad_rows: skipBadRows } }),
  cancel: (uploadId: number) => request<{ success: string }>(`/spreadsheet/cancel/${uploadId}`, { method: 'POST', body: {} }),
  status: (uploadId: number, signal?: AbortSignal) => request<SpreadsheetStatus>(`/spreadsheet/status/${uploadId}`, { signal }),
  // The library's harvestable sites (all types; library admins cannot set a Calibre folder: 403).
  harvestSites: (id: number | string, signal?: AbortSignal) => request<{ sites: Site[] }>(`/library/sites/${lib(id)}`, { signal }),
  createHarvestSite: (id: number | string, body: SiteBody) => request<{ site: Site }>(`/library/sites/${lib(id)}`, { method: 'POST', body }),
  updateHarvestSite: (id: number | string, siteId: number, body: SiteBody) =>
    request<{ site: Site }>(`/library/sites/${lib(id)}/${encodeURIComponent(siteId)}`, { method: 'PUT', body }),
};

/** An upload refused by the server: the message and, for bad rows, each row's line number. */
export class UploadError extends ApiError {
  readonly badRows: RowError[];
  constructor(status: number, message: string, badRows: RowError[]) {
    super(status, message);
    this.badRows = badRows;
  }
}

/** The multipart upload; unlike `request`, keeps the `bad_rows` of a refusal. */
async function uploadSpreadsheet(id: number | string, form: FormData): Promise<SpreadsheetUploadResponse> {
  await ensureCsrfCookie();
  const token = csrfToken();
  let res: Response;
  try {
    res = await apiFetch(apiUrl(`/spreadsheet/${lib(id)}`), {
      method: 'POST', body: form, credentials: 'same-origin', headers: { Accept: 'application/json', ...(token ? { 'X-CSRFToken': token } : {}) },
    });
  } catch (e) {
    throw new ApiError(0, e instanceof Error ? e.message : 'Network error');
  }
  const data = (await res.json().catch(() => ({}))) as Partial<SpreadsheetUploadResponse> & { error?: string; bad_rows?: RowError[] };
  // A refused file is answered 200 with error (and bad_rows), the spec's way; 413 and the like keep their status.
  if (!res.ok || data.error) throw new UploadError(res.status, data.error || res.statusText || `HTTP ${res.status}`, data.bad_rows ?? []);
  return data as SpreadsheetUploadResponse;
}

/** The multipart logo upload; a refusal (not an image, too large) comes back as its error. */
async function uploadLogo(id: number | string, file: File): Promise<{ success: string; library: AdminLibrary }> {
  await ensureCsrfCookie();
  const token = csrfToken();
  const form = new FormData();
  form.append('logo', file);
  let res: Response;
  try {
    res = await apiFetch(apiUrl(`/library/logo/${lib(id)}`), {
      method: 'POST', body: form, credentials: 'same-origin', headers: { Accept: 'application/json', ...(token ? { 'X-CSRFToken': token } : {}) },
    });
  } catch (e) {
    throw new ApiError(0, e instanceof Error ? e.message : 'Network error');
  }
  const data = (await res.json().catch(() => ({}))) as { success?: string; library?: AdminLibrary; error?: string };
  if (!res.ok || data.error || !data.library) throw new ApiError(res.status, data.error || res.statusText || `HTTP ${res.status}`);
  return data as { success: string; library: AdminLibrary };
}

/** The spec §5 rules of the library edit form, checked before sending (the server checks them again). */
export function libraryFormErrors(v: { email_internal: string; email_public: string; latitude: string; longitude: string; year_established: string; name: string }): string[] {
  const errors: string[] = [];
  const email = /^[^\s@<>(),;:"\\]+@[^\s@<>(),;:"\\]+\.[^\s@<>(),;:"\\]+$/;
  if (!v.name.trim()) errors.push('The name is required');
  if (!v.email_internal.trim()) errors.push('The internal e-mail is required');
  else if (!email.test(v.email_internal.trim())) errors.push('The internal e-mail is not a valid address');
  if (v.email_public.trim() && !email.test(v.email_public.trim())) errors.push('The public e-mail is not a valid address');
  const coord = (s: string, limit: number) => {
    if (!s.trim()) return true;
    const n = Number(s);
    return Number.isFinite(n) && n >= -limit && n <= limit && Math.abs(Math.round(n * 1e6) - n * 1e6) < 1e-6;
  };
  if (!coord(v.latitude, 90)) errors.push('The latitude must be between -90 and 90 (at most 6 decimals)');
  if (!coord(v.longitude, 180)) errors.push('The longitude must be between -180 and 180 (at most 6 decimals)');
  if (v.year_established.trim() && !/^\d{4}-\d{2}-\d{2}$/.test(v.year_established.trim())) errors.push('The establishment date must be a date');
  return errors;
}
