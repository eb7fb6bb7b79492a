// Harvesting calls (issue 10 "Scheduling"), through the one client: starting a run and reading the runs of
// a site. The site lists and edits are the admin API's (superusers) or the library admin API's (the
// library's admins); `siteScope` picks one, so the panel and the form are the same in both screens.
import { request } from '../../api/client';
import { adminApi, adminKeys } from '../admin/api';
import { libraryAdminApi } from '../libraryadmin/api';
import type { HarvestRun, HarvestStatus, Site, SiteBody, SiteTestBody, SiteTestResponse } from '@uc/shared';
// The shared constants and the body's rules, imported from their file (zod comes with the rules anyway).
import {
  HARVEST_FAILING_AFTER,
  HARVEST_INTERVAL_DEFAULT,
  HARVEST_INTERVAL_MAX,
  HARVEST_INTERVAL_MIN,
  OAI_METADATA_FORMATS,
  OAI_SITE_TYPES,
  siteBodySchema,
} from '../../../../packages/shared/src/harvest.ts';
import { SITE_TYPES } from '../../../../packages/shared/src/constants.ts';
import { CSV_TYPES } from '../../../../packages/shared/src/libraryadmin.ts';

export type { HarvestRun, HarvestStatus, Site, SiteBody, SiteTestBody, SiteTestResponse };
export {
  CSV_TYPES, HARVEST_FAILING_AFTER, HARVEST_INTERVAL_DEFAULT, HARVEST_INTERVAL_MAX, HARVEST_INTERVAL_MIN, OAI_METADATA_FORMATS,
  OAI_SITE_TYPES, SITE_TYPES, siteBodySchema,
};

export const harvestApi = {
  /** 202 { run } (queued); 409 when a run of the site is already queued or running. */
  start: (siteId: number, force = false) =>
    request<{ run: HarvestRun }>(`/admin/sites/${encodeURIComponent(siteId)}/harvest`, { method: 'POST', body: { force } }),
  /** "Test connection": what an OAI-PMH address offers (name, formats, sets), or why it cannot be harvested. */
  testConnection: (libraryId: number, body: SiteTestBody) =>
    request<SiteTestResponse>(`/library/sites/${encodeURIComponent(libraryId)}/test`, { method: 'POST', body }),
  /** The site's runs, newest first (at most 50). */
  runs: (siteId: number, signal?: AbortSignal) =>
    request<{ runs: HarvestRun[] }>(`/admin/sites/${encodeURIComponent(siteId)}/harvests`, { signal }),
};

export const harvestKeys = {
  all: ['harvest'] as const,
  sites: (scope: SiteScopeKind, libraryId: number) => ['harvest', 'sites', scope, libraryId] as const,
  runs: (siteId: number) => ['harvest', 'runs', siteId] as const,
};

/** Which API a screen manages the sites through: /admin (superusers) or /library (the library's admins). */
export type SiteScopeKind = 'admin' | 'library';

export interface SiteScope {
  kind: SiteScopeKind;
  libraryId: number;
  list: (signal?: AbortSignal) => Promise<{ sites: Site[] }>;
  create: (body: SiteBody) => Promise<{ site: Site }>;
  update: (siteId: number, body: SiteBody) => Promise<{ site: Site }>;
  /** Other cached answers a changed site makes stale (library counts, the upload form's site list). */
  alsoStale: readonly (readonly unknown[])[];
}

export function siteScope(kind: SiteScopeKind, libraryId: number): SiteScope {
  if (kind === 'admin') {
    return {
      kind, libraryId,
      list: (signal) => adminApi.sites(libraryId, signal),
      create: (body) => adminApi.createSite(libraryId, body),
      update: (siteId, body) => adminApi.updateSite(libraryId, siteId, body),
      alsoStale: [adminKeys.libraries, adminKeys.sites(libraryId), ['libraryadmin', 'sites', libraryId]],
    };
  }
  return {
    kind, libraryId,
    list: (signal) => libraryAdminApi.harvestSites(libraryId, signal),
    create: (body) => libraryAdminApi.createHarvestSite(libraryId, body),
    update: (siteId, body) => libraryAdminApi.updateHarvestSite(libraryId, siteId, body),
    alsoStale: [['libraryadmin', 'sites', libraryId], adminKeys.libraries],
  };
}

export const isOaiType = (type: string): boolean => (OAI_SITE_TYPES as readonly string[]).includes(type);
/** Site types a run can be started for (csv sites get their records from uploads). */
export const isHarvestable = (type: string): boolean => isOaiType(type) || type === 'calibretree';
export const isRunActive = (run: HarvestRun | null | undefined): boolean => !!run && (run.status === 'queued' || run.status === 'running');

/** Milliseconds a run took (or has taken so far), or null before it started. */
export function runDurationMs(run: HarvestRun, now: number = Date.now()): number | null {
  if (!run.started) return null;
  const start = Date.parse(run.started);
  const end = run.finished ? Date.parse(run.finished) : now;
  if (Number.isNaN(start) || Number.isNaN(end)) return null;
  return Math.max(0, end - start);
}
