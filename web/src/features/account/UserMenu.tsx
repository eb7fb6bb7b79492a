import { useEffect, useId, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AuthUser } from '@uc/shared';
import { useUserMenuPages } from '../../api/account';
import { ChevronDown, UserIcon } from './icons';

interface Item {
  key: string;
  label: string;
  to?: string;
  onSelect?: () => void;
}

/** The dashboards (spec §2 Dashboard) offered to users enabled for merging, in menu order. */
export const DASHBOARD_LINKS: readonly (readonly [type: string, label: string])[] = [
  ['merged-agents', 'Merged authors'],
  ['merged-entries', 'Merged entries'],
  ['translations', 'Translations'],
  ['aggregations', 'Aggregations'],
  ['split-agents', 'Split authors'],
  ['changes', 'Change log'],
  ['duplicates', 'Possible duplicates'],
];

/**
 * The items of spec §2 Header, in order: Admin, Exclusions, the dashboards (users enabled for merging),
 * the user's libraries, user-menu pages, Logout.
 */
export function menuItems(
  user: AuthUser,
  pages: { id: number; title: string }[],
  t: (k: string) => string,
  onLogout: () => void,
): Item[] {
  const items: Item[] = [];
  if (user.is_superuser) items.push({ key: 'admin', label: t('Admin'), to: '/admin' });
  items.push({ key: 'exclusions', label: t('Exclusions'), to: '/exclusions' });
  if (user.can_merge) {
    for (const [type, label] of DASHBOARD_LINKS) items.push({ key: `dashboard-${type}`, label: t(label), to: `/dashboard/${type}` });
  }
  if (user.is_library_admin) {
    for (const l of user.libraries) items.push({ key: `library-${l.id}`, label: l.name, to: `/library/admin/${l.id}` });
  }
  for (const p of pages) items.push({ key: `page-${p.id}`, label: p.title, to: `/page/${p.id}` });
  items.push({ key: 'logout', label: t('Logout'), onSelect: onLogout });
  return items;
}

/**
 * The logged-in user's menu: a menu button (aria-haspopup, aria-expanded) and a role="menu" list.
 * Keyboard as in the ARIA menu button pattern: Enter, Space and the arrows open it; arrows, Home and End
 * move; Escape closes it and returns to the button; Tab closes it and moves on.
 */
export function UserMenu({ user, onLogout, buttonRef }: { user: AuthUser; onLogout: () => void; buttonRef?: Ref<HTMLButtonElement> }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language || 'en';
  const { data: pages = [] } = useUserMenuPages(lang, true);
  const [open, setOpen] = useState(false);
  const [focusIndex, setFocusIndex] = useState(0);
  const ownButton = useRef<HTMLButtonElement | null>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  const id = useId();
  const items = menuItems(user, pages, t, onLogout);

  const setButton = (node: HTMLButtonElement | null) => {
    ownButton.current = node;
    if (typeof buttonRef === 'function') buttonRef(node);
    else if (buttonRef) buttonRef.current = node;
  };

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[focusIndex]?.focus();
  }, [open, focusIndex]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (wrapRef.current && !wrapRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const openAt = (index: number) => {
    setFocusIndex((index + items.length) % items.length);
    setOpen(true);
  };
  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) ownButton.current?.focus();
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      openAt(0);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      openAt(items.length - 1);
    }
  };

  const onMenuKey = (e: KeyboardEvent) => {
    const n = items.length;
    const moves: Record<string, number> = { ArrowDown: focusIndex + 1, ArrowUp: focusIndex - 1, Home: 0, End: n - 1 };
    if (e.key in moves) {
      e.preventDefault();
      setFocusIndex((moves[e.key] + n) % n);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'Tab') {
      setOpen(false);
    } else if (e.key.length === 1 && /\S/.test(e.key)) {
      // Type-ahead: the next item starting with the typed character.
      const ch = e.key.toLowerCase();
      for (let i = 1; i <= n; i++) {
        const j = (focusIndex + i) % n;
        if (items[j].label.trim().toLowerCase().startsWith(ch)) {
          setFocusIndex(j);
          break;
        }
      }
    }
  };

  // The site's focus outline, drawn inside the item (the pale background alone is too faint a focus mark).
  const itemClass = 'block w-full px-4 py-2 text-left text-stone-900 hover:bg-amber-50 focus:bg-amber-100 focus-visible:-outline-offset-3';

  return (
    <div ref={wrapRef} className="relative">
      <button
        ref={setButton}
        type="button"
        id={`${id}-button`}
        className="btn flex items-center gap-1"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => (open ? setOpen(false) : openAt(0))}
        onKeyDown={onButtonKey}
      >
        <UserIcon />
        <span>{t('User menu')}</span>
        <ChevronDown />
      </button>
      {open && (
        <ul
          ref={menuRef}
          id={`${id}-menu`}
          role="menu"
          aria-labelledby={`${id}-button`}
          onKeyDown={onMenuKey}
          className="absolute right-0 z-40 mt-1 min-w-56 rounded border border-stone-300 bg-white py-1 shadow-lg"
        >
          {items.map((item, i) => (
            <li key={item.key} role="none">
              {item.to ? (
                <Link
                  to={item.to}
                  role="menuitem"
                  tabIndex={i === focusIndex ? 0 : -1}
                  className={itemClass}
                  onClick={() => close(false)}
                >
                  {item.label}
                </Link>
              ) : (
                <button
                  type="button"
                  role="menuitem"
                  tabIndex={i === focusIndex ? 0 : -1}
                  className={`${itemClass} border-t border-stone-200`}
                  onClick={() => {
                    setOpen(false);
                    item.onSelect?.();
                  }}
                >
                  {item.label}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
