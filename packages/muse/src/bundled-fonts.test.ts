import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FONT_DIRS } from './pdf.ts';
import { availableFonts } from './fonts.ts';

describe('bundled fonts', () => {
  it('ships DejaVu Serif, Sans and Sans Mono with the package, so the defaults work without system fonts', () => {
    const bundled = FONT_DIRS[0];
    for (const f of ['DejaVuSerif.ttf', 'DejaVuSerif-Bold.ttf', 'DejaVuSans.ttf', 'DejaVuSansMono.ttf']) {
      expect(existsSync(path.join(bundled, f)), f).toBe(true);
    }
    const names = availableFonts().map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['DejaVu Serif', 'DejaVu Sans', 'DejaVu Sans Mono']));
  });
});
