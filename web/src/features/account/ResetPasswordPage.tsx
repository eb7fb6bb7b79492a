import { useId, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loginErrorText, useAccountActions } from '../../api/account';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { usePasswordRule } from './passwordRule';

const fieldClass = 'w-full rounded border border-stone-500 bg-white px-3 py-2 text-stone-900';

/**
 * /reset-password/{username}/{token} (spec §2 Password reset): two labelled password fields, the prompt
 * until both match, the mismatch note, the button only when both match; success logs in and opens /search.
 */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { username = '', token = '' } = useParams();
  const actions = useAccountActions();
  const ids = { pass: useId(), repeat: useId(), hint: useId() };
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const title = t('Reset password for {{username}}', { username });
  useDocumentTitle(title);

  const rule = usePasswordRule();
  const tooShort = rule.tooShort(password);
  const match = password !== '' && password === repeat && !tooShort;
  const mismatch = repeat !== '' && password !== repeat;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!match || busy) return;
    setBusy(true);
    setError('');
    try {
      const user = await actions.resetPassword(username, token, password);
      if (user.logged_in) {
        navigate('/search');
        return;
      }
      setError(t('Error'));
    } catch (err) {
      setError(loginErrorText(err, t('Error')));
    }
    setBusy(false);
  };

  return (
    <div className="mx-auto max-w-lg px-4 py-8">
      <h1 className="mb-6 text-2xl font-semibold">{title}</h1>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div>
          <label htmlFor={ids.pass} className="mb-1 block font-medium">
            {t('New password')}
          </label>
          <input
            id={ids.pass}
            type="password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-describedby={ids.hint}
            className={fieldClass}
          />
        </div>
        <div>
          <label htmlFor={ids.repeat} className="mb-1 block font-medium">
            {t('Repeat the new password')}
          </label>
          <input
            id={ids.repeat}
            type="password"
            autoComplete="new-password"
            required
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
            aria-describedby={ids.hint}
            aria-invalid={mismatch || undefined}
            className={fieldClass}
          />
        </div>
        <div id={ids.hint} role="status" className="space-y-1 text-sm">
          {rule.text && <p className={tooShort ? 'font-semibold text-red-800' : 'text-stone-700'}>{rule.text}</p>}
          {mismatch && <p className="font-semibold text-red-800">{t('The passwords do not match')}</p>}
          {!match && !tooShort && <p className="text-stone-700">{t('Please type your new password in both fields')}</p>}
        </div>
        {match && (
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('Set the new password')}
          </button>
        )}
        <div role="alert" className="font-semibold text-red-800 empty:hidden">
          {error}
        </div>
      </form>
    </div>
  );
}
