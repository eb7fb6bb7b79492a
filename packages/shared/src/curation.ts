// Curation (spec §7 "Curation", POST /agents/{id}): request and answer shapes shared by the server's
// curation module and the web client. Bodies follow what the spec's client sends: a list of {id}
// items, canonical (or original, or aggregation) first.
import { z } from 'zod';

const id = z.number().int().min(1).max(2 ** 31 - 1);
/** Ids may come as numbers or numeric strings (the drag payload carries strings). */
const looseId = z.union([id, z.string().regex(/^\d{1,10}$/).transform(Number).pipe(id)]);

/** One item of a merge box: `{ id }`, extra keys (the label the client shows) are ignored. */
export const curationItemSchema = z.object({ id: looseId }).passthrough();
/** The list body of merge, split, translations: canonical first, then at least one other item. */
export const curationListBodySchema = z.array(curationItemSchema).min(2, 'A canonical item and at least one other item are needed').max(1000);
export type CurationListBody = z.input<typeof curationListBodySchema>;

/** POST /set-aggregated: the aggregation first, then its items in order; `position` (issue, article number) optional. */
export const aggregationItemSchema = z.object({
  id: looseId,
  position: z.union([z.number().int().min(0).max(1_000_000), z.null()]).optional(),
}).passthrough();
export const aggregationBodySchema = z.array(aggregationItemSchema).min(2, 'An aggregation and at least one item are needed').max(1000);

export const MERGE_TARGETS = ['author', 'entry'] as const;
export type MergeTarget = (typeof MERGE_TARGETS)[number];
export const mergeTargetParamSchema = z.object({ target: z.enum(MERGE_TARGETS) });

/** What merge, split, translations, aggregations, revert and exclusions answer (anchor §3.8). */
export const curationReplySchema = z.object({
  op: z.string(),
  main_id: z.number().int().nullable(),
  other_ids: z.array(z.number().int()),
  error: z.string().nullable(),
  msg: z.string().nullable(),
  username: z.string().nullable(),
  success: z.string().optional(),
  /** The change log row written for this operation (undo it with POST /changes/{id}/undo). */
  change_id: z.number().int().nullable().optional(),
});
export type CurationReply = z.infer<typeof curationReplySchema>;

// ---------- create ----------
export const CREATE_TARGETS = ['agent', 'aggregation'] as const;
export const createTargetParamSchema = z.object({ target: z.enum(CREATE_TARGETS) });
export const createBodySchema = z.object({ value: z.string().trim().min(1, 'No data received').max(255) });
export const createReplySchema = z.object({
  created: z.object({ id: z.number().int(), value: z.string(), type: z.enum(CREATE_TARGETS) }),
  change_id: z.number().int().nullable().optional(),
});
export type CreateReply = z.infer<typeof createReplySchema>;

// ---------- author edit ----------
export const WIKIDATA_ID_RE = /^Q\d{1,12}$/;
/** POST /agents/{id}: the editable agent. An empty value clears the id; anything else must be Q + digits. */
export const agentEditBodySchema = z.object({
  wikidata_id: z.union([z.string(), z.null()]).optional().transform((v) => (v ?? '').trim())
    .refine((v) => v === '' || WIKIDATA_ID_RE.test(v), 'The Wikidata id is the letter Q followed by digits (for example Q5682)'),
}).passthrough();

// ---------- exclusions ----------
export const EXCLUSION_TYPES = ['library', 'author', 'entry'] as const;
export type ExclusionType = (typeof EXCLUSION_TYPES)[number];
export const exclusionBodySchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('add'),
    type: z.enum(EXCLUSION_TYPES),
    id: looseId,
    comment: z.string().trim().min(1, 'A reason is required').max(2000),
  }),
  z.object({ op: z.literal('delete'), id: looseId }),
]);
export type ExclusionBody = z.input<typeof exclusionBodySchema>;
export const exclusionSchema = z.object({
  id: z.number().int(),
  type: z.enum(EXCLUSION_TYPES),
  /** The library name, the author name, or the entry title with its authors. */
  target: z.string(),
  target_id: z.number().int(),
  comment: z.string(),
  created: z.string(),
});
export type Exclusion = z.infer<typeof exclusionSchema>;
export const exclusionsResponseSchema = z.object({ exclusions: z.array(exclusionSchema) });

// ---------- listings (dashboards) and revert ----------
export const LISTING_TYPES = [
  'merged-agents', 'merged-entries', 'translations', 'aggregations', 'split-agents', 'exclusions', 'changes',
] as const;
export type ListingType = (typeof LISTING_TYPES)[number];
/** `splat-agents` is the anchor client's name for split-agents. */
export const listingTypeParamSchema = z.object({
  type: z.enum([...LISTING_TYPES, 'splat-agents']).transform((t) => (t === 'splat-agents' ? 'split-agents' : t) as ListingType),
});
export const listingFieldSchema = z.object({
  name: z.string(),
  label: z.string(),
  /** 'entry' or 'agent': the column's value is an id to link to (/entry/{id}, the author's entries). */
  link: z.enum(['entry', 'agent']).optional(),
});
export type ListingField = z.infer<typeof listingFieldSchema>;
export const listingResponseSchema = z.object({
  target: z.string(),
  fields: z.array(listingFieldSchema),
  records: z.array(z.record(z.string(), z.unknown())),
  /** Records beyond the ones listed (listings are capped at LISTING_LIMIT). */
  truncated: z.boolean().optional(),
});
export type ListingResponse = z.infer<typeof listingResponseSchema>;
export const LISTING_LIMIT = 2000;

/** Types POST /revert/{type} accepts (what its `id` designates is in docs/curation.md). */
export const REVERT_TYPES = ['merged-agents', 'merged-entries', 'translations', 'aggregations', 'split-agents', 'exclusions'] as const;
export type RevertType = (typeof REVERT_TYPES)[number];
export const revertTypeParamSchema = z.object({
  type: z.enum([...REVERT_TYPES, 'splat-agents']).transform((t) => (t === 'splat-agents' ? 'split-agents' : t) as RevertType),
});
/** `id` is the variant / translation / split author / exclusion; for aggregations also `item` (else the whole aggregation is emptied). */
export const revertBodySchema = z.object({ id: looseId, item: looseId.optional() }).passthrough();

// ---------- the change log ----------
export const BLOCKED_REASONS = ['undone', 'not-allowed', 'nothing', 'later-change', 'changed-outside', 'in-use'] as const;
export type BlockedReason = (typeof BLOCKED_REASONS)[number];
export const CHANGE_OBJECT_TYPES = ['agent', 'entry', 'exclusion'] as const;
export const changesQuerySchema = z.object({
  user: z.string().trim().max(150).optional(),
  operation: z.string().trim().max(64).optional(),
  object_type: z.enum(CHANGE_OBJECT_TYPES).optional(),
  object_id: z.coerce.number().int().min(1).max(2 ** 31 - 1).optional(),
  /** ISO dates (YYYY-MM-DD), inclusive. */
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  page_number: z.coerce.number().int().min(1).max(100000).optional(),
});
export const changeSchema = z.object({
  id: z.number().int(),
  created: z.string(),
  username: z.string().nullable(),
  operation: z.string(),
  /** Human-readable, e.g. "canonical: Pyotr Kropotkin (12)\nalias: Kropotkin, Peter (40)". */
  comment: z.string(),
  objects: z.array(z.object({ type: z.enum(CHANGE_OBJECT_TYPES), id: z.number().int(), label: z.string() })),
  /** Set when this change was undone (by that change), or when it undoes another one. */
  undone_by: z.number().int().nullable(),
  undoes: z.number().int().nullable(),
  /** Whether the viewer may undo it now; when not, `blocked_by` says why. */
  can_undo: z.boolean(),
  blocked_by: z.string().nullable(),
  /** Why it cannot be undone, as a code the UI translates (`blocked_by` is the English text). */
  blocked_reason: z.enum(BLOCKED_REASONS).nullable().optional(),
  /** The later change that blocks it (for 'later-change' and 'undone'). */
  blocking_change_id: z.number().int().nullable().optional(),
});
export type Change = z.infer<typeof changeSchema>;
export const CHANGES_PAGE_SIZE = 50;
export const changesResponseSchema = z.object({
  changes: z.array(changeSchema),
  total: z.number().int(),
  page_number: z.number().int(),
  page_size: z.number().int(),
  /** Distinct operations and users, for the filter menus. */
  operations: z.array(z.string()),
  users: z.array(z.string()),
});
export type ChangesResponse = z.infer<typeof changesResponseSchema>;

// ---------- duplicate suggestions ----------
export const duplicateGroupSchema = z.object({
  kind: z.enum(['author', 'entry']),
  /** The suggested canonical first (most entries). */
  items: z.array(z.object({
    id: z.number().int(), label: z.string(), entries: z.number().int(),
    /** Entries (our addition), to compare the records side by side: the editions' years, the languages and
     * the holding libraries' names (only copies the viewer may see). */
    years: z.array(z.number().int()).optional(),
    languages: z.array(z.string()).optional(),
    libraries: z.array(z.string()).optional(),
  })),
  /** Why they look alike, e.g. "kropotkin p". */
  key: z.string(),
});
export type DuplicateGroup = z.infer<typeof duplicateGroupSchema>;
export const duplicatesQuerySchema = z.object({ kind: z.enum(['author', 'entry']) });
export const duplicatesResponseSchema = z.object({ groups: z.array(duplicateGroupSchema) });
export type DuplicatesResponse = z.infer<typeof duplicatesResponseSchema>;
