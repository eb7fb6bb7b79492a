import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SitesPanel } from '../harvest/SitesPanel';
import { adminApi, adminKeys, LIBRARY_TYPES, REGIONS, type AdminLibrary, type AdminLibraryInput } from './api';
import { CheckField, ConfirmDelete, DoneNote, ErrorAlert, SelectField, TextField, yesNo } from './ui';

function useTypeLabel() {
  const { t } = useTranslation();
  return (v: string) => (v === 'physical' ? t('Physical') : v === 'closed' ? t('Closed') : t('Digital'));
}

// A new library is private until it is published: its address and place on the map come first.
const EMPTY: AdminLibraryInput = { name: '', url: '', library_type: 'digital', public: false, active: true, email_internal: '', email_public: '', region: '' };

type LibraryNote = { text: string; libraryId: number; created: boolean };

function LibraryForm({ initial, onDone }: { initial: AdminLibrary | null; onDone: (note?: LibraryNote) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form, setForm] = useState<AdminLibraryInput>(() =>
    initial
      ? { name: initial.name, url: initial.url ?? '', library_type: initial.library_type, public: initial.public, active: initial.active, email_internal: initial.email_internal ?? '', email_public: initial.email_public ?? '', region: initial.region ?? '' }
      : EMPTY,
  );
  const set = <K extends keyof AdminLibraryInput>(k: K) => (v: AdminLibraryInput[K]) => setForm((f) => ({ ...f, [k]: v }));
  const typeLabel = useTypeLabel();
  const save = useMutation({
    mutationFn: (body: AdminLibraryInput) => (initial ? adminApi.updateLibrary(initial.id, body) : adminApi.createLibrary(body)),
    onSuccess: async ({ library }) => {
      await qc.invalidateQueries({ queryKey: adminKeys.libraries });
      await qc.invalidateQueries({ queryKey: ['libraries'] });
      onDone(
        initial
          ? { text: t('The library “{{name}}” was saved.', { name: library.name }), libraryId: library.id, created: false }
          : {
              text: library.public
                ? t('The library “{{name}}” was created. Add its address and its place on the map on its page, so readers find it on the map.', { name: library.name })
                : t('The library “{{name}}” was created. It stays private until you tick Public: first add its address and its place on the map on its page.', { name: library.name }),
              libraryId: library.id,
              created: true,
            },
      );
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ ...form, url: form.url || null, email_internal: form.email_internal || null, email_public: form.email_public || null });
  };
  return (
    <form onSubmit={submit} className="mt-4 grid max-w-2xl gap-3 rounded border border-stone-300 p-4" aria-label={initial ? t('Edit library') : t('New library')}>
      <h3 className="text-lg font-semibold">{initial ? t('Edit library') : t('New library')}</h3>
      <TextField label={t('Name')} value={form.name} onChange={set('name')} required />
      <TextField label={t('Web site')} type="url" value={form.url ?? ''} onChange={set('url')} />
      <SelectField
        label={t('Library type')}
        value={form.library_type ?? 'digital'}
        onChange={set('library_type')}
        options={LIBRARY_TYPES.map((v) => ({ value: v, label: typeLabel(v) }))}
      />
      <SelectField
        label={t('Region')}
        value={form.region ?? ''}
        onChange={set('region')}
        options={[{ value: '', label: t('None') }, ...REGIONS.map((r) => ({ value: r, label: r }))]}
      />
      <TextField label={t('Internal e-mail')} type="email" value={form.email_internal ?? ''} onChange={set('email_internal')} />
      <TextField label={t('Public e-mail')} type="email" value={form.email_public ?? ''} onChange={set('email_public')} />
      <CheckField label={t('Public')} checked={!!form.public} onChange={set('public')} />
      <CheckField label={t('Active')} checked={!!form.active} onChange={set('active')} />
      <ErrorAlert error={save.error} />
      <div className="flex gap-2">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {t('Save')}
        </button>
        <button type="button" className="btn" onClick={() => onDone()}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}

export function LibrariesSection() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { data, error, isPending } = useQuery({ queryKey: adminKeys.libraries, queryFn: adminApi.libraries });
  const [editing, setEditing] = useState<AdminLibrary | 'new' | null>(null);
  const [note, setNote] = useState<LibraryNote | null>(null);
  const [sitesOf, setSitesOf] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<AdminLibrary | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => adminApi.deleteLibrary(id),
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.libraries }),
  });
  const sitesLibrary = data?.libraries.find((l) => l.id === sitesOf);
  const typeLabel = useTypeLabel();
  return (
    <div>
      {isPending && <p role="status">{t('Loading...')}</p>}
      <ErrorAlert error={error} />
      <ErrorAlert error={remove.error} />
      {data && (
        <div className="overflow-x-auto">
          <table className="w-full text-left">
            <caption className="sr-only">{t('Libraries')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('Name')}</th>
                <th scope="col">{t('Library type')}</th>
                <th scope="col">{t('Public')}</th>
                <th scope="col">{t('Active')}</th>
                <th scope="col">{t('Sites')}</th>
                <th scope="col">{t('Data sources')}</th>
                <th scope="col">{t('Actions')}</th>
              </tr>
            </thead>
            <tbody>
              {data.libraries.map((l) => (
                <tr key={l.id} className="border-t border-stone-200">
                  <td>{l.name}</td>
                  <td>{typeLabel(l.library_type)}</td>
                  <td>{yesNo(t, l.public)}</td>
                  <td>{yesNo(t, l.active)}</td>
                  <td>{l.sites}</td>
                  <td>{l.data_sources}</td>
                  <td className="flex flex-wrap gap-3">
                    <button type="button" className="link" onClick={() => setEditing(l)} aria-label={t('Edit {{name}}', { name: l.name })}>
                      {t('Edit')}
                    </button>
                    <button type="button" className="link" onClick={() => setSitesOf(sitesOf === l.id ? null : l.id)} aria-label={t('Sites of {{name}}', { name: l.name })}>
                      {t('Sites')}
                    </button>
                    <button type="button" className="link" onClick={() => setDeleting(l)} aria-label={t('Delete {{name}}', { name: l.name })}>
                      {t('Delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <DoneNote note={note}>
        {note?.created && (
          <Link className="link" to={`/library/admin/${note.libraryId}`}>
            {t('Address and map of the new library')}
          </Link>
        )}
      </DoneNote>
      {editing ? (
        <LibraryForm
          key={editing === 'new' ? 'new' : editing.id} initial={editing === 'new' ? null : editing}
          onDone={(n) => {
            setEditing(null);
            setNote(n ?? null);
          }}
        />
      ) : (
        <button type="button" className="btn btn-primary mt-4" onClick={() => { setNote(null); setEditing('new'); }}>
          {t('Add a library')}
        </button>
      )}
      {sitesLibrary && (
        <div className="mt-6 rounded border border-stone-300 p-3 sm:p-4">
          <SitesPanel
            key={sitesLibrary.id} scope="admin" libraryId={sitesLibrary.id} level={3} superuser
            title={t('Sites of {{name}}', { name: sitesLibrary.name })}
          />
        </div>
      )}
      <ConfirmDelete
        what={deleting?.name ?? null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
          setDeleting(null);
        }}
      />
    </div>
  );
}
