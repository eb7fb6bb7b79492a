// Inside the build thread: runs one task per message (a book build, a cover build or preview, a cover
// image's preview copy) and
// answers with its result or error.
import type { MessagePort } from 'node:worker_threads';
import { buildBook, type BuildInput, type BuildProgress, type BuildResult } from './build.ts';
import { renderCover, type CoverRenderInput, type CoverRenderResult } from '../covers/render.ts';
import { makePreviewImage, type PreviewImageInput } from '../covers/preview-image.ts';
import { yieldToRequests } from '../jobs/thread-priority.ts';
import { writeTextEpub, type TextEpubInput } from '../catalogue/text-epub.ts';

export type ThreadTask = { kind: 'book'; input: BuildInput } | { kind: 'cover'; input: CoverRenderInput } | { kind: 'preview-image'; input: PreviewImageInput }
  | { kind: 'text-epub'; input: TextEpubInput };
export type ThreadResult = BuildResult | CoverRenderResult | { width: number; height: number } | { bytes: number };
export interface BuildRequest { id: number; task: ThreadTask }
export type BuildReply = { id: number; ok: true; result: ThreadResult } | { id: number; ok: false; error: string } | { id: number; progress: BuildProgress };

async function runTask(task: ThreadTask, onProgress: (p: BuildProgress) => void): Promise<ThreadResult> {
  switch (task.kind) {
    case 'book':
      return buildBook(task.input, { onProgress });
    case 'cover':
      return renderCover(task.input);
    case 'preview-image':
      return makePreviewImage(task.input);
    case 'text-epub':
      return writeTextEpub(task.input);
  }
}

export function serve(port: MessagePort | null): void {
  yieldToRequests(); // readers' requests on the main thread come first
  if (!port) return;
  port.on('message', async (msg: BuildRequest) => {
    try {
      const result = await runTask(msg.task, (progress) => port.postMessage({ id: msg.id, progress } satisfies BuildReply));
      port.postMessage({ id: msg.id, ok: true, result } satisfies BuildReply);
    } catch (e) {
      port.postMessage({ id: msg.id, ok: false, error: e instanceof Error ? e.message : String(e) } satisfies BuildReply);
    }
  });
  port.postMessage({ ready: true });
}
