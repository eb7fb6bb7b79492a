// A result card's curation controls in one menu button ("Curate"), not a row of buttons per author and
// per entry: a page of results had 24 "Add to merge box" and as many "Omit" buttons. The drag handles
// stay beside the names for the mouse; the menu is the keyboard's (and a phone's) path to the same.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMenuButton } from '../../lib/useMenuButton';
import type { BoxItem, MergeBoxKind } from './api';
import { addedText } from './AddToBox';
import { BOXES, BOXES_FOR } from './boxes';
import { OmitDialog, type OmitTarget } from './OmitButton';
import { useMergeBoxes, useNotice } from './store';

interface Props {
  entry: BoxItem;
  authors: BoxItem[];
  canMerge: boolean;
  canExclude: boolean;
}

export function CurateMenu({ entry, authors, canMerge, canExclude }: Props) {
  const { t } = useTranslation();
  const { open, close, buttonProps, menuProps } = useMenuButton();
  const add = useMergeBoxes((s) => s.add);
  const show = useNotice((s) => s.show);
  const [omitting, setOmitting] = useState<OmitTarget | null>(null);

  const addTo = (kind: MergeBoxKind, item: BoxItem) => {
    show(addedText(t, kind, item.label, add(kind, item)));
    close(true);
  };
  const omit = (target: OmitTarget) => {
    close(false);
    setOmitting(target);
  };
  const item = (key: string, text: string, onClick: () => void) => (
    <li key={key} role="none">
      <button type="button" role="menuitem" tabIndex={-1} onClick={onClick} className="block w-full px-3 py-1 text-left hover:bg-stone-100 focus:bg-stone-100">
        {text}
      </button>
    </li>
  );
  const itemsFor = (x: BoxItem, omitText: string, omitType: OmitTarget['type']) => [
    ...(canMerge ? BOXES_FOR[x.type].map((kind) => item(`${x.type}-${x.id}-${kind}`, t('Add “{{name}}” to {{box}}', { name: x.label, box: t(BOXES[kind].menuLabel) }), () => addTo(kind, x))) : []),
    ...(canExclude ? [item(`${x.type}-${x.id}-omit`, omitText, () => omit({ type: omitType, id: x.id, label: x.label }))] : []),
  ];

  return (
    <>
      <button
        {...buttonProps}
        aria-label={t('Curate “{{name}}”', { name: entry.label })}
        className="rounded border border-stone-400 bg-white px-1.5 py-0.5 font-sans text-xs font-normal text-stone-800 hover:bg-stone-100"
      >
        {t('Curate')} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="basis-full">
          <ul {...menuProps} className="my-1 w-fit min-w-48 max-w-full rounded border border-stone-400 bg-white py-1 font-sans text-sm font-normal shadow-md">
            {itemsFor(entry, t('Omit this entry “{{name}}”…', { name: entry.label }), 'entry')}
            {authors.map((a) => itemsFor(a, t('Omit the author “{{name}}”…', { name: a.label }), 'author'))}
          </ul>
        </div>
      )}
      <OmitDialog target={omitting} onClose={() => setOmitting(null)} />
    </>
  );
}
