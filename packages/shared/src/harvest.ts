// Sites and harvesting (/collector/api/admin/sites/..., /collector/api/library/sites/...): the settings of
// a harvestable site and the report of a harvest run, shared by the server routes and the web client.
import { z } from 'zod';
import { SITE_TYPES } from './constants.ts';
import { CSV_TYPES } from './libraryadmin.ts';
import { isHttpUrl } from './url.ts';

export const OAI_METADATA_FORMATS = ['oai_dc', 'marc21'] as const;
/** Site types harvested over OAI-PMH (they need an endpoint URL). */
export const OAI_SITE_TYPES = ['amusewiki', 'koha-marc21', 'koha-unimarc', 'generic'] as const;
export const HARVEST_INTERVAL_DEFAULT = 30;
export const HARVEST_INTERVAL_MIN = 5;
export const HARVEST_INTERVAL_MAX = 7 * 24 * 60;
/** After this many failed runs in a row a site is flagged (and its library mailed once). */
export const HARVEST_FAILING_AFTER = 3;

const optText = (max: number) => z.string().trim().max(max).nullable().optional().transform((s) => (s ? s : null));

/** The settings of a site, as superusers (/admin) and library admins (their own library) send them. */
export const siteBodySchema = z.object({
  title: z.string().trim().min(1, 'The title is required').max(255),
  site_type: z.enum(SITE_TYPES),
  /** The OAI-PMH base URL (OAI site types); the site's address otherwise. */
  url: optText(2000),
  oai_set: optText(64),
  oai_metadata_format: z.enum(OAI_METADATA_FORMATS).nullable().optional(),
  active: z.boolean().optional(),
  harvest_interval_minutes: z.number().int().min(HARVEST_INTERVAL_MIN).max(HARVEST_INTERVAL_MAX).optional(),
  /** calibretree: a folder under the server's Calibre root (superusers only). */
  tree_path: optText(1000),
  csv_type: z.enum(CSV_TYPES).nullable().optional(),
}).superRefine((b, ctx) => {
  const oai = (OAI_SITE_TYPES as readonly string[]).includes(b.site_type);
  if (b.url !== null && b.url !== undefined && !isHttpUrl(b.url)) {
    ctx.addIssue({ code: 'custom', path: ['url'], message: 'The URL must start with http:// or https://' });
  }
  if (oai && !b.url) ctx.addIssue({ code: 'custom', path: ['url'], message: 'An OAI-PMH site needs the URL of its OAI-PMH endpoint' });
  if (b.site_type === 'generic' && !b.oai_metadata_format) {
    ctx.addIssue({ code: 'custom', path: ['oai_metadata_format'], message: 'Choose the metadata format of the generic OAI-PMH site (oai_dc or marc21)' });
  }
  if (b.site_type === 'calibretree' && !b.tree_path) ctx.addIssue({ code: 'custom', path: ['tree_path'], message: 'A Calibre site needs the folder of its library' });
});
export type SiteBody = z.input<typeof siteBodySchema>;

/** "Test connection" (our addition): an OAI-PMH address asked what it offers, before its site is saved. */
export const siteTestBodySchema = z.object({
  site_type: z.enum(OAI_SITE_TYPES),
  url: z.string().trim().max(2000).refine(isHttpUrl, 'The URL must start with http:// or https://'),
  oai_metadata_format: z.enum(OAI_METADATA_FORMATS).nullable().optional(),
});
export type SiteTestBody = z.input<typeof siteTestBodySchema>;
export const siteTestResponseSchema = z.object({
  ok: z.boolean(),
  /** Why it failed, in the reader's language, as a run's report would say it. */
  error: z.string().optional(),
  repository_name: z.string().optional(),
  /** The metadata formats the repository offers. */
  formats: z.array(z.string()).optional(),
  /** The format this site would be harvested in (null: a generic site with none chosen yet), and whether it is offered. */
  format: z.string().nullable().optional(),
  format_offered: z.boolean().optional(),
  sets: z.array(z.object({ spec: z.string(), name: z.string() })).optional(),
  /** More sets than listed (the first 500 are). */
  more_sets: z.boolean().optional(),
});
export type SiteTestResponse = z.infer<typeof siteTestResponseSchema>;

export const HARVEST_STATUSES = ['queued', 'running', 'finished', 'failed'] as const;
export type HarvestStatus = (typeof HARVEST_STATUSES)[number];

/** One record the run could not store, with the reason. */
export const harvestRecordErrorSchema = z.object({ identifier: z.string(), message: z.string() });

/** The report of one harvest run (newest first in lists). */
export const harvestRunSchema = z.object({
  id: z.number().int(),
  site_id: z.number().int(),
  status: z.enum(HARVEST_STATUSES),
  force: z.boolean(),
  created: z.string(),
  started: z.string().nullable(),
  finished: z.string().nullable(),
  /** Pages of records fetched so far (OAI-PMH list pages, Calibre folders in batches). */
  pages: z.number().int(),
  /** Records seen so far, and the total the source announced (resumption token completeListSize), if any. */
  records: z.number().int(),
  total: z.number().int().nullable(),
  new: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  deleted: z.number().int(),
  failed: z.number().int(),
  /** The first failed records (at most 100) with their reasons. */
  errors: z.array(harvestRecordErrorSchema),
  /** Why the whole run failed (network, protocol, parse), or null. */
  message: z.string().nullable(),
});
export type HarvestRun = z.infer<typeof harvestRunSchema>;

/** A site as the admin screens show it: settings, counts and harvest state. */
export const siteSchema = z.object({
  id: z.number().int(),
  library_id: z.number().int(),
  title: z.string(),
  site_type: z.string(),
  url: z.string().nullable(),
  oai_set: z.string().nullable(),
  oai_metadata_format: z.string().nullable(),
  active: z.boolean(),
  harvest_interval_minutes: z.number().int(),
  tree_path: z.string().nullable(),
  csv_type: z.string().nullable(),
  data_sources: z.number().int(),
  last_harvested: z.string().nullable(),
  /** Failed runs in a row; the site is flagged from HARVEST_FAILING_AFTER on. */
  consecutive_failures: z.number().int(),
  failing: z.boolean(),
  /** The latest run (queued, running or done), or null. */
  last_run: harvestRunSchema.nullable(),
});
export type Site = z.infer<typeof siteSchema>;

export const harvestStartBodySchema = z.object({ force: z.boolean().optional() }).default({});
