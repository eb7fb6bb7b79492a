// The live preview: ~300 ms after the last change the values are sent to `preview` (the request before
// is aborted, so one is in flight at a time); the SVG becomes a Blob URL for an <img>, the old URL is
// revoked. While a newer preview loads, the old image stays and `busy` is set.
import { useEffect, useRef, useState } from 'react';
import { api, isApiError } from '../../api/client';
import { useCoverStore } from './store';
import { coverArgs, splitError } from './tokens';

export const PREVIEW_DEBOUNCE_MS = 300;

export interface CoverPreview {
  url: string | null;
  warnings: string[];
  /** The last preview's error: a field's ("<token>: ...") or the form's. */
  error: { field: string | null; message: string } | null;
  busy: boolean;
}

export function useCoverPreview(enabled: boolean): CoverPreview {
  const values = useCoverStore((s) => s.values);
  const tokens = useCoverStore((s) => s.tokens);
  const sessionId = useCoverStore((s) => s.session_id);
  const [preview, setPreview] = useState<CoverPreview>({ url: null, warnings: [], error: null, busy: false });
  const inFlight = useRef<AbortController | null>(null);
  const urlRef = useRef<string | null>(null);

  useEffect(() => {
    if (!enabled || !sessionId || tokens.length === 0) return;
    const timer = setTimeout(() => {
      inFlight.current?.abort();
      const ctrl = new AbortController();
      inFlight.current = ctrl;
      setPreview((p) => ({ ...p, busy: true }));
      api
        .bookcover({ action: 'preview', args: coverArgs(values, tokens, sessionId) }, ctrl.signal)
        .then((r) => {
          if (ctrl.signal.aborted) return;
          const url = r.svg ? URL.createObjectURL(new Blob([r.svg], { type: 'image/svg+xml' })) : null;
          if (urlRef.current) URL.revokeObjectURL(urlRef.current);
          urlRef.current = url;
          setPreview({ url, warnings: r.warnings ?? [], error: null, busy: false });
        })
        .catch((e: unknown) => {
          if (ctrl.signal.aborted) return;
          const message = isApiError(e) ? e.message : String(e);
          setPreview((p) => ({ ...p, busy: false, error: splitError(message, tokens) }));
        })
        .finally(() => {
          if (inFlight.current === ctrl) inFlight.current = null;
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [enabled, sessionId, tokens, values]);

  useEffect(
    () => () => {
      inFlight.current?.abort();
      inFlight.current = null;
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
      urlRef.current = null;
    },
    [],
  );
  return preview;
}
