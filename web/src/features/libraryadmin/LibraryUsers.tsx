import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { libraryAdminApi, type LibraryUser } from './api';
import { Labelled, inputClass } from './LibraryForm';

/** 'Library Users' table with removal, asked first (spec §2 Library admin screen). */
export function LibraryUsers({ libraryId, libraryName, users, onChange }: {
  libraryId: number; libraryName: string; users: LibraryUser[]; onChange: () => void;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState('');
  const [removing, setRemoving] = useState<LibraryUser | null>(null);
  const remove = async (u: LibraryUser) => {
    setRemoving(null);
    setError('');
    try {
      await libraryAdminApi.removeUser(libraryId, u.id);
      onChange();
    } catch (e) {
      setError(e instanceof Error ? e.message : t('Error'));
    }
  };
  return (
    <section aria-labelledby="library-users-heading" className="flex flex-col gap-3">
      <h2 id="library-users-heading" className="text-xl font-semibold">
        {t('Library Users')}
      </h2>
      {users.length === 0 ? (
        <p>{t('Nothing to show!')}</p>
      ) : (
        // Focusable and named: on a phone the table scrolls sideways, and a row may have no button to tab to.
        <div className="overflow-x-auto" role="group" aria-labelledby="library-users-heading" tabIndex={0}>
          <table className="w-full border-collapse text-left">
            <thead>
              <tr className="border-b border-stone-400">
                {[t('Username'), t('Email'), t('Name'), t('Last Login'), t('Expires'), t('Can Merge'), t('Remove')].map((h) => (
                  <th key={h} scope="col" className="px-2 py-1">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id} className="border-b border-stone-200">
                  <td className="px-2 py-1">
                    {u.username}
                    {u.library_admin && <span className="ml-2 text-sm text-stone-700">({t('library admin')})</span>}
                  </td>
                  <td className="px-2 py-1">{u.email}</td>
                  <td className="px-2 py-1">{u.name}</td>
                  <td className="px-2 py-1">{u.last_login ?? ''}</td>
                  <td className="px-2 py-1">{u.expiration ?? ''}</td>
                  <td className="px-2 py-1">{u.can_merge ? t('Yes') : ''}</td>
                  <td className="px-2 py-1">
                    {u.removable && (
                      <button type="button" className="btn" onClick={() => setRemoving(u)} aria-label={t('Remove {{username}}', { username: u.username })}>
                        {t('Remove')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {error && (
        <p role="alert" className="text-red-800">
          {error}
        </p>
      )}
      <Dialog
        open={removing !== null}
        title={t('Remove {{username}} from {{library}}?', { username: removing?.username ?? '', library: libraryName })}
        onClose={() => setRemoving(null)}
      >
        <p>{t('The user can no longer work on this library. The account itself is kept.')}</p>
        <div className="mt-4 flex gap-2">
          <button type="button" className="btn btn-primary" onClick={() => removing && void remove(removing)}>
            {t('Remove user')}
          </button>
          <button type="button" className="btn" onClick={() => setRemoving(null)}>
            {t('Cancel')}
          </button>
        </div>
      </Dialog>
    </section>
  );
}

/** The add-user form (spec §5 Add user) with the username check. */
export function AddUserForm({ libraryId, onAdded }: { libraryId: number; onAdded: () => void }) {
  const { t } = useTranslation();
  const empty = { username: '', email: '', first_name: '', last_name: '', expiration: '' };
  const [v, setV] = useState(empty);
  const [canMerge, setCanMerge] = useState(false);
  const [exists, setExists] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const set = (k: keyof typeof empty) => (e: { target: { value: string } }) => setV((x) => ({ ...x, [k]: e.target.value }));

  // The username check, a moment after typing stops.
  useEffect(() => {
    const name = v.username.trim();
    if (!name) {
      setExists(false);
      return;
    }
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      libraryAdminApi.userCheck(name, ctl.signal).then((r) => setExists(!!r.username_exists), () => setExists(false));
    }, 350);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [v.username]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!v.username.trim()) return;
    setMessage(null);
    try {
      const res = await libraryAdminApi.createUser(libraryId, { ...v, expiration: v.expiration || null, can_merge: canMerge });
      const text = res.status === 'created' ? t('The user was created and will receive an e-mail to set the password.')
        : res.status === 'added' ? t('The existing user was added to this library.') : t('The user is already in this library.');
      setMessage({ ok: true, text });
      setV(empty);
      setCanMerge(false);
      onAdded();
    } catch (err) {
      setMessage({ ok: false, text: err instanceof Error ? err.message : t('Error') });
    }
  };

  return (
    <form onSubmit={onSubmit} aria-labelledby="add-user-heading" className="grid gap-4 md:grid-cols-2">
      <h2 id="add-user-heading" className="text-xl font-semibold md:col-span-2">
        {t('Add user')}
      </h2>
      <Labelled label={t('Username')}>
        {(id) => <input id={id} name="username" required autoComplete="off" className={inputClass} value={v.username} onChange={set('username')} />}
      </Labelled>
      <Labelled label={t('Email')}>
        {(id) => <input id={id} name="email" type="email" className={inputClass} value={v.email} onChange={set('email')} />}
      </Labelled>
      {exists && (
        <p role="status" className="rounded border border-amber-700 bg-amber-50 p-2 text-amber-950 md:col-span-2">
          {t('This username already exist. You are going to add it to this library.')}
        </p>
      )}
      <Labelled label={t('First name')}>
        {(id) => <input id={id} name="first_name" className={inputClass} value={v.first_name} onChange={set('first_name')} />}
      </Labelled>
      <Labelled label={t('Last name')}>
        {(id) => <input id={id} name="last_name" className={inputClass} value={v.last_name} onChange={set('last_name')} />}
      </Labelled>
      <Labelled label={t('Expiration')}>
        {(id) => <input id={id} name="expiration" type="date" className={inputClass} value={v.expiration} onChange={set('expiration')} />}
      </Labelled>
      <label className="flex items-center gap-2 self-end">
        <input type="checkbox" name="can_merge" checked={canMerge} onChange={(e) => setCanMerge(e.target.checked)} />
        {t('Enabled for merging')}
      </label>
      <div className="flex items-center gap-4 md:col-span-2">
        <button type="submit" className="btn btn-primary" disabled={!v.username.trim()}>
          {t('Add user')}
        </button>
        <p role="status" aria-live="polite" className={message?.ok ? 'text-green-800' : 'text-red-800'}>
          {message?.text ?? ''}
        </p>
      </div>
    </form>
  );
}
