import { Suspense, lazy, useId, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { LIBRARY_TYPES, REGIONS } from '../../../../packages/shared/src/constants.ts';
import type { LibraryEditBody } from '@uc/shared';
import { libraryAdminApi, libraryFormErrors, type AdminLibrary } from './api';
import { logoSrc } from '../libraries/libraryText';

// Leaflet and the basemap load only when the form is shown.
const PlacePicker = lazy(() => import('./PlacePicker'));

/** The server's limit (server/src/libraries/logos.ts LOGO_MAX_BYTES), for the hint. */
const LOGO_MAX_KB = 512;

const TEXT_FIELDS = ['url', 'logo_url', 'languages', 'address_line_1', 'address_line_2', 'address_zip', 'address_city', 'address_state', 'address_country'] as const;
const AREA_FIELDS = ['short_desc', 'description', 'opening_hours', 'pgp_public_key'] as const;

const LABELS: Record<string, string> = {
  address_line_1: 'Address line 1', address_line_2: 'Address line 2', address_zip: 'Postal code', address_city: 'City',
  address_state: 'State or region', address_country: 'Country', short_desc: 'Short description', description: 'Description',
  opening_hours: 'Opening hours', pgp_public_key: 'PGP public key',
};
const TYPE_LABELS: Record<string, string> = { physical: 'Physical library', digital: 'Digital library', closed: 'Closed library' };

type Values = Record<string, string>;

function toValues(lib: AdminLibrary): Values {
  const out: Values = {};
  for (const [k, v] of Object.entries(lib)) out[k] = v === null || v === undefined ? '' : String(v);
  return out;
}

export function Labelled({ label, children, hint }: { label: string; hint?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="font-semibold">
        {label}
      </label>
      {children(id)}
      {hint && <span className="text-sm text-stone-700">{hint}</span>}
    </div>
  );
}

export const inputClass = 'rounded border border-stone-500 px-2 py-1.5';

/** The library edit form (spec §5 Library edit): 'The library was updated' or the server's error. */
export function LibraryForm({ library }: { library: AdminLibrary }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>(() => toValues(library));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: string) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value }));

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const errors = libraryFormErrors({
      name: values.name ?? '', email_internal: values.email_internal ?? '', email_public: values.email_public ?? '',
      latitude: values.latitude ?? '', longitude: values.longitude ?? '', year_established: values.year_established ?? '',
    });
    if (errors.length) {
      setMessage({ ok: false, text: errors.map((x) => t(x)).join(' ') });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const body = {
        name: values.name, library_type: (values.library_type || 'digital') as LibraryEditBody['library_type'],
        email_internal: values.email_internal, email_public: values.email_public, year_established: values.year_established,
        latitude: values.latitude, longitude: values.longitude, region: (values.region || null) as LibraryEditBody['region'],
        ...Object.fromEntries([...TEXT_FIELDS, ...AREA_FIELDS].map((k) => [k, values[k] ?? ''])),
      };
      const res = await libraryAdminApi.update(library.id, body);
      setValues(toValues(res.library));
      setMessage({ ok: true, text: t('The library was updated') });
      void queryClient.invalidateQueries({ queryKey: ['libraries'] });
    } catch (err) {
      setMessage({ ok: false, text: err instanceof Error ? err.message : t('Error') });
    } finally {
      setBusy(false);
    }
  };

  // A logo file is sent at once and kept by the server; only logo_url changes here, other edits stay unsaved.
  const onLogo = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    setMessage(null);
    try {
      const res = await libraryAdminApi.uploadLogo(library.id, file);
      setValues((v) => ({ ...v, logo_url: res.library.logo_url ?? '' }));
      setMessage({ ok: true, text: t('The logo was updated') });
      void queryClient.invalidateQueries({ queryKey: ['libraries'] });
    } catch (err) {
      setMessage({ ok: false, text: err instanceof Error ? err.message : t('Error') });
    } finally {
      input.value = '';
      setBusy(false);
    }
  };
  const logo = logoSrc(values.logo_url);

  const text = (k: string, label: string, type = 'text', extra: Record<string, unknown> = {}) => (
    <Labelled key={k} label={label}>
      {(id) => <input id={id} name={k} type={type} className={inputClass} value={values[k] ?? ''} onChange={set(k)} {...extra} />}
    </Labelled>
  );

  return (
    <form onSubmit={onSubmit} className="grid gap-4 md:grid-cols-2" aria-labelledby="library-edit-heading" noValidate>
      <h2 id="library-edit-heading" className="text-xl font-semibold md:col-span-2">
        {t('Library details')}
      </h2>
      {text('name', t('Name'), 'text', { required: true, maxLength: 255 })}
      <Labelled label={t('Library type')}>
        {(id) => (
          <select id={id} name="library_type" className={inputClass} value={values.library_type || 'digital'} onChange={set('library_type')}>
            {LIBRARY_TYPES.map((x) => (
              <option key={x} value={x}>
                {t(TYPE_LABELS[x])}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      {text('email_internal', t('Internal e-mail'), 'email', { required: true })}
      {text('email_public', t('Public e-mail'), 'email')}
      {text('url', t('Web site'), 'url')}
      {text('logo_url', t('Logo URL'), 'url')}
      <Labelled label={t('Logo file')} hint={t('PNG, JPEG, WebP or GIF, at most {{kb}} KB', { kb: LOGO_MAX_KB })}>
        {(id) => (
          <div className="flex min-w-0 flex-wrap items-center gap-3">
            {logo && <img src={logo} alt={t('{{name}} logo', { name: library.name })} className="max-h-12 w-auto" />}
            {/* min-w-0: a file input's own width (about 360 px in Chromium) must not widen the form on a phone. */}
            <input id={id} name="logo" type="file" className="min-w-0 max-w-full flex-1" accept="image/png,image/jpeg,image/webp,image/gif" onChange={(e) => void onLogo(e)} disabled={busy} />
          </div>
        )}
      </Labelled>
      {text('year_established', t('Established'), 'date')}
      {text('languages', t('Languages'))}
      {text('latitude', t('Latitude'), 'number', { min: -90, max: 90, step: 0.000001 })}
      {text('longitude', t('Longitude'), 'number', { min: -180, max: 180, step: 0.000001 })}
      <Suspense fallback={null}>
        <PlacePicker
          latitude={values.latitude ?? ''} longitude={values.longitude ?? ''} libraryType={values.library_type ?? 'digital'}
          onPick={(lat, lng) => setValues((v) => ({ ...v, latitude: String(lat), longitude: String(lng) }))}
        />
      </Suspense>
      {TEXT_FIELDS.filter((k) => k.startsWith('address_')).map((k) => text(k, t(LABELS[k])))}
      <Labelled label={t('Region')}>
        {(id) => (
          <select id={id} name="region" className={inputClass} value={values.region ?? ''} onChange={set('region')}>
            <option value="">—</option>
            {REGIONS.map((r) => (
              <option key={r} value={r}>
                {t(r)}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      {AREA_FIELDS.map((k) => (
        <div key={k} className="md:col-span-2">
          <Labelled label={t(LABELS[k])}>
            {(id) => <textarea id={id} name={k} rows={k === 'description' || k === 'pgp_public_key' ? 5 : 2} className={inputClass} value={values[k] ?? ''} onChange={set(k)} />}
          </Labelled>
        </div>
      ))}
      <div className="flex items-center gap-4 md:col-span-2">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t('Update library')}
        </button>
        <p role="status" aria-live="polite" className={message?.ok ? 'text-green-800' : 'text-red-800'}>
          {message?.text ?? ''}
        </p>
      </div>
    </form>
  );
}
