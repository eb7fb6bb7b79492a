// Request and response shapes of the admin area (/collector/api/admin/...), superusers only.
import { z } from 'zod';
import { LIBRARY_TYPES, REGIONS, SITE_TYPES, libraryPublicSchema, optHttpUrl } from '@uc/shared';

const text = (max: number) => z.string().trim().max(max);
const optText = (max: number) => z.string().trim().max(max).nullable().optional();
/** A loose e-mail check: empty is allowed where the field is optional. */
const email = z.string().trim().max(254).refine((s) => s === '' || /^[^\s@<>(),;:"\\]+@[^\s@<>(),;:"\\]+\.[^\s@<>(),;:"\\]+$/.test(s), 'Invalid e-mail address');
const isoDate = z.string().trim().refine((s) => !Number.isNaN(Date.parse(s)), 'Invalid date');

export const PAGE_LOCATIONS = ['footer', 'user_menu', 'draft'] as const;
export const PAGE_LANGUAGES = ['ALL', 'en', 'de', 'el', 'fr', 'hr', 'it'] as const;

export const adminLibraryBody = z.object({
  name: text(255).min(1, 'The name is required'),
  url: optHttpUrl(2000),
  logo_url: optText(2000),
  library_type: z.enum(LIBRARY_TYPES).optional(),
  public: z.boolean().optional(),
  active: z.boolean().optional(),
  email_public: email.nullable().optional(),
  email_internal: email.nullable().optional(),
  description: optText(20000),
  short_desc: optText(2000),
  address_city: optText(255),
  address_country: optText(255),
  latitude: z.number().min(-90).max(90).nullable().optional(),
  longitude: z.number().min(-180).max(180).nullable().optional(),
  languages: optText(255),
  region: z.union([z.enum(REGIONS), z.literal(''), z.null()]).optional().transform((v) => (v === '' ? null : v)),
});
export type AdminLibraryBody = z.infer<typeof adminLibraryBody>;

/** A library row of the admin list: the public fields it shows, the internal address, and counts. */
export const adminLibrarySchema = libraryPublicSchema.pick({
  id: true, name: true, url: true, logo_url: true, library_type: true, public: true, active: true, email_public: true,
  description: true, short_desc: true, address_city: true, address_country: true, latitude: true, longitude: true,
  languages: true, region: true,
}).extend({
  email_internal: z.string().nullable(),
  sites: z.number().int(),
  data_sources: z.number().int(),
});
export type AdminLibrary = z.infer<typeof adminLibrarySchema>;

const userFlags = {
  email: email.optional(),
  first_name: text(150).optional(),
  last_name: text(150).optional(),
  is_superuser: z.boolean().optional(),
  library_admin: z.boolean().optional(),
  can_merge: z.boolean().optional(),
  can_set_exclusions: z.boolean().optional(),
  active: z.boolean().optional(),
  expiration: isoDate.nullable().optional(),
  library_ids: z.array(z.number().int().min(1)).max(1000).optional(),
};
export const adminUserCreateBody = z.object({
  username: text(150).min(1, 'The username is required'),
  password: z.string().max(1000).optional(),
  ...userFlags,
});
export const adminUserUpdateBody = z.object(userFlags);
export type AdminUserUpdate = z.infer<typeof adminUserUpdateBody>;

export const adminUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  is_superuser: z.boolean(),
  library_admin: z.boolean(),
  can_merge: z.boolean(),
  can_set_exclusions: z.boolean(),
  active: z.boolean(),
  expiration: z.string().nullable(),
  last_login: z.string().nullable(),
  library_ids: z.array(z.number().int()),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminPageBody = z.object({
  title: text(255).min(1, 'The title is required'),
  summary: text(2000).optional(),
  content: z.string().max(500_000),
  language: z.enum(PAGE_LANGUAGES).optional(),
  location: z.enum(PAGE_LOCATIONS).optional(),
  sorting: z.number().int().min(-100000).max(100000).optional(),
  published: z.boolean().optional(),
});
export const adminPageSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  content: z.string(),
  language: z.string(),
  location: z.string(),
  sorting: z.number().int(),
  published: z.boolean(),
  last_modified: z.string(),
});
export type AdminPage = z.infer<typeof adminPageSchema>;

export const adminSettingsBody = z.object({
  site_name: text(255).optional(),
  site_logo: text(2000).optional(),
  description: text(20000).optional(),
  contact_email: email.optional(),
  // The description in the other interface languages (empty: the default description is shown).
  description_de: text(20000).optional(),
  description_el: text(20000).optional(),
  description_fr: text(20000).optional(),
  description_hr: text(20000).optional(),
  description_it: text(20000).optional(),
});
export const adminSettingsSchema = z.object({
  site_name: z.string(), site_logo: z.string(), description: z.string(), contact_email: z.string(),
  description_de: z.string(), description_el: z.string(), description_fr: z.string(), description_hr: z.string(), description_it: z.string(),
});

export const outboxQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
});
export const outboxItemSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  to_address: z.string(),
  cc_address: z.string().nullable(),
  reply_to: z.string().nullable(),
  subject: z.string(),
  body: z.string(),
  status: z.string(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  created: z.string(),
  sent_at: z.string().nullable(),
});
export const outboxResponseSchema = z.object({
  messages: z.array(outboxItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
