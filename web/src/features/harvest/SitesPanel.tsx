// A library's sites and their harvests, for superusers (/admin, libraries) and the library's admins (its
// admin screen): the sites with their state, "Harvest now" and "Full harvest", a progress bar while a run
// is queued or running (its runs are polled every second until it ends), the runs and their failed records.
import { useEffect, useId, useMemo, useRef, useState, type ElementType } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '../../api/client';
import { Dialog } from '../../components/Dialog';
import { ErrorAlert } from '../admin/ui';
import {
  harvestApi, harvestKeys, isHarvestable, isOaiType, isRunActive, runDurationMs, siteScope,
  type HarvestRun, type Site, type SiteScope, type SiteScopeKind,
} from './api';
import { csvTypeLabel, formatDateTime, formatDuration, formatLabel, runStatusLabel, siteTypeLabel } from './labels';
import { SiteForm } from './SiteForm';

/** How often the runs of a site are asked for while one is queued or running. */
export const HARVEST_POLL_MS = 1000;

type Level = 2 | 3;

export interface SitesPanelProps {
  /** 'admin': the /admin API (superusers); 'library': the library admin API. */
  scope: SiteScopeKind;
  libraryId: number;
  /** The panel's heading (e.g. "Sites of …" or "Sites and harvesting"). */
  title: string;
  /** The level of the panel's heading; the sites' headings are one below. */
  level?: Level;
  /** Superusers may add and edit Calibre sites (a folder on the server). */
  superuser: boolean;
}

// Term and value: stacked on phones (the term small above its value), side by side from sm up.
const DT = 'text-sm font-semibold text-stone-700 sm:text-base sm:font-medium sm:text-stone-900';
const DD = 'mb-1 min-w-0 sm:mb-0';

const STATUS_ORDER: Record<string, number> = { queued: 0, running: 1, finished: 2, failed: 2 };

/** The newer of two views of the latest run: a later run, or the same run further along. */
function newerRun(a: HarvestRun | null | undefined, b: HarvestRun | null | undefined): HarvestRun | null {
  if (!a) return b ?? null;
  if (!b) return a;
  if (a.id !== b.id) return a.id > b.id ? a : b;
  const order = (STATUS_ORDER[a.status] ?? 0) - (STATUS_ORDER[b.status] ?? 0);
  if (order !== 0) return order > 0 ? a : b;
  return a.records >= b.records ? a : b;
}

function WarningIcon() {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" focusable="false" className="h-5 w-5 shrink-0">
      <path d="M8.6 2.9a1.6 1.6 0 0 1 2.8 0l6.4 11.6A1.6 1.6 0 0 1 16.4 17H3.6a1.6 1.6 0 0 1-1.4-2.5L8.6 2.9zM10 6.5a1 1 0 0 0-1 1v3.8a1 1 0 1 0 2 0V7.5a1 1 0 0 0-1-1zm0 8.8a1.1 1.1 0 1 0 0-2.2 1.1 1.1 0 0 0 0 2.2z" />
    </svg>
  );
}

/** The run's progress: records so far out of the announced total, or an indeterminate bar without one. */
function RunProgress({ run, siteTitle }: { run: HarvestRun; siteTitle: string }) {
  const { t } = useTranslation();
  const label = t('Harvest progress of “{{title}}”', { title: siteTitle });
  const known = run.total !== null && run.total > 0;
  const value = known ? Math.min(run.records, run.total as number) : undefined;
  return (
    <div className="flex min-w-0 flex-col gap-1">
      {known ? (
        <progress className="h-3 w-full max-w-md" aria-label={label} value={value} max={run.total as number} aria-valuemin={0} aria-valuenow={value} aria-valuemax={run.total as number} />
      ) : (
        <progress className="h-3 w-full max-w-md" aria-label={label} />
      )}
      <p className="text-sm text-stone-800">
        {run.status === 'queued'
          ? t('Waiting for a worker…')
          : known
            ? t('{{records}} of {{total}} records', { records: run.records, total: run.total })
            : t('Records so far: {{records}}', { records: run.records })}
      </p>
    </div>
  );
}

function FailedRecords({ run }: { run: HarvestRun }) {
  const { t } = useTranslation();
  if (run.errors.length === 0) return null;
  return (
    <details className="min-w-0">
      <summary className="cursor-pointer">{t('Failed records ({{n}})', { n: run.failed })}</summary>
      {run.errors.length < run.failed && (
        <p className="text-sm">{t('Shown: {{shown}} of {{n}} failed records', { shown: run.errors.length, n: run.failed })}</p>
      )}
      <ul className="mt-1 ml-5 list-disc">
        {run.errors.map((e, i) => (
          <li key={`${e.identifier}-${i}`} className="wrap-anywhere">
            <code>{e.identifier}</code>: {e.message}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The runs of a site, newest first; each with its counts, its message and its failed records. */
function RunsTable({ runs, siteTitle }: { runs: HarvestRun[]; siteTitle: string }) {
  const { t, i18n } = useTranslation();
  if (runs.length === 0) return <p>{t('This site has not been harvested yet.')}</p>;
  return (
    // The table scrolls inside its own box on narrow screens (the page does not).
    <div className="max-w-full overflow-x-auto" tabIndex={0} role="group" aria-label={t('Harvest runs of “{{title}}”', { title: siteTitle })}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{t('Harvest runs of “{{title}}”', { title: siteTitle })}</caption>
        <thead>
          <tr>
            <th scope="col" className="pr-3">{t('Status')}</th>
            <th scope="col" className="pr-3">{t('Started')}</th>
            <th scope="col" className="pr-3">{t('Duration')}</th>
            <th scope="col" className="pr-3 text-right">{t('New')}</th>
            <th scope="col" className="pr-3 text-right">{t('Updated')}</th>
            <th scope="col" className="pr-3 text-right">{t('Unchanged')}</th>
            <th scope="col" className="pr-3 text-right">{t('Deleted')}</th>
            <th scope="col" className="pr-3 text-right">{t('Failed records')}</th>
            <th scope="col">{t('Errors')}</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => {
            const ms = runDurationMs(run);
            return (
              <tr key={run.id} className="border-t border-stone-200 align-top">
                <td className="pr-3 whitespace-nowrap">
                  {runStatusLabel(t, run)}
                  {run.force && <span className="ml-1 text-stone-700">({t('full')})</span>}
                </td>
                <td className="pr-3 whitespace-nowrap">
                  {run.started ? <time dateTime={run.started}>{formatDateTime(run.started, i18n.language)}</time> : '—'}
                </td>
                <td className="pr-3 whitespace-nowrap">{ms === null ? '—' : formatDuration(t, ms)}</td>
                <td className="pr-3 text-right">{run.new}</td>
                <td className="pr-3 text-right">{run.updated}</td>
                <td className="pr-3 text-right">{run.unchanged}</td>
                <td className="pr-3 text-right">{run.deleted}</td>
                <td className="pr-3 text-right">{run.failed}</td>
                <td className="min-w-48">
                  {run.message && <p className="wrap-anywhere">{run.message}</p>}
                  <FailedRecords run={run} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function SiteCard({ site, scope, level, onEdit }: {
  site: Site; scope: SiteScope; level: 3 | 4; onEdit: (site: Site, opener: HTMLElement) => void;
}) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const headingId = useId();
  const runsId = useId();
  const [showRuns, setShowRuns] = useState(false);
  const [watching, setWatching] = useState(false);
  const [confirmFull, setConfirmFull] = useState(false);
  const harvestable = isHarvestable(site.site_type);

  const runsQuery = useQuery({
    queryKey: harvestKeys.runs(site.id),
    queryFn: ({ signal }) => harvestApi.runs(site.id, signal),
    enabled: harvestable && (showRuns || watching || isRunActive(site.last_run)),
    staleTime: 0,
    // Every second while the newest run is queued or running; not at all afterwards.
    refetchInterval: (q) => (isRunActive(q.state.data?.runs[0]) ? HARVEST_POLL_MS : false),
  });
  const latest = newerRun(runsQuery.data?.runs[0], site.last_run);
  const active = isRunActive(latest);

  // When a run ends: the site's counts, last harvest and failing flag have changed.
  const wasActive = useRef(active);
  useEffect(() => {
    if (wasActive.current && !active) {
      void qc.invalidateQueries({ queryKey: harvestKeys.sites(scope.kind, scope.libraryId) });
      for (const key of scope.alsoStale) void qc.invalidateQueries({ queryKey: key });
    }
    wasActive.current = active;
  }, [active, qc, scope]);

  const start = useMutation({
    mutationFn: (force: boolean) => harvestApi.start(site.id, force),
    onSuccess: ({ run }) => {
      qc.setQueryData<{ runs: HarvestRun[] }>(harvestKeys.runs(site.id), (old) => ({
        runs: [run, ...(old?.runs ?? []).filter((r) => r.id !== run.id)],
      }));
      setWatching(true);
    },
    onError: (err) => {
      // Already queued or running: follow that run instead.
      if (isApiError(err, 409)) {
        setWatching(true);
        void qc.invalidateQueries({ queryKey: harvestKeys.runs(site.id) });
      }
    },
  });

  const Heading: ElementType = `h${level}`;
  const oai = isOaiType(site.site_type);
  const statusText = latest ? runStatusLabel(t, latest) : t('Never harvested');

  return (
    <article aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3 rounded border border-stone-300 p-3 sm:p-4">
      <Heading id={headingId} className="text-lg font-semibold break-words">
        {site.title}
      </Heading>
      {site.failing && (
        <p className="flex items-start gap-2 rounded border-2 border-red-800 bg-red-50 px-3 py-2 font-semibold text-red-900">
          <WarningIcon />
          <span>{t('Failing: the last {{n}} harvests of this site failed.', { n: site.consecutive_failures })}</span>
        </p>
      )}
      <dl className="grid min-w-0 grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[max-content_minmax(0,1fr)]">
        <dt className={DT}>{t('Site type')}</dt>
        <dd className={DD}>
          {siteTypeLabel(t, site.site_type)}
          {oai && site.oai_metadata_format && <span className="text-stone-700"> · {formatLabel(t, site.oai_metadata_format)}</span>}
          {site.site_type === 'csv' && site.csv_type && <span className="text-stone-700"> · {csvTypeLabel(t, site.csv_type)}</span>}
        </dd>
        {site.url && (
          <>
            <dt className={DT}>{oai ? t('OAI-PMH endpoint URL') : t('Address')}</dt>
            <dd className={`${DD} break-all`}>{site.url}</dd>
          </>
        )}
        {oai && site.oai_set && (
          <>
            <dt className={DT}>{t('OAI set')}</dt>
            <dd className={`${DD} break-all`}>{site.oai_set}</dd>
          </>
        )}
        {site.site_type === 'calibretree' && site.tree_path && (
          <>
            <dt className={DT}>{t('Calibre folder')}</dt>
            <dd className={`${DD} break-all`}>{site.tree_path}</dd>
          </>
        )}
        <dt className={DT}>{t('Data sources')}</dt>
        <dd className={DD}>{site.data_sources}</dd>
        {harvestable && (
          <>
            <dt className={DT}>{t('Last harvested')}</dt>
            <dd className={DD}>
              {site.last_harvested ? <time dateTime={site.last_harvested}>{formatDateTime(site.last_harvested, i18n.language)}</time> : t('Never')}
            </dd>
            <dt className={DT}>{t('Last run')}</dt>
            <dd className={DD}>
              {/* Announced when the state changes (queued, running, finished), not at every poll. */}
              <span role="status">{statusText}</span>
              {latest && !active && latest.failed > 0 && <span> · {t('Failed records: {{n}}', { n: latest.failed })}</span>}
              {latest && latest.status === 'failed' && latest.message && <span className="block wrap-anywhere">{latest.message}</span>}
            </dd>
            <dt className={DT}>{t('Automatic harvest')}</dt>
            <dd className={DD}>
              {!site.active
                ? t('Off')
                : site.last_harvested
                  ? t('Every {{n}} minutes', { n: site.harvest_interval_minutes })
                  : t('Every {{n}} minutes, after a first successful “Harvest now”', { n: site.harvest_interval_minutes })}
            </dd>
          </>
        )}
      </dl>
      {harvestable && latest && active && <RunProgress run={latest} siteTitle={site.title} />}
      <ErrorAlert error={start.error} />
      <div className="flex flex-wrap gap-2">
        {harvestable && (
          <>
            <button
              type="button" className="btn btn-primary" disabled={active || start.isPending}
              onClick={() => start.mutate(false)}
            >
              {t('Harvest now')}
            </button>
            <button
              type="button" className="btn" disabled={active || start.isPending} onClick={() => setConfirmFull(true)}
              aria-haspopup="dialog"
            >
              {t('Full harvest…')}
            </button>
          </>
        )}
        <button type="button" className="btn" onClick={(e) => onEdit(site, e.currentTarget)} aria-label={t('Edit {{name}}', { name: site.title })}>
          {t('Edit')}
        </button>
        {harvestable && (
          <button type="button" className="btn" aria-expanded={showRuns} aria-controls={runsId} onClick={() => setShowRuns((v) => !v)}>
            {showRuns ? t('Hide the runs') : t('Show the runs')}
          </button>
        )}
      </div>
      {harvestable && (
        <div id={runsId} hidden={!showRuns} className="min-w-0">
          {showRuns && (
            <>
              {runsQuery.isPending && <p role="status">{t('Loading the runs…')}</p>}
              <ErrorAlert error={runsQuery.error} />
              {runsQuery.data && <RunsTable runs={runsQuery.data.runs} siteTitle={site.title} />}
            </>
          )}
        </div>
      )}
      <Dialog open={confirmFull} title={t('Full harvest of “{{title}}”?', { title: site.title })} onClose={() => setConfirmFull(false)}>
        <p>
          {t('A full harvest fetches every record of the site again, not only the changed ones, and replaces the site’s records once the new set is complete. Until then the current records stay in the catalogue. On a large site it takes a while.')}
        </p>
        <div className="mt-4 flex gap-2">
          <button
            type="button" className="btn btn-primary"
            onClick={() => {
              setConfirmFull(false);
              start.mutate(true);
            }}
          >
            {t('Start the full harvest')}
          </button>
        </div>
      </Dialog>
    </article>
  );
}

/** The sites of one library with their harvests; "Add a site" and "Edit" open the site form. */
export function SitesPanel({ scope: kind, libraryId, title, level = 2, superuser }: SitesPanelProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const scope = useMemo(() => siteScope(kind, libraryId), [kind, libraryId]);
  const query = useQuery({
    queryKey: harvestKeys.sites(kind, libraryId),
    queryFn: ({ signal }) => scope.list(signal),
    staleTime: 0,
  });
  const [editing, setEditing] = useState<Site | 'new' | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const Heading: ElementType = `h${level}`;
  const siteLevel = (level + 1) as 3 | 4;

  const open = (what: Site | 'new', from: HTMLElement) => {
    opener.current = from;
    setEditing(what);
  };
  const close = () => {
    setEditing(null);
    // Back to the button that opened the form (or "Add a site" when it is gone).
    requestAnimationFrame(() => {
      const el = opener.current && document.contains(opener.current) ? opener.current : addRef.current;
      el?.focus();
    });
  };

  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3">
      <Heading id={headingId} className={level === 2 ? 'text-xl font-semibold' : 'text-lg font-semibold'}>
        {title}
      </Heading>
      {query.isPending && <p role="status">{t('Loading the sites…')}</p>}
      <ErrorAlert error={query.error} />
      {query.data && query.data.sites.length === 0 && <p>{t('This library has no sites yet.')}</p>}
      {query.data && query.data.sites.length > 0 && (
        <ul className="flex min-w-0 flex-col gap-3">
          {query.data.sites.map((s) => (
            <li key={s.id} className="min-w-0">
              <SiteCard site={s} scope={scope} level={siteLevel} onEdit={open} />
            </li>
          ))}
        </ul>
      )}
      {editing ? (
        <SiteForm
          key={editing === 'new' ? 'new' : editing.id} scope={scope} superuser={superuser} level={siteLevel}
          initial={editing === 'new' ? null : editing} onDone={close}
        />
      ) : (
        <div>
          <button ref={addRef} type="button" className="btn" onClick={(e) => open('new', e.currentTarget)}>
            {t('Add a site')}
          </button>
        </div>
      )}
    </section>
  );
}
