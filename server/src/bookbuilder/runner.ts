// Runs builds (books, covers and cover previews) in worker threads (Typst compiles synchronously: in
// the main thread a build would stall every request). One thread per concurrent build, reused, ended after a minute idle to give back its
// memory; a build past its time limit (or aborted) has its thread terminated.
import { Worker } from 'node:worker_threads';
import type { BuildInput, BuildProgress, BuildResult } from './build.ts';
import type { CoverRenderInput, CoverRenderResult } from '../covers/render.ts';
import type { PreviewImageInput } from '../covers/preview-image.ts';
import type { BuildReply, ThreadResult, ThreadTask } from './build-thread-main.ts';

interface Slot { worker: Worker; busy: boolean; idleTimer: NodeJS.Timeout | null; ready: Promise<void> }

export class BuildRunner {
  private slots: Slot[] = [];
  private seq = 0;

  constructor(private opts: { idleMs?: number } = {}) {}

  private spawn(): Slot {
    const worker = new Worker(new URL('./build-thread.mjs', import.meta.url));
    worker.unref();
    const ready = new Promise<void>((resolve, reject) => {
      const onMsg = (m: { ready?: boolean }) => {
        if (m?.ready) {
          worker.off('message', onMsg);
          worker.off('error', reject);
          resolve();
        }
      };
      worker.on('message', onMsg);
      worker.once('error', reject);
    });
    const slot: Slot = { worker, busy: false, idleTimer: null, ready };
    worker.once('exit', () => {
      this.slots = this.slots.filter((s) => s !== slot);
    });
    this.slots.push(slot);
    return slot;
  }

  private release(slot: Slot): void {
    slot.busy = false;
    slot.idleTimer = setTimeout(() => void slot.worker.terminate(), this.opts.idleMs ?? 60_000);
    slot.idleTimer.unref();
  }

  /** A book build; `onProgress` hears each step (a large book: each chunk, see chunked.ts). */
  run(input: BuildInput, signal?: AbortSignal, onProgress?: (p: BuildProgress) => void): Promise<BuildResult> {
    return this.exec({ kind: 'book', input }, signal, onProgress) as Promise<BuildResult>;
  }

  runCover(input: CoverRenderInput, signal?: AbortSignal): Promise<CoverRenderResult> {
    return this.exec({ kind: 'cover', input }, signal) as Promise<CoverRenderResult>;
  }

  runPreviewImage(input: PreviewImageInput): Promise<{ width: number; height: number }> {
    return this.exec({ kind: 'preview-image', input }) as Promise<{ width: number; height: number }>;
  }

  private async exec(task: ThreadTask, signal?: AbortSignal, onProgress?: (p: BuildProgress) => void): Promise<ThreadResult> {
    signal?.throwIfAborted();
    const slot = this.slots.find((s) => !s.busy) ?? this.spawn();
    slot.busy = true;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    const id = ++this.seq;
    try {
      await slot.ready;
      return await new Promise<ThreadResult>((resolve, reject) => {
        const cleanup = () => {
          slot.worker.off('message', onMsg);
          slot.worker.off('error', onError);
          slot.worker.off('exit', onExit);
          signal?.removeEventListener('abort', onAbort);
        };
        const onMsg = (m: BuildReply) => {
          if (m?.id !== id) return;
          if ('progress' in m) return onProgress?.(m.progress);
          cleanup();
          if (m.ok) resolve(m.result);
          else reject(new Error(m.error));
        };
        const onError = (e: Error) => {
          cleanup();
          reject(new Error(`The build stopped: ${e.message}`));
        };
        const onExit = (code: number) => {
          cleanup();
          reject(new Error(`The build stopped (thread exit ${code})`));
        };
        const onAbort = () => {
          cleanup();
          void slot.worker.terminate();
          reject(signal!.reason instanceof Error ? signal!.reason : new Error('Build aborted'));
        };
        slot.worker.on('message', onMsg);
        slot.worker.once('error', onError);
        slot.worker.once('exit', onExit);
        signal?.addEventListener('abort', onAbort, { once: true });
        slot.worker.postMessage({ id, task });
      });
    } finally {
      if (this.slots.includes(slot)) this.release(slot);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots = [];
  }
}
