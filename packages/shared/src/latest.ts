// GET /latest (the newest entries, also searched as the visitor types on the home page) and
// GET /check-internal-url (a link to a catalogued text turned into an entry link): spec §7 and the
// spec's client.
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, SORT_OPTIONS } from './constants.ts';
import { matchSchema } from './api.ts';

export const LATEST_DEFAULT_PAGE_SIZE = DEFAULT_PAGE_SIZE;

export const latestQuerySchema = z.object({
  /** Free text; its last word also matches as the beginning of a word (typing "anarc" finds "anarchy"). */
  query: z.string().max(1000).optional(),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  page_number: z.coerce.number().int().min(1).max(100000).optional(),
  /** Newest first unless asked otherwise. */
  sort_by: z.enum(SORT_OPTIONS).optional(),
});

export const latestResponseSchema = z.object({
  /** Search matches (the shape of GET /search's `matches`), newest first. */
  entries: z.array(matchSchema),
  /** Our additions, for the home page's counts: entries found, and their languages. */
  total_entries: z.number().int(),
  total_languages: z.number().int(),
});
export type LatestResponse = z.infer<typeof latestResponseSchema>;

/** Longest URL looked up (longer ones cannot be a catalogued text's address). */
export const INTERNAL_URL_MAX_LENGTH = 2048;

export const checkInternalUrlQuerySchema = z.object({
  url: z.string().trim().min(1, 'The url parameter is required').max(INTERNAL_URL_MAX_LENGTH)
    .refine((s) => /^https?:\/\/\S+$/i.test(s), 'The url must be an http or https address'),
});

/** `entry_id` of the entry holding a text at exactly that address; an empty object when none (as the spec's server). */
export const checkInternalUrlResponseSchema = z.object({ entry_id: z.number().int().optional() });
export type CheckInternalUrlResponse = z.infer<typeof checkInternalUrlResponseSchema>;
