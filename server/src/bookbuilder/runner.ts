// Runs builds (books, covers and cover previews) in worker threads (Typst compiles synchronously: in
// the main thread a build would stall every request). One thread per concurrent build, reused, ended after a minute idle to give back its
// memory; a build past its time limit (or aborted) has its thread terminated. Uploaded images are decoded
// in threads of their own ("image" pool): one at a time, with a heap limit, so a decode can neither stall
// requests nor take the process down (a thread that dies of its limit fails its task, nothing else).
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { BuildInput, BuildProgress, BuildResult } from './build.ts';
import type { CoverRenderInput, CoverRenderResult } from '../covers/render.ts';
import type { PreviewImageInput } from '../covers/preview-image.ts';
import type { TextEpubInput } from '../catalogue/text-epub.ts';
import type { BuildReply, ThreadResult, ThreadTask } from './build-thread-main.ts';

type Pool = 'build' | 'image';
interface Slot { pool: Pool; worker: Worker; busy: boolean; idleTimer: NodeJS.Timeout | null; ready: Promise<void> }

/** Image decodes at once (others wait their turn): their memory is the server's to bound. */
const IMAGE_THREADS = 1;
/** The image thread's V8 heap (jpeg-js keeps a small object per 8×8 block); past it the thread ends, not the server. */
export const IMAGE_THREAD_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 384, maxYoungGenerationSizeMb: 32 };

export class BuildRunner {
  private slots: Slot[] = [];
  private seq = 0;
  private imageWaiters: (() => void)[] = [];

  constructor(private opts: { idleMs?: number } = {}) {}

  private spawn(pool: Pool): Slot {
    const worker = new Worker(new URL('./build-thread.mjs', import.meta.url), pool === 'image' ? { resourceLimits: IMAGE_THREAD_LIMITS, workerData: { image: true } } : {});
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
    const slot: Slot = { pool, worker, busy: false, idleTimer: null, ready };
    worker.once('exit', () => {
      this.slots = this.slots.filter((s) => s !== slot);
    });
    this.slots.push(slot);
    return slot;
  }

  private release(slot: Slot): void {
    slot.busy = false;
    if (slot.pool === 'image') this.imageWaiters.shift()?.();
    // an image thread gives its memory back soon: a large decode's heap should not linger for a minute
    const idle = this.opts.idleMs ?? (slot.pool === 'image' ? 5_000 : 60_000);
    slot.idleTimer = setTimeout(() => void slot.worker.terminate(), idle);
    slot.idleTimer.unref();
  }

  /** A book build; `onProgress` hears each step (a large book: each chunk, see chunked.ts). */
  run(input: BuildInput, signal?: AbortSignal, onProgress?: (p: BuildProgress) => void): Promise<BuildResult> {
    return this.exec({ kind: 'book', input }, signal, onProgress) as Promise<BuildResult>;
  }

  runCover(input: CoverRenderInput, signal?: AbortSignal): Promise<CoverRenderResult> {
    return this.exec({ kind: 'cover', input }, signal) as Promise<CoverRenderResult>;
  }

  /** A Muse text's EPUB for the downloads (catalogue/text-epub.ts). */
  runTextEpub(input: TextEpubInput, signal?: AbortSignal): Promise<{ bytes: number }> {
    return this.exec({ kind: 'text-epub', input }, signal) as Promise<{ bytes: number }>;
  }

  runPreviewImage(input: PreviewImageInput, signal?: AbortSignal): Promise<{ width: number; height: number }> {
    return this.exec({ kind: 'preview-image', input }, signal) as Promise<{ width: number; height: number }>;
  }

  private async exec(task: ThreadTask, signal?: AbortSignal, onProgress?: (p: BuildProgress) => void): Promise<ThreadResult> {
    signal?.throwIfAborted();
    const pool: Pool = task.kind === 'preview-image' ? 'image' : 'build';
    if (pool === 'image') {
      // wait for a free image thread (or room for one)
      while (!this.slots.some((s) => s.pool === 'image' && !s.busy) && this.slots.filter((s) => s.pool === 'image').length >= IMAGE_THREADS) {
        await new Promise<void>((resolve) => this.imageWaiters.push(resolve));
      }
    }
    const slot = this.slots.find((s) => s.pool === pool && !s.busy) ?? this.spawn(pool);
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
          this.slots = this.slots.filter((s) => s !== slot); // never handed another task
          reject(new Error(`The build stopped: ${e.message}`));
        };
        const onExit = (code: number) => {
          cleanup();
          this.slots = this.slots.filter((s) => s !== slot);
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
      else if (pool === 'image') this.imageWaiters.shift()?.(); // the thread ended: the next may spawn one
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots = [];
  }
}
