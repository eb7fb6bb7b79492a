// The cover builder's state in the browser, kept in localStorage like the Book Builder's: the cover
// session, the server's tokens (their values are the defaults), the values typed, the uploaded images'
// figures (for the print resolution), the spine calculator's inputs and the build job.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { CoverImageInfo, CoverToken } from '@uc/shared';
import { DEFAULT_PAPER_THICKNESS_MM } from '@uc/shared';
import type { JobStatusValue } from '../bookbuilder/store';

export const COVER_STORAGE_KEY = 'coverbuilder';

export type CoverValue = string | number | boolean | null;
export type CoverValues = Record<string, CoverValue>;

/** An uploaded image: the server's figures and the name of the file the user chose. */
export interface CoverImage extends CoverImageInfo {
  name: string;
}

export interface CoverState {
  session_id: string | null;
  /** The tokens of the last get_tokens or upload answer, in the server's order. */
  tokens: CoverToken[];
  values: CoverValues;
  /** Uploaded images by file token name. */
  images: Record<string, CoverImage>;
  /** The spine calculator (from the built book's pages). */
  paper_mm: number;
  allowance_mm: number;
  /** The Book Builder book (texts, title, pages) the title, author and spine were last filled from, and the spine it gave. */
  book_key: string | null;
  auto_spine: number | null;
  /** The build being polled; the build whose PDF is shown. */
  job_id: number | null;
  job_produced: number | null;
  status: JobStatusValue | null;
  error: string | null;
}

interface Actions {
  /** A get_tokens or upload answer: the session and the tokens. A new session drops the uploaded files. */
  setSession(sessionId: string, tokens: CoverToken[]): void;
  setValue(name: string, value: CoverValue): void;
  setImage(image: CoverImage): void;
  removeImage(token: string): void;
  setSpineInputs(v: Partial<Pick<CoverState, 'paper_mm' | 'allowance_mm'>>): void;
  /** Values filled from the Book Builder's book (not typed by the user). */
  fillFromBook(values: CoverValues, bookKey: string, autoSpine: number | null): void;
  startJob(jobId: number): void;
  setStatus(status: JobStatusValue): void;
  finishJob(): void;
  failJob(error: string): void;
  /** Every value back to the server's default; the build status cleared. The session is kept. */
  reset(): void;
}

export const defaultValues = (tokens: CoverToken[]): CoverValues => Object.fromEntries(tokens.map((t) => [t.name, t.value]));

const jobCleared = { job_id: null, job_produced: null, status: null, error: null } as const;

export const initialCoverState = (): CoverState => ({
  session_id: null,
  tokens: [],
  values: {},
  images: {},
  paper_mm: DEFAULT_PAPER_THICKNESS_MM,
  allowance_mm: 0,
  book_key: null,
  auto_spine: null,
  ...jobCleared,
});

export const useCoverStore = create<CoverState & Actions>()(
  persist(
    (set) => ({
      ...initialCoverState(),
      setSession: (sessionId, tokens) =>
        set((s) => {
          const sameSession = s.session_id === sessionId;
          const values: CoverValues = {};
          for (const t of tokens) {
            const kept = Object.prototype.hasOwnProperty.call(s.values, t.name) && (t.type !== 'file' || sameSession);
            values[t.name] = kept ? s.values[t.name] : t.value;
          }
          const images = sameSession ? Object.fromEntries(Object.entries(s.images).filter(([k]) => tokens.some((t) => t.name === k && t.type === 'file'))) : {};
          // A build belongs to its session: a new session cannot serve the old PDF.
          return { session_id: sessionId, tokens, values, images, ...(sameSession ? {} : jobCleared) };
        }),
      setValue: (name, value) => set((s) => ({ values: { ...s.values, [name]: value } })),
      setImage: (image) => set((s) => ({ values: { ...s.values, [image.token]: image.file }, images: { ...s.images, [image.token]: image } })),
      removeImage: (token) =>
        set((s) => {
          const images = { ...s.images };
          delete images[token];
          return { values: { ...s.values, [token]: null }, images };
        }),
      setSpineInputs: (v) => set(v),
      fillFromBook: (values, bookKey, autoSpine) => set((s) => ({ values: { ...s.values, ...values }, book_key: bookKey, auto_spine: autoSpine })),
      startJob: (jobId) => set({ job_id: jobId, status: 'inactive', error: null, job_produced: null }),
      setStatus: (status) => set({ status }),
      finishJob: () => set((s) => ({ job_produced: s.job_id, job_id: null, status: 'finished', error: null })),
      failJob: (error) => set({ job_id: null, error }),
      reset: () => set((s) => ({ values: defaultValues(s.tokens), images: {}, paper_mm: DEFAULT_PAPER_THICKNESS_MM, allowance_mm: 0, book_key: null, auto_spine: null, ...jobCleared })),
    }),
    {
      name: COVER_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (s): CoverState => ({
        session_id: s.session_id,
        tokens: s.tokens,
        values: s.values,
        images: s.images,
        paper_mm: s.paper_mm,
        allowance_mm: s.allowance_mm,
        book_key: s.book_key,
        auto_spine: s.auto_spine,
        job_id: s.job_id,
        job_produced: s.job_produced,
        status: s.status,
        error: s.error,
      }),
      merge: (persisted, current) => ({ ...current, ...((persisted ?? {}) as Partial<CoverState>) }),
    },
  ),
);

/** Polling runs while the build is queued or running. */
export const isCoverPolling = (s: Pick<CoverState, 'job_id' | 'status'>) => s.job_id !== null && (s.status === 'inactive' || s.status === 'active');
