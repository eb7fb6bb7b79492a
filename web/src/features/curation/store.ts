// The merge boxes' contents (spec §4 Merge box), kept in sessionStorage so the boxes survive visits to
// entry pages and back (and the kept-alive search view and the author overview share them).
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { BoxItem, MergeBoxKind } from './api';
import { BOXES } from './boxes';

export const MERGE_BOXES_STORAGE_KEY = 'merge-boxes';

/** An item in a box; aggregation items may carry their issue or article number. */
export interface BoxEntry extends BoxItem {
  position?: number | null;
}

export interface Box {
  canonical: BoxEntry | null;
  list: BoxEntry[];
}

/**
 * What an add did: became the canonical item, joined the list, replaced the canonical (which moved into
 * the list), nothing (already there), or refused (wrong type or incomplete item: 'I cannot do that').
 */
export type AddResult = 'canonical' | 'added' | 'replaced' | 'duplicate' | 'refused';

const KINDS = Object.keys(BOXES) as MergeBoxKind[];
const emptyBoxes = (): Record<MergeBoxKind, Box> =>
  Object.fromEntries(KINDS.map((k) => [k, { canonical: null, list: [] }])) as unknown as Record<MergeBoxKind, Box>;

interface State {
  boxes: Record<MergeBoxKind, Box>;
  /**
   * Adds an item: it becomes canonical if there is none, else joins the list; with `asCanonical` (a drop
   * on the canonical row) it replaces the canonical, which moves into the list. Duplicates are ignored.
   */
  add(kind: MergeBoxKind, item: Partial<BoxItem>, opts?: { asCanonical?: boolean }): AddResult;
  /** Appends to the list whatever the canonical (the split box's created parts). */
  addToList(kind: MergeBoxKind, item: Partial<BoxItem>): AddResult;
  /** A listed item becomes canonical; the old canonical moves into the list. */
  makeCanonical(kind: MergeBoxKind, id: number): void;
  remove(kind: MergeBoxKind, id: number): void;
  setPosition(kind: MergeBoxKind, id: number, position: number | null): void;
  clear(kind: MergeBoxKind): void;
}

/** Whether an item may go into a box: id, label and a type matching the box (spec §5 Merge). */
export function accepts(kind: MergeBoxKind, item: Partial<BoxItem>): item is BoxItem {
  return (
    typeof item.id === 'number' &&
    Number.isInteger(item.id) &&
    item.id > 0 &&
    typeof item.label === 'string' &&
    item.label.trim() !== '' &&
    item.type === BOXES[kind].accepts
  );
}

/** The list without duplicates and without the canonical item (spec §4). */
function tidy(canonical: BoxEntry | null, list: BoxEntry[]): BoxEntry[] {
  const seen = new Set<number>(canonical ? [canonical.id] : []);
  return list.filter((i) => (seen.has(i.id) ? false : (seen.add(i.id), true)));
}

const entry = (item: BoxItem): BoxEntry => ({ id: item.id, label: item.label, type: item.type });

export const useMergeBoxes = create<State>()(
  persist(
    (set, get) => {
      const update = (kind: MergeBoxKind, box: Box) =>
        set((s) => ({ boxes: { ...s.boxes, [kind]: { canonical: box.canonical, list: tidy(box.canonical, box.list) } } }));
      return {
        boxes: emptyBoxes(),
        add(kind, item, opts) {
          if (!accepts(kind, item)) return 'refused';
          const { canonical, list } = get().boxes[kind];
          if (opts?.asCanonical) {
            if (canonical?.id === item.id) return 'duplicate';
            const moved = list.find((i) => i.id === item.id) ?? entry(item);
            update(kind, { canonical: moved, list: canonical ? [canonical, ...list] : list });
            return canonical ? 'replaced' : 'canonical';
          }
          if (!canonical) {
            const moved = list.find((i) => i.id === item.id) ?? entry(item);
            update(kind, { canonical: moved, list });
            return 'canonical';
          }
          if (canonical.id === item.id || list.some((i) => i.id === item.id)) return 'duplicate';
          update(kind, { canonical, list: [...list, entry(item)] });
          return 'added';
        },
        addToList(kind, item) {
          if (!accepts(kind, item)) return 'refused';
          const { canonical, list } = get().boxes[kind];
          if (canonical?.id === item.id || list.some((i) => i.id === item.id)) return 'duplicate';
          update(kind, { canonical, list: [...list, entry(item)] });
          return 'added';
        },
        makeCanonical(kind, id) {
          const { canonical, list } = get().boxes[kind];
          const item = list.find((i) => i.id === id);
          if (!item) return;
          update(kind, { canonical: item, list: canonical ? [canonical, ...list] : list });
        },
        remove(kind, id) {
          const { canonical, list } = get().boxes[kind];
          update(kind, { canonical: canonical?.id === id ? null : canonical, list: list.filter((i) => i.id !== id) });
        },
        setPosition(kind, id, position) {
          const { canonical, list } = get().boxes[kind];
          update(kind, { canonical, list: list.map((i) => (i.id === id ? { ...i, position } : i)) });
        },
        clear(kind) {
          update(kind, { canonical: null, list: [] });
        },
      };
    },
    {
      name: MERGE_BOXES_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => sessionStorage),
      partialize: (s) => ({ boxes: s.boxes }),
      // A box missing from an older stored state starts empty.
      merge: (persisted, current) => {
        const stored = (persisted as { boxes?: Partial<Record<MergeBoxKind, Box>> } | undefined)?.boxes ?? {};
        const boxes = emptyBoxes();
        for (const k of KINDS) {
          const b = stored[k];
          if (b && Array.isArray(b.list)) boxes[k] = { canonical: b.canonical ?? null, list: b.list };
        }
        return { ...current, boxes };
      },
    },
  ),
);

/** The body of a commit: canonical first; aggregation items carry their position when set. */
export function commitBody(kind: MergeBoxKind, box: Box): { id: number; label: string; position?: number }[] {
  if (!box.canonical) return [];
  const items: { id: number; label: string; position?: number }[] = [{ id: box.canonical.id, label: box.canonical.label }];
  for (const i of box.list) {
    items.push(
      kind === 'aggregations' && typeof i.position === 'number' ? { id: i.id, label: i.label, position: i.position } : { id: i.id, label: i.label },
    );
  }
  return items;
}

/** Short messages of the curation controls (added to a box, hidden from searches), shown and announced by <Notice>. */
export interface NoticeState {
  notice: { text: string; link?: { to: string; text: string }; focus?: boolean; id: number } | null;
  show(text: string, opts?: { link?: { to: string; text: string }; focus?: boolean }): void;
  dismiss(): void;
}

let noticeId = 0;
export const useNotice = create<NoticeState>()((set) => ({
  notice: null,
  show: (text, opts) => set({ notice: { text, ...opts, id: ++noticeId } }),
  dismiss: () => set({ notice: null }),
}));
