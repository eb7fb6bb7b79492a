// A merge box (spec §2 right column, §4 Merge box, §5 Merge / Create; anchor §2.9 without its bugs):
// a drop target with a canonical row and a list, the commit button, the working and result messages,
// and for some boxes a create field. Every drag has a button equivalent.
import { useId, useState, type DragEvent, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { curationApi, type MergeBoxKind } from './api';
import { BOXES, CHANGE_DONE } from './boxes';
import { getDragItem, setDragItem } from './dnd';
import { addedText } from './AddToBox';
import { catalogueChanged, serverErrorOr } from './catalogue';
import { commitBody, useMergeBoxes, type Box, type BoxEntry } from './store';

interface Message {
  ok: boolean;
  text: string;
}

const smallBtn = 'rounded border border-stone-400 bg-white px-1.5 py-0.5 text-xs text-stone-900 hover:bg-stone-100';

/** Drop-target props: highlights while something is dragged over, adds on drop. */
function useDropZone(onDrop: (e: DragEvent) => void) {
  const [over, setOver] = useState(false);
  return {
    over,
    props: {
      onDragOver: (e: DragEvent) => {
        e.preventDefault();
        e.stopPropagation();
        if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
        setOver(true);
      },
      onDragLeave: (e: DragEvent) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      },
      onDrop: (e: DragEvent) => {
        e.preventDefault();
        e.stopPropagation();
        setOver(false);
        onDrop(e);
      },
    },
  };
}

function PositionInput({ kind, item }: { kind: MergeBoxKind; item: BoxEntry }) {
  const { t } = useTranslation();
  const id = useId();
  const setPosition = useMergeBoxes((s) => s.setPosition);
  const [text, setText] = useState(item.position == null ? '' : String(item.position));
  const valid = text.trim() === '' || /^\d{1,7}$/.test(text.trim());
  return (
    <div className="mt-1">
      <label htmlFor={id} className="block text-xs text-stone-800">
        {t('Position (issue, article number)')}
      </label>
      <input
        id={id}
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
        value={text}
        aria-invalid={!valid}
        onChange={(e) => {
          const v = e.target.value;
          setText(v);
          setPosition(kind, item.id, /^\d{1,7}$/.test(v.trim()) ? Number(v.trim()) : null);
        }}
        className="w-24 rounded border border-stone-500 bg-white px-2 py-0.5 aria-[invalid=true]:border-red-700"
      />
    </div>
  );
}

function CreateField({ kind }: { kind: MergeBoxKind }) {
  const { t } = useTranslation();
  const cfg = BOXES[kind];
  const create = cfg.create!;
  const id = useId();
  const [value, setValue] = useState('');
  const [message, setMessage] = useState<Message | null>(null);
  const add = useMergeBoxes((s) => s.add);
  const addToList = useMergeBoxes((s) => s.addToList);
  const mutation = useMutation({
    mutationFn: (v: string) => curationApi.create(create.target, v),
    onSuccess: (reply) => {
      const item = { id: reply.created.id, label: reply.created.value, type: create.target === 'agent' ? 'author' : 'entry' } as const;
      const result = create.placement === 'canonical' ? add(kind, item, { asCanonical: true }) : addToList(kind, item);
      setValue('');
      setMessage({ ok: true, text: addedText(t, kind, item.label, result) });
    },
    onError: (err) => setMessage({ ok: false, text: serverErrorOr(err, t('Failure creating entry!')) }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = value.trim();
    if (!v) {
      setMessage({ ok: false, text: t('No data received') });
      return;
    }
    setMessage(null);
    mutation.mutate(v);
  };
  return (
    <form onSubmit={submit} className="border-t border-stone-200 pt-2">
      <label htmlFor={id} className="mb-1 block font-medium">
        {t(create.label)}
      </label>
      <div className="flex gap-1">
        <input
          id={id}
          type="text"
          value={value}
          autoComplete="off"
          onChange={(e) => setValue(e.target.value)}
          // w-full: a percentage width gives the input no minimum of its own, so the box (and the search
          // page's column) can be as narrow as a phone; without it Greek's 'Create' pushed it to 328 px at 320.
          className="w-full min-w-0 flex-1 rounded border border-stone-500 bg-white px-2 py-1"
        />
        <button type="submit" className="btn px-3 py-1" disabled={mutation.isPending}>
          {t('Create')}
        </button>
      </div>
      <p aria-live="polite" className={`mt-1 break-words ${message?.ok ? 'text-teal-900' : 'text-red-800'}`}>
        {mutation.isPending ? t('Working') : (message?.text ?? '')}
      </p>
    </form>
  );
}

interface Props {
  kind: MergeBoxKind;
  /** Called after a successful commit (the search page drops its author filter after an author merge). */
  onDone?: () => void;
  /** The heading level (3 under a column heading). */
  headingLevel?: 2 | 3;
}

export function MergeBox({ kind, onDone, headingLevel = 3 }: Props) {
  const { t } = useTranslation();
  const cfg = BOXES[kind];
  const box: Box = useMergeBoxes((s) => s.boxes[kind]);
  const add = useMergeBoxes((s) => s.add);
  const remove = useMergeBoxes((s) => s.remove);
  const clear = useMergeBoxes((s) => s.clear);
  const makeCanonical = useMergeBoxes((s) => s.makeCanonical);
  const queryClient = useQueryClient();
  const headingId = useId();
  const listLabelId = useId();
  const [message, setMessage] = useState<Message | null>(null);

  const mutation = useMutation({
    mutationFn: (body: ReturnType<typeof commitBody>) => curationApi.commit(kind, body),
    onSuccess: () => {
      clear(kind);
      setMessage({ ok: true, text: t(CHANGE_DONE) });
      void catalogueChanged(queryClient);
      onDone?.();
    },
    onError: (err) => setMessage({ ok: false, text: serverErrorOr(err, t('Failed!')) }),
  });

  const dropped = (e: DragEvent, asCanonical: boolean) => {
    const result = add(kind, getDragItem(e), { asCanonical });
    setMessage(result === 'refused' ? { ok: false, text: t('I cannot do that') } : null);
  };
  const boxZone = useDropZone((e) => dropped(e, false));
  const canonicalZone = useDropZone((e) => dropped(e, true));

  const working = mutation.isPending;
  const empty = !box.canonical && box.list.length === 0;
  const canCommit = !!box.canonical && box.list.length >= 1 && !working;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  return (
    <section
      aria-labelledby={headingId}
      data-box={kind}
      {...boxZone.props}
      className={`min-w-0 rounded border bg-white ${boxZone.over ? 'border-amber-700 ring-2 ring-amber-600' : 'border-stone-300'}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-2 rounded-t bg-amber-900 px-3 py-1.5 text-white">
        <Heading id={headingId} className="font-semibold">
          {t(cfg.title)}
        </Heading>
        <Link to={`/dashboard/${cfg.dashboard}`} aria-describedby={headingId} className="text-xs text-white underline hover:no-underline">
          {t('Dashboard')}
        </Link>
      </div>
      <div className="space-y-2 px-3 py-2 text-sm">
        <div
          {...canonicalZone.props}
          data-drop="canonical"
          className={`rounded border border-dashed px-2 py-1 ${canonicalZone.over ? 'border-amber-700 bg-amber-50' : 'border-stone-400'}`}
        >
          <p className="text-xs font-medium uppercase tracking-wide text-stone-700">{t(cfg.canonicalLabel)}</p>
          {box.canonical ? (
            <div className="flex flex-wrap items-start justify-between gap-1">
              <span
                draggable
                onDragStart={(e) => setDragItem(e, box.canonical!)}
                className="min-w-0 cursor-grab break-words font-serif font-bold"
              >
                {box.canonical.label}
              </span>
              <button
                type="button"
                className={smallBtn}
                aria-label={t('Remove “{{name}}”', { name: box.canonical.label })}
                onClick={() => remove(kind, box.canonical!.id)}
              >
                {t('Remove')}
              </button>
            </div>
          ) : (
            <p className="text-stone-700">{t('Not set')}</p>
          )}
        </div>

        {box.list.length > 0 && (
          <div>
            <p id={listLabelId} className="text-xs font-medium uppercase tracking-wide text-stone-700">
              {t(cfg.listLabel)}
            </p>
            <ul aria-labelledby={listLabelId} className="mt-1 space-y-1">
              {box.list.map((item) => (
                <li key={item.id} className="rounded border border-stone-200 px-2 py-1">
                  <span draggable onDragStart={(e) => setDragItem(e, item)} className="block cursor-grab break-words font-serif">
                    {item.label}
                  </span>
                  {kind === 'aggregations' && <PositionInput kind={kind} item={item} />}
                  <div className="mt-1 flex flex-wrap gap-1">
                    <button
                      type="button"
                      className={smallBtn}
                      aria-label={t(cfg.promoteNamed, { name: item.label })}
                      onClick={() => makeCanonical(kind, item.id)}
                    >
                      {t(cfg.promote)}
                    </button>
                    <button
                      type="button"
                      className={smallBtn}
                      aria-label={t('Remove “{{name}}”', { name: item.label })}
                      onClick={() => remove(kind, item.id)}
                    >
                      {t('Remove')}
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          </div>
        )}

        {empty && <p className="text-stone-700">{t('Drag items here or use the “Add to merge box” buttons.')}</p>}

        {(canCommit || (!empty && !working)) && (
          <div className="flex flex-wrap gap-2">
            {canCommit && (
              <button type="button" className="btn btn-primary px-3 py-1" onClick={() => mutation.mutate(commitBody(kind, box))}>
                {t(cfg.action)}
              </button>
            )}
            {!empty && !working && (
              <button
                type="button"
                className="btn px-3 py-1"
                onClick={() => {
                  clear(kind);
                  setMessage(null);
                }}
              >
                {t('Clear list')}
              </button>
            )}
          </div>
        )}

        <div aria-live="polite" className="break-words">
          {working ? (
            <p className="font-medium text-stone-800 motion-safe:animate-pulse">{t('Working')}</p>
          ) : message ? (
            <p className={message.ok ? 'text-teal-900' : 'text-red-800'}>
              {message.text}
              {message.ok && (
                <>
                  {' '}
                  <Link to="/changes" className="link">
                    {t('You can undo this from the change log.')}
                  </Link>
                </>
              )}
            </p>
          ) : null}
        </div>

        {cfg.create && <CreateField kind={kind} />}
      </div>
    </section>
  );
}

/** The right column of boxes (spec §2): for users enabled for merging only. */
export function MergeColumn({ kinds, onDone }: { kinds: MergeBoxKind[]; onDone?: Partial<Record<MergeBoxKind, () => void>> }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <aside aria-labelledby={headingId} className="min-w-0 space-y-3">
      <h2 id={headingId} className="text-lg font-semibold">
        {t('Merge boxes')}
      </h2>
      {kinds.map((k) => (
        <MergeBox key={k} kind={k} onDone={onDone?.[k]} />
      ))}
    </aside>
  );
}
