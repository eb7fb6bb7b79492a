import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { adminApi, adminKeys, PAGE_LANGUAGES, PAGE_LOCATIONS, type AdminPage, type AdminPageInput } from './api';
import { CheckField, ConfirmDelete, DoneNote, ErrorAlert, Field, inputClass, SelectField, TextField, yesNo } from './ui';

/** Where a page is linked, in the interface language (the form's choices and the list). */
function locationLabel(t: TFunction, l: string): string {
  return l === 'footer' ? t('Footer') : l === 'user_menu' ? t('User menu') : t('Draft (no menu)');
}

const EMPTY: AdminPageInput = { title: '', summary: '', content: '', language: 'en', location: 'footer', sorting: 0, published: false };

function PageEditor({ initial, onDone }: { initial: AdminPage | null; onDone: (note?: { text: string }) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form, setForm] = useState<AdminPageInput>(() => {
    if (!initial) return EMPTY;
    const { id: _id, last_modified: _lm, ...rest } = initial;
    return rest;
  });
  const set = <K extends keyof AdminPageInput>(k: K) => (v: AdminPageInput[K]) => setForm((f) => ({ ...f, [k]: v }));
  const save = useMutation({
    mutationFn: (body: AdminPageInput) => (initial ? adminApi.updatePage(initial.id, body) : adminApi.createPage(body)),
    onSuccess: async ({ page }) => {
      await qc.invalidateQueries({ queryKey: adminKeys.pages });
      // The footer and the page views show the change at once.
      await qc.invalidateQueries({ queryKey: ['pages'] });
      await qc.invalidateQueries({ queryKey: ['page'] });
      onDone({ text: initial ? t('The page “{{title}}” was saved.', { title: page.title }) : t('The page “{{title}}” was created.', { title: page.title }) });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(form);
  };
  const title = initial ? t('Edit page') : t('New page');
  return (
    <form onSubmit={submit} className="mt-4 grid max-w-3xl gap-3 rounded border border-stone-300 p-4" aria-label={title}>
      <h3 className="text-lg font-semibold">{title}</h3>
      <TextField label={t('Title')} value={form.title} onChange={set('title')} required />
      <TextField label={t('Summary')} value={form.summary} onChange={set('summary')} />
      <Field label={t('Content (HTML)')} hint={t('Scripts, styles and event attributes are removed when the page is saved.')}>
        {(id) => (
          <textarea id={id} rows={12} value={form.content} onChange={(e) => set('content')(e.target.value)} className={`${inputClass} font-mono text-sm`} />
        )}
      </Field>
      <div className="grid gap-3 sm:grid-cols-3">
        <SelectField
          label={t('Language')}
          value={form.language}
          onChange={set('language')}
          options={PAGE_LANGUAGES.map((l) => ({ value: l, label: l === 'ALL' ? t('All languages') : l }))}
        />
        <SelectField label={t('Location')} value={form.location} onChange={set('location')} options={PAGE_LOCATIONS.map((l) => ({ value: l, label: locationLabel(t, l) }))} />
        <TextField label={t('Order')} type="number" value={String(form.sorting)} onChange={(v) => set('sorting')(Number(v) || 0)} />
      </div>
      <CheckField label={t('Published')} checked={form.published} onChange={set('published')} />
      <ErrorAlert error={save.error} />
      <div className="flex gap-2">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {t('Save page')}
        </button>
        <button type="button" className="btn" onClick={() => onDone()}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}

export function PagesSection() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { data, error, isPending } = useQuery({ queryKey: adminKeys.pages, queryFn: adminApi.pages });
  const [editing, setEditing] = useState<AdminPage | 'new' | null>(null);
  const [note, setNote] = useState<{ text: string } | null>(null);
  const [deleting, setDeleting] = useState<AdminPage | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => adminApi.deletePage(id),
    onSettled: async () => {
      await qc.invalidateQueries({ queryKey: adminKeys.pages });
      await qc.invalidateQueries({ queryKey: ['pages'] });
    },
  });
  return (
    <div>
      {isPending && <p role="status">{t('Loading...')}</p>}
      <ErrorAlert error={error} />
      <ErrorAlert error={remove.error} />
      {data && (
        <div className="overflow-x-auto">
          <table className="w-full text-left">
            <caption className="sr-only">{t('Pages')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('Title')}</th>
                <th scope="col">{t('Location')}</th>
                <th scope="col">{t('Language')}</th>
                <th scope="col">{t('Order')}</th>
                <th scope="col">{t('Published')}</th>
                <th scope="col">{t('Actions')}</th>
              </tr>
            </thead>
            <tbody>
              {data.pages.map((p) => (
                <tr key={p.id} className="border-t border-stone-200">
                  <td>{p.title}</td>
                  <td>{locationLabel(t, p.location)}</td>
                  <td>{p.language}</td>
                  <td>{p.sorting}</td>
                  <td>{yesNo(t, p.published)}</td>
                  <td className="flex flex-wrap gap-3">
                    <button type="button" className="link" onClick={() => setEditing(p)} aria-label={t('Edit {{name}}', { name: p.title })}>
                      {t('Edit')}
                    </button>
                    <button type="button" className="link" onClick={() => setDeleting(p)} aria-label={t('Delete {{name}}', { name: p.title })}>
                      {t('Delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <DoneNote note={note} />
      {editing ? (
        <PageEditor
          key={editing === 'new' ? 'new' : editing.id} initial={editing === 'new' ? null : editing}
          onDone={(n) => {
            setEditing(null);
            setNote(n ?? null);
          }}
        />
      ) : (
        <button type="button" className="btn btn-primary mt-4" onClick={() => { setNote(null); setEditing('new'); }}>
          {t('Add a page')}
        </button>
      )}
      <ConfirmDelete
        what={deleting?.title ?? null}
        title={t('Delete the page “{{name}}”?', { name: deleting?.title ?? '' })}
        confirmLabel={t('Delete page')}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
          setDeleting(null);
        }}
      />
    </div>
  );
}
