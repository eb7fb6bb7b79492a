// 'Cite': a menu button (ARIA menu button pattern: Enter, Space and the arrows open it; arrows, Home and
// End move; Escape closes it and returns to the button; Tab closes it) offering the citation of one copy
// (data source) as BibTeX, RIS or CSL-JSON downloads, and copies of the BibTeX or of a readable style
// (APA, Chicago, MLA) announced in a polite status line.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { citationUrl, fetchCitation, type CiteFormat } from '../../api/client';
import { useMenuButton } from '../../lib/useMenuButton';

const DOWNLOADS: readonly (readonly [CiteFormat, string])[] = [
  ['bibtex', 'BibTeX'],
  ['ris', 'RIS'],
  ['csl-json', 'CSL-JSON'],
];
const COPIES: readonly (readonly [CiteFormat, string])[] = [
  ['apa', 'APA'],
  ['chicago', 'Chicago'],
  ['mla', 'MLA'],
  ['bibtex', 'BibTeX'],
];

/** `dataSourceId`: the copy to cite (the server's first without it); `label`: the button's text. */
export function CiteMenu({ entryId, dataSourceId, label }: { entryId: number; dataSourceId?: number; label?: string }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState('');
  // A new opening forgets the last copy's message.
  const { open, close, buttonProps, menuProps } = useMenuButton({ onOpen: () => setStatus('') });

  const copy = async (format: CiteFormat, name: string) => {
    close(true);
    try {
      const text = await fetchCitation(entryId, format, dataSourceId);
      await navigator.clipboard.writeText(format === 'bibtex' ? text : text.trim());
      setStatus(t('{{format}} copied to the clipboard', { format: name }));
    } catch {
      setStatus(t('The citation could not be copied'));
    }
  };

  const itemClass = 'block w-full px-3 py-1 text-left hover:bg-stone-100 focus:bg-stone-100';
  return (
    <div className="relative inline-block">
      <button {...buttonProps} className="btn">
        {label ?? t('Cite')} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul
          {...menuProps}
          className="absolute right-0 z-20 mt-1 w-max min-w-44 rounded border border-stone-400 bg-white py-1 text-sm shadow-md"
        >
          {DOWNLOADS.map(([format, name]) => (
            <li key={format} role="none">
              <a role="menuitem" tabIndex={-1} href={citationUrl(entryId, format, dataSourceId)} download onClick={() => close(true)} className={itemClass}>
                {t('Download {{format}}', { format: name })}
              </a>
            </li>
          ))}
          {COPIES.map(([format, name]) => (
            <li key={`copy-${format}`} role="none">
              <button type="button" role="menuitem" tabIndex={-1} onClick={() => void copy(format, name)} className={itemClass}>
                {t('Copy {{format}}', { format: name })}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p role="status" aria-live="polite" className="mt-1 text-sm text-stone-700 empty:hidden">
        {status}
      </p>
    </div>
  );
}
