// 'Cite': a menu button (ARIA menu button pattern: Enter, Space and the arrows open it; arrows, Home and
// End move; Escape closes it and returns to the button; Tab closes it) offering the entry's citation as
// BibTeX, RIS or CSL-JSON downloads, and a copy of the BibTeX announced in a polite status line.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { citationUrl, fetchCitation, type CiteFormat } from '../../api/client';

const DOWNLOADS: readonly (readonly [CiteFormat, string])[] = [
  ['bibtex', 'BibTeX'],
  ['ris', 'RIS'],
  ['csl-json', 'CSL-JSON'],
];

const itemSelector = '[role="menuitem"]';

export function CiteMenu({ entryId }: { entryId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState('');
  const focusOnOpen = useRef<'first' | 'last'>('first');
  const wrapRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const buttonId = useId();
  const menuId = useId();

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>(itemSelector) ?? []);

  useEffect(() => {
    if (!open) return;
    const all = items();
    (focusOnOpen.current === 'last' ? all[all.length - 1] : all[0])?.focus();
    const onDown = (e: MouseEvent) => {
      if (wrapRef.current && !wrapRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const openAt = (where: 'first' | 'last') => {
    focusOnOpen.current = where;
    setStatus('');
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  const copy = async () => {
    close(true);
    try {
      const text = await fetchCitation(entryId, 'bibtex');
      await navigator.clipboard.writeText(text);
      setStatus(t('BibTeX copied to the clipboard'));
    } catch {
      setStatus(t('The citation could not be copied'));
    }
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      openAt(e.key === 'ArrowUp' ? 'last' : 'first');
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
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') {
      close(false);
    } else if (e.key === ' ' && document.activeElement instanceof HTMLAnchorElement) {
      // Space activates a menu item; links only react to Enter by themselves.
      e.preventDefault();
      document.activeElement.click();
    }
  };

  const itemClass = 'block w-full px-3 py-1 text-left hover:bg-stone-100 focus:bg-stone-100';
  return (
    <div ref={wrapRef} className="relative inline-block">
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        className="btn"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openAt('first'))}
        onKeyDown={onButtonKey}
      >
        {t('Cite')} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-labelledby={buttonId}
          onKeyDown={onMenuKey}
          className="absolute right-0 z-20 mt-1 w-max min-w-44 rounded border border-stone-400 bg-white py-1 text-sm shadow-md"
        >
          {DOWNLOADS.map(([format, name]) => (
            <li key={format} role="none">
              <a role="menuitem" tabIndex={-1} href={citationUrl(entryId, format)} download onClick={() => close(true)} className={itemClass}>
                {t('Download {{format}}', { format: name })}
              </a>
            </li>
          ))}
          <li role="none">
            <button type="button" role="menuitem" tabIndex={-1} onClick={() => void copy()} className={itemClass}>
              {t('Copy BibTeX')}
            </button>
          </li>
        </ul>
      )}
      <p role="status" aria-live="polite" className="mt-1 text-sm text-stone-700 empty:hidden">
        {status}
      </p>
    </div>
  );
}
