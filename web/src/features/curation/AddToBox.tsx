// Drag sources with an equal keyboard path (anchor §6.3: drag and drop was the only way): a drag handle
// for the mouse, and an 'Add to merge box' menu button listing the boxes the item fits.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
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

const itemSelector = '[role="menuitem"]';

/**
 * 'Add to merge box': a menu button (arrow keys, Home, End, Escape; focus returns to the button) whose
 * items add the item to a compatible box. Renders the button and, when open, the menu after it (in the
 * flow, so it is never clipped by a scrolling list nor wider than a phone screen).
 */
export function AddToBoxMenu({ item, kinds = BOXES_FOR[item.type] }: { item: BoxItem; kinds?: MergeBoxKind[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const focusOnOpen = useRef<'first' | 'last'>('first');
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const buttonId = useId();
  const menuId = useId();
  const add = useMergeBoxes((s) => s.add);
  const show = useNotice((s) => s.show);

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>(itemSelector) ?? []);
  useEffect(() => {
    if (!open) return;
    const all = items();
    (focusOnOpen.current === 'last' ? all[all.length - 1] : all[0])?.focus();
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  const choose = (kind: MergeBoxKind) => {
    const result = add(kind, item);
    show(addedText(t, kind, item.label, result));
    close(true);
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      focusOnOpen.current = e.key === 'ArrowUp' ? 'last' : 'first';
      if (open) {
        const all = items();
        (e.key === 'ArrowUp' ? all[all.length - 1] : all[0])?.focus();
      } else setOpen(true);
    }
  };

  const onMenuKey = (e: KeyboardEvent) => {
    const all = items();
    const i = all.indexOf(document.activeElement as HTMLElement);
    let next: number | undefined;
    if (e.key === 'ArrowDown') next = (i + 1) % all.length;
    else if (e.key === 'ArrowUp') next = (i - 1 + all.length) % all.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = all.length - 1;
    else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close(true);
      return;
    } else if (e.key === 'Tab') {
      close(false);
      return;
    }
    if (next !== undefined) {
      e.preventDefault();
      all[next]?.focus();
    }
  };

  return (
    <>
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={t('Add to merge box: “{{name}}”', { name: item.label })}
        onClick={() => {
          focusOnOpen.current = 'first';
          setOpen((o) => !o);
        }}
        onKeyDown={onButtonKey}
        className="rounded border border-stone-400 bg-white px-1.5 py-0.5 font-sans text-xs font-normal text-stone-800 hover:bg-stone-100"
      >
        {t('Add to merge box')} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="basis-full">
          <ul
            ref={menuRef}
            id={menuId}
            role="menu"
            aria-labelledby={buttonId}
            onKeyDown={onMenuKey}
            onBlur={(e) => {
              const to = e.relatedTarget as Node | null;
              if (to && (menuRef.current?.contains(to) || to === buttonRef.current)) return;
              setOpen(false);
            }}
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
