// Inside the build thread: runs one build per message and answers with its result or error.
import type { MessagePort } from 'node:worker_threads';
import { buildBook, type BuildInput } from './build.ts';

export interface BuildRequest { id: number; input: BuildInput }
export type BuildReply = { id: number; ok: true; result: Awaited<ReturnType<typeof buildBook>> } | { id: number; ok: false; error: string };

export function serve(port: MessagePort | null): void {
  if (!port) return;
  port.on('message', async (msg: BuildRequest) => {
    try {
      const result = await buildBook(msg.input);
      port.postMessage({ id: msg.id, ok: true, result } satisfies BuildReply);
    } catch (e) {
      port.postMessage({ id: msg.id, ok: false, error: e instanceof Error ? e.message : String(e) } satisfies BuildReply);
    }
  });
  port.postMessage({ ready: true });
}
