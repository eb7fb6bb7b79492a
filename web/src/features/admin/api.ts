// The admin API (/collector/api/admin/..., superusers only), through the one client.
import { request } from '../../api/client';
import type { Site, SiteBody } from '@uc/shared';

export interface AdminLibrary {
  id: number; name: string; url: string | null; logo_url: string | null; library_type: string; public: boolean; active: boolean;
  email_public: string | null; email_internal: string | null; description: string | null; short_desc: string | null;
  address_city: string | null; address_country: string | null; latitude: number | null; longitude: number | null;
  languages: string | null; region: string | null; sites: number; data_sources: number;
}
export type AdminLibraryInput = Partial<Omit<AdminLibrary, 'id' | 'sites' | 'data_sources'>> & { name: string };
/** A library's sites: the shared shapes (settings, counts and harvest state; see features/harvest). */
export type { Site, SiteBody };
export interface AdminUser {
  id: number; username: string; email: string; first_name: string; last_name: string; is_superuser: boolean; library_admin: boolean;
  can_merge: boolean; can_set_exclusions: boolean; active: boolean; expiration: string | null; last_login: string | null; library_ids: number[];
}
export type AdminUserInput = Partial<Omit<AdminUser, 'id' | 'last_login'>> & { password?: string };
export interface AdminPage {
  id: number; title: string; summary: string; content: string; language: string; location: string; sorting: number; published: boolean; last_modified: string;
}
export type AdminPageInput = Omit<AdminPage, 'id' | 'last_modified'>;
export interface AdminSettings {
  site_name: string; site_logo: string; description: string; contact_email: string;
  /** The description in the other interface languages (empty: the default one is shown). */
  description_de: string; description_el: string; description_fr: string; description_hr: string; description_it: string;
}
export interface OutboxMessage {
  id: number; kind: string; to_address: string; cc_address: string | null; reply_to: string | null; subject: string; body: string;
  status: string; error: string | null; attempts: number; created: string; sent_at: string | null;
}
export interface OutboxPage { messages: OutboxMessage[]; total: number; page: number; page_size: number }

// The shared constants (imported directly: the package entry would bring zod into the bundle).
export { LIBRARY_TYPES, REGIONS, SITE_TYPES } from '../../../../packages/shared/src/constants.ts';
export const PAGE_LOCATIONS = ['footer', 'user_menu', 'draft'] as const;
export const PAGE_LANGUAGES = ['ALL', 'en', 'de', 'el', 'fr', 'hr', 'it'] as const;

const A = '/admin';
export const adminApi = {
  libraries: () => request<{ libraries: AdminLibrary[] }>(`${A}/libraries`),
  createLibrary: (body: AdminLibraryInput) => request<{ library: AdminLibrary }>(`${A}/libraries`, { method: 'POST', body }),
  updateLibrary: (id: number, body: AdminLibraryInput) => request<{ library: AdminLibrary }>(`${A}/libraries/${id}`, { method: 'PUT', body }),
  deleteLibrary: (id: number) => request<{ success: 'OK' }>(`${A}/libraries/${id}`, { method: 'DELETE' }),
  sites: (libraryId: number, signal?: AbortSignal) => request<{ sites: Site[] }>(`${A}/libraries/${libraryId}/sites`, { signal }),
  createSite: (libraryId: number, body: SiteBody) => request<{ site: Site }>(`${A}/libraries/${libraryId}/sites`, { method: 'POST', body }),
  updateSite: (libraryId: number, id: number, body: SiteBody) =>
    request<{ site: Site }>(`${A}/libraries/${libraryId}/sites/${id}`, { method: 'PUT', body }),
  users: () => request<{ users: AdminUser[] }>(`${A}/users`),
  createUser: (body: AdminUserInput & { username: string }) => request<{ user: AdminUser }>(`${A}/users`, { method: 'POST', body }),
  updateUser: (id: number, body: AdminUserInput) => request<{ user: AdminUser }>(`${A}/users/${id}`, { method: 'PUT', body }),
  pages: () => request<{ pages: AdminPage[] }>(`${A}/pages`),
  createPage: (body: AdminPageInput) => request<{ page: AdminPage }>(`${A}/pages`, { method: 'POST', body }),
  updatePage: (id: number, body: AdminPageInput) => request<{ page: AdminPage }>(`${A}/pages/${id}`, { method: 'PUT', body }),
  deletePage: (id: number) => request<{ success: 'OK' }>(`${A}/pages/${id}`, { method: 'DELETE' }),
  settings: () => request<{ settings: AdminSettings }>(`${A}/settings`),
  saveSettings: (body: Partial<AdminSettings>) => request<{ settings: AdminSettings }>(`${A}/settings`, { method: 'PUT', body }),
  outbox: (page: number) => request<OutboxPage>(`${A}/outbox`, { params: { page, page_size: 25 } }),
};

export const adminKeys = {
  all: ['admin'] as const,
  libraries: ['admin', 'libraries'] as const,
  sites: (id: number) => ['admin', 'sites', id] as const,
  users: ['admin', 'users'] as const,
  pages: ['admin', 'pages'] as const,
  settings: ['admin', 'settings'] as const,
  outbox: (page: number) => ['admin', 'outbox', page] as const,
};
