// The ARIA menu button pattern for a button and a role="menu" list of role="menuitem" elements:
// Enter, Space (the button's own click) and the arrows open it, ArrowDown at the first item, ArrowUp at
// the last; in the menu the arrows move (wrapping), Home and End jump, Space activates a link item,
// Escape closes it and returns to the button, Tab closes it and moves on; a press or focus outside
// closes it.
import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';

/** Which item gets the focus when the menu opens. */
export type MenuEdge = 'first' | 'last';

/** Spread on the menu button (add the label, class and so on). */
export interface MenuButtonProps {
  ref: RefObject<HTMLButtonElement | null>;
  id: string;
  type: 'button';
  'aria-haspopup': 'menu';
  'aria-expanded': boolean;
  'aria-controls': string | undefined;
  onClick: () => void;
  onKeyDown: (e: KeyboardEvent) => void;
}

/** Spread on the menu element, rendered only while `open`. */
export interface MenuProps<M extends HTMLElement> {
  ref: RefObject<M | null>;
  id: string;
  role: 'menu';
  'aria-labelledby': string;
  onKeyDown: (e: KeyboardEvent) => void;
  onBlur: (e: FocusEvent) => void;
}

export interface MenuButton<M extends HTMLElement> {
  open: boolean;
  /** Opens the menu (or, already open, moves there) with the focus on its first or last item. */
  openMenu: (where?: MenuEdge) => void;
  /** Closes the menu; refocus=true returns the focus to the button (after an item acted, or Escape). */
  close: (refocus: boolean) => void;
  buttonProps: MenuButtonProps;
  menuProps: MenuProps<M>;
}

const itemSelector = '[role="menuitem"]';

/** State, ids and key handling of a menu button; the component renders the button, the menu and its items. */
export function useMenuButton<M extends HTMLElement = HTMLUListElement>({ onOpen }: { onOpen?: () => void } = {}): MenuButton<M> {
  const [open, setOpen] = useState(false);
  const focusOnOpen = useRef<MenuEdge>('first');
  const pressedInside = useRef(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<M>(null);
  const buttonId = useId();
  const menuId = useId();

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>(itemSelector) ?? []);
  const focusEdge = (where: MenuEdge) => {
    const all = items();
    (where === 'last' ? all[all.length - 1] : all[0])?.focus();
  };
  const inside = (node: Node | null) => !!node && !!(buttonRef.current?.contains(node) || menuRef.current?.contains(node));

  useEffect(() => {
    if (!open) return;
    focusEdge(focusOnOpen.current);
    // A press outside closes the menu. One inside is remembered until released, so the blur it may cause
    // does not close the menu before the click lands (Safari does not focus a pressed button).
    const onDown = (e: MouseEvent) => {
      pressedInside.current = inside(e.target as Node);
      if (!pressedInside.current) setOpen(false);
    };
    const onUp = () => {
      pressedInside.current = false;
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('mouseup', onUp);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('mouseup', onUp);
      pressedInside.current = false;
    };
  }, [open]);

  const openMenu = (where: MenuEdge = 'first') => {
    focusOnOpen.current = where;
    if (open) focusEdge(where);
    else {
      onOpen?.();
      setOpen(true);
    }
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      openMenu(e.key === 'ArrowUp' ? 'last' : 'first');
    }
  };

  const onMenuKey = (e: KeyboardEvent) => {
    const all = items();
    const i = all.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = { ArrowDown: (i + 1) % all.length, ArrowUp: (i - 1 + all.length) % all.length, Home: 0, End: all.length - 1 };
    if (e.key in moves) {
      e.preventDefault();
      all[moves[e.key]]?.focus();
    } else if (e.key === 'Escape') {
      // Stopped: Escape closes the menu only, not a dialog or panel around it.
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') {
      // Not prevented: Tab moves the focus on as usual.
      close(false);
    } else if (e.key === ' ' && document.activeElement instanceof HTMLAnchorElement) {
      // Space activates a menu item; links only react to Enter by themselves.
      e.preventDefault();
      document.activeElement.click();
    }
  };

  // Focus leaving for elsewhere (not an item, not the button) closes the menu, as a press outside does.
  const onMenuBlur = (e: FocusEvent) => {
    if (pressedInside.current || inside(e.relatedTarget as Node | null)) return;
    setOpen(false);
  };

  return {
    open,
    openMenu,
    close,
    buttonProps: {
      ref: buttonRef,
      id: buttonId,
      type: 'button',
      'aria-haspopup': 'menu',
      'aria-expanded': open,
      'aria-controls': open ? menuId : undefined,
      onClick: () => (open ? close(false) : openMenu('first')),
      onKeyDown: onButtonKey,
    },
    menuProps: { ref: menuRef, id: menuId, role: 'menu', 'aria-labelledby': buttonId, onKeyDown: onMenuKey, onBlur: onMenuBlur },
  };
}
