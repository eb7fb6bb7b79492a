// The font list and the specimens are read and rendered in threads: a first request must not stall the
// server's other requests for the seconds that reading every installed font file takes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FontCatalog } from './fonts.ts';
import { pdfFonts } from './pdf-checks.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-fonts-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs `work` while a 5 ms timer ticks; returns the longest gap between ticks. */
async function longestPause(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const tick = setInterval(() => {
    longest = Math.max(longest, performance.now() - last);
    last = performance.now();
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(tick);
  }
  return Math.max(longest, performance.now() - last);
}

describe('FontCatalog', () => {
  const fonts = new FontCatalog(dir);

  it('reads the installed fonts in a thread while this one goes on answering', async () => {
    let list: Awaited<ReturnType<FontCatalog['list']>> = [];
    expect(fonts.knownMissing('DejaVu Serif', new Set(['a', '町']))).toBeNull();
    const pause = await longestPause(async () => (list = await fonts.list(new Set(['a', '町']))));
    expect(list.map((f) => f.name)).toEqual(expect.arrayContaining(['DejaVu Serif', 'DejaVu Sans Mono']));
    expect(list.find((f) => f.name === 'DejaVu Serif')).toMatchObject({ bundled: true, offered: true, covers_texts: false, missing: '町' });
    expect(pause).toBeLessThan(250);
    expect(fonts.names()).toEqual(list.map((f) => f.name));
    // A build of the same texts is checked against the same answer, without asking the compiler again.
    expect(fonts.knownMissing('DejaVu Serif', new Set(['a', '町']))).toEqual(['町']);
  });

  it('renders a specimen once in a thread, for requests that ask for it together', async () => {
    let files: (string | null)[] = [];
    const pause = await longestPause(async () => (files = await Promise.all([fonts.preview('DejaVu-Serif', 'png'), fonts.preview('DejaVu-Serif', 'png')])));
    expect(files[0]).toBe(path.join(dir, 'DejaVu-Serif.png'));
    expect(files[1]).toBe(files[0]);
    expect(fs.readFileSync(files[0]!).subarray(1, 4).toString()).toBe('PNG');
    expect(fs.readFileSync(path.join(dir, 'DejaVu-Serif.svg'), 'utf8')).toMatch(/^<svg/);
    expect(fs.readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect(pause).toBeLessThan(250);
    expect(await fonts.preview('No-Such-Font', 'svg')).toBeNull();
  });

  it('renders each specimen in the family itself (not the fallback), its picture drawn from the glyphs', async () => {
    for (const [slug, font] of [['DejaVu-Sans-Mono', /^[A-Z]{6}\+DejaVuSansMono$/], ['Libertinus-Serif', /^[A-Z]{6}\+LibertinusSerif-Regular\b/]] as const) {
      const names = (await pdfFonts(fs.readFileSync((await fonts.preview(slug, 'pdf'))!))).map((f) => f.name);
      expect(names, slug).toContainEqual(expect.stringMatching(font));
      // the PNG is rasterized from this SVG, where every glyph is an outline of the font (no <text> for a viewer's font)
      const svg = fs.readFileSync((await fonts.preview(slug, 'svg'))!, 'utf8');
      expect(svg).not.toMatch(/<text[\s>]/);
      expect(svg).toMatch(/<path/);
    }
  });
});
