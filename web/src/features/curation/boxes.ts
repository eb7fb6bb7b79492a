// The merge boxes of spec §2 (search screen right column, author overview) and §4 (Merge box): what each
// one accepts, what it is called, its action button, its dashboard and its create field.
import type { ItemType, MergeBoxKind } from './api';

export interface BoxConfig {
  kind: MergeBoxKind;
  /** The box heading (English source string, translated where shown). */
  title: string;
  /** Its name in the 'Add to merge box' menu and in announcements. */
  menuLabel: string;
  accepts: ItemType;
  /** The commit button. */
  action: string;
  /** What the canonical item is called in this box, and the listed ones. */
  canonicalLabel: string;
  listLabel: string;
  /** /dashboard/{type} */
  dashboard: string;
  /** The create field: what it creates and where the new item goes. */
  create?: { target: 'agent' | 'aggregation'; label: string; placement: 'canonical' | 'list' };
}

export const BOXES: Record<MergeBoxKind, BoxConfig> = {
  'merge-authors': {
    kind: 'merge-authors',
    title: 'Merge authors here',
    menuLabel: 'Merge authors',
    accepts: 'author',
    action: 'Merge',
    canonicalLabel: 'Canonical',
    listLabel: 'To merge into it',
    dashboard: 'merged-agents',
    create: { target: 'agent', label: 'Create an author', placement: 'canonical' },
  },
  'merge-entries': {
    kind: 'merge-entries',
    title: 'Merge entries here',
    menuLabel: 'Merge entries',
    accepts: 'entry',
    action: 'Merge',
    canonicalLabel: 'Canonical',
    listLabel: 'To merge into it',
    dashboard: 'merged-entries',
  },
  translations: {
    kind: 'translations',
    title: 'Set translations here',
    menuLabel: 'Set translations',
    accepts: 'entry',
    action: 'Set translations',
    canonicalLabel: 'Original',
    listLabel: 'Translations',
    dashboard: 'translations',
  },
  aggregations: {
    kind: 'aggregations',
    title: 'Set aggregations here',
    menuLabel: 'Set aggregations',
    accepts: 'entry',
    action: 'Set aggregation',
    canonicalLabel: 'Aggregation',
    listLabel: 'Items',
    dashboard: 'aggregations',
    create: { target: 'aggregation', label: 'Create an aggregation', placement: 'canonical' },
  },
  'split-author': {
    kind: 'split-author',
    title: 'Split an author here',
    menuLabel: 'Split author',
    accepts: 'author',
    action: 'Split',
    canonicalLabel: 'Author to split',
    listLabel: 'Parts',
    dashboard: 'split-agents',
    create: { target: 'agent', label: 'Create an author', placement: 'list' },
  },
};

/** The boxes an item of a type can go to, in menu order. */
export const BOXES_FOR: Record<ItemType, MergeBoxKind[]> = {
  author: ['merge-authors', 'split-author'],
  entry: ['merge-entries', 'translations', 'aggregations'],
};

/** The search screen's right column (spec §2) and the author overview's. */
export const SEARCH_BOXES: MergeBoxKind[] = ['merge-authors', 'merge-entries', 'translations', 'aggregations'];
export const AGENT_BOXES: MergeBoxKind[] = ['merge-authors', 'split-author'];
