// Library administration (/collector/api/library/... and /spreadsheet/...): request and response shapes
// shared by the server routes and the web client (spec §3 Library, User creation, Spreadsheet upload; §5).
import { z } from 'zod';
import { LIBRARY_TYPES, OWN_LOGO_PATH, REGIONS } from './constants.ts';
import { libraryPublicSchema } from './api.ts';
import { listingFieldSchema } from './curation.ts';
import { optHttpUrl } from './url.ts';

const EMAIL_RE = /^[^\s@<>(),;:"\\]+@[^\s@<>(),;:"\\]+\.[^\s@<>(),;:"\\]+$/;
const text = (max: number) => z.string().trim().max(max);
/** Optional text: empty strings and null become null. */
const optText = (max: number) =>
  z.string().trim().max(max).nullable().optional().transform((s) => (s ? s : null));
const optEmail = optText(254).refine((s) => s === null || EMAIL_RE.test(s), 'Invalid e-mail address');
const optUrl = optHttpUrl(255);
/** A logo: an http(s) address the server fetches once and keeps, or our own logo's path sent back unchanged. */
const optLogoUrl = optText(255).refine((s) => s === null || /^https?:\/\/[^\s]+$/i.test(s) || OWN_LOGO_PATH.test(s), 'Invalid URL (http or https)');
/** A coordinate: a number in bounds with at most 6 decimals (step 0.000001); empty means none. */
const coordinate = (limit: number) =>
  z.union([z.number(), z.string().trim(), z.null()]).optional().transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return null;
    const n = typeof v === 'number' ? v : Number(v);
    if (!Number.isFinite(n) || n < -limit || n > limit) {
      ctx.addIssue({ code: 'custom', message: `Must be a number between -${limit} and ${limit}` });
      return z.NEVER;
    }
    if (Math.abs(Math.round(n * 1e6) - n * 1e6) > 1e-6) {
      ctx.addIssue({ code: 'custom', message: 'At most 6 decimals (step 0.000001)' });
      return z.NEVER;
    }
    return n;
  });

export function isValidDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}
const optDate = optText(10).refine((s) => s === null || isValidDate(s), 'Invalid date (YYYY-MM-DD)');

/** POST /library/details/{id}: the fields a library admin edits (public/active stay with superusers in /admin). */
export const libraryEditBodySchema = z.object({
  name: text(255).min(1, 'The name is required'),
  url: optUrl,
  logo_url: optLogoUrl,
  library_type: z.enum(LIBRARY_TYPES).default('digital'),
  year_established: optDate,
  languages: optText(255),
  description: optText(20000),
  short_desc: optText(2000),
  opening_hours: optText(5000),
  email_public: optEmail,
  email_internal: text(254).min(1, 'The internal e-mail is required').refine((s) => EMAIL_RE.test(s), 'Invalid e-mail address'),
  address_line_1: optText(255),
  address_line_2: optText(255),
  address_zip: optText(16),
  address_city: optText(64),
  address_state: optText(64),
  address_country: optText(64),
  pgp_public_key: optText(20000),
  latitude: coordinate(90),
  longitude: coordinate(180),
  region: z.union([z.enum(REGIONS), z.literal(''), z.null()]).optional().transform((v) => (v ? v : null)),
});
export type LibraryEditBody = z.input<typeof libraryEditBodySchema>;

/** What a library admin sees of their library: the public view plus the internal address and dates. */
export const adminLibrarySchema = libraryPublicSchema.omit({ entries_count: true }).extend({
  email_internal: z.string().nullable(),
  created: z.string(),
  last_modified: z.string(),
});
export type AdminLibrary = z.infer<typeof adminLibrarySchema>;

export const libraryUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  name: z.string(),
  last_login: z.string().nullable(),
  expiration: z.string().nullable(),
  can_merge: z.boolean(),
  library_admin: z.boolean(),
  /** False for library admins and superusers: a library admin may not detach them (anchor §11.4). */
  removable: z.boolean(),
});
export type LibraryUser = z.infer<typeof libraryUserSchema>;

export const libraryDetailsResponseSchema = z.object({ library: adminLibrarySchema, users: z.array(libraryUserSchema) });
export type LibraryDetailsResponse = z.infer<typeof libraryDetailsResponseSchema>;
export const libraryUpdateResponseSchema = z.object({ success: z.literal('OK'), library: adminLibrarySchema });
/** The columns of the users table, in order (the anchor's labels). */
export const LIBRARY_USER_FIELDS = [
  { name: 'id', label: 'Id' },
  { name: 'username', label: 'Username' },
  { name: 'email', label: 'Email' },
  { name: 'name', label: 'Name' },
  { name: 'last_login', label: 'Last Login' },
  { name: 'expiration', label: 'Expires' },
  { name: 'can_merge', label: 'Can Merge' },
] as const;
/** GET /library/list-users/{id}: the dashboard table shape (fields, records) the spec's users table reads. */
export const libraryUsersResponseSchema = z.object({ fields: z.array(listingFieldSchema), records: z.array(libraryUserSchema) });
export type LibraryUsersResponse = z.infer<typeof libraryUsersResponseSchema>;

export const createLibraryUserBodySchema = z.object({
  username: z.string().trim().min(1, 'The username is required').max(150),
  email: z.string().trim().max(254).optional().default('').refine((s) => s === '' || EMAIL_RE.test(s), 'Invalid e-mail address'),
  first_name: z.string().trim().max(150).optional().default(''),
  last_name: z.string().trim().max(150).optional().default(''),
  expiration: z.union([z.string().trim(), z.null()]).optional().transform((s) => (s ? s : null))
    .refine((s) => s === null || isValidDate(s), 'Invalid expiration date (YYYY-MM-DD)'),
  can_merge: z.union([z.boolean(), z.literal(0), z.literal(1)]).optional().default(false).transform((v) => !!v),
});
export type CreateLibraryUserBody = z.input<typeof createLibraryUserBodySchema>;
export const createLibraryUserResponseSchema = z.object({
  success: z.string(),
  /** 'created' (a new account, mailed a set-your-password link), 'added' (existing account attached), 'present'. */
  status: z.enum(['created', 'added', 'present']),
  user_id: z.number().int(),
});
export const removeLibraryUserBodySchema = z.object({ id: z.coerce.number().int().min(1) });
export const successSchema = z.object({ success: z.string() });

// ---------- spreadsheets ----------
export const CSV_TYPES = ['generic', 'calibre'] as const;
export type CsvType = (typeof CSV_TYPES)[number];

export const spreadsheetSiteSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  csv_type: z.string(),
  /** The expected column headers joined with ", ", as the spec's upload form shows them ("Expected headers"). */
  column_names: z.string(),
  /** Our addition: the same headers as a list. */
  expected_headers: z.array(z.string()),
});
export type SpreadsheetSite = z.infer<typeof spreadsheetSiteSchema>;
export const spreadsheetSiteBodySchema = z.object({ title: z.string().trim().min(1, 'The title is required').max(255), csv_type: z.enum(CSV_TYPES).default('generic') });
export const spreadsheetSitesResponseSchema = z.object({ sites: z.array(spreadsheetSiteSchema), max_bytes: z.number().int() });

export const rowErrorSchema = z.object({ line: z.number().int(), message: z.string() });
export type RowError = z.infer<typeof rowErrorSchema>;
export const spreadsheetUploadResponseSchema = z.object({
  success: z.string(),
  uploaded: z.number().int(),
  sample: z.array(z.object({ name: z.string(), value: z.string() })),
  /**
   * The header row's columns in file order: `field` is the record field a recognised column is read into
   * (e.g. `year_edition`), null for a column the site's format does not read (ignored).
   */
  columns: z.array(z.object({ name: z.string(), field: z.string().nullable() })),
  number_of_records: z.number().int(),
  /** Rows that cannot be stored (line numbers as in the file); processing them needs skip_bad_rows. */
  bad_rows: z.array(rowErrorSchema),
  /** Our addition: how many rows have errors (bad_rows lists the first 1,000 of them). */
  bad_row_count: z.number().int().optional(),
  replace_all: z.boolean(),
});
export type SpreadsheetUploadResponse = z.infer<typeof spreadsheetUploadResponseSchema>;
export const spreadsheetErrorResponseSchema = z.object({ error: z.string(), bad_rows: z.array(rowErrorSchema).optional() });

/** The spec's client posts no body at all (no content type, or JSON null); our web app sends skip_bad_rows. */
export const spreadsheetProcessBodySchema = z.object({ skip_bad_rows: z.boolean().optional().default(false) }).nullish()
  .transform((b) => ({ skip_bad_rows: b?.skip_bad_rows ?? false }));
export const spreadsheetStatusSchema = z.object({
  id: z.number().int(),
  /** queued → working → finished | failed (a cancelled upload is never processed). */
  status: z.enum(['uploaded', 'queued', 'working', 'finished', 'failed', 'cancelled']),
  job_id: z.number().int().nullable(),
  total: z.number().int(),
  done: z.number().int(),
  stored: z.number().int(),
  removed: z.number().int(),
  error: z.string().nullable(),
});
export type SpreadsheetStatus = z.infer<typeof spreadsheetStatusSchema>;
