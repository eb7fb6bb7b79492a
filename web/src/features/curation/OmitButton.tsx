// Exclusions (spec §2 result card and facets, §5 Omission dialog; anchor §2.10 with feedback added):
// 'Omit author', 'Omit single entry', 'Omit Library' open a dialog asking for a reason.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Dialog } from '../../components/Dialog';
import { curationApi, type ExclusionType } from './api';
import { invalidateKeys, serverErrorOr } from './catalogue';
import { useNotice } from './store';

export const TITLES: Record<ExclusionType, string> = {
  author: 'Omit author',
  entry: 'Omit single entry',
  library: 'Omit Library',
};

interface Props {
  type: ExclusionType;
  id: number;
  /** The author's name, the entry's title or the library's name. */
  label: string;
}

/** What an omission hides: an author, an entry or a library. */
export type OmitTarget = Props;

/**
 * The dialog asking for the reason of an omission, opened by an 'Omit' button or by a result card's
 * curation menu; `target` null: closed.
 */
export function OmitDialog({ target, onClose }: { target: OmitTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const textareaId = useId();
  const queryClient = useQueryClient();
  const show = useNotice((s) => s.show);
  const title = target ? t(TITLES[target.type]) : '';

  const mutation = useMutation({
    mutationFn: (x: OmitTarget) => curationApi.addExclusion(x.type, x.id, reason.trim()),
    onSuccess: () => {
      onClose();
      setReason('');
      void invalidateKeys(queryClient, ['search', 'curation']);
      // After the dialog has given focus back: the notice takes it, as the omitted row is about to go.
      setTimeout(() =>
        show(t('Hidden from your searches. You can restore it in My Exclusions.'), {
          link: { to: '/exclusions', text: t('My Exclusions') },
          focus: true,
        }),
      );
    },
  });

  const close = () => {
    onClose();
    mutation.reset();
  };

  return (
    <Dialog open={target !== null} title={title} onClose={close}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (target && reason.trim()) mutation.mutate(target);
        }}
      >
        <p className="mb-3 break-words font-serif text-lg">{target?.label}</p>
        <label htmlFor={textareaId} className="mb-1 block font-medium">
          {t('Reason')}
        </label>
        <textarea
          id={textareaId}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder={t('Reason')}
          rows={3}
          className="w-full rounded border border-stone-500 bg-white px-2 py-1"
        />
        <p className="mt-1 text-sm text-stone-700">
          {t('It is hidden from your own searches only. You can restore it in My Exclusions.')}
        </p>
        {mutation.isError && (
          <p role="alert" className="mt-2 rounded border border-red-700 bg-red-50 px-3 py-2 text-red-900">
            {serverErrorOr(mutation.error, t('Failed!'))}
          </p>
        )}
        <div className="mt-4 flex flex-wrap gap-2">
          {reason.trim() !== '' && (
            <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
              {t('Omit')}
            </button>
          )}
          <button type="button" className="btn" onClick={close}>
            {t('Cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** An 'Omit …' button with its dialog (the facets' libraries). */
export function OmitButton({ type, id, label }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const title = t(TITLES[type]);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label={`${title}: ${label}`}
        className="rounded border border-stone-400 bg-white px-1.5 py-0.5 font-sans text-xs font-normal text-stone-800 hover:bg-stone-100"
      >
        <span aria-hidden="true">⊘</span> {title}
      </button>
      <OmitDialog target={open ? { type, id, label } : null} onClose={() => setOpen(false)} />
    </>
  );
}
