import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi, adminKeys, LIBRARY_TYPES, REGIONS, SITE_TYPES, type AdminLibrary, type AdminLibraryInput, type AdminSite, type AdminSiteInput } from './api';
import { CheckField, ConfirmDelete, ErrorAlert, SelectField, TextField, yesNo } from './ui';

function useTypeLabel() {
  const { t } = useTranslation();
  return (v: string) => (v === 'physical' ? t('Physical') : v === 'closed' ? t('Closed') : t('Digital'));
}

const EMPTY: AdminLibraryInput = { name: '', url: '', library_type: 'digital', public: true, active: true, email_internal: '', email_public: '', region: '' };

function LibraryForm({ initial, onDone }: { initial: AdminLibrary | null; onDone: () => void }) {
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
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: adminKeys.libraries });
      await qc.invalidateQueries({ queryKey: ['libraries'] });
      onDone();
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
        <button type="button" className="btn" onClick={onDone}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}

function SiteForm({ libraryId, initial, onDone }: { libraryId: number; initial: AdminSite | null; onDone: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form, setForm] = useState<AdminSiteInput>(() =>
    initial ? { title: initial.title, site_type: initial.site_type, url: initial.url ?? '', active: initial.active } : { title: '', site_type: 'generic', url: '', active: true },
  );
  const set = <K extends keyof AdminSiteInput>(k: K) => (v: AdminSiteInput[K]) => setForm((f) => ({ ...f, [k]: v }));
  const save = useMutation({
    mutationFn: (body: AdminSiteInput) => (initial ? adminApi.updateSite(libraryId, initial.id, body) : adminApi.createSite(libraryId, body)),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: adminKeys.sites(libraryId) });
      await qc.invalidateQueries({ queryKey: adminKeys.libraries });
      onDone();
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ ...form, url: form.url || null });
      }}
      className="mt-3 grid max-w-xl gap-3"
      aria-label={initial ? t('Edit site') : t('New site')}
    >
      <TextField label={t('Site title')} value={form.title} onChange={set('title')} required />
      <SelectField label={t('Site type')} value={form.site_type} onChange={set('site_type')} options={SITE_TYPES.map((v) => ({ value: v, label: v }))} />
      <TextField label={t('Site address')} type="url" value={form.url ?? ''} onChange={set('url')} />
      <CheckField label={t('Active')} checked={form.active} onChange={set('active')} />
      <ErrorAlert error={save.error} />
      <div className="flex gap-2">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {t('Save site')}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}

function Sites({ library }: { library: AdminLibrary }) {
  const { t } = useTranslation();
  const { data, error, isPending } = useQuery({ queryKey: adminKeys.sites(library.id), queryFn: () => adminApi.sites(library.id) });
  const [editing, setEditing] = useState<AdminSite | 'new' | null>(null);
  return (
    <section className="mt-4 rounded border border-stone-300 p-4" aria-labelledby={`sites-${library.id}`}>
      <h3 id={`sites-${library.id}`} className="text-lg font-semibold">
        {t('Sites of {{name}}', { name: library.name })}
      </h3>
      {isPending && <p role="status">{t('Loading...')}</p>}
      <ErrorAlert error={error} />
      {data && (
        <table className="mt-2 w-full text-left">
          <thead>
            <tr>
              <th scope="col">{t('Site title')}</th>
              <th scope="col">{t('Site type')}</th>
              <th scope="col">{t('Site address')}</th>
              <th scope="col">{t('Active')}</th>
              <th scope="col">{t('Data sources')}</th>
              <th scope="col">{t('Actions')}</th>
            </tr>
          </thead>
          <tbody>
            {data.sites.map((s) => (
              <tr key={s.id} className="border-t border-stone-200">
                <td>{s.title}</td>
                <td>{s.site_type}</td>
                <td className="break-all">{s.url}</td>
                <td>{yesNo(t, s.active)}</td>
                <td>{s.data_sources}</td>
                <td>
                  <button type="button" className="link" onClick={() => setEditing(s)} aria-label={t('Edit {{name}}', { name: s.title })}>
                    {t('Edit')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing ? (
        <SiteForm key={editing === 'new' ? 'new' : editing.id} libraryId={library.id} initial={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
      ) : (
        <button type="button" className="btn mt-3" onClick={() => setEditing('new')}>
          {t('Add a site')}
        </button>
      )}
    </section>
  );
}

export function LibrariesSection() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { data, error, isPending } = useQuery({ queryKey: adminKeys.libraries, queryFn: adminApi.libraries });
  const [editing, setEditing] = useState<AdminLibrary | 'new' | null>(null);
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
      {editing ? (
        <LibraryForm key={editing === 'new' ? 'new' : editing.id} initial={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
      ) : (
        <button type="button" className="btn btn-primary mt-4" onClick={() => setEditing('new')}>
          {t('Add a library')}
        </button>
      )}
      {sitesLibrary && <Sites key={sitesLibrary.id} library={sitesLibrary} />}
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
