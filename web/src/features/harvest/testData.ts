// Sites, runs and a library for the harvest screens' tests, and the English strings they show.
import i18n from 'i18next';
import type { AdminLibrary } from '@uc/shared';
import adminEn from '../../i18n/admin/en.json';
import harvestEn from '../../i18n/harvest/en.json';
import libraryAdminEn from '../../i18n/libraryadmin/en.json';
import type { HarvestRun, Site } from './api';

export function addHarvestStrings(): void {
  for (const b of [adminEn, libraryAdminEn, harvestEn]) i18n.addResourceBundle('en', 'translation', b, true, true);
}

export const run = (over: Partial<HarvestRun> = {}): HarvestRun => ({
  id: 1, site_id: 10, status: 'finished', force: false, created: '2026-05-01T10:00:00Z', started: '2026-05-01T10:00:01Z',
  finished: '2026-05-01T10:01:06Z', pages: 1, records: 100, total: 100, new: 3, updated: 2, unchanged: 95, deleted: 0, failed: 0,
  errors: [], message: null, ...over,
});

export const site = (over: Partial<Site> = {}): Site => ({
  id: 10, library_id: 1, title: 'Anarchist Library', site_type: 'amusewiki', url: 'https://al.example.org/oai-pmh', oai_set: null,
  oai_metadata_format: null, active: true, harvest_interval_minutes: 30, tree_path: null, csv_type: null, data_sources: 1200,
  last_harvested: '2026-05-01T10:01:06Z', consecutive_failures: 0, failing: false, last_run: run(), ...over,
});

export const LIBRARY: AdminLibrary = {
  id: 1, name: 'Biblioteca Uno', url: null, logo_url: null, library_type: 'digital', public: true, active: true,
  year_established: null, established: null, languages: null, description: null, short_desc: null, opening_hours: null,
  email_public: null, email_internal: 'staff@uno.example.org', address_line_1: null, address_line_2: null, address_zip: null,
  address_city: null, address_state: null, address_country: null, pgp_public_key: null, latitude: null, longitude: null,
  region: null, catalog_is_accessible: true, created: '2026-01-01T00:00:00Z', last_modified: '2026-01-01T00:00:00Z',
};

export type Body = Record<string, unknown>;
export const bodyOf = (init?: RequestInit): Body => JSON.parse(String(init?.body ?? '{}')) as Body;
export const method = (init?: RequestInit) => init?.method ?? 'GET';
