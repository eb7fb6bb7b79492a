// Which parts (sections) of a text go into the book: a disclosure under the text's row with a checkbox
// per section (the server's get_sections: split before every heading of levels 1–4), All / None, and
// Save, which sends set_partial. Every part ticked is the whole text. The collapsed row says which
// parts are chosen ("Parts 1, 3 of 7"), numbered as the list shows them.
import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BookText } from '@uc/shared';
import { api, isApiError } from '../../api/client';

interface Props {
  text: BookText;
  sessionId: string | null;
  /** Sends the selection (null: the whole text); true when the server took it. */
  onSave: (partial: string | null) => Promise<boolean>;
  busy: boolean;
}

export function PartsPicker({ text, sessionId, onSave, busy }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [ticked, setTicked] = useState<ReadonlySet<number> | null>(null);
  const panelId = useId();
  const chosen = text.attributes.partial;
  const title = text.attributes.title;
  // a text's sections never change in its session copy: asked once, when needed
  const q = useQuery({
    queryKey: ['bookbuilder', 'sections', sessionId, text.id],
    queryFn: ({ signal }) => api.bookbuilder({ action: 'get_sections', session_id: sessionId, text_id: text.id }, signal),
    enabled: !!sessionId && (open || !!chosen),
    staleTime: Infinity,
    select: (r) => r.sections ?? [],
  });
  const sections = q.data;
  const current = ticked ?? new Set(chosen ?? sections?.map((s) => s.number) ?? []);
  const summary =
    chosen && sections
      ? t('Parts {{list}} of {{total}}', {
          list: sections.flatMap((s, i) => (chosen.includes(s.number) ? [i + 1] : [])).join(', '),
          total: sections.length,
        })
      : null;

  const toggle = () => {
    setTicked(null);
    setOpen((o) => !o);
  };
  const tick = (n: number, on: boolean) => {
    const next = new Set(current);
    if (on) next.add(n);
    else next.delete(n);
    setTicked(next);
  };
  const save = async () => {
    if (!sections) return;
    const all = sections.every((s) => current.has(s.number));
    const list = sections.filter((s) => current.has(s.number)).map((s) => s.number);
    if (await onSave(all ? null : list.join(','))) {
      setTicked(null);
      setOpen(false);
    }
  };

  return (
    <div className="basis-full pl-9 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <button type="button" className="link py-1" aria-label={t('Choose parts: {{title}}', { title })} aria-expanded={open} aria-controls={panelId} onClick={toggle}>
          {t('Choose parts')}
        </button>
        {summary && <span data-testid="parts-summary" className="text-stone-700">{summary}</span>}
      </div>
      <div id={panelId} hidden={!open}>
        {open &&
          (q.isError ? (
            <p role="alert" className="text-red-800">
              {t('The parts could not be loaded: {{error}}', { error: isApiError(q.error) ? q.error.message : String(q.error) })}
            </p>
          ) : !sections ? (
            <p role="status">{t('Loading…')}</p>
          ) : (
            <fieldset className="mt-1 rounded border border-stone-300 p-2">
              <legend className="px-1 font-medium">{t('Parts of “{{title}}”', { title })}</legend>
              <div className="mb-2 flex flex-wrap gap-2">
                <button type="button" className="btn py-1" onClick={() => setTicked(new Set(sections.map((s) => s.number)))}>
                  {t('All parts')}
                </button>
                <button type="button" className="btn py-1" onClick={() => setTicked(new Set())}>
                  {t('No parts')}
                </button>
              </div>
              <ul className="flex flex-col gap-1">
                {sections.map((s, i) => (
                  <li key={s.number}>
                    <label className="flex items-start gap-2 [overflow-wrap:anywhere]">
                      <input type="checkbox" className="mt-1" checked={current.has(s.number)} onChange={(e) => tick(s.number, e.target.checked)} />
                      <span>
                        {i + 1}. {s.title || (s.number === 0 ? t('Before the first heading') : t('Untitled part'))}
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
              {current.size === 0 && <p className="mt-2 text-red-800">{t('Choose at least one part.')}</p>}
              <div className="mt-2 flex flex-wrap gap-2">
                <button type="button" className="btn btn-primary py-1" onClick={() => void save()} disabled={busy || current.size === 0} aria-busy={busy}>
                  {t('Save the parts')}
                </button>
                <button type="button" className="btn py-1" onClick={toggle}>
                  {t('Cancel')}
                </button>
              </div>
            </fieldset>
          ))}
      </div>
    </div>
  );
}
