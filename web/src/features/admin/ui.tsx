// Small form pieces shared by the admin sections: labelled fields, the server's error, a delete confirmation.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';

export const inputClass = 'w-full rounded border border-stone-500 bg-white px-2 py-1';

export function Field({ label, children, hint }: { label: string; hint?: string; children: (id: string, hintId?: string) => ReactNode }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-medium">
        {label}
      </label>
      {children(id, hintId)}
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-stone-700">
          {hint}
        </p>
      )}
    </div>
  );
}

export function TextField(props: {
  label: string; value: string; onChange: (v: string) => void; type?: string; required?: boolean; hint?: string; autoComplete?: string; minLength?: number;
}) {
  return (
    <Field label={props.label} hint={props.hint}>
      {(id, hintId) => (
        <input
          id={id}
          aria-describedby={hintId}
          minLength={props.minLength || undefined}
          type={props.type ?? 'text'}
          value={props.value}
          required={props.required}
          autoComplete={props.autoComplete ?? 'off'}
          onChange={(e) => props.onChange(e.target.value)}
          className={inputClass}
        />
      )}
    </Field>
  );
}

export function SelectField(props: { label: string; value: string; onChange: (v: string) => void; options: readonly { value: string; label: string }[] }) {
  return (
    <Field label={props.label}>
      {(id) => (
        <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value)} className={inputClass}>
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function CheckField({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="flex items-center gap-2">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/**
 * What a create or save did, said where the form was and focused (the form is gone: focus would otherwise
 * drop to the page, and a screen reader would say nothing).
 */
export function DoneNote({ note, children }: { note: { text: string } | null; children?: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (note) ref.current?.focus();
  }, [note]);
  if (!note) return null;
  return (
    <div ref={ref} tabIndex={-1} role="status" className="mt-4 max-w-2xl rounded border border-green-700 bg-green-50 p-3 text-green-900">
      <p>{note.text}</p>
      {children}
    </div>
  );
}

/** The server's message (or the network failure) after a failed call. */
export function ErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="rounded border border-red-700 bg-red-50 px-3 py-2 text-red-900">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}

export function Saved({ show, text }: { show: boolean; text: string }) {
  return (
    <p role="status" className="text-green-900">
      {show ? text : ''}
    </p>
  );
}

/**
 * Asks before something is deleted: the title names what goes, the confirm button says what it does, and Cancel (or Close,
 * Escape, the backdrop) sends nothing.
 */
export function ConfirmDelete({ what, title, confirmLabel, onConfirm, onCancel }: {
  what: string | null; title?: string; confirmLabel?: string; onConfirm: () => void; onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={what !== null} title={title ?? t('Delete {{name}}?', { name: what ?? '' })} onClose={onCancel}>
      <p>{t('This cannot be undone.')}</p>
      <div className="mt-4 flex gap-2">
        <button type="button" className="btn btn-primary" onClick={onConfirm}>
          {confirmLabel ?? t('Delete')}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          {t('Cancel')}
        </button>
      </div>
    </Dialog>
  );
}

export const yesNo = (t: (k: string) => string, v: boolean) => (v ? t('Yes') : t('No'));
