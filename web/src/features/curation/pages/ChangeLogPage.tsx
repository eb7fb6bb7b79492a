import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import { BackButton } from '../../entry/EntryPage';
import { curationApi, type Change, type ChangeFilters } from '../api';
import {
  ConfirmDialog, LoadFailure, PageFrame, ResultLine, curationPageKeys, formatDate, inputClass, useCurationAction,
} from './shared';

/** The change log's operations with a readable label; others are shown as the server names them. */
export const OPERATION_LABELS: Record<string, string> = {
  'add-merge-agent': 'Authors merged',
  'remove-merge-agent': 'Author merge removed',
  'add-merge-entry': 'Entries merged',
  'remove-merge-entry': 'Entry merge removed',
  'add-translation': 'Translation set',
  'remove-translation': 'Translation removed',
  'add-aggregation': 'Added to aggregation',
  'remove-aggregation': 'Removed from aggregation',
  'split-agent': 'Author split',
  'unsplit-agent': 'Author split removed',
  'add-exclusion': 'Exclusion added',
  'revert-exclusions': 'Exclusion removed',
  'create-agent': 'Author created',
  'create-aggregation': 'Aggregation created',
  'update-agent': 'Author edited',
  undo: 'Undo',
};

/**
 * The server writes a change's comment as lines "role: name (id)" (server/src/curation/service.ts), in
 * English: the roles are said in the reader's language here, and an undo names the operation it undid by
 * its label, not by its internal name.
 */
const COMMENT_ROLES: Record<string, string> = {
  canonical: 'Canonical', alias: 'Merged into it', split: 'Author to split', part: 'Part', original: 'Original',
  translation: 'Translation', aggregation: 'Aggregation', aggregated: 'Item', created: 'Created', removed: 'Removed',
  'alias removed': 'Merge removed', 'translation removed': 'Translation removed', 'split removed': 'Split removed',
  restored: 'Restored', excluded: 'Hidden', reason: 'Reason',
};

export function readableComment(comment: string, t: (key: string, values?: Record<string, unknown>) => string, opLabel: (op: string) => string): string {
  return comment
    .split('\n')
    .map((line) => {
      const undo = /^undo of change #(\d+) \(([a-z-]+)\)$/.exec(line);
      if (undo) return t('Undo of change #{{id}}: {{operation}}', { id: undo[1], operation: opLabel(undo[2]) });
      const role = /^([a-z]+(?: removed)?): (.*)$/s.exec(line);
      if (role && COMMENT_ROLES[role[1]]) return `${t(COMMENT_ROLES[role[1]])}: ${role[2]}`;
      return line;
    })
    .join('\n');
}

const OBJECT_TYPES = ['agent', 'entry', 'exclusion'] as const;
type ObjectType = (typeof OBJECT_TYPES)[number];
const OBJECT_TYPE_LABELS: Record<ObjectType, string> = { agent: 'Author', entry: 'Entry', exclusion: 'Exclusion' };
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** The filters as they stand in the page address (only valid values are kept). */
export function filtersFromParams(p: URLSearchParams): ChangeFilters {
  const out: ChangeFilters = {};
  const user = p.get('user')?.trim();
  if (user) out.user = user;
  const operation = p.get('operation')?.trim();
  if (operation) out.operation = operation;
  const type = p.get('object_type');
  if ((OBJECT_TYPES as readonly string[]).includes(type ?? '')) out.object_type = type as ObjectType;
  const id = p.get('object_id')?.trim() ?? '';
  if (/^[1-9]\d{0,9}$/.test(id)) out.object_id = Number(id);
  for (const k of ['from', 'to'] as const) {
    const v = p.get(k) ?? '';
    if (DATE_RE.test(v)) out[k] = v;
  }
  const page = Number(p.get('page_number'));
  if (Number.isInteger(page) && page > 1) out.page_number = page;
  return out;
}

function filtersToParams(f: ChangeFilters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(f)) if (v !== undefined && v !== '') out[k] = String(v);
  return out;
}

interface Draft {
  user: string;
  operation: string;
  object_type: string;
  object_id: string;
  from: string;
  to: string;
}
const draftOf = (f: ChangeFilters): Draft => ({
  user: f.user ?? '', operation: f.operation ?? '', object_type: f.object_type ?? '', object_id: f.object_id ? String(f.object_id) : '',
  from: f.from ?? '', to: f.to ?? '',
});

/** /changes (and /dashboard/changes): the curation change log with filters, paging and undo. */
export default function ChangeLogPage() {
  return <ChangeLogView />;
}

export function ChangeLogView() {
  const { t } = useTranslation();
  const title = t('Change log');
  useDocumentTitle(title);
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);
  const query = useQuery({
    queryKey: curationPageKeys.changes(filters),
    queryFn: ({ signal }) => curationApi.changes(filters, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const [confirm, setConfirm] = useState<Change | null>(null);
  const { working, result, resultRef, run } = useCurationAction();
  const listRef = useRef<HTMLHeadingElement>(null);

  const opLabel = (op: string) => (OPERATION_LABELS[op] ? t(OPERATION_LABELS[op]) : op);

  const undo = (c: Change) => {
    setConfirm(null);
    void run(c.id, () => curationApi.undo(c.id), (res) => t(res.success || 'Undone'));
  };

  const goTo = (page: number) => {
    setParams(filtersToParams({ ...filters, page_number: page > 1 ? page : undefined }));
    listRef.current?.focus();
  };

  let body;
  if (query.isPending) {
    body = <p role="status">{t('Loading...')}</p>;
  } else if (query.isError) {
    body = <LoadFailure error={query.error} />;
  } else {
    const d = query.data;
    const pages = Math.max(1, Math.ceil(d.total / Math.max(1, d.page_size)));
    const page = Math.min(Math.max(1, d.page_number), pages);
    body = (
      <section aria-labelledby="change-list-heading">
        <h2 id="change-list-heading" ref={listRef} tabIndex={-1} className="sr-only">
          {t('Changes')}
        </h2>
        {d.changes.length === 0 ? (
          <p>{t('No records')}</p>
        ) : (
          <ol aria-labelledby="change-list-heading" className="flex flex-col gap-3" aria-busy={query.isFetching}>
            {d.changes.map((c) => (
              <ChangeItem key={c.id} change={c} label={opLabel(c.operation)} opLabel={opLabel} disabled={working} onUndo={() => setConfirm(c)} />
            ))}
          </ol>
        )}
        <nav aria-label={t('Change log pages')} className="mt-4 flex flex-wrap items-center gap-3">
          <button type="button" className="btn" disabled={page <= 1} onClick={() => goTo(page - 1)}>
            {t('Newer')}
          </button>
          <span>{t('Page {{page}} of {{pages}}', { page, pages })}</span>
          <button type="button" className="btn" disabled={page >= pages} onClick={() => goTo(page + 1)}>
            {t('Older')}
          </button>
        </nav>
      </section>
    );
  }

  return (
    <PageFrame title={title} actions={<BackButton />}>
      <ChangeFiltersForm
        filters={filters}
        users={query.data?.users ?? []}
        operations={query.data?.operations ?? []}
        opLabel={opLabel}
        onApply={(f) => setParams(filtersToParams(f))}
      />
      <ResultLine ref={resultRef} result={result} working={working} />
      {body}
      <ConfirmDialog
        open={confirm !== null}
        title={t('Undo this change?')}
        confirmLabel={t('Undo')}
        onCancel={() => setConfirm(null)}
        onConfirm={() => confirm && void undo(confirm)}
      >
        {confirm && (
          <>
            <p className="font-medium">
              #{confirm.id} {opLabel(confirm.operation)}
            </p>
            <p className="mt-1 break-words whitespace-pre-line">{confirm.comment}</p>
            <p className="mt-3">{t('The change is reversed and a new entry in the change log records it.')}</p>
          </>
        )}
      </ConfirmDialog>
    </PageFrame>
  );
}

function ChangeItem({ change: c, label, opLabel, disabled, onUndo }: { change: Change; label: string; opLabel: (op: string) => string; disabled: boolean; onUndo: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <li id={`change-${c.id}`} className="rounded border border-stone-300 bg-white p-3">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h3 className="font-semibold break-words">
          {label} <span className="font-normal text-stone-700">#{c.id}</span>
        </h3>
        <span className="text-stone-800">
          <time dateTime={c.created}>{formatDate(c.created, i18n.language, true)}</time>
          {' · '}
          {c.username ?? t('Unknown')}
        </span>
      </div>
      {c.comment && <p className="mt-2 break-words whitespace-pre-line">{readableComment(c.comment, t, opLabel)}</p>}
      {c.objects.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1" aria-label={t('Objects')}>
          {c.objects.map((o) => (
            <li key={`${o.type}-${o.id}`} className="min-w-0 break-words">
              <span className="text-stone-700">{t(OBJECT_TYPE_LABELS[o.type] ?? o.type)}: </span>
              <ObjectLink type={o.type} id={o.id}>
                {o.label || `#${o.id}`}
              </ObjectLink>
            </li>
          ))}
        </ul>
      )}
      {(c.undone_by || c.undoes) && (
        <p className="mt-2 text-stone-800">
          {c.undone_by ? t('Undone by #{{id}}', { id: c.undone_by }) : null}
          {c.undone_by && c.undoes ? ' · ' : null}
          {c.undoes ? t('Undoes #{{id}}', { id: c.undoes }) : null}
        </p>
      )}
      <div className="mt-2">
        {c.can_undo ? (
          <button
            type="button"
            className="btn"
            disabled={disabled}
            aria-haspopup="dialog"
            aria-label={t('Undo #{{id}}: {{operation}}', { id: c.id, operation: label })}
            onClick={onUndo}
          >
            {t('Undo')}
          </button>
        ) : c.blocked_by ? (
          <p className="text-amber-900">{blockedText(t, c)}</p>
        ) : null}
      </div>
    </li>
  );
}

/** Why a change cannot be undone, in the reader's language (the server's English text for unknown codes). */
function blockedText(t: (k: string, o?: Record<string, unknown>) => string, c: Change): string {
  switch (c.blocked_reason) {
    case 'later-change':
      return t('Change #{{id}} changed this later: undo it first', { id: c.blocking_change_id });
    case 'changed-outside':
      return t('Changed since by an import or a removed record: it cannot be undone');
    case 'in-use':
      return t('Something made later still uses what this change created: undo the later changes first');
    case 'undone':
      // Already said by 'Undone by #N' above.
      return '';
    default:
      return c.blocked_by ?? '';
  }
}

function ObjectLink({ type, id, children }: { type: string; id: number; children: ReactNode }) {
  if (type === 'entry') return <Link className="link" to={`/entry/${id}`}>{children}</Link>;
  if (type === 'agent') return <Link className="link" to={`/library/author/${id}`}>{children}</Link>;
  return <>{children}</>;
}

function ChangeFiltersForm(props: {
  filters: ChangeFilters;
  users: string[];
  operations: string[];
  opLabel: (op: string) => string;
  onApply: (f: ChangeFilters) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.filters));
  // Back and Forward change the address: the form follows.
  const key = JSON.stringify({ ...props.filters, page_number: undefined });
  useEffect(() => setDraft(draftOf(JSON.parse(key) as ChangeFilters)), [key]);
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));

  const withCurrent = (list: string[], current: string) => (current && !list.includes(current) ? [current, ...list] : list);
  const users = withCurrent(props.users, draft.user);
  const operations = withCurrent(props.operations, draft.operation);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = new URLSearchParams(Object.entries(draft).filter(([, v]) => v.trim() !== ''));
    props.onApply(filtersFromParams(p));
  };
  const reset = () => {
    setDraft(draftOf({}));
    props.onApply({});
  };
  const field = (name: string, label: string, control: ReactNode) => (
    <div className="min-w-0">
      <label htmlFor={`${id}-${name}`} className="mb-1 block font-medium">
        {label}
      </label>
      {control}
    </div>
  );

  return (
    <form onSubmit={submit} aria-label={t('Filter the changes')} className="mb-4 rounded border border-stone-300 bg-white p-3">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {field('user', t('User'), (
          <select id={`${id}-user`} className={inputClass} value={draft.user} onChange={set('user')}>
            <option value="">{t('All')}</option>
            {users.map((u) => (
              <option key={u} value={u}>
                {u}
              </option>
            ))}
          </select>
        ))}
        {field('operation', t('Operation'), (
          <select id={`${id}-operation`} className={inputClass} value={draft.operation} onChange={set('operation')}>
            <option value="">{t('All')}</option>
            {operations.map((o) => (
              <option key={o} value={o}>
                {props.opLabel(o)}
              </option>
            ))}
          </select>
        ))}
        {field('object_type', t('Object type'), (
          <select id={`${id}-object_type`} className={inputClass} value={draft.object_type} onChange={set('object_type')}>
            <option value="">{t('All')}</option>
            {OBJECT_TYPES.map((o) => (
              <option key={o} value={o}>
                {t(OBJECT_TYPE_LABELS[o])}
              </option>
            ))}
          </select>
        ))}
        {field('object_id', t('Object id'), (
          <input id={`${id}-object_id`} type="number" min={1} step={1} inputMode="numeric" className={inputClass} value={draft.object_id} onChange={set('object_id')} />
        ))}
        {field('from', t('From date'), (
          <input id={`${id}-from`} type="date" className={inputClass} value={draft.from} max={draft.to || undefined} onChange={set('from')} />
        ))}
        {field('to', t('To date'), (
          <input id={`${id}-to`} type="date" className={inputClass} value={draft.to} min={draft.from || undefined} onChange={set('to')} />
        ))}
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="submit" className="btn btn-primary">
          {t('Apply')}
        </button>
        <button type="button" className="btn" onClick={reset}>
          {t('Reset')}
        </button>
      </div>
    </form>
  );
}
