import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { libraryAdminApi, type SpreadsheetStatus, type SpreadsheetUploadResponse, type RowError } from './api';
import { Labelled, inputClass } from './LibraryForm';

type Phase =
  | { kind: 'choose' }
  | { kind: 'preview'; upload: SpreadsheetUploadResponse }
  | { kind: 'processing'; uploadId: number }
  | { kind: 'done'; ok: boolean; text: string; uploadId?: number };

function BadRows({ rows }: { rows: RowError[] }) {
  const { t } = useTranslation();
  if (rows.length === 0) return null;
  return (
    <div role="alert" className="rounded border border-red-700 bg-red-50 p-2 text-red-900">
      <p className="font-semibold">{t('Rows with errors: {{count}}', { count: rows.length })}</p>
      <ul className="ml-5 list-disc">
        {rows.slice(0, 50).map((r) => (
          <li key={r.line}>{t('Line {{line}}: {{message}}', { line: r.line, message: r.message })}</li>
        ))}
      </ul>
    </div>
  );
}

/** How many rows the file holds: all of them, and how many can be stored when some have errors. */
function RowCounts({ upload }: { upload: SpreadsheetUploadResponse }) {
  const { t } = useTranslation();
  const bad = upload.bad_row_count ?? upload.bad_rows.length;
  if (bad === 0) return <p className="font-semibold">{t('Records in the file: {{count}}', { count: upload.number_of_records })}</p>;
  return (
    <p className="font-semibold">
      {t('Rows in the file: {{total}} ({{good}} can be stored, {{bad}} with errors)', { total: upload.number_of_records + bad, good: upload.number_of_records, bad })}
    </p>
  );
}

/** Human names of the record fields a spreadsheet column is read into (translated with t()). */
export const FIELD_LABELS: Record<string, string> = {
  identifier: 'Identifier',
  title: 'Title',
  subtitle: 'Subtitle',
  authors: 'Authors',
  languages: 'Languages',
  year_edition: 'Year of this edition',
  year_first_edition: 'Year of the first edition',
  description: 'Description',
  publisher: 'Publisher',
  isbn: 'ISBN',
  shelf_location_code: 'Shelf location code',
  material_description: 'Physical description',
  edition_statement: 'Edition statement',
  place_date_of_publication_distribution: 'Place and date of publication',
  uri: 'Link',
  uri_label: 'Link label',
  content_type: 'Content type',
};

/** The columns of the uploaded file: the ones read (with the field they fill) and a warning naming the ignored ones. */
function Columns({ columns, expected }: { columns: SpreadsheetUploadResponse['columns']; expected: string[] }) {
  const { t } = useTranslation();
  const read = columns.filter((c) => c.field !== null);
  const ignored = columns.filter((c) => c.field === null).map((c) => c.name || t('(no name)'));
  return (
    <>
      {read.length > 0 && (
        <div>
          <p className="font-semibold">{t('Columns read')}</p>
          <ul className="ml-5 list-disc">
            {read.map((c, i) => (
              <li key={i}>
                <code>{c.name}</code> → {t(FIELD_LABELS[c.field!] ?? c.field!)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {ignored.length > 0 && (
        <p role="alert" className="rounded border border-amber-700 bg-amber-50 p-2 text-amber-900 [overflow-wrap:anywhere]">
          {t('These columns are not read: {{columns}}. Expected column names: {{expected}}', { columns: ignored.join(', '), expected: expected.join(', ') })}
        </p>
      )}
    </>
  );
}

/** Spreadsheet upload (spec §4 Spreadsheet states): choose, upload, preview, Process File or Cancel, progress, result. */
export function SpreadsheetUpload({ libraryId }: { libraryId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sitesQuery = useQuery({ queryKey: ['libraryadmin', 'sites', libraryId], queryFn: ({ signal }) => libraryAdminApi.sites(libraryId, signal) });
  const sites = sitesQuery.data?.sites ?? [];
  const [siteId, setSiteId] = useState('');
  const [comment, setComment] = useState('');
  const [replaceAll, setReplaceAll] = useState(false);
  const [skipBad, setSkipBad] = useState(false);
  const [error, setError] = useState<{ text: string; rows: RowError[] } | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'choose' });
  const [busy, setBusy] = useState(false);
  const [newSite, setNewSite] = useState('');
  const fileRef = useRef<HTMLInputElement>(null);
  const site = sites.length === 1 ? sites[0] : sites.find((s) => String(s.id) === siteId);
  const processHintId = useId();
  // Rows with errors are stored only when the uploader says so: until then Process File is disabled, and says why.
  const processBlocked = phase.kind === 'preview' && phase.upload.bad_rows.length > 0 && !skipBad;

  const statusQuery = useQuery({
    queryKey: ['libraryadmin', 'upload', phase.kind === 'processing' ? phase.uploadId : 0],
    queryFn: ({ signal }) => libraryAdminApi.status((phase as { uploadId: number }).uploadId, signal),
    enabled: phase.kind === 'processing',
    refetchInterval: 1000,
    staleTime: 0,
    gcTime: 0,
  });
  const status: SpreadsheetStatus | undefined = statusQuery.data;
  useEffect(() => {
    if (phase.kind !== 'processing' || !status) return;
    if (status.status === 'finished') {
      setPhase({ kind: 'done', ok: true, text: t('The file was processed: {{stored}} records stored, {{removed}} removed.', { stored: status.stored, removed: status.removed }) });
      void queryClient.invalidateQueries({ queryKey: ['search'] });
    } else if (status.status === 'failed') {
      // Nothing of a failed upload stays in the catalogue: it can be processed again as it is.
      setPhase({ kind: 'done', ok: false, text: t('Processing failed: {{error}}', { error: status.error ?? t('Error') }), uploadId: phase.uploadId });
    }
  }, [phase, status, t, queryClient]);

  const onUpload = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const file = fileRef.current?.files?.[0];
    if (!site) return setError({ text: t('Please choose a site'), rows: [] });
    if (!file) return setError({ text: t('Please choose a file'), rows: [] });
    const max = sitesQuery.data?.max_bytes ?? Infinity;
    if (file.size > max) return setError({ text: t('The file is too large: at most {{mb}} MB', { mb: Math.round(max / 1048576) }), rows: [] });
    const form = new FormData();
    form.append('site_id', String(site.id));
    form.append('comment', comment);
    if (replaceAll) form.append('replace_all', '1');
    form.append('spreadsheet', file, file.name);
    setBusy(true);
    try {
      const upload = await libraryAdminApi.upload(libraryId, form);
      setSkipBad(false);
      setPhase({ kind: 'preview', upload });
    } catch (err) {
      const rows = (err as { badRows?: RowError[] }).badRows ?? [];
      setError({ text: err instanceof Error ? err.message : t('Error'), rows });
    } finally {
      setBusy(false);
    }
  };

  const onProcess = async () => {
    if (phase.kind !== 'preview') return;
    setError(null);
    try {
      await libraryAdminApi.process(phase.upload.uploaded, skipBad);
      setPhase({ kind: 'processing', uploadId: phase.upload.uploaded });
    } catch (err) {
      setError({ text: err instanceof Error ? err.message : t('Error'), rows: [] });
    }
  };

  const onRetry = async () => {
    if (phase.kind !== 'done' || phase.uploadId === undefined) return;
    setError(null);
    try {
      await libraryAdminApi.process(phase.uploadId, skipBad);
      setPhase({ kind: 'processing', uploadId: phase.uploadId });
    } catch (err) {
      setError({ text: err instanceof Error ? err.message : t('Error'), rows: [] });
    }
  };

  const onCancel = async () => {
    if (phase.kind === 'preview') await libraryAdminApi.cancel(phase.upload.uploaded).catch(() => undefined);
    if (fileRef.current) fileRef.current.value = '';
    setPhase({ kind: 'choose' });
  };

  const onCreateSite = async (e: FormEvent) => {
    e.preventDefault();
    if (!newSite.trim()) return;
    try {
      await libraryAdminApi.createSite(libraryId, newSite.trim(), 'generic');
      setNewSite('');
      await sitesQuery.refetch();
    } catch (err) {
      setError({ text: err instanceof Error ? err.message : t('Error'), rows: [] });
    }
  };

  return (
    <section aria-labelledby="upload-heading" className="flex flex-col gap-4">
      <h2 id="upload-heading" className="text-xl font-semibold">
        {t('Upload records')}
      </h2>
      {sitesQuery.isSuccess && sites.length === 0 && (
        <form onSubmit={onCreateSite} className="flex flex-wrap items-end gap-3">
          <p className="w-full">{t('This library has no spreadsheet source yet.')}</p>
          <Labelled label={t('Title of the new spreadsheet source')}>
            {(id) => <input id={id} className={inputClass} value={newSite} onChange={(e) => setNewSite(e.target.value)} />}
          </Labelled>
          <button type="submit" className="btn" disabled={!newSite.trim()}>
            {t('Create')}
          </button>
        </form>
      )}
      {sites.length > 0 && phase.kind === 'choose' && (
        <form onSubmit={onUpload} noValidate className="flex flex-col gap-4">
          {sites.length > 1 && (
            <Labelled label={t('Site')}>
              {(id) => (
                <select id={id} name="site_id" required className={inputClass} value={siteId} onChange={(e) => setSiteId(e.target.value)}>
                  <option value="">{t('Please choose a site')}</option>
                  {sites.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.title}
                    </option>
                  ))}
                </select>
              )}
            </Labelled>
          )}
          {site && (
            <p>
              {t('Expected column headers:')} <code className="break-words">{site.column_names}</code>
            </p>
          )}
          <Labelled label={t('Spreadsheet file (CSV UTF-8 or XLSX)')}>
            {(id) => <input id={id} ref={fileRef} name="spreadsheet" type="file" required accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" />}
          </Labelled>
          <Labelled label={t('Comment')}>
            {(id) => <textarea id={id} name="comment" rows={2} className={inputClass} value={comment} onChange={(e) => setComment(e.target.value)} />}
          </Labelled>
          <label className="flex items-center gap-2">
            <input type="checkbox" name="replace_all" checked={replaceAll} onChange={(e) => setReplaceAll(e.target.checked)} />
            {t('Replace all: records of this source that are not in the file are removed')}
          </label>
          <div>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? t('Uploading…') : t('Upload')}
            </button>
          </div>
        </form>
      )}
      {phase.kind === 'preview' && (
        <div className="flex flex-col gap-3">
          <RowCounts upload={phase.upload} />
          {/* Long unbroken values (URLs, column names) wrap anywhere: the table stays on a phone's screen. */}
          <table className="border-collapse text-left">
            <caption className="text-left font-semibold">{t('First record')}</caption>
            <tbody>
              {phase.upload.sample.map((s, i) => (
                <tr key={i} className="border-b border-stone-200">
                  <th scope="row" className="px-2 py-1 [overflow-wrap:anywhere]">
                    {s.name}
                  </th>
                  <td className="px-2 py-1 whitespace-pre-wrap [overflow-wrap:anywhere]">{s.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Columns columns={phase.upload.columns ?? []} expected={site?.expected_headers ?? []} />
          {phase.upload.replace_all && <p className="text-amber-900">{t('Records of this source that are not in the file will be removed.')}</p>}
          <BadRows rows={phase.upload.bad_rows} />
          {phase.upload.bad_rows.length > 0 && (
            <label className="flex items-center gap-2">
              <input type="checkbox" checked={skipBad} onChange={(e) => setSkipBad(e.target.checked)} />
              {t('Store the good rows only')}
            </label>
          )}
          {processBlocked && (
            <p id={processHintId} className="text-stone-700">
              {t('To process this file, tick “Store the good rows only”, or correct the rows above and upload it again.')}
            </p>
          )}
          <div className="flex gap-3">
            <button type="button" className="btn btn-primary" onClick={() => void onProcess()} disabled={processBlocked} aria-describedby={processBlocked ? processHintId : undefined}>
              {t('Process File')}
            </button>
            <button type="button" className="btn" onClick={() => void onCancel()}>
              {t('Cancel')}
            </button>
          </div>
        </div>
      )}
      {phase.kind === 'processing' && (
        <div className="flex flex-col gap-2" role="status">
          <label>
            {t('Processing: {{done}} of {{total}}', { done: status?.done ?? 0, total: status?.total ?? 0 })}
            <progress className="ml-3 align-middle" max={status?.total || 1} value={status?.done ?? 0} />
          </label>
        </div>
      )}
      {phase.kind === 'done' && (
        <div className="flex flex-col items-start gap-2">
          <p role={phase.ok ? 'status' : 'alert'} className={phase.ok ? 'text-green-800' : 'text-red-800'}>
            {phase.text}
          </p>
          {!phase.ok && phase.uploadId !== undefined && (
            <>
              <p>{t('Nothing of this file was stored. You can process it again.')}</p>
              <button type="button" className="btn btn-primary" onClick={() => void onRetry()}>
                {t('Process it again')}
              </button>
            </>
          )}
          <button type="button" className="btn" onClick={() => setPhase({ kind: 'choose' })}>
            {t('Upload another file')}
          </button>
        </div>
      )}
      {error && (
        <div role="alert" className="flex flex-col gap-2">
          <p className="text-red-800">{error.text}</p>
          <BadRows rows={error.rows} />
        </div>
      )}
    </section>
  );
}
