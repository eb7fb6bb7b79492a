// The Book Builder session in the browser (spec §3 "Book builder session", §4 transitions), kept in
// localStorage. Imported by the header link and the entry page button too, so it stays small and
// zod-free: defaults come from the shared constants file, not from the schema module.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { BookText, BookbuilderResponse, CollectionData } from '@uc/shared';
import { COLLECTION_DEFAULTS } from '../../../../packages/shared/src/bookbuilder-constants.ts';

export const BOOKBUILDER_STORAGE_KEY = 'bookbuilder';

/** Job status of spec §4 (check_job answers), null before any build. */
export type JobStatusValue = 'inactive' | 'active' | 'finished' | 'failed' | 'not found';

export interface BookBuilderState {
  session_id: string | null;
  /** The job being polled. */
  job_id: number | null;
  text_list: BookText[];
  /** The job whose PDF is shown. */
  job_produced: number | null;
  error: string | null;
  status: JobStatusValue | null;
  collection_data: CollectionData;
  /** Figures of the produced PDF (pages, the book's pages before imposition, sheets). */
  produced: ProducedInfo | null;
  /** The crop-mark paper follows the page size and schema (so the sheet stays on the home printer's paper) until the user picks one. */
  crop_paper_auto: boolean;
  /** Creep compensation without crop marks: on, `creep` is the paper thickness (one figure for both). */
  creep_on: boolean;
}

export interface ProducedInfo { pages: number | null; book_pages: number | null; sheets: number | null }

interface Actions {
  /** Any answer carrying texts and session_id (add, list, remove, reorder) replaces the list (spec §4). */
  setTexts(r: BookbuilderResponse): void;
  setField<K extends keyof CollectionData>(key: K, value: CollectionData[K]): void;
  /** Sets the crop-mark paper; `auto`: chosen by the app to fit the printer's paper (false: the user's own choice). */
  setCropPaper(fields: Partial<Pick<CollectionData, 'crop_papersize' | 'crop_papersize_width' | 'crop_papersize_height'>>, auto: boolean): void;
  setCropPaperAuto(auto: boolean): void;
  setCreep(on: boolean): void;
  startJob(jobId: number): void;
  setStatus(status: JobStatusValue): void;
  setProduced(info: ProducedInfo): void;
  /** finished: job_id moves into job_produced. */
  finishJob(): void;
  /** failed / not found: job_id is cleared and the error kept. */
  failJob(error: string): void;
  /** Clears everything and restores the defaults. */
  reset(): void;
}

export function defaultCollection(): CollectionData {
  // the web app lets the texts decide whether chapters start a page (the API's default is 'always')
  return { ...COLLECTION_DEFAULTS, chapter_newpage: 'auto' } as CollectionData;
}

const initial = (): BookBuilderState => ({
  session_id: null,
  job_id: null,
  text_list: [],
  job_produced: null,
  error: null,
  status: null,
  collection_data: defaultCollection(),
  produced: null,
  crop_paper_auto: true,
  creep_on: false,
});

export const useBookBuilder = create<BookBuilderState & Actions>()(
  persist(
    (set) => ({
      ...initial(),
      setTexts: (r) =>
        set((s) => {
          if (!('texts' in r) || !Array.isArray(r.texts) || r.session_id === undefined) return s;
          return { session_id: r.session_id, text_list: r.texts, job_produced: null, status: null, error: null, job_id: null, produced: null };
        }),
      setField: (key, value) =>
        set((s) => {
          const d = { ...s.collection_data, [key]: value };
          // one paper thickness: creep without crop marks, when on, uses the same figure
          if (key === 'crop_paper_thickness' && s.creep_on) d.creep = typeof value === 'number' ? value : 0;
          const picked = key === 'crop_papersize' || key === 'crop_papersize_width' || key === 'crop_papersize_height';
          return { collection_data: d, ...(picked ? { crop_paper_auto: false } : {}) };
        }),
      setCropPaper: (fields, auto) => set((s) => ({ collection_data: { ...s.collection_data, ...fields }, crop_paper_auto: auto })),
      setCropPaperAuto: (auto) => set({ crop_paper_auto: auto }),
      setCreep: (on) => set((s) => ({ creep_on: on, collection_data: { ...s.collection_data, creep: on ? s.collection_data.crop_paper_thickness : 0 } })),
      startJob: (jobId) => set({ job_id: jobId, status: 'inactive', error: null, job_produced: null }),
      setStatus: (status) => set({ status }),
      setProduced: (produced) => set({ produced }),
      finishJob: () => set((s) => ({ job_produced: s.job_id, job_id: null, status: 'finished', error: null })),
      failJob: (error) => set({ job_id: null, error }),
      reset: () => set(initial()),
    }),
    {
      name: BOOKBUILDER_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({
        session_id: s.session_id,
        job_id: s.job_id,
        text_list: s.text_list,
        job_produced: s.job_produced,
        error: s.error,
        status: s.status,
        collection_data: s.collection_data,
        produced: s.produced,
        crop_paper_auto: s.crop_paper_auto,
        creep_on: s.creep_on,
      }),
      // New fields get their defaults when an older stored state is read.
      merge: (persisted, current) => {
        const p = (persisted ?? {}) as Partial<BookBuilderState>;
        const collection_data = { ...defaultCollection(), ...(p.collection_data ?? {}) };
        // a state stored before the crop paper followed the printer: a crop paper other than the old default a4 was the user's choice
        const cropPaperAuto = p.crop_paper_auto ?? !(collection_data.cropmarks && collection_data.crop_papersize !== 'a4');
        return { ...current, ...p, collection_data, creep_on: p.creep_on ?? collection_data.creep > 0, crop_paper_auto: cropPaperAuto };
      },
    },
  ),
);

/** The server's `add` status when another library's copy of the same text (same entry) is already listed. */
export const ALREADY_FROM_OTHER_LIBRARY = 'This text is already in the Book Builder from another library';

/** Spec §4: a book can be compiled only when at least one text is listed. */
export const canBeCompiled = (s: Pick<BookBuilderState, 'text_list'>) => s.text_list.length > 0;
/** Spec §4: a virtual header is needed when more than one text is listed. */
export const needsVirtualHeader = (s: Pick<BookBuilderState, 'text_list'>) => s.text_list.length > 1;
/** Spec §4: Reset shows when a session exists and there is no status. */
export const canReset = (s: Pick<BookBuilderState, 'session_id' | 'status'>) => !!s.session_id && !s.status;
/** Polling runs while the job is queued or running. */
export const isPolling = (s: Pick<BookBuilderState, 'job_id' | 'status'>) => s.job_id !== null && (s.status === 'inactive' || s.status === 'active');
