// `npm run check:book`: the demo texts, the markup manual and a text in several scripts pass every PDF check; a text with
// characters no font has fails, with one line per check and a non-zero exit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { missingGlyphs } from '@uc/muse';
import { repoRoot } from '../config.ts';
import { checkBook } from '../../../scripts/check-book.ts';
import { defaultCollectionData } from '@uc/shared';
import { pdfTextSpans } from './pdf-checks.ts';

const demo = path.join(repoRoot, 'demo', 'texts');
const manual = path.join(repoRoot, '..', 'shared', 'fixtures', 'amusewiki-texts', 'manual.zip');

describe('check:book', () => {
  const files = fs.readdirSync(demo).filter((f) => f.endsWith('.muse')).map((f) => path.join(demo, f));
  if (fs.existsSync(manual)) files.push(manual);
  files.push(path.join(repoRoot, 'server', 'src', 'bookbuilder', 'fixtures', 'mixed-scripts.muse'));

  it.each(files.map((f) => [path.basename(f), f]))('%s passes every check', async (_name, file) => {
    const { checks, pages } = await checkBook(file);
    expect(pages).toBeGreaterThan(1);
    expect(checks.map((c) => c.name)).toEqual(['glyphs', 'build', 'fonts embedded', 'page size', 'outline', 'tags']);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
  }, 60000);

  // a large book is laid out in chunks (chunked.ts): the manual cut that way (links, images, notes,
  // 59 headings) passes the same checks and prints the same pages, word for word, as in one pass
  it.skipIf(!fs.existsSync(manual))('the manual laid out in chunks passes every check and matches the one-pass book', async () => {
    const whole = await checkBook(manual);
    const cut = await checkBook(manual, defaultCollectionData(), 20_000);
    expect(cut.checks.find((c) => c.name === 'build')?.detail).toMatch(/laid out in \d+ chunks/);
    expect(cut.checks.filter((c) => !c.ok)).toEqual([]);
    expect(cut.pages).toBe(whole.pages);
    // each piece has its own font subsets (named ABCDEF+Family), whose glyph boxes may differ by a hair: compare
    // the text, fonts, sizes and where each line starts
    const text = (pdf: Uint8Array, p: number) =>
      JSON.stringify(pdfTextSpans(pdf, p).map((s) => [s.text, s.font.replace(/^[A-Z]{6}\+/, ''), s.size, s.x.toFixed(2), s.baseline.toFixed(2)]));
    for (let p = 0; p < whole.pages; p++) expect(text(cut.pdf!, p), `page ${p + 1}`).toBe(text(whole.pdf!, p));
  }, 180000);

  it('writes the pages asked for as PNG with --png', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-book-png-'));
    const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
    const file = path.join(repoRoot, 'server', 'src', 'bookbuilder', 'fixtures', 'mixed-scripts.muse');
    const run = spawnSync(tsx, [path.join(repoRoot, 'scripts', 'check-book.ts'), '--png', dir, '--pages', '1,7', '--paper', 'a4', file], { encoding: 'utf8', timeout: 60000 });
    expect(run.status).toBe(0);
    expect(fs.readdirSync(dir).sort()).toEqual(['mixed-scripts-a4-p1.png', 'mixed-scripts-a4-p7.png']);
    const png = fs.readFileSync(path.join(dir, 'mixed-scripts-a4-p1.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // A4 at 100 dpi: 827 pixels wide
    expect(png.readUInt32BE(16)).toBe(Math.round((210 / 25.4) * 100));
  }, 60000);

  const rare = ['\u{1D2E0}', '\u{16A40}', '\u{11D00}', '\u{1E900}', '\u{10600}'].find((c) => missingGlyphs(c).length > 0);
  it.skipIf(!rare)('fails a text with characters no font has, one line per check, exit code 1', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-book-'));
    const file = path.join(dir, 'rare.muse');
    fs.writeFileSync(file, `#title Rare\n\n* Part\n\nBefore ${rare} after.\n`);
    const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
    const run = spawnSync(tsx, [path.join(repoRoot, 'scripts', 'check-book.ts'), file], { encoding: 'utf8', timeout: 60000 });
    expect(run.status).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^FAIL rare\.muse: glyphs: No installed font has/);
    expect(lines.slice(1).map((l) => l.replace(/:.*$/, ''))).toEqual(Array(5).fill('ok   rare.muse'));
  }, 60000);
});
