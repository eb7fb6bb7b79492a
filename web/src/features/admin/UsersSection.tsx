import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi, adminKeys, type AdminUser, type AdminUserInput } from './api';
import { CheckField, DoneNote, ErrorAlert, TextField, yesNo } from './ui';
import { usePasswordRule } from '../account/passwordRule';

type Form = Required<Omit<AdminUserInput, 'expiration'>> & { expiration: string };
// No 'may set exclusions' box: every logged-in user may hide things from their own searches (docs/curation.md).
const FLAGS = ['is_superuser', 'library_admin', 'can_merge', 'active'] as const;

function UserForm({ initial, selfId, onDone }: { initial: AdminUser | null; selfId?: number; onDone: (note?: { text: string }) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const libraries = useQuery({ queryKey: adminKeys.libraries, queryFn: adminApi.libraries });
  const [form, setForm] = useState<Form>(() => ({
    username: initial?.username ?? '', email: initial?.email ?? '', password: '', first_name: initial?.first_name ?? '', last_name: initial?.last_name ?? '',
    is_superuser: initial?.is_superuser ?? false, library_admin: initial?.library_admin ?? false, can_merge: initial?.can_merge ?? false,
    can_set_exclusions: initial?.can_set_exclusions ?? false, active: initial?.active ?? true,
    expiration: initial?.expiration?.slice(0, 10) ?? '', library_ids: initial?.library_ids ?? [],
  }));
  const set = <K extends keyof Form>(k: K) => (v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));
  const passwordRule = usePasswordRule();
  const labels: Record<(typeof FLAGS)[number], string> = {
    is_superuser: t('Superuser'), library_admin: t('Library admin'), can_merge: t('Enabled for merging'),
    active: t('Active'),
  };
  const save = useMutation({
    mutationFn: () => {
      const { password, username, expiration, ...rest } = form;
      const body: AdminUserInput = { ...rest, expiration: expiration || null };
      return initial ? adminApi.updateUser(initial.id, body) : adminApi.createUser({ ...body, username, password: password || undefined });
    },
    onSuccess: async ({ user }) => {
      await qc.invalidateQueries({ queryKey: adminKeys.users });
      onDone({ text: initial ? t('The user {{name}} was saved.', { name: user.username }) : t('The user {{name}} was created.', { name: user.username }) });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const title = initial ? t('Edit user {{name}}', { name: initial.username }) : t('New user');
  return (
    <form onSubmit={submit} className="mt-4 grid max-w-2xl gap-3 rounded border border-stone-300 p-4" aria-label={title}>
      <h3 className="text-lg font-semibold">{title}</h3>
      {!initial && <TextField label={t('Username')} value={form.username} onChange={set('username')} required />}
      <TextField label={t('E-mail')} type="email" value={form.email} onChange={set('email')} />
      {!initial && (
        <TextField
          label={t('Password')}
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={set('password')}
          minLength={passwordRule.minLength}
          hint={`${t('Optional: without one, the user sets it through a password reset.')} ${passwordRule.text}`.trim()}
        />
      )}
      <TextField label={t('First name')} value={form.first_name} onChange={set('first_name')} />
      <TextField label={t('Last name')} value={form.last_name} onChange={set('last_name')} />
      <TextField label={t('Expiration')} type="date" value={form.expiration} onChange={set('expiration')} />
      <fieldset className="grid gap-1">
        <legend className="font-medium">{t('Permissions')}</legend>
        {FLAGS.map((f) => (
          <CheckField key={f} label={labels[f]} checked={form[f]} onChange={set(f)} />
        ))}
        {initial && initial.id === selfId && <p className="text-sm text-stone-700">{t('You cannot remove your own superuser flag.')}</p>}
      </fieldset>
      <fieldset className="grid max-h-60 gap-1 overflow-y-auto">
        <legend className="font-medium">{t('Libraries')}</legend>
        {libraries.data?.libraries.map((l) => (
          <CheckField
            key={l.id}
            label={l.name}
            checked={form.library_ids.includes(l.id)}
            onChange={(on) => set('library_ids')(on ? [...form.library_ids, l.id] : form.library_ids.filter((x) => x !== l.id))}
          />
        ))}
      </fieldset>
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

export function UsersSection({ selfUsername }: { selfUsername?: string }) {
  const { t } = useTranslation();
  const { data, error, isPending } = useQuery({ queryKey: adminKeys.users, queryFn: adminApi.users });
  const libraries = useQuery({ queryKey: adminKeys.libraries, queryFn: adminApi.libraries });
  const [editing, setEditing] = useState<AdminUser | 'new' | null>(null);
  const [note, setNote] = useState<{ text: string } | null>(null);
  const names = new Map(libraries.data?.libraries.map((l) => [l.id, l.name]));
  const selfId = data?.users.find((u) => u.username === selfUsername)?.id;
  return (
    <div>
      {isPending && <p role="status">{t('Loading...')}</p>}
      <ErrorAlert error={error} />
      {data && (
        <div className="overflow-x-auto">
          <table className="w-full text-left">
            <caption className="sr-only">{t('Users')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('Username')}</th>
                <th scope="col">{t('E-mail')}</th>
                <th scope="col">{t('Superuser')}</th>
                <th scope="col">{t('Library admin')}</th>
                <th scope="col">{t('Enabled for merging')}</th>
                <th scope="col">{t('Active')}</th>
                <th scope="col">{t('Expiration')}</th>
                <th scope="col">{t('Libraries')}</th>
                <th scope="col">{t('Actions')}</th>
              </tr>
            </thead>
            <tbody>
              {data.users.map((u) => (
                <tr key={u.id} className="border-t border-stone-200">
                  <td>{u.username}</td>
                  <td>{u.email}</td>
                  <td>{yesNo(t, u.is_superuser)}</td>
                  <td>{yesNo(t, u.library_admin)}</td>
                  <td>{yesNo(t, u.can_merge)}</td>
                  <td>{yesNo(t, u.active)}</td>
                  <td>{u.expiration?.slice(0, 10) ?? ''}</td>
                  <td>{u.library_ids.map((id) => names.get(id) ?? `#${id}`).join(', ')}</td>
                  <td>
                    <button type="button" className="link" onClick={() => setEditing(u)} aria-label={t('Edit {{name}}', { name: u.username })}>
                      {t('Edit')}
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
        <UserForm
          key={editing === 'new' ? 'new' : editing.id} initial={editing === 'new' ? null : editing} selfId={selfId}
          onDone={(n) => {
            setEditing(null);
            setNote(n ?? null);
          }}
        />
      ) : (
        <button type="button" className="btn btn-primary mt-4" onClick={() => { setNote(null); setEditing('new'); }}>
          {t('Add a user')}
        </button>
      )}
    </div>
  );
}
