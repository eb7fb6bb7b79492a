// Drag sources with an equal keyboard path (anchor §6.3: drag and drop was the only way): a drag handle
// for the mouse, and an 'Add to merge box' menu button listing the boxes the item fits.
import { useTranslation } from 'react-i18next';
import { useMenuButton } from '../../lib/useMenuButton';
import type { BoxItem, MergeBoxKind } from './api';
import { BOXES, BOXES_FOR } from './boxes';
import { setDragItem } from './dnd';
import { useMergeBoxes, useNotice, type AddResult } from './store';

/** The sentence announced after an add (translated). */
export function addedText(t: (k: string, o?: Record<string, unknown>) => string, kind: MergeBoxKind, label: string, result: AddResult): string {
  const box = t(BOXES[kind].menuLabel);
  switch (result) {
    case 'canonical':
    case 'replaced':
      return t('“{{name}}” added to {{box}} ({{role}})', { name: label, box, role: t(BOXES[kind].canonicalLabel) });
    case 'added':
      return t('“{{name}}” added to {{box}}', { name: label, box });
    case 'duplicate':
      return t('“{{name}}” is already in {{box}}', { name: label, box });
    default:
      return t('I cannot do that');
  }
}

/** A mouse handle (hidden from assistive technology: the menu button next to it does the same). */
export function DragHandle({ item }: { item: BoxItem }) {
  const { t } = useTranslation();
  return (
    <span
      draggable
      aria-hidden="true"
      title={t('Drag to a merge box')}
      data-drag-handle={item.type}
      onDragStart={(e) => setDragItem(e, item)}
      className="inline-block cursor-grab select-none rounded px-1 font-sans text-stone-700 hover:bg-stone-200 active:cursor-grabbing"
    >
      ⠿
    </span>
  );
}

/**
 * 'Add to merge box': a menu button (arrow keys, Home, End, Escape; focus returns to the button) whose
 * items add the item to a compatible box. Renders the button and, when open, the menu after it (in the
 * flow, so it is never clipped by a scrolling list nor wider than a phone screen).
 */
export function AddToBoxMenu({ item, kinds = BOXES_FOR[item.type] }: { item: BoxItem; kinds?: MergeBoxKind[] }) {
  const { t } = useTranslation();
  const { open, close, buttonProps, menuProps } = useMenuButton();
  const add = useMergeBoxes((s) => s.add);
  const show = useNotice((s) => s.show);

  const choose = (kind: MergeBoxKind) => {
    const result = add(kind, item);
    show(addedText(t, kind, item.label, result));
    close(true);
  };

  return (
    <>
      <button
        {...buttonProps}
        aria-label={t('Add to merge box: “{{name}}”', { name: item.label })}
        className="rounded border border-stone-400 bg-white px-1.5 py-0.5 font-sans text-xs font-normal text-stone-800 hover:bg-stone-100"
      >
        {t('Add to merge box')} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="basis-full">
          <ul
            {...menuProps}
            className="my-1 w-fit min-w-48 max-w-full rounded border border-stone-400 bg-white py-1 font-sans text-sm font-normal shadow-md"
          >
            {kinds.map((kind) => (
              <li key={kind} role="none">
                <button
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  onClick={() => choose(kind)}
                  className="block w-full px-3 py-1 text-left hover:bg-stone-100 focus:bg-stone-100"
                >
                  {t(BOXES[kind].menuLabel)}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/** The drag handle and the menu button of one item, shown to users enabled for merging. */
export function MergeHandles({ item }: { item: BoxItem }) {
  return (
    <>
      <DragHandle item={item} />
      <AddToBoxMenu item={item} />
    </>
  );
}
