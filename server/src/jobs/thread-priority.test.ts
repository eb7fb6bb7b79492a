import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICE } from './thread-priority.ts';

describe.runIf(process.platform === 'linux')('background threads', () => {
  it('lower their own CPU priority only, not the server thread that answers readers', async () => {
    const before = os.getPriority(0);
    // A worker thread loading the module as the build and harvest threads do (tsx's loader registered).
    const moduleUrl = new URL('./thread-priority.ts', import.meta.url).href;
    const source = `
      const { parentPort } = require('node:worker_threads');
      const os = require('node:os');
      (async () => {
        (await import('tsx/esm/api')).register();
        const { yieldToRequests } = await import(${JSON.stringify(moduleUrl)});
        const lowered = yieldToRequests();
        parentPort.postMessage({ lowered, nice: os.getPriority(0) });
      })();`;
    const worker = new Worker(source, { eval: true });
    const reply = await new Promise<{ lowered: boolean; nice: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(reply.lowered).toBe(true);
    expect(reply.nice).toBe(Math.max(before, BACKGROUND_NICE));
    expect(os.getPriority(0), 'the main thread keeps its priority').toBe(before);
  });
});
