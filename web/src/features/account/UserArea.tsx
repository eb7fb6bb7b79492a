import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { loginErrorText, useAccountActions, useCurrentUser } from '../../api/account';
import { UserMenu } from './UserMenu';
import { UserIcon } from './icons';

export type AreaView = 'hidden' | 'login' | 'reset';

const fieldClass = 'w-full rounded border border-stone-500 bg-white px-3 py-1.5 text-stone-900';
const linkButton = 'link cursor-pointer bg-transparent p-0 text-sm';

function LoginForm({ onDone, onReset }: { onDone: () => void; onReset: () => void }) {
  const { t } = useTranslation();
  const actions = useAccountActions();
  const ids = { user: useId(), pass: useId(), error: useId() };
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const userRef = useRef<HTMLInputElement>(null);
  useEffect(() => userRef.current?.focus(), []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !username.trim() || !password) return;
    setBusy(true);
    setError('');
    try {
      await actions.login(username.trim(), password);
      setPassword('');
      onDone();
    } catch (err) {
      setError(loginErrorText(err, t('Failed login')));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} aria-label={t('Login')} className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={ids.user} className="mb-1 block text-sm font-medium">
          {t('Username')}
        </label>
        <input
          ref={userRef}
          id={ids.user}
          name="username"
          required
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          aria-describedby={error ? ids.error : undefined}
          className={fieldClass}
        />
      </div>
      <div>
        <label htmlFor={ids.pass} className="mb-1 block text-sm font-medium">
          {t('Password')}
        </label>
        <input
          id={ids.pass}
          name="password"
          type="password"
          required
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-describedby={error ? ids.error : undefined}
          className={fieldClass}
        />
      </div>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {t('Login')}
      </button>
      <button type="button" className={linkButton} onClick={onReset}>
        {t('Reset password?')}
      </button>
      <div role="alert" id={ids.error} className="basis-full font-semibold text-red-800 empty:hidden">
        {error}
      </div>
    </form>
  );
}

function ResetRequestForm({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  const actions = useAccountActions();
  const id = useId();
  const [username, setUsername] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const userRef = useRef<HTMLInputElement>(null);
  useEffect(() => userRef.current?.focus(), []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !username.trim()) return;
    setBusy(true);
    setMessage('');
    setError('');
    try {
      setMessage(await actions.requestReset(username.trim()));
    } catch (err) {
      setError(loginErrorText(err, t('Error')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} aria-label={t('Password reset')} className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={id} className="mb-1 block text-sm font-medium">
          {t('Username')}
        </label>
        <input
          ref={userRef}
          id={id}
          name="username"
          required
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          className={fieldClass}
        />
      </div>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {t('Require Password Reset')}
      </button>
      <button type="button" className={linkButton} onClick={onBack}>
        {t('Back to login')}
      </button>
      <div role="status" className="basis-full text-emerald-900 empty:hidden">
        {message}
      </div>
      <div role="alert" className="basis-full font-semibold text-red-800 empty:hidden">
        {error}
      </div>
    </form>
  );
}

/**
 * The header's user area (spec §2 Header): for visitors a user button toggling an inline area with the
 * login and the reset-request views; for logged-in users the greeting and the user menu. Rendered as two
 * siblings of the header row: the controls, and the area, which takes a full row of its own.
 */
export function UserArea() {
  const { t } = useTranslation();
  const { user, isPending } = useCurrentUser();
  const actions = useAccountActions();
  const [view, setView] = useState<AreaView>('hidden');
  const areaId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement | null>(null);
  const focusAfter = useRef<'menu' | 'toggle' | null>(null);

  useEffect(() => {
    // After logging in (or out) the button that had focus is gone: move focus to its counterpart.
    const target = focusAfter.current === 'menu' ? menuButtonRef.current : focusAfter.current === 'toggle' ? toggleRef.current : null;
    if (target) {
      focusAfter.current = null;
      target.focus();
    }
  });

  if (isPending) return <div className="min-w-10" aria-hidden="true" />;

  if (user) {
    return (
      <div className="flex items-center gap-3">
        <span className="text-sm">{t('Hello, {{name}}!', { name: user.logged_in })}</span>
        <UserMenu
          user={user}
          buttonRef={menuButtonRef}
          onLogout={() => {
            focusAfter.current = 'toggle';
            setView('hidden');
            void actions.logout();
          }}
        />
      </div>
    );
  }

  const open = view !== 'hidden';
  return (
    <>
      <button
        ref={toggleRef}
        type="button"
        className="btn icon-btn"
        aria-expanded={open}
        aria-controls={areaId}
        aria-label={t('Log in')}
        title={t('Log in')}
        onClick={() => setView(open ? 'hidden' : 'login')}
      >
        <UserIcon />
      </button>
      <div
        id={areaId}
        hidden={!open}
        className="order-last basis-full border-t border-stone-200 pt-3"
        onKeyDown={(e) => {
          // Escape closes the area and returns to the user button.
          if (e.key === 'Escape') {
            e.preventDefault();
            setView('hidden');
            toggleRef.current?.focus();
          }
        }}
      >
        {view === 'login' && (
          <LoginForm
            onReset={() => setView('reset')}
            onDone={() => {
              focusAfter.current = 'menu';
              setView('hidden');
            }}
          />
        )}
        {view === 'reset' && <ResetRequestForm onBack={() => setView('login')} />}
      </div>
    </>
  );
}
