// Inside an image thread (BuildRunner's "image" pool): only the preview copy of an uploaded image, so the
// thread starts without loading Typst and the book builder. Same messages as the build thread.
import type { MessagePort } from 'node:worker_threads';
import { makePreviewImage } from '../covers/preview-image.ts';
import { yieldToRequests } from '../jobs/thread-priority.ts';
import type { BuildReply, BuildRequest } from './build-thread-main.ts';

export function serve(port: MessagePort | null): void {
  yieldToRequests(); // readers' requests on the main thread come first
  if (!port) return;
  port.on('message', async (msg: BuildRequest) => {
    try {
      if (msg.task.kind !== 'preview-image') throw new Error('An image thread only makes preview copies');
      port.postMessage({ id: msg.id, ok: true, result: await makePreviewImage(msg.task.input) } satisfies BuildReply);
    } catch (e) {
      port.postMessage({ id: msg.id, ok: false, error: e instanceof Error ? e.message : String(e) } satisfies BuildReply);
    }
  });
  port.postMessage({ ready: true });
}
