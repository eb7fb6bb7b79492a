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
  /** The button that moves a listed item to the canonical place, named for what that place means here. */
  promote: string;
  /** The same with the item's name, for assistive technology ({{name}}). */
  promoteNamed: string;
  /** /dashboard/{type} */
  dashboard: string;
  /** The create field: what it creates and where the new item goes. */
  create?: { target: 'agent' | 'aggregation'; label: string; placement: 'canonical' | 'list' };
}

/** What a committed change says: it is applied at once (the next search sees it) and can be undone from the log. */
export const CHANGE_DONE = 'Done: the catalogue shows the change now. The change log keeps it, and can undo it.';

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
    promote: 'Make canonical',
    promoteNamed: 'Make canonical: “{{name}}”',
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
    promote: 'Make canonical',
    promoteNamed: 'Make canonical: “{{name}}”',
  },
  translations: {
    kind: 'translations',
    title: 'Set translations here',
    menuLabel: 'Set translations',
    accepts: 'entry',
    action: 'Set translations',
    canonicalLabel: 'Original',
    listLabel: 'Translations',
    promote: 'Make original',
    promoteNamed: 'Make original: “{{name}}”',
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
    promote: 'Make it the aggregation',
    promoteNamed: 'Make it the aggregation: “{{name}}”',
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
    promote: 'Make it the author to split',
    promoteNamed: 'Make it the author to split: “{{name}}”',
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
