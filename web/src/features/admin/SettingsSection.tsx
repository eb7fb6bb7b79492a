import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi, adminKeys, type AdminSettings } from './api';
import { ErrorAlert, Field, inputClass, Saved, TextField } from './ui';
import { LANGUAGE_NAMES } from '../../i18n';

/** The description's other languages: each a field of its own (English is the default description). */
const DESCRIPTION_FIELDS = [
  ['de', 'description_de'], ['el', 'description_el'], ['fr', 'description_fr'], ['hr', 'description_hr'], ['it', 'description_it'],
] as const;

function SettingsForm({ initial }: { initial: AdminSettings }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form, setForm] = useState(initial);
  const set = (k: keyof AdminSettings) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  const save = useMutation({
    mutationFn: (body: AdminSettings) => adminApi.saveSettings(body),
    onSuccess: async (res) => {
      qc.setQueryData(adminKeys.settings, res);
      // The header, the title and the contact page read /general.
      await qc.invalidateQueries({ queryKey: ['general'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(form);
  };
  return (
    <form onSubmit={submit} className="grid max-w-2xl gap-3" aria-label={t('General settings')}>
      <TextField label={t('Site name')} value={form.site_name} onChange={set('site_name')} />
      <TextField label={t('Logo address')} value={form.site_logo} onChange={set('site_logo')} />
      <Field label={t('Description')} hint={t('The introduction on the home page, shown in every language that has none of its own below.')}>
        {(id, hintId) => <textarea id={id} aria-describedby={hintId} rows={4} value={form.description} onChange={(e) => set('description')(e.target.value)} className={inputClass} />}
      </Field>
      <details className="rounded border border-stone-300 p-3">
        <summary className="cursor-pointer font-medium">{t('The description in the other languages')}</summary>
        <div className="mt-2 grid gap-3">
          {DESCRIPTION_FIELDS.map(([lang, key]) => (
            <Field key={key} label={`${t('Description')} (${LANGUAGE_NAMES[lang]})`}>
              {(id) => <textarea id={id} lang={lang} rows={3} value={form[key] ?? ''} onChange={(e) => set(key)(e.target.value)} className={inputClass} />}
            </Field>
          ))}
        </div>
      </details>
      <TextField label={t('Contact e-mail')} type="email" value={form.contact_email} onChange={set('contact_email')} />
      <ErrorAlert error={save.error} />
      <Saved show={save.isSuccess} text={t('The settings were saved')} />
      <div>
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {t('Save settings')}
        </button>
      </div>
    </form>
  );
}

export function SettingsSection() {
  const { t } = useTranslation();
  const { data, error, isPending } = useQuery({ queryKey: adminKeys.settings, queryFn: adminApi.settings });
  if (isPending) return <p role="status">{t('Loading...')}</p>;
  if (error || !data) return <ErrorAlert error={error} />;
  return <SettingsForm initial={data.settings} />;
}
