// Issue 27 item 1: three anonymous cover sessions upload, at once, a 466 KB PNG of 7,745 × 7,745 16-bit
// pixels (480 MB decoded; it took the server from 336 MB to 1.7 GB, three ended it), then a JPEG whose
// frame header claims the same. Each must be refused from its header in under 2 s, the server must stay
// up, and its memory barely move.
import { jpegBomb, pngBomb } from '../../server/src/images/test-images.ts';
import type { Attack } from './types.ts';

export const attack: Attack = {
  name: 'image-bomb',
  async run(ctx) {
    const bombs: { bytes: Buffer; name: string; type: string }[] = [
      { bytes: pngBomb(7745, 16, 6), name: 'cover.png', type: 'image/png' },
      { bytes: pngBomb(7745, 16, 6), name: 'cover.png', type: 'image/png' },
      { bytes: jpegBomb(7745, 7745), name: 'cover.jpg', type: 'image/jpeg' },
    ];
    const clients = bombs.map(() => ctx.client());
    const sessions = await Promise.all(clients.map(async (c) => (await c.call('POST', '/collector/api/bookcover', { action: 'get_tokens' })).json.session_id as string));
    ctx.check(sessions.every((s) => typeof s === 'string' && s.length > 0), 'anonymous cover sessions were opened');

    const before = await ctx.watchMemory().stop();
    const memory = ctx.watchMemory();
    const answers = await Promise.all(bombs.map(async (b, i) => {
      const form = new FormData();
      form.append('session_id', sessions[i]);
      form.append('image_file', new Blob([new Uint8Array(b.bytes)], { type: b.type }), b.name);
      const started = performance.now();
      const r = await clients[i].call('POST', '/collector/api/bookcover/upload', form).catch((e: Error) => ({ status: 0, json: { error: e.message } }));
      return { ...r, ms: performance.now() - started, name: b.name };
    }));
    const peak = await memory.stop();

    for (const a of answers) {
      ctx.check(a.status === 400 && /more pixels than a cover can print/.test(String(a.json?.error)), `${a.name} bomb refused from its header (got ${a.status} ${JSON.stringify(a.json?.error)})`);
      ctx.check(a.ms < 2000, `${a.name} bomb answered in ${Math.round(a.ms)} ms (under 2 s)`);
    }
    ctx.figure('image_bomb_rss_before_mb', Math.round(before));
    ctx.figure('image_bomb_peak_rss_mb', Math.round(peak));
    // Decoding one bomb took 1.4 GB before the header checks; refused from the header, memory stays put.
    ctx.check(peak - before < 200, `three bombs at once raised the server's memory by ${Math.round(peak - before)} MB (under 200 MB)`);
    ctx.figure('image_bomb_answer_ms', Math.round(Math.max(...answers.map((a) => a.ms))));
    const health = await fetch(`${ctx.base}/healthz`, { signal: AbortSignal.timeout(5000) }).then((r) => r.status).catch(() => 0);
    ctx.check(ctx.alive() && health === 200, 'the server is still up after three bombs at once');
  },
};
