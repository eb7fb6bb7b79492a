// The settings of one site (new or edited), for superusers in /admin and for a library's admins. The rules
// are the shared siteBodySchema's, checked here with safeParse and again by the server.
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { ErrorAlert } from '../admin/ui';
import {
  CSV_TYPES, HARVEST_INTERVAL_DEFAULT, HARVEST_INTERVAL_MAX, HARVEST_INTERVAL_MIN, OAI_METADATA_FORMATS, SITE_TYPES,
  harvestApi, harvestKeys, isOaiType, siteBodySchema, type Site, type SiteBody, type SiteScope, type SiteTestBody, type SiteTestResponse,
} from './api';
import { csvTypeLabel, formatLabel, siteTypeLabel } from './labels';

const inputClass = 'w-full max-w-full rounded border border-stone-500 bg-white px-2 py-1';

interface Values {
  title: string;
  site_type: string;
  url: string;
  oai_set: string;
  oai_metadata_format: string;
  active: boolean;
  harvest_interval_minutes: string;
  tree_path: string;
  csv_type: string;
}
type FieldName = Exclude<keyof Values, 'active'>;
type FieldErrors = Partial<Record<keyof Values, string>>;

function initialValues(site: Site | null): Values {
  return {
    title: site?.title ?? '',
    site_type: site?.site_type ?? 'amusewiki',
    url: site?.url ?? '',
    oai_set: site?.oai_set ?? '',
    oai_metadata_format: site?.oai_metadata_format ?? '',
    active: site?.active ?? true,
    harvest_interval_minutes: String(site?.harvest_interval_minutes ?? HARVEST_INTERVAL_DEFAULT),
    tree_path: site?.tree_path ?? '',
    csv_type: site?.csv_type ?? 'generic',
  };
}

/** The body the form sends: the fields other site types do not use are cleared; a library admin sends no new folder. */
export function siteBody(v: Values, superuser: boolean, initial: Site | null): SiteBody {
  const oai = isOaiType(v.site_type);
  const interval = v.harvest_interval_minutes.trim();
  const body: SiteBody = {
    title: v.title,
    site_type: v.site_type as SiteBody['site_type'],
    url: v.url.trim() || null,
    oai_set: oai && v.site_type !== 'amusewiki' ? v.oai_set.trim() || null : null,
    oai_metadata_format: v.site_type === 'generic' && v.oai_metadata_format ? (v.oai_metadata_format as SiteBody['oai_metadata_format']) : null,
    active: v.active,
    // An empty or non-numeric interval is NaN, which the schema refuses (and the form says why).
    harvest_interval_minutes: interval === '' ? Number.NaN : Number(interval),
    csv_type: v.site_type === 'csv' ? (v.csv_type as SiteBody['csv_type']) : null,
  };
  if (superuser) body.tree_path = v.site_type === 'calibretree' ? v.tree_path.trim() || null : null;
  // A library admin keeps a Calibre site's folder as it is (the server refuses a changed one).
  else if (v.site_type === 'calibretree') body.tree_path = initial?.tree_path ?? null;
  return body;
}

/** The schema's complaints, one per field, in the interface language. */
function fieldErrors(issues: readonly { path: readonly PropertyKey[]; code: string; message: string }[], t: TFunction): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path[0] as keyof Values | undefined;
    if (!field || out[field]) continue;
    if (field === 'harvest_interval_minutes') {
      out[field] = t('The interval is a whole number of minutes between {{min}} and {{max}}', { min: HARVEST_INTERVAL_MIN, max: HARVEST_INTERVAL_MAX });
    } else if (issue.code === 'too_big' && 'maximum' in issue) {
      out[field] = t('At most {{max}} characters', { max: Number(issue.maximum) });
    } else {
      // The schema's own messages are the translation keys.
      out[field] = t(issue.message);
    }
  }
  return out;
}

function Row({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-stone-700">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm font-semibold text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}

/** The aria attributes of a field: invalid when it has an error, described by its hint and its error. */
function described(id: string, error: string | undefined, hint: boolean) {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': ids || undefined };
}

/**
 * "Test connection": asks the address (Identify, formats, sets) before the site is saved, so a wrong
 * address or a repository without the site's format shows now, not at the first harvest.
 */
function ConnectionTest({ scope, values, onSet }: { scope: SiteScope; values: Values; onSet: (spec: string) => void }) {
  const { t } = useTranslation();
  const setsId = useId();
  const [result, setResult] = useState<SiteTestResponse | null>(null);
  const [testing, setTesting] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const run = async () => {
    setTesting(true);
    setResult(null);
    setFailure(null);
    try {
      const body: SiteTestBody = {
        site_type: values.site_type as SiteTestBody['site_type'], url: values.url.trim(),
        oai_metadata_format: values.site_type === 'generic' && values.oai_metadata_format ? (values.oai_metadata_format as SiteTestBody['oai_metadata_format']) : null,
      };
      setResult(await harvestApi.testConnection(scope.libraryId, body));
    } catch (e) {
      setFailure(e);
    } finally {
      setTesting(false);
    }
  };
  const setsShown = result?.ok && values.site_type !== 'amusewiki' && (result.sets?.length ?? 0) > 0;
  return (
    <div className="flex flex-col items-start gap-2">
      <button type="button" className="btn" onClick={() => void run()} disabled={testing || values.url.trim() === ''}>
        {testing ? t('Testing the connection…') : t('Test connection')}
      </button>
      <ErrorAlert error={failure} />
      {result && !result.ok && (
        <p role="alert" className="rounded border border-red-700 bg-red-50 px-3 py-2 text-red-900 wrap-anywhere">
          {result.error}
        </p>
      )}
      {result?.ok && (
        <div role="status" className="rounded border border-green-700 bg-green-50 px-3 py-2 text-green-900 wrap-anywhere">
          <p>{t('Connected to “{{name}}”.', { name: result.repository_name })}</p>
          <p>{t('Metadata formats: {{formats}}', { formats: (result.formats ?? []).join(', ') })}</p>
          {result.format && !result.format_offered && (
            <p className="font-semibold text-red-900">{t('This repository does not offer {{format}}, the format this site is harvested in.', { format: result.format })}</p>
          )}
          {result.sets && result.sets.length === 0 && <p>{t('The repository has no sets.')}</p>}
        </div>
      )}
      {setsShown && (
        <div className="flex flex-col gap-1">
          <label htmlFor={setsId} className="font-medium">
            {t('Sets of the repository ({{n}})', { n: result.sets!.length })}
          </label>
          <select id={setsId} className={inputClass} value={values.oai_set} onChange={(e) => onSet(e.target.value)}>
            <option value="">{t('All records (no set)')}</option>
            {result.sets!.map((s) => (
              <option key={s.spec} value={s.spec}>
                {s.name ? `${s.name} (${s.spec})` : s.spec}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}

export interface SiteFormProps {
  scope: SiteScope;
  /** The site to edit, or null for a new one. */
  initial: Site | null;
  /** Superusers may choose a Calibre folder (calibretree sites). */
  superuser: boolean;
  onDone: (saved: Site | null) => void;
  /** The level of the form's heading (the panel's heading is one above). */
  level?: 3 | 4 | 5;
}

export function SiteForm({ scope, initial, superuser, onDone, level = 4 }: SiteFormProps) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const base = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const [values, setValues] = useState<Values>(() => initialValues(initial));
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = <K extends keyof Values>(k: K) => (v: Values[K]) => {
    setValues((f) => ({ ...f, [k]: v }));
    setErrors((e) => (e[k] ? { ...e, [k]: undefined } : e));
  };
  const id = (name: FieldName) => `${base}-${name}`;

  useEffect(() => {
    titleRef.current?.focus();
  }, []);

  const save = useMutation({
    mutationFn: (body: SiteBody) => (initial ? scope.update(initial.id, body) : scope.create(body)),
    onSuccess: async ({ site }) => {
      await qc.invalidateQueries({ queryKey: harvestKeys.sites(scope.kind, scope.libraryId) });
      for (const key of scope.alsoStale) void qc.invalidateQueries({ queryKey: key });
      onDone(site);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = siteBody(values, superuser, initial);
    const parsed = siteBodySchema.safeParse(body);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues, t));
      // After React has marked the fields: focus the first one that needs a change.
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setErrors({});
    save.mutate(body);
  };

  const Heading = `h${level}` as const;
  const type = values.site_type;
  const oai = isOaiType(type);
  const types = SITE_TYPES.filter((s) => s !== 'calibretree' || superuser || initial?.site_type === 'calibretree');
  const heading = initial ? t('Edit the site “{{title}}”', { title: initial.title }) : t('New site');
  const intervalHint = t('Between {{min}} and {{max}} minutes.', { min: HARVEST_INTERVAL_MIN, max: HARVEST_INTERVAL_MAX });

  return (
    <form ref={formRef} noValidate onSubmit={submit} aria-label={heading} className="mt-4 flex max-w-2xl min-w-0 flex-col gap-3 rounded border border-stone-300 p-3 sm:p-4">
      <Heading className="text-lg font-semibold">{heading}</Heading>
      <Row id={id('title')} label={t('Title')} error={errors.title}>
        <input
          ref={titleRef} id={id('title')} type="text" value={values.title} onChange={(e) => set('title')(e.target.value)}
          aria-required="true" autoComplete="off" className={inputClass} {...described(id('title'), errors.title, false)}
        />
      </Row>
      <Row id={id('site_type')} label={t('Site type')} error={errors.site_type}>
        <select
          id={id('site_type')} value={type} onChange={(e) => set('site_type')(e.target.value)} className={inputClass}
          {...described(id('site_type'), errors.site_type, false)}
        >
          {types.map((s) => (
            <option key={s} value={s}>
              {siteTypeLabel(t, s)}
            </option>
          ))}
        </select>
      </Row>
      <Row
        id={id('url')} label={oai ? t('OAI-PMH endpoint URL') : t('Address')} error={errors.url}
        hint={oai ? t('The base URL of the OAI-PMH interface, for example https://example.org/oai-pmh') : undefined}
      >
        <input
          id={id('url')} type="url" inputMode="url" value={values.url} onChange={(e) => set('url')(e.target.value)} autoComplete="off"
          aria-required={oai ? 'true' : undefined} className={inputClass} {...described(id('url'), errors.url, oai)}
        />
      </Row>
      {oai && <ConnectionTest scope={scope} values={values} onSet={(spec) => set('oai_set')(spec)} />}
      {/* The server stores a set for every OAI type but amusewiki (always its "web" set), and a format for
          generic sites only (the others are harvested as marc21). */}
      {oai && type !== 'amusewiki' && (
        <Row id={id('oai_set')} label={t('OAI set')} error={errors.oai_set} hint={t('Optional: harvest only this set of the repository.')}>
          <input
            id={id('oai_set')} type="text" value={values.oai_set} onChange={(e) => set('oai_set')(e.target.value)} autoComplete="off"
            className={inputClass} {...described(id('oai_set'), errors.oai_set, true)}
          />
        </Row>
      )}
      {type === 'amusewiki' && <p className="text-sm text-stone-700">{t('Amusewiki sites are harvested from their “web” set.')}</p>}
      {type === 'generic' && (
        <Row id={id('oai_metadata_format')} label={t('Metadata format')} error={errors.oai_metadata_format}>
          <select
            id={id('oai_metadata_format')} value={values.oai_metadata_format} onChange={(e) => set('oai_metadata_format')(e.target.value)}
            aria-required="true" className={inputClass} {...described(id('oai_metadata_format'), errors.oai_metadata_format, false)}
          >
            <option value="">{t('Choose a format')}</option>
            {OAI_METADATA_FORMATS.map((f) => (
              <option key={f} value={f}>
                {formatLabel(t, f)}
              </option>
            ))}
          </select>
        </Row>
      )}
      {oai && type !== 'generic' && (
        <p>
          <span className="font-medium">{t('Metadata format')}:</span> {t('{{format}}, set by the site type', { format: formatLabel(t, 'marc21') })}
        </p>
      )}
      {type === 'calibretree' && !superuser && (
        <p>
          <span className="font-medium">{t('Calibre folder')}:</span> <code className="wrap-anywhere">{values.tree_path}</code>{' '}
          <span className="text-sm text-stone-700">{t('(only superusers can change it)')}</span>
        </p>
      )}
      {type === 'calibretree' && superuser && (
        <Row id={id('tree_path')} label={t('Calibre folder')} error={errors.tree_path} hint={t('A folder under the Calibre root of the server.')}>
          <input
            id={id('tree_path')} type="text" value={values.tree_path} onChange={(e) => set('tree_path')(e.target.value)} autoComplete="off"
            aria-required="true" className={inputClass} {...described(id('tree_path'), errors.tree_path, true)}
          />
        </Row>
      )}
      {type === 'csv' && (
        <Row id={id('csv_type')} label={t('Spreadsheet format')} error={errors.csv_type}>
          <select
            id={id('csv_type')} value={values.csv_type} onChange={(e) => set('csv_type')(e.target.value)} className={inputClass}
            {...described(id('csv_type'), errors.csv_type, false)}
          >
            {CSV_TYPES.map((c) => (
              <option key={c} value={c}>
                {csvTypeLabel(t, c)}
              </option>
            ))}
          </select>
        </Row>
      )}
      {type !== 'csv' && (
        <>
          <Row id={id('harvest_interval_minutes')} label={t('Harvest interval (minutes)')} error={errors.harvest_interval_minutes} hint={intervalHint}>
            <input
              id={id('harvest_interval_minutes')} type="number" inputMode="numeric" min={HARVEST_INTERVAL_MIN} max={HARVEST_INTERVAL_MAX} step={1}
              value={values.harvest_interval_minutes} onChange={(e) => set('harvest_interval_minutes')(e.target.value)}
              className={`${inputClass} sm:w-40`} {...described(id('harvest_interval_minutes'), errors.harvest_interval_minutes, true)}
            />
          </Row>
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={values.active} onChange={(e) => set('active')(e.target.checked)} />
            {t('Harvest this site automatically')}
          </label>
        </>
      )}
      <ErrorAlert error={save.error} />
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {t('Save site')}
        </button>
        <button type="button" className="btn" onClick={() => onDone(null)}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}
