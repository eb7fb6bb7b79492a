// Inside the build thread: runs one task per message (a book build, or a cover build or preview) and
// answers with its result or error.
import type { MessagePort } from 'node:worker_threads';
import { buildBook, type BuildInput, type BuildResult } from './build.ts';
import { renderCover, type CoverRenderInput, type CoverRenderResult } from '../covers/render.ts';

export type ThreadTask = { kind: 'book'; input: BuildInput } | { kind: 'cover'; input: CoverRenderInput };
export type ThreadResult = BuildResult | CoverRenderResult;
export interface BuildRequest { id: number; task: ThreadTask }
export type BuildReply = { id: number; ok: true; result: ThreadResult } | { id: number; ok: false; error: string };

async function runTask(task: ThreadTask): Promise<ThreadResult> {
  return task.kind === 'book' ? buildBook(task.input) : renderCover(task.input);
}

export function serve(port: MessagePort | null): void {
  if (!port) return;
  port.on('message', async (msg: BuildRequest) => {
    try {
      const result = await runTask(msg.task);
      port.postMessage({ id: msg.id, ok: true, result } satisfies BuildReply);
    } catch (e) {
      port.postMessage({ id: msg.id, ok: false, error: e instanceof Error ? e.message : String(e) } satisfies BuildReply);
    }
  });
  port.postMessage({ ready: true });
}
