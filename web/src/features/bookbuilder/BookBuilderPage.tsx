// /bookbuilder and /coverbuilder: two tabs of one tool (spec §2). The Book Builder has the option tabs,
// Build and Reset (spec §4 visibility rules), and the job status with the embedded PDF. Loaded lazily.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { NavLink } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { collectionProblems, HEADINGS, toBuildPayload, type BookFont } from '@uc/shared';
import { api, isApiError } from '../../api/client';
import { Dialog } from '../../components/Dialog';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { CoverBuilder } from '../covers/CoverBuilder';
import { ProblemsContext, SHOWN_WHEN_TOUCHED, TouchContext, type Problems } from './fields';
import { JobStatus } from './JobStatus';
import { FormatChoice, useBookFormat } from './FormatChoice';
import { SheetSummary, useAutoCropPaper } from './SheetSummary';
import { AdvancedTab, FIELD_TAB, FontsTab, ImpositionTab, LayoutTab, OverviewTab, TAB_IDS, TAB_LABELS, type TabId } from './tabs';
import { canBeCompiled, canReset, isPolling, useBookBuilder } from './store';

function ToolTabs() {
  const { t } = useTranslation();
  const cls = ({ isActive }: { isActive: boolean }) =>
    `rounded-t border border-b-0 px-4 py-2 ${isActive ? 'border-stone-400 bg-white font-semibold' : 'border-transparent text-stone-700 hover:bg-stone-100'}`;
  return (
    <nav aria-label={t('Book Builder and covers')} className="border-b border-stone-400">
      <ul className="-mb-px flex gap-1">
        <li>
          <NavLink to="/bookbuilder" className={cls}>
            {t('Book Builder')}
          </NavLink>
        </li>
        <li>
          <NavLink to="/coverbuilder" className={cls}>
            {t('Covers')}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}

export function CoverBuilderPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('Covers'));
  return (
    <div className="mx-auto max-w-screen-xl px-4 py-6">
      <h1 className="mb-4 text-2xl font-semibold">{t('Covers')}</h1>
      <ToolTabs />
      <div className="rounded-b border border-t-0 border-stone-400 bg-white p-4">
        <CoverBuilder />
      </div>
    </div>
  );
}

/** A server list that failed: what failed, and the user's way to ask again. */
interface ListState {
  error: string | null;
  fetching: boolean;
  retry: () => void;
}

function listState(q: { isError: boolean; error: unknown; isFetching: boolean; refetch: () => unknown }): ListState {
  return {
    error: q.isError ? (isApiError(q.error) ? q.error.message : String(q.error)) : null,
    fetching: q.isFetching,
    retry: () => void q.refetch(),
  };
}

function useServerLists() {
  // the fonts are marked against the session's texts: asked again when they change
  const sessionId = useBookBuilder((s) => s.session_id);
  const textIds = useBookBuilder((s) => s.text_list.map((x) => x.id).join(','));
  const fonts = useQuery({
    queryKey: ['bookbuilder', 'fonts', sessionId, textIds],
    queryFn: ({ signal }) => api.bookbuilder({ action: 'get_fonts', session_id: sessionId }, signal),
    staleTime: Infinity,
    placeholderData: keepPreviousData,
    select: (r) => r.fonts ?? [],
  });
  const headings = useQuery({
    queryKey: ['bookbuilder', 'headings'],
    queryFn: ({ signal }) => api.bookbuilder({ action: 'get_headings' }, signal),
    staleTime: Infinity,
    select: (r) => r.headings ?? [],
  });
  return {
    fonts: fonts.data,
    fontsState: listState(fonts),
    // Without the server's list, the built-in one (the same names) keeps the Layout tab usable.
    headings: headings.data ?? HEADINGS.map((h) => ({ name: h.name, desc: h.desc })),
    headingsState: listState(headings),
  };
}

/** A list that could not be loaded: the reason and Try again (never an endless "Loading…"). */
function ListError({ message, state }: { message: string; state: ListState }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="mb-4 rounded border border-red-700 bg-red-50 p-3 text-red-900">
      <p>{message}</p>
      <button type="button" className="btn mt-2" onClick={state.retry} disabled={state.fetching} aria-busy={state.fetching}>
        {t('Try again')}
      </button>
    </div>
  );
}

/** On open, the server's list of the stored session wins (it may have expired or changed elsewhere). */
function useRefreshList() {
  const sessionId = useBookBuilder((s) => s.session_id);
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    if (!sessionId || checked) return;
    const ctrl = new AbortController();
    api
      .bookbuilder({ action: 'list', session_id: sessionId }, ctrl.signal)
      .then((r) => {
        const local = useBookBuilder.getState().text_list.map((x) => x.id).join(',');
        const remote = (r.texts ?? []).map((x) => x.id).join(',');
        if (r.session_id !== sessionId || local !== remote) useBookBuilder.getState().setTexts(r);
        setChecked(true);
      })
      .catch(() => undefined);
    return () => ctrl.abort();
  }, [sessionId, checked]);
}

function fontProblems(fonts: BookFont[] | undefined, d: { mainfont: string; monofont: string; sansfont: string; sansfontsections: boolean }): Problems {
  if (!fonts) return {};
  const names = new Set(fonts.map((f) => f.name));
  const out: Problems = {};
  const keys: ('mainfont' | 'monofont' | 'sansfont')[] = d.sansfontsections ? ['mainfont', 'monofont', 'sansfont'] : ['mainfont', 'monofont'];
  for (const key of keys) {
    if (d[key] && !names.has(d[key])) out[key] = 'This font is not available on the server';
    else if (fonts.some((f) => f.name === d[key] && !f.offered)) out[key] = 'This font lacks letters of your texts: choose one of those offered';
  }
  return out;
}

function OptionTabs({ problems, tab, setTab }: { problems: Problems; tab: TabId; setTab: (t: TabId) => void }) {
  const { t } = useTranslation();
  const refs = useRef(new Map<TabId, HTMLButtonElement | null>());
  const withProblems = new Set(Object.keys(problems).map((k) => FIELD_TAB[k]).filter(Boolean));
  const onKey = (e: KeyboardEvent) => {
    const i = TAB_IDS.indexOf(tab);
    const next = e.key === 'ArrowRight' ? (i + 1) % TAB_IDS.length : e.key === 'ArrowLeft' ? (i - 1 + TAB_IDS.length) % TAB_IDS.length : e.key === 'Home' ? 0 : e.key === 'End' ? TAB_IDS.length - 1 : -1;
    if (next < 0) return;
    e.preventDefault();
    setTab(TAB_IDS[next]);
    refs.current.get(TAB_IDS[next])?.focus();
  };
  return (
    <div role="tablist" aria-label={t('Book options')} className="flex flex-wrap gap-1 border-b border-stone-300" onKeyDown={onKey}>
      {TAB_IDS.map((id) => (
        <button
          key={id}
          ref={(el) => void refs.current.set(id, el)}
          type="button"
          role="tab"
          id={`bb-tab-${id}`}
          aria-selected={tab === id}
          aria-controls={`bb-panel-${id}`}
          tabIndex={tab === id ? 0 : -1}
          onClick={() => setTab(id)}
          className={`-mb-px rounded-t border px-3 py-1.5 ${tab === id ? 'border-stone-300 border-b-white bg-white font-semibold' : 'border-transparent text-stone-700 hover:bg-stone-100'}`}
        >
          {t(TAB_LABELS[id])}
          {withProblems.has(id) && (
            <span className="ml-1 font-bold text-red-800" aria-label={t('needs attention')}>
              !
            </span>
          )}
        </button>
      ))}
    </div>
  );
}

export default function BookBuilderPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('Book Builder'));
  useRefreshList();
  useAutoCropPaper();
  const { fonts, fontsState, headings, headingsState } = useServerLists();
  const state = useBookBuilder();
  const [tab, setTab] = useState<TabId>('overview');
  const [buildError, setBuildError] = useState<string | null>(null);
  const [showProblems, setShowProblems] = useState(false);
  const [building, setBuilding] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const resetDone = useRef(false);
  const d = state.collection_data;
  const format = useBookFormat((s) => s.format);
  // an EPUB names no font: the reader's own stays in force
  const problems: Problems = useMemo(
    () => ({ ...collectionProblems(d, state.text_list.length), ...(format === 'pdf' ? fontProblems(fonts, d) : {}) }),
    [d, state.text_list.length, fonts, format],
  );
  const problemList = Object.entries(problems) as [string, string][];
  // a field nobody has typed in yet is not wrong yet: its problem shows once it was left or Build was tried
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const touch = useCallback((name: string) => setTouched((s) => (s.has(name) ? s : new Set(s).add(name))), []);
  const shown: Problems = useMemo(
    () => (showProblems ? problems : Object.fromEntries(Object.entries(problems).filter(([k]) => !SHOWN_WHEN_TOUCHED.has(k) || touched.has(k)))),
    [problems, showProblems, touched],
  );
  const polling = isPolling(state);

  const build = async () => {
    setBuildError(null);
    if (problemList.length) {
      setShowProblems(true);
      const first = FIELD_TAB[problemList[0][0]];
      if (first) setTab(first);
      return;
    }
    setShowProblems(false);
    setBuilding(true);
    try {
      const r = await api.bookbuilder({ action: 'build', session_id: state.session_id, collection_data: toBuildPayload(d), format });
      if (r.job_id) state.startJob(r.job_id);
    } catch (e) {
      setBuildError(isApiError(e) ? e.message : t('Failed!'));
    } finally {
      setBuilding(false);
    }
  };

  // After Reset the button is gone: focus goes to the page heading instead of the document body.
  useEffect(() => {
    if (!confirmReset && resetDone.current) {
      resetDone.current = false;
      heading.current?.focus();
    }
  }, [confirmReset]);
  const doReset = () => {
    resetDone.current = true;
    state.reset();
    setConfirmReset(false);
  };

  return (
    <div className="mx-auto max-w-screen-xl px-4 py-6">
      <h1 ref={heading} tabIndex={-1} className="mb-4 text-2xl font-semibold focus:outline-none">
        {t('Book Builder')}
      </h1>
      <ToolTabs />
      <div className="rounded-b border border-t-0 border-stone-400 bg-white p-3 sm:p-4">
        <ProblemsContext.Provider value={shown}>
          <TouchContext.Provider value={touch}>
          <OptionTabs problems={shown} tab={tab} setTab={setTab} />
          <div role="tabpanel" id={`bb-panel-${tab}`} aria-labelledby={`bb-tab-${tab}`} tabIndex={0} className="pt-4">
            {tab === 'overview' && <OverviewTab />}
            {tab === 'layout' && (
              <>
                {headingsState.error && (
                  <ListError message={t('The list of running headings could not be loaded: {{error}}', { error: headingsState.error })} state={headingsState} />
                )}
                <LayoutTab headings={headings} />
              </>
            )}
            {tab === 'fonts' &&
              (fonts ? (
                <FontsTab fonts={fonts} />
              ) : fontsState.error && !fontsState.fetching ? (
                <ListError message={t('The list of fonts could not be loaded: {{error}}', { error: fontsState.error })} state={fontsState} />
              ) : (
                <p role="status">{t('Loading…')}</p>
              ))}
            {tab === 'imposition' && <ImpositionTab />}
            {tab === 'advanced' && <AdvancedTab />}
          </div>
          </TouchContext.Provider>
        </ProblemsContext.Provider>

        {canBeCompiled(state) && <FormatChoice className="mt-6 border-t border-stone-200 pt-4" />}
        <div className="mt-6 flex flex-wrap items-center gap-3 border-t border-stone-200 pt-4">
          {canBeCompiled(state) && (
            <button type="button" className="btn btn-primary" onClick={build} disabled={building || polling} aria-busy={building}>
              {t('Build')}
            </button>
          )}
          {canReset(state) && (
            <button type="button" className="btn" onClick={() => setConfirmReset(true)}>
              {t('Reset')}
            </button>
          )}
          {!canBeCompiled(state) && <p className="text-sm text-stone-700">{t('Add at least one text to build a book.')}</p>}
        </div>
        {canBeCompiled(state) && format === 'pdf' && <SheetSummary className="mt-3" />}
        {showProblems && problemList.length > 0 && (
          <div role="alert" className="mt-3 rounded border border-red-700 bg-red-50 p-3 text-red-900">
            <p className="font-semibold">{t('Please check these settings before building:')}</p>
            <ul className="mt-1 list-disc pl-6">
              {problemList.map(([key, msg]) => (
                <li key={key}>
                  <button type="button" className="underline" onClick={() => setTab(FIELD_TAB[key] ?? 'overview')}>
                    {t(TAB_LABELS[FIELD_TAB[key] ?? 'overview'])}
                  </button>
                  : {t(msg)}
                </li>
              ))}
            </ul>
          </div>
        )}
        {buildError && (
          <p role="alert" className="mt-3 text-red-800">
            {buildError}
          </p>
        )}
        <JobStatus />
      </div>
      <Dialog open={confirmReset} title={t('Reset the Book Builder?')} onClose={() => setConfirmReset(false)}>
        <p>{t('All texts are taken out of the book and every setting goes back to its default. This cannot be undone.')}</p>
        <div className="mt-4 flex gap-2">
          <button type="button" className="btn btn-primary" onClick={doReset}>
            {t('Reset the Book Builder')}
          </button>
        </div>
      </Dialog>
    </div>
  );
}
