// Curation calls (spec §7 "Curation", POST /agents/{id}), through the one client.
import { request } from '../../api/client';
import type {
  Agent,
  Change,
  ChangesResponse,
  CreateReply,
  CurationReply,
  DuplicateGroup,
  DuplicatesResponse,
  Exclusion,
  ExclusionType,
  ListingField,
  ListingResponse,
  ListingType,
  RevertType,
} from '@uc/shared';

export type {
  Change, ChangesResponse, CreateReply, CurationReply, DuplicateGroup, DuplicatesResponse, Exclusion, ExclusionType,
  ListingField, ListingResponse, ListingType, RevertType,
};

/** The kinds of merge box (spec §2 right column) and the call each one makes. */
export type MergeBoxKind = 'merge-authors' | 'merge-entries' | 'translations' | 'aggregations' | 'split-author';
export type ItemType = 'author' | 'entry';
export interface BoxItem { id: number; label: string; type: ItemType }

const CALL_OF: Record<MergeBoxKind, string> = {
  'merge-authors': '/merge/author',
  'merge-entries': '/merge/entry',
  translations: '/set-translations',
  aggregations: '/set-aggregated',
  'split-author': '/split-author',
};

export interface ChangeFilters {
  user?: string;
  operation?: string;
  object_type?: 'agent' | 'entry' | 'exclusion';
  object_id?: number;
  from?: string;
  to?: string;
  page_number?: number;
}

export const curationApi = {
  /** Canonical (or original, or aggregation) first; `position` only for aggregation items. */
  commit: (kind: MergeBoxKind, items: { id: number; label?: string; position?: number | null }[]) =>
    request<CurationReply>(CALL_OF[kind], { method: 'POST', body: items }),
  create: (target: 'agent' | 'aggregation', value: string) =>
    request<CreateReply>(`/create/${target}`, { method: 'POST', body: { value } }),
  editAgent: (id: number, wikidataId: string) =>
    request<{ agent: Agent; error: string | null }>(`/agents/${id}`, { method: 'POST', body: { wikidata_id: wikidataId } }),
  exclusions: (signal?: AbortSignal) => request<{ exclusions: Exclusion[] }>('/exclusions', { signal }),
  addExclusion: (type: ExclusionType, id: number, comment: string) =>
    request<CurationReply>('/exclusions', { method: 'POST', body: { op: 'add', type, id, comment } }),
  removeExclusion: (id: number) => request<CurationReply>('/exclusions', { method: 'POST', body: { op: 'delete', id } }),
  listing: (type: ListingType | string, signal?: AbortSignal) =>
    request<ListingResponse>(`/listing/${encodeURIComponent(type)}`, { signal }),
  /** `body` is the record's `revert` object when it has one, else `{ id }`. */
  revert: (type: RevertType | string, body: { id: number; item?: number }) =>
    request<CurationReply>(`/revert/${encodeURIComponent(type)}`, { method: 'POST', body }),
  changes: (filters: ChangeFilters, signal?: AbortSignal) =>
    request<ChangesResponse>('/changes', { params: { ...filters }, signal }),
  undo: (changeId: number) => request<CurationReply>(`/changes/${changeId}/undo`, { method: 'POST', body: {} }),
  duplicates: (kind: ItemType, signal?: AbortSignal) =>
    request<DuplicatesResponse>('/curation/duplicates', { params: { kind }, signal }),
};
