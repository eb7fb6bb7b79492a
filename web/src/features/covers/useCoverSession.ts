// The cover session with the server: get_tokens on opening (the stored session is passed so uploads
// survive a reload), image uploads, and the build job's polling (check_job of /bookbuilder with the
// cover session, like the Book Builder's).
import { useCallback, useEffect, useState } from 'react';
import { COVER_IMAGE_MAX_BYTES } from '@uc/shared';
import { api, ApiError, isApiError } from '../../api/client';
import { useCheckJob, type JobTarget } from '../bookbuilder/JobStatus';
import { isCoverPolling, useCoverStore } from './store';

export const COVER_IMAGE_TYPES = ['image/png', 'image/jpeg'];

/** Fetches the tokens once per opening; `ready` when the server has answered for the session in the store. */
export function useCoverSession(): { ready: boolean; error: string | null; retry: () => void } {
  const [state, setState] = useState<{ ready: boolean; error: string | null }>({ ready: false, error: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const ctrl = new AbortController();
    api
      .bookcover({ action: 'get_tokens', session_id: useCoverStore.getState().session_id }, ctrl.signal)
      .then((r) => {
        if (!r.session_id || !r.tokens) throw new ApiError(200, 'Invalid answer from the server');
        useCoverStore.getState().setSession(r.session_id, r.tokens);
        setState({ ready: true, error: null });
      })
      .catch((e: unknown) => {
        if (ctrl.signal.aborted) return;
        setState({ ready: false, error: isApiError(e) ? e.message : String(e) });
      });
    return () => ctrl.abort();
  }, [attempt]);
  const retry = useCallback(() => {
    setState({ ready: false, error: null });
    setAttempt((n) => n + 1);
  }, []);
  return { ...state, retry };
}

/** What is wrong with a chosen file before it is sent (an English source string), or null. */
export function localImageProblem(file: File): string | null {
  if (!COVER_IMAGE_TYPES.includes(file.type)) return 'Please choose a PNG or JPEG image.';
  if (file.size > COVER_IMAGE_MAX_BYTES) return 'The image is larger than 20 MB.';
  return null;
}

/** Uploads the image of a file token; the token's value becomes the stored file the answer names. */
export async function uploadCoverImage(token: string, file: File): Promise<void> {
  const store = useCoverStore.getState();
  if (!store.session_id) throw new ApiError(0, 'No cover session yet');
  const r = await api.bookcoverUpload(store.session_id, token, file);
  if (!r.image || r.tokens?.[token] !== r.image.file) throw new ApiError(200, 'Invalid answer from the server');
  useCoverStore.getState().setImage({ ...r.image, name: file.name });
}

const coverJobTarget: JobTarget = {
  currentJob: () => useCoverStore.getState().job_id,
  setStatus: (status) => useCoverStore.getState().setStatus(status),
  finish: () => useCoverStore.getState().finishJob(),
  fail: (error) => useCoverStore.getState().failJob(error),
};

/** Polls the cover build like the Book Builder's (check_job with the cover session); answers the queue position. */
export function useCoverJobPolling(): number | null {
  const sessionId = useCoverStore((s) => s.session_id);
  const jobId = useCoverStore((s) => s.job_id);
  const polling = useCoverStore(isCoverPolling);
  return useCheckJob('covers', sessionId, jobId, polling, coverJobTarget).position;
}
